// API process memory under a steady load: RSS sampled every 5 s while a fixed rate of container GETs and
// shipment list pages runs for 10 minutes (20 s in a smoke run). Goal: flat — the floor (lowest sample) of the
// last two minutes within ±10% of the floor of the first two minutes after a one-minute warm-up. The floor is
// what the process keeps after its garbage collections; the samples in between ride V8's sawtooth (here
// 230-380 MiB, a period of one to two minutes), so a window's mean says which phase of the tooth it caught,
// not whether memory grows: one run's one-minute means went 333 -> 242 MiB (-27%) on floors of 226 and 228.
// Run: npx tsx bench/memory.ts [--smoke] [--minutes N]
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { CONTAINER_PATH } from './container-get.js';
import { ensureData, issueBenchKey, sampleIds } from './lib/data.js';
import { load } from './lib/load.js';
import { fmt, type GoalResult } from './lib/report.js';
import { rssMiB, startTidemark } from './lib/servers.js';

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

export async function run(opts: { smoke: boolean; minutes?: number; rate?: number }): Promise<GoalResult[]> {
  const size = opts.smoke ? '10k' : '1m';
  const seconds = opts.smoke ? 20 : Math.round((opts.minutes ?? 10) * 60);
  const warmup = opts.smoke ? 5 : 60;
  // Two minutes, or a third of what follows the warm-up in a shorter run (`--minutes`).
  const window = opts.smoke ? 5 : Math.min(120, Math.max(10, Math.floor((seconds - warmup) / 3)));
  const rate = opts.rate ?? 500;
  const data = await ensureData(size);
  const account = data.accounts[0]!;
  const token = await issueBenchKey(data.url, account.id);
  const containers = (await sampleIds(data.url, 'containers', account.id, 2000)).map(CONTAINER_PATH);
  const lists = Array.from({ length: 20 }, (_, i) => `/v2/shipments?page[number]=${i + 1}&page[size]=30&include=containers`);
  // Nine container reads to one list page, every one a different URL in turn.
  const paths = containers.flatMap((p, i) => (i % 9 === 8 ? [p, lists[i % lists.length]!] : [p]));
  const api = await startTidemark({ databaseUrl: data.url });
  const samples: { at: number; rss: number }[] = [];
  const started = Date.now();
  const timer = setInterval(() => samples.push({ at: (Date.now() - started) / 1000, rss: rssMiB(api.pid) }), 5000);
  try {
    const r = await load({ url: api.url, headers: { authorization: `Token ${token}` }, paths, connections: 16, duration: seconds, rate });
    samples.push({ at: (Date.now() - started) / 1000, rss: rssMiB(api.pid) });
    const first = samples.filter((s) => s.at >= warmup && s.at < warmup + window).map((s) => s.rss);
    const last = samples.filter((s) => s.at >= seconds - window).map((s) => s.rss);
    const floor = (xs: number[]) => Math.min(...xs);
    const change = floor(last) / floor(first) - 1;
    return [
      {
        id: 'memory-rss',
        goal: `API process RSS flat (±10%) over ${fmt(seconds / 60, 1)} min of steady load`,
        measured: `floor ${fmt(floor(first))} MiB → ${fmt(floor(last))} MiB (${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)}%); mean ${fmt(mean(first))} → ${fmt(mean(last))} MiB, max ${fmt(Math.max(...samples.map((s) => s.rss)))} MiB`,
        baseline: null,
        ratio: null,
        pass: opts.smoke ? null : Math.abs(change) <= 0.1 && r.non2xx + r.errors === 0,
        figures: {
          seconds,
          rate,
          rps: r.rps,
          first_floor_mib: floor(first),
          last_floor_mib: floor(last),
          first_mib: mean(first),
          last_mib: mean(last),
          change,
          max_mib: Math.max(...samples.map((s) => s.rss)),
          p99_ms: r.latencyMs.p99,
          non2xx: r.non2xx,
          samples: JSON.stringify(samples.map((s) => [Math.round(s.at), Math.round(s.rss)])),
        },
        notes: `${rate} req/s (container GETs and shipment list pages) on ${size}; windows of ${window} s, the first after a ${warmup} s warm-up`,
      },
    ];
  } finally {
    clearInterval(timer);
    await api.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const { values } = parseArgs({ options: { smoke: { type: 'boolean', default: false }, minutes: { type: 'string' } } });
  const results = await run({ smoke: values.smoke!, ...(values.minutes ? { minutes: Number(values.minutes) } : {}) });
  for (const r of results) console.log(JSON.stringify(r, null, 1));
}
