// Enforces the dependency rule of docs/architecture.md by reading every import under src/.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../src');

/** Which top-level folders of src/ each folder may import (besides itself). */
const ALLOWED: Record<string, string[]> = {
  domain: [],
  lib: [],
  config: ['domain', 'lib'],
  sources: ['domain', 'lib'],
  storage: ['domain', 'lib'],
  sandbox: ['domain', 'lib', 'sources'],
  tracking: ['domain', 'lib', 'storage', 'sources'],
  webhooks: ['domain', 'lib', 'storage', 'sources', 'render'],
  services: ['domain', 'lib', 'storage', 'sources', 'sandbox', 'tracking', 'webhooks', 'config', 'render'],
  // The queue (storage's database handle) and one file per job, each calling the services it is given.
  workers: ['domain', 'lib', 'storage', 'services'],
  // The JSON:API renderers shared by http, mcp and webhook delivery. They render the rows storage returns (types
  // only), the engine's stored records (tracking: raw events, facility refs, the predicted-ETA reason) and the
  // places of the shipped reference tables (sources/reference); they load includes through their own small
  // interfaces (render/loaders.ts), never services, so that services and webhooks can import render.
  render: ['domain', 'lib', 'sources', 'storage', 'tracking'],
  http: ['domain', 'lib', 'services', 'config', 'workers', 'storage', 'render'],
  mcp: ['domain', 'lib', 'services', 'config', 'render'],
  cli: ['domain', 'lib', 'services', 'config', 'storage'],
};
/** Front-end layers call services: they may use the database handle and migrations, never repositories. */
const NO_REPOSITORIES = ['http', 'mcp', 'cli', 'workers'];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return files(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)].map((m) => m[1]!);
}

const top = (file: string) => relative(SRC, file).split('/')[0]!;

/** The relative imports and re-exports of a module, each marked when it brings types only. */
function runtimeImports(file: string): { spec: string; typeOnly: boolean }[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)\s+(type\s+)?([^;]*?)\s*from\s*['"](\.[^'"]+)['"]/gms)].map((m) => {
    const names = /^\{([^}]*)\}$/s.exec(m[2]!.trim())?.[1];
    const allTypes = names?.split(',').every((n) => !n.trim() || n.trim().startsWith('type ')) ?? false;
    return { spec: m[3]!, typeOnly: Boolean(m[1]) || allTypes };
  });
}

/** The .ts file an import names (`./x.js` → `./x.ts`). */
function moduleFile(from: string, spec: string): string {
  return resolve(dirname(from), spec.replace(/\.js$/, '.ts'));
}

/** The import cycles of a graph: its strongly connected parts of more than one module (Tarjan). */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const part: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      part.push(w);
    } while (w !== v);
    if (part.length > 1) cycles.push(part.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe('dependency rule', () => {
  const all = files(SRC);

  it('finds the source tree', () => {
    expect(all.length).toBeGreaterThan(20);
  });

  it('every folder imports only what the architecture allows', () => {
    const violations: string[] = [];
    for (const file of all) {
      const from = top(file);
      if (from.endsWith('.ts')) continue; // main.ts and compose.ts: the composition root knows everything
      const allowed = ALLOWED[from];
      if (!allowed) {
        violations.push(`${relative(SRC, file)}: folder src/${from} is not in the architecture`);
        continue;
      }
      for (const spec of imports(file)) {
        const target = resolve(dirname(file), spec);
        if (!target.startsWith(SRC)) continue;
        const to = top(target);
        const rel = relative(SRC, target);
        if (to.endsWith('.js') || to.endsWith('.ts')) {
          violations.push(`${relative(SRC, file)} imports the composition root ${rel}`);
        } else if (to !== from && !allowed.includes(to)) {
          violations.push(`${relative(SRC, file)} (${from}) imports ${rel} (${to})`);
        } else if (NO_REPOSITORIES.includes(from) && rel.startsWith('storage/repositories/')) {
          violations.push(`${relative(SRC, file)} (${from}) reads repositories directly: go through a service`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it('the allowed imports have no cycle (webhooks -> render -> services -> webhooks would be one)', () => {
    const cycles: string[] = [];
    const visit = (folder: string, path: string[]): void => {
      if (path.includes(folder)) {
        cycles.push([...path.slice(path.indexOf(folder)), folder].join(' -> '));
        return;
      }
      for (const next of ALLOWED[folder] ?? []) visit(next, [...path, folder]);
    };
    for (const folder of Object.keys(ALLOWED)) visit(folder, []);
    expect(cycles).toEqual([]);
  });

  it('render and http read storage for its types only (render loads through render/loaders.ts, http through services)', () => {
    const loads: string[] = [];
    for (const file of all.filter((f) => top(f) === 'render' || top(f) === 'http')) {
      for (const { spec, typeOnly } of runtimeImports(file)) {
        const rel = relative(SRC, resolve(dirname(file), spec));
        if (rel.startsWith('storage/') && !typeOnly) loads.push(`${relative(SRC, file)} imports ${rel}`);
      }
    }
    expect(loads).toEqual([]);
  });

  it('no module imports itself back through others (type imports aside, which vanish at run time)', () => {
    const graph = new Map(
      all.map((f) => [
        f,
        runtimeImports(f)
          .filter((i) => !i.typeOnly)
          .map((i) => moduleFile(f, i.spec)),
      ]),
    );
    expect(cyclesOf(graph).map((c) => c.map((f) => relative(SRC, f)).join(' -> '))).toEqual([]);
  });

  it('every job is declared in a file of its own under src/workers/ (workers/jobs.ts lists them)', () => {
    // A job is a JobDefinition: an object with a `handler`. queue.ts declares the type and calls handlers.
    const declares = (text: string) => /\bJobDefinition\b/.test(text) && /\bhandler\s*\(/.test(text);
    const misplaced: string[] = [];
    for (const file of all) {
      const rel = relative(SRC, file);
      if (rel === 'workers/queue.ts') continue;
      const text = readFileSync(file, 'utf8');
      if (!declares(text)) continue;
      if (!rel.startsWith('workers/')) misplaced.push(`${rel}: declares a job outside src/workers/`);
      else if ((text.match(/\bhandler\s*\(/g) ?? []).length !== 1) misplaced.push(`${rel}: declares more than one job`);
    }
    expect(misplaced).toEqual([]);
  });

  it('no source file is over 600 lines, data tables and generated files aside', () => {
    const tables: Record<string, string> = {
      'storage/schema.generated.ts': 'generated from the migrations (npm run db:types)',
      'render/webhook-examples.ts': "the sample records of every event's example notification",
    };
    const long = all
      .map((f) => ({ rel: relative(SRC, f), lines: readFileSync(f, 'utf8').split('\n').length }))
      .filter(({ rel, lines }) => lines > 600 && !(rel in tables));
    expect(long.map(({ rel, lines }) => `${rel}: ${lines} lines`)).toEqual([]);
  });

  it('only config reads process.env', () => {
    const readers = all.filter((f) => top(f) !== 'config' && /process\.env\b/.test(readFileSync(f, 'utf8')));
    expect(readers.map((f) => relative(SRC, f))).toEqual([]);
  });
});

/** What container and shipment documents are rendered from (services/document-cache.ts keeps them). */
const RENDERED_TABLES = ['shipments', 'containers', 'transport_events', 'raw_observations', 'parties', 'party_roles', 'vessel_pod_etas'];

describe('kept documents are dropped by every write of what they show', () => {
  const write = new RegExp(`\\b(INSERT INTO|UPDATE|DELETE FROM)\\s+(${RENDERED_TABLES.join('|')})\\b`);

  it('every function that writes a rendered table announces the change (changed(…) of repositories/changes.ts)', () => {
    const silent: string[] = [];
    let writers = 0;
    for (const file of files(SRC)) {
      // Each top-level function, up to the next top-level declaration.
      const chunks = readFileSync(file, 'utf8').split(/\n(?=(?:export )?(?:async )?function |export const |const |class |export class )/);
      for (const chunk of chunks) {
        if (!write.test(chunk)) continue;
        writers++;
        if (!/\bchanged\(/.test(chunk)) silent.push(`${relative(SRC, file)}: ${chunk.split('\n')[0]}`);
      }
    }
    expect(writers).toBeGreaterThan(10);
    expect(silent).toEqual([]);
  });
});
