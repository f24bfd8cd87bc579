#!/usr/bin/env node
// The published entry point: the compiled CLI (built by `npm install` through the prepare script).
import { runCli } from '../dist/main.js';

await runCli(process.argv);
