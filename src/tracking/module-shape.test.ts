// Keeps the engine small (issue 26, item 4): no import cycle among the modules of src/tracking, and no function
// over 80 lines nor file over 600 in src/tracking and the tracking engine's modules (tests aside).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..');
const TRACKING = join(SRC, 'tracking');
const ENGINE = join(SRC, 'services/tracking-engine');

function sources(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => join(dir, f));
}

function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)].map((m) =>
    resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')),
  );
}

/** Every import cycle among these files, as `a → b → a` (type-only imports count: they are file-level edges). */
function cycles(files: readonly string[]): string[] {
  const known = new Set(files);
  const state = new Map<string, 'open' | 'done'>();
  const found: string[] = [];
  const visit = (file: string, path: string[]) => {
    state.set(file, 'open');
    for (const next of relativeImports(file).filter((f) => known.has(f))) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next].map((f) => relative(SRC, f)).join(' → '));
      else if (!state.has(next)) visit(next, [...path, next]);
    }
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file, [file]);
  return found;
}

/** Functions (declarations, methods, arrows) longer than `max` lines, nested ones counted in their outer ones. */
function longFunctions(file: string, max: number): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const long: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      if (last - first + 1 > max) long.push(`${relative(SRC, file)}:${first + 1} (${last - first + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return long;
}

describe('the tracking engine stays in small modules', () => {
  const files = [...sources(TRACKING), ...sources(ENGINE), join(SRC, 'services/tracking-engine.ts')];

  it('has no import cycle among src/tracking files', () => {
    expect(cycles(sources(TRACKING))).toEqual([]);
  });

  it('has no function over 80 lines', () => {
    expect(files.flatMap((f) => longFunctions(f, 80))).toEqual([]);
  });

  it('has no file over 600 lines', () => {
    const long = files.filter((f) => readFileSync(f, 'utf8').split('\n').length > 600);
    expect(long.map((f) => relative(SRC, f))).toEqual([]);
  });
});
