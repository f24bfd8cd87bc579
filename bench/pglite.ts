// The embedded default: `tidemark start` on PGlite (no DATABASE_URL) with 100k containers, GET container with
// includes at half of its own maximum rate. Goal: p99 < 20 ms. The data directory is generated once into
// .bench/pglite-<size> (kept; delete it to regenerate).
// Run: npx tsx bench/pglite.ts [--smoke]
import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AccountService } from '../src/services/accounts.js';
import { migrate } from '../src/storage/migrate.js';
import { PgliteDb } from '../src/storage/pglite.js';
import { CONTAINER_PATH } from './container-get.js';
import { generate, isGenerated, markGenerated, SIZES } from './generate.js';
import { load, warm } from './lib/load.js';
import { fmt, type GoalResult } from './lib/report.js';
import { documentCacheCounts, hitRatio, startTidemark } from './lib/servers.js';

/** Generates (once) and opens the embedded data directory; returns the largest account's key and container ids. */
async function prepare(
  size: string,
  log: (line: string) => void,
): Promise<{ dir: string; token: string; ids: string[]; containers: number }> {
  const dir = resolve(import.meta.dirname, `../.bench/pglite-${size}`);
  if (existsSync(dir) && !isGenerated(dir)) rmSync(dir, { recursive: true, force: true });
  const db = await PgliteDb.open(dir, 'bench pglite');
  try {
    await migrate(db);
    if (!isGenerated(dir)) {
      log(`generating ${size} into ${dir} (PGlite) …`);
      const g = await generate(db, SIZES[size]!, log);
      log(`generated ${fmt(g.containers)} containers in ${g.seconds.toFixed(0)} s`);
      markGenerated(dir, g.containers);
    }
    const [account] = await db.query<{ id: string; n: number }>(
      'SELECT account_id AS id, count(*)::int AS n FROM containers GROUP BY 1 ORDER BY 2 DESC LIMIT 1',
    );
    const ids = (
      await db.query<{ id: string }>('SELECT id FROM containers WHERE account_id = $1 ORDER BY md5(id::text) LIMIT 1000', [account!.id])
    ).map((r) => r.id);
    const [total] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM containers');
    const { token } = await new AccountService({ now: () => new Date() }).issueKey(db, account!.id, 'bench');
    return { dir, token, ids, containers: total!.n };
  } finally {
    await db.close();
  }
}

export async function run(opts: { smoke: boolean }): Promise<GoalResult[]> {
  const size = opts.smoke ? '10k' : '100k';
  const seconds = opts.smoke ? 2 : 15;
  const { dir, token, ids, containers } = await prepare(size, console.log);
  const headers = { authorization: `Token ${token}` };
  const paths = ids.map(CONTAINER_PATH);
  const api = await startTidemark({ dataDir: dir }, 'api,worker');
  try {
    await warm({ url: api.url!, headers, paths, connections: 16 }, opts.smoke ? 2 : 5);
    const counts = await documentCacheCounts(api.url!);
    const full = await load({ url: api.url!, headers, paths, connections: 16, duration: seconds });
    const half = await load({
      url: api.url!,
      headers,
      paths,
      connections: 8,
      duration: seconds,
      rate: Math.max(1, Math.round(full.rps / 2)),
    });
    const hits = hitRatio(counts, await documentCacheCounts(api.url!));
    return [
      {
        id: 'pglite-container-get',
        goal: `Embedded PGlite, ${size} containers: GET container p99 < 20 ms (at half load)`,
        measured: `p99 ${half.latencyMs.p99} ms, p50 ${half.latencyMs.p50} ms at ${fmt(half.rps)} req/s (max ${fmt(full.rps)} req/s)`,
        baseline: null,
        ratio: null,
        pass: opts.smoke ? null : half.latencyMs.p99 < 20 && half.non2xx + half.errors === 0,
        figures: {
          size,
          containers,
          rps_max: full.rps,
          rps: half.rps,
          p50_ms: half.latencyMs.p50,
          p99_ms: half.latencyMs.p99,
          non2xx: half.non2xx + full.non2xx,
          document_cache_hit_ratio: hits,
        },
        notes: `one process with the api and worker roles (the default start), no sandbox; ${ids.length} distinct containers, ${(hits * 100).toFixed(1)}% answered from the document cache`,
      },
    ];
  } finally {
    await api.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  for (const r of await run({ smoke: process.argv.includes('--smoke') })) console.log(JSON.stringify(r, null, 1));
}
