import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

const ROOT = import.meta.dirname;
const DATABASES = resolve(ROOT, 'test/kit/databases.ts');

/** Relative imports of a module, resolved to .ts files (`./x.js` → `./x.ts`). */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from\s+'(\.{1,2}\/[^']+)'/g)].map((m) => resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')));
}

/**
 * Whether a test file can reach the PostgreSQL server of the second CI pass: it names TEST_DATABASE_URL, or it
 * reaches test/kit/databases.ts through the test kit. Source modules are not followed: they never read the
 * variable, so a test reaches the server only through the kit.
 */
function reachesServer(file: string, seen = new Set<string>()): boolean {
  if (file === DATABASES) return true;
  if (seen.has(file)) return false;
  seen.add(file);
  let imports: string[];
  try {
    if (readFileSync(file, 'utf8').includes('TEST_DATABASE_URL')) return true;
    imports = relativeImports(file);
  } catch {
    return false;
  }
  return imports.some((i) => (i.startsWith(resolve(ROOT, 'test/kit')) || i === DATABASES) && reachesServer(i, seen));
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/**
 * The PostgreSQL pass (`TEST_DATABASE_URL` set) runs only the files that can reach that server: a file that touches
 * no database, or only PGlite of its own, would run the same way twice (docs/testing.md, "Two passes").
 */
const serverPass = Boolean(process.env.TEST_DATABASE_URL);
/** Where test files are: beside the code (the server, and the web app's pure modules) and under test/. */
const TEST_ROOTS = ['src', 'web/src', 'test'];
const onlyOnce = serverPass
  ? TEST_ROOTS.flatMap((dir) => testFiles(resolve(ROOT, dir)))
      .filter((f) => !reachesServer(f))
      .map((f) => relative(ROOT, f))
  : [];

export default defineConfig({
  test: {
    include: TEST_ROOTS.map((dir) => `${dir}/**/*.test.ts`),
    exclude: ['**/node_modules/**', ...onlyOnce],
    globalSetup: ['test/kit/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each database test gets its own database; files run in parallel on the two cores.
    fileParallelism: true,
  },
});
