// The web app is a client of the public API. The only server code it may bundle is src/domain's pure rules (the
// binding last free day, pickup readiness), so the pages and the server judge a box alike; those modules must
// build for a browser: they import nothing but each other, and nothing of Node. Its API types come from the
// server's response schemas (src/render/schemas.ts) by type-only imports, which the build erases: neither zod nor
// any render module may reach the bundle, and the last test builds it to see that none does.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const WEB = join(ROOT, 'web/src');
const DOMAIN = join(ROOT, 'src/domain');
/** The one server module the web may take types from: the wire shapes of the /v2 resources. */
const SCHEMAS = join(ROOT, 'src/render/schemas.ts');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.test.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/** Every module a file imports or re-exports (static, side-effect and dynamic), each marked when it brings types only. */
function importsOf(file: string): { spec: string; typeOnly: boolean }[] {
  const text = readFileSync(file, 'utf8');
  const statements = [...text.matchAll(/^(?:import|export)\s+(type\s+)?([^;'"]*?)\s*from\s*['"]([^'"]+)['"]/gms)].map((m) => {
    const names = /^\{([^}]*)\}$/s.exec(m[2]!.trim())?.[1];
    const allTypes = names?.split(',').every((n) => !n.trim() || n.trim().startsWith('type ')) ?? false;
    return { spec: m[3]!, typeOnly: Boolean(m[1]) || allTypes };
  });
  const code = [...text.matchAll(/(?:^import\s*|\bimport\s*\(\s*)['"]([^'"]+)['"]/gm)].map((m) => ({ spec: m[1]!, typeOnly: false }));
  return [...statements, ...code];
}

/** The relative imports of a file that bring code, resolved to files. */
const codeImports = (file: string) =>
  importsOf(file)
    .filter((i) => !i.typeOnly && i.spec.startsWith('.'))
    .map((i) => resolveTs(file, i.spec));
/** The relative imports of a file that bring types only, resolved to files. */
const typeImports = (file: string) =>
  importsOf(file)
    .filter((i) => i.typeOnly && i.spec.startsWith('.'))
    .map((i) => resolveTs(file, i.spec));

const resolveTs = (from: string, spec: string) => resolve(dirname(from), spec.replace(/\.js$/, '.ts'));

describe('what the web app takes from src/', () => {
  const web = sources(WEB);

  it('finds the web app', () => {
    expect(web.length).toBeGreaterThan(20);
  });

  it('reaches into src/ for code only to src/domain modules', () => {
    const outside = web.flatMap((file) =>
      codeImports(file)
        .filter((target) => !target.startsWith(WEB) && !target.startsWith(`${DOMAIN}/`))
        .map((target) => `${relative(ROOT, file)} → ${relative(ROOT, target)}`),
    );
    expect(outside).toEqual([]);
  });

  it('and for types only to src/domain and src/render/schemas.ts (the wire shapes)', () => {
    const outside = web.flatMap((file) =>
      typeImports(file)
        .filter((target) => !target.startsWith(WEB) && !target.startsWith(`${DOMAIN}/`) && target !== SCHEMAS)
        .map((target) => `${relative(ROOT, file)} → ${relative(ROOT, target)}`),
    );
    expect(outside).toEqual([]);
    // The API types do come from the schemas (lib/resources.ts and lib/tracking.ts derive them).
    const fromSchemas = web.filter((file) => typeImports(file).includes(SCHEMAS)).map((f) => relative(ROOT, f));
    expect(fromSchemas).toEqual(expect.arrayContaining(['web/src/lib/resources.ts', 'web/src/lib/tracking.ts']));
  });

  it('and the src/domain modules it bundles, and what they import, use nothing of Node', () => {
    const seen = new Set<string>();
    const queue = web.flatMap((file) => codeImports(file).filter((t) => t.startsWith(`${DOMAIN}/`)));
    expect(queue.map((f) => relative(ROOT, f))).toContain('src/domain/pickup.ts');
    const problems: string[] = [];
    while (queue.length) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const { spec, typeOnly } of importsOf(file)) {
        if (spec.startsWith('.')) {
          if (!typeOnly) queue.push(resolveTs(file, spec));
        } else problems.push(`${relative(ROOT, file)} imports ${spec}`);
      }
      if (/\b(process|Buffer|__dirname|require)\b\s*[.(]/.test(text)) problems.push(`${relative(ROOT, file)} uses a Node global`);
    }
    expect(problems).toEqual([]);
  });

  it('the bundle holds no server code but src/domain, and no zod (the schemas are types only)', async () => {
    // The build of scripts/build-web.mjs, in memory: which source files end up in the app.
    const result = await build({
      absWorkingDir: ROOT,
      entryPoints: ['web/src/main.tsx'],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      outdir: 'out',
      write: false,
      metafile: true,
      tsconfig: 'web/tsconfig.json',
      jsx: 'automatic',
      jsxImportSource: 'preact',
      loader: { '.svg': 'file', '.png': 'file', '.woff2': 'file', '.json': 'json' },
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((f) => f.startsWith('src/domain/'))).toContain('src/domain/pickup.ts');
    expect(inputs.filter((f) => (f.startsWith('src/') && !f.startsWith('src/domain/')) || f.includes('node_modules/zod/'))).toEqual([]);
  });
});
