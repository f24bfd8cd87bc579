// The web app is a client of the public API; the only server code it may bundle is src/domain's pure rules (the
// binding last free day, pickup readiness), so the pages and the server judge a box alike. Those modules must
// build for a browser: they import nothing but each other, and nothing of Node.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const WEB = join(ROOT, 'web/src');
const DOMAIN = join(ROOT, 'src/domain');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.test.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/** Every module specifier a file imports or re-exports (static and dynamic). */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

const resolveTs = (from: string, spec: string) => resolve(dirname(from), spec.replace(/\.js$/, '.ts'));

describe('what the web app takes from src/', () => {
  const web = sources(WEB);

  it('finds the web app', () => {
    expect(web.length).toBeGreaterThan(20);
  });

  it('reaches into src/ only for src/domain modules', () => {
    const outside = web.flatMap((file) =>
      specifiers(file)
        .filter((s) => s.startsWith('.'))
        .map((s) => resolveTs(file, s))
        .filter((target) => !target.startsWith(WEB) && !target.startsWith(`${DOMAIN}/`))
        .map((target) => `${relative(ROOT, file)} → ${relative(ROOT, target)}`),
    );
    expect(outside).toEqual([]);
  });

  it('and those modules, and what they import, use nothing of Node', () => {
    const seen = new Set<string>();
    const queue = web.flatMap((file) =>
      specifiers(file)
        .filter((s) => s.startsWith('.'))
        .map((s) => resolveTs(file, s))
        .filter((t) => t.startsWith(`${DOMAIN}/`)),
    );
    expect(queue.map((f) => relative(ROOT, f))).toContain('src/domain/pickup.ts');
    const problems: string[] = [];
    while (queue.length) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const s of specifiers(file)) {
        if (s.startsWith('.')) queue.push(resolveTs(file, s));
        else problems.push(`${relative(ROOT, file)} imports ${s}`);
      }
      if (/\b(process|Buffer|__dirname|require)\b\s*[.(]/.test(text)) problems.push(`${relative(ROOT, file)} uses a Node global`);
    }
    expect(problems).toEqual([]);
  });
});
