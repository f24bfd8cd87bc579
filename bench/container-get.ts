// GET /v2/containers/{id}?include=shipment,pod_terminal on PostgreSQL with the generated data (1M containers;
// 10k in a smoke run), API key and rate limit checked (the account's limits raised), against a bare node:http
// server answering the same paths with the same bytes, both under the same autocannon load.
// Goal: ≥ 40% of the baseline's throughput; p99 < 10 ms at half of Tidemark's own maximum rate. Documents come
// from the API process's document cache once read (the sample of containers fits it; the share of hits is
// reported); for reference, the same load on a process with the cache off (TIDEMARK_DOCUMENT_CACHE_MB=0), where
// every request reads the database.
// Run: npx tsx bench/container-get.ts [--smoke]
import { pathToFileURL } from 'node:url';
import { ensureData, issueBenchKey, sampleIds } from './lib/data.js';
import { load, warm } from './lib/load.js';
import { fmt, type GoalResult } from './lib/report.js';
import { documentCacheCounts, fetchAll, hitRatio, startBare, startTidemark } from './lib/servers.js';

export const CONTAINER_PATH = (id: string) => `/v2/containers/${id}?include=shipment,pod_terminal`;

export async function run(opts: { smoke: boolean; size?: string }): Promise<GoalResult[]> {
  const size = opts.size ?? (opts.smoke ? '10k' : '1m');
  const seconds = opts.smoke ? 2 : 15;
  const data = await ensureData(size);
  // The largest account: its containers are the most spread over the table.
  const account = data.accounts[0]!;
  const token = await issueBenchKey(data.url, account.id);
  const headers = { authorization: `Token ${token}` };
  const paths = (await sampleIds(data.url, 'containers', account.id, 1000)).map(CONTAINER_PATH);
  const api = await startTidemark({ databaseUrl: data.url });
  const bytes = await fetchAll(api.url!, paths, headers);
  const bare = await startBare(bytes);
  try {
    const connections = 32;
    await warm({ url: bare.url, paths, connections });
    const baseline = await load({ url: bare.url, paths, connections, duration: seconds });
    await warm({ url: api.url!, headers, paths, connections }, opts.smoke ? 2 : 5);
    const counts = await documentCacheCounts(api.url!);
    const full = await load({ url: api.url!, headers, paths, connections, duration: seconds });
    const half = await load({
      url: api.url!,
      headers,
      paths,
      connections: 16,
      duration: seconds,
      rate: Math.max(1, Math.round(full.rps / 2)),
    });
    const hits = hitRatio(counts, await documentCacheCounts(api.url!));
    await api.stop();
    const uncached = await startTidemark({ databaseUrl: data.url }, 'api', { TIDEMARK_DOCUMENT_CACHE_MB: '0' });
    let cold: Awaited<ReturnType<typeof load>>;
    try {
      await warm({ url: uncached.url!, headers, paths, connections }, opts.smoke ? 2 : 5);
      cold = await load({ url: uncached.url!, headers, paths, connections, duration: seconds });
    } finally {
      await uncached.stop();
    }
    const ratio = full.rps / baseline.rps;
    const failures = full.non2xx + full.errors + half.non2xx + half.errors;
    const judged = (ok: boolean) => (opts.smoke ? null : ok && failures === 0);
    const avgBytes = Object.values(bytes).reduce((n, r) => n + r.body.length, 0) / paths.length;
    return [
      {
        id: 'container-get',
        goal: `GET container + shipment + pod_terminal, ${size} containers: ≥ 40% of bare node:http`,
        measured: `${fmt(full.rps)} req/s (p99 ${full.latencyMs.p99} ms at full load)`,
        baseline: `${fmt(baseline.rps)} req/s (bare node:http, same bytes)`,
        ratio,
        pass: judged(ratio >= 0.4),
        figures: {
          size,
          containers: data.containers,
          connections,
          seconds,
          rps: full.rps,
          baseline_rps: baseline.rps,
          p99_full_ms: full.latencyMs.p99,
          baseline_p99_ms: baseline.latencyMs.p99,
          response_bytes: Math.round(avgBytes),
          document_cache_hit_ratio: hits,
          non2xx: full.non2xx,
          errors: full.errors,
        },
        notes: `${paths.length} distinct containers of the largest account (${fmt(account.containers)} containers), ${connections} connections, ${seconds} s each; ${(hits * 100).toFixed(1)}% answered from the document cache`,
      },
      {
        id: 'container-get-uncached',
        goal: 'for reference: the same GET with the document cache off (every request reads the database)',
        measured: `${fmt(cold.rps)} req/s (p99 ${cold.latencyMs.p99} ms at full load)`,
        baseline: `${fmt(baseline.rps)} req/s (bare node:http, same bytes)`,
        ratio: cold.rps / baseline.rps,
        pass: null,
        figures: { rps: cold.rps, p50_ms: cold.latencyMs.p50, p99_ms: cold.latencyMs.p99, non2xx: cold.non2xx, errors: cold.errors },
      },
      {
        id: 'container-get-half-load',
        goal: 'GET container p99 < 10 ms at half load',
        measured: `p99 ${half.latencyMs.p99} ms, p50 ${half.latencyMs.p50} ms at ${fmt(half.rps)} req/s`,
        baseline: null,
        ratio: null,
        pass: judged(half.latencyMs.p99 < 10),
        figures: {
          rate: Math.round(full.rps / 2),
          rps: half.rps,
          p50_ms: half.latencyMs.p50,
          p99_ms: half.latencyMs.p99,
          max_ms: half.latencyMs.max,
          non2xx: half.non2xx,
        },
      },
    ];
  } finally {
    await bare.stop();
    await api.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  for (const r of await run({ smoke: process.argv.includes('--smoke') })) console.log(JSON.stringify(r, null, 1));
}
