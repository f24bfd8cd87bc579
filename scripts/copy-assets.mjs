// Copies the non-TypeScript files the compiled service reads at run time (SQL migrations) into dist/.
import { cpSync } from 'node:fs';

cpSync('src/storage/migrations', 'dist/storage/migrations', { recursive: true });
