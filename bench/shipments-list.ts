// GET /v2/shipments, 30 per page with includes, page 1 and a deep page of the largest account, at 10k and at
// 1M containers (about 7k and 714k shipments): the same requests at 10k are the baseline.
// Goal: p99 at 1M within 2× of p99 at 10k. "Deep" is page 30 (rows 871–900), the deepest page both sizes
// have; each size's last page is reported too (not judged: OFFSET paging costs grow with the offset).
// Run: npx tsx bench/shipments-list.ts [--smoke]
import { pathToFileURL } from 'node:url';
import { ensureData, issueBenchKey } from './lib/data.js';
import { load, warm } from './lib/load.js';
import { fmt, type GoalResult } from './lib/report.js';
import { startTidemark } from './lib/servers.js';

const INCLUDE = 'containers,pod_terminal,port_of_lading,port_of_discharge';
const DEEP_PAGE = 30;
const page = (n: number) => `/v2/shipments?page[number]=${n}&page[size]=30&include=${INCLUDE}`;

interface Measured {
  size: string;
  shipments: number;
  lastPage: number;
  p99: Record<'first' | 'deep' | 'last', number>;
  p50: Record<'first' | 'deep' | 'last', number>;
  failures: number;
}

async function measure(size: string, seconds: number, rate: number): Promise<Measured> {
  const data = await ensureData(size);
  const account = data.accounts[0]!;
  const token = await issueBenchKey(data.url, account.id);
  const headers = { authorization: `Token ${token}` };
  const api = await startTidemark({ databaseUrl: data.url });
  try {
    const res = await fetch(`${api.url}${page(1)}`, { headers });
    if (res.status !== 200) throw new Error(`GET /v2/shipments answered ${res.status}`);
    const shipments = ((await res.json()) as { meta: { total: number } }).meta.total;
    const lastPage = Math.max(1, Math.ceil(shipments / 30));
    await warm({ url: api.url!, headers, paths: [page(1), page(DEEP_PAGE), page(lastPage)], connections: 4 }, 2);
    const out: Measured = {
      size,
      shipments,
      lastPage,
      p99: { first: 0, deep: 0, last: 0 },
      p50: { first: 0, deep: 0, last: 0 },
      failures: 0,
    };
    for (const [name, n] of [
      ['first', 1],
      ['deep', DEEP_PAGE],
      ['last', lastPage],
    ] as const) {
      const r = await load({ url: `${api.url}${page(n)}`, headers, connections: 4, duration: seconds, rate });
      out.p99[name] = r.latencyMs.p99;
      out.p50[name] = r.latencyMs.p50;
      out.failures += r.non2xx + r.errors;
    }
    return out;
  } finally {
    await api.stop();
  }
}

export async function run(opts: { smoke: boolean }): Promise<GoalResult[]> {
  const seconds = opts.smoke ? 2 : 10;
  const rate = 50;
  const small = await measure('10k', seconds, rate);
  const large = opts.smoke ? small : await measure('1m', seconds, rate);
  const results: GoalResult[] = [];
  for (const name of ['first', 'deep'] as const) {
    const ratio = large.p99[name] / Math.max(small.p99[name], 1);
    results.push({
      id: `shipments-list-${name === 'first' ? 'page-1' : `page-${DEEP_PAGE}`}`,
      goal: `GET /v2/shipments page ${name === 'first' ? 1 : DEEP_PAGE} (30, includes): p99 at ${large.size} ≤ 2× p99 at 10k`,
      measured: `p99 ${large.p99[name]} ms at ${large.size} (${fmt(large.shipments)} shipments in the account)`,
      baseline: `p99 ${small.p99[name]} ms at 10k (${fmt(small.shipments)} shipments in the account)`,
      ratio,
      pass: opts.smoke ? null : ratio <= 2 && small.failures + large.failures === 0,
      figures: {
        rate,
        seconds,
        p99_ms: large.p99[name],
        p50_ms: large.p50[name],
        baseline_p99_ms: small.p99[name],
        baseline_p50_ms: small.p50[name],
        failures: small.failures + large.failures,
      },
      notes: `${rate} req/s over 4 connections; p99 floored at 1 ms for the ratio (autocannon's resolution)`,
    });
  }
  results.push({
    id: 'shipments-list-last-page',
    goal: 'GET /v2/shipments last page (not judged: OFFSET paging grows with the offset)',
    measured: `p99 ${large.p99.last} ms at ${large.size} (page ${fmt(large.lastPage)})`,
    baseline: `p99 ${small.p99.last} ms at 10k (page ${small.lastPage})`,
    ratio: large.p99.last / Math.max(small.p99.last, 1),
    pass: null,
    figures: { p99_ms: large.p99.last, baseline_p99_ms: small.p99.last, last_page: large.lastPage, baseline_last_page: small.lastPage },
  });
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  for (const r of await run({ smoke: process.argv.includes('--smoke') })) console.log(JSON.stringify(r, null, 1));
}
