// How long a sea route takes to compute (issue 9: measured here, never asserted in tests). Routes every pair of
// a sample of the reference ports, after the network is built once, and prints the time per route next to the
// baseline measured in the same run: the great-circle distance of the same pairs (the least work any answer
// needs). Run: `node --import tsx bench/sea-routes.ts [pairs]` (default 400).
import { availableParallelism, cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { haversineNm, seaRoute } from '../src/lib/sea-routes/index.js';
import { PORTS } from '../src/sources/reference/ports.js';

const pairsWanted = Number(process.argv[2] ?? 400);

/** Every n-th pair of distinct ports, so the sample spans oceans without depending on the table's order. */
function samplePairs(count: number) {
  const all = PORTS.flatMap((a, i) => PORTS.slice(i + 1).map((b) => [a, b] as const));
  const step = Math.max(1, Math.floor(all.length / count));
  return all.filter((_, i) => i % step === 0).slice(0, count);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const pairs = samplePairs(pairsWanted).map(([a, b]) => ({
  from: { lat: a.latitude, lon: a.longitude },
  to: { lat: b.latitude, lon: b.longitude },
  name: `${a.locode}→${b.locode}`,
}));

const t0 = performance.now();
seaRoute(pairs[0]!.from, pairs[0]!.to);
const buildMs = performance.now() - t0;

// Baseline: the great-circle distance of every pair, many times over (it is far too quick to time once).
const REPEAT = 1000;
const b0 = performance.now();
let sink = 0;
for (let r = 0; r < REPEAT; r++) for (const p of pairs) sink += haversineNm(p.from, p.to);
const baselineUs = ((performance.now() - b0) * 1000) / (REPEAT * pairs.length);

const times: number[] = [];
let longest = { name: '', nm: 0 };
for (const p of pairs) {
  const s = performance.now();
  const route = seaRoute(p.from, p.to);
  times.push(performance.now() - s);
  if (route.distanceNm > longest.nm) longest = { name: p.name, nm: route.distanceNm };
}
times.sort((a, b) => a - b);
const mean = times.reduce((a, b) => a + b, 0) / times.length;

const result = {
  date: new Date().toISOString(),
  machine: { cores: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown', node: process.version },
  pairs: pairs.length,
  network_build_ms: Number(buildMs.toFixed(1)),
  route_ms: { mean: Number(mean.toFixed(2)), p50: Number(percentile(times, 50).toFixed(2)), p99: Number(percentile(times, 99).toFixed(2)) },
  baseline_great_circle_us: Number(baselineUs.toFixed(3)),
  ratio_route_to_baseline: Math.round((mean * 1000) / baselineUs),
  longest_route: { pair: longest.name, nm: Math.round(longest.nm) },
  // Keeps the baseline loop's work observable, so the runtime cannot drop it.
  baseline_checksum_nm: Math.round(sink),
};
console.log(JSON.stringify(result, null, 2));
console.log(
  `\nsea route: ${result.route_ms.mean} ms mean, ${result.route_ms.p99} ms p99 over ${pairs.length} port pairs ` +
    `(network built once in ${result.network_build_ms} ms) vs ${result.baseline_great_circle_us} µs for the great-circle ` +
    `distance alone: ${result.ratio_route_to_baseline}× · ${result.machine.cores} cores`,
);
