// The committed row types (schema.generated.ts) are what the migrations make: a fresh database is migrated, kanel
// regenerates the file, and any difference fails. It opens a PGlite database of its own, so it runs once per CI
// run (the PGlite pass). See docs/decisions/0014-typed-storage.md.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateSchemaTypes, SCHEMA_TYPES_FILE } from '../../scripts/db-types.js';

describe('schema.generated.ts', () => {
  it('matches a freshly migrated database (else: run npm run db:types)', { timeout: 180_000 }, async () => {
    const generated = await generateSchemaTypes();
    const committed = readFileSync(SCHEMA_TYPES_FILE, 'utf8');
    if (committed !== generated) {
      const a = committed.split('\n');
      const b = generated.split('\n');
      const line = a.findIndex((l, i) => l !== b[i]);
      expect.fail(
        `src/storage/schema.generated.ts is not what the migrations make: run \`npm run db:types\` and commit the file.\n` +
          `First difference at line ${line + 1}:\n  committed: ${a[line] ?? '(end of file)'}\n  generated: ${b[line] ?? '(end of file)'}`,
      );
    }
  });
});
