// Route computation time: the sea-route network's first load, routes between ports, and the future positions of
// a vessel (one a minute) against the cost of serializing them. Timings only; nothing is asserted.
// Run: npx tsx bench/sea-route.ts [repeats]
import { performance } from 'node:perf_hooks';
import { cpus } from 'node:os';
import { haversineNm, seaRoute } from '../src/lib/sea-routes/index.js';
import { futurePositions } from '../src/services/future-positions.js';
import { findPort } from '../src/services/places.js';

const repeats = Number(process.argv[2] ?? 50);

const at = (locode: string) => {
  const p = findPort(locode);
  if (!p) throw new Error(`no port ${locode}`);
  return { lat: p.latitude, lon: p.longitude };
};

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const q = (f: number) => sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))]!;
  return `median ${q(0.5).toFixed(2)} ms, p95 ${q(0.95).toFixed(2)} ms`;
}

function time<T>(fn: () => T): [T, number] {
  const start = performance.now();
  const out = fn();
  return [out, performance.now() - start];
}

console.log(`sea-route bench: node ${process.version}, ${cpus().length} cores, ${repeats} repeats per row`);

const [, load] = time(() => seaRoute(at('CNSHA'), at('USLAX')));
console.log(`first route (reads and builds the network): ${load.toFixed(0)} ms`);

const PAIRS: [string, string][] = [
  ['CNSHA', 'USLAX'],
  ['SGSIN', 'NLRTM'],
  ['USNYC', 'USOAK'],
  ['KRPUS', 'USSEA'],
  ['DEHAM', 'USSAV'],
];
console.log('\nroutes (after the first)          distance      great circle baseline  route');
for (const [a, b] of PAIRS) {
  if (!findPort(a) || !findPort(b)) continue;
  const routeTimes: number[] = [];
  const gcTimes: number[] = [];
  let nm = 0;
  for (let i = 0; i < repeats; i++) {
    const [r, ms] = time(() => seaRoute(at(a), at(b)));
    routeTimes.push(ms);
    nm = r.distanceNm;
    gcTimes.push(time(() => haversineNm(at(a), at(b)))[1]);
  }
  console.log(`  ${a} → ${b}                  ${nm.toFixed(0).padStart(6)} nm   ${stats(gcTimes)}   ${stats(routeTimes)}`);
}

console.log('\nfuture positions, one a minute      positions   compute                           JSON.stringify (baseline)');
for (const [name, from, to, knots] of [
  ['mid-Pacific → Los Angeles', { lat: 33.1, lon: -140.5 }, at('USLAX'), 18],
  ['Shanghai → Los Angeles', at('CNSHA'), at('USLAX'), 17],
  ['Singapore → Rotterdam', at('SGSIN'), at('NLRTM'), 16],
] as const) {
  const compute: number[] = [];
  const serialize: number[] = [];
  let count = 0;
  for (let i = 0; i < Math.max(3, Math.floor(repeats / 10)); i++) {
    const [voyage, ms] = time(() => futurePositions({ from, to, speedKnots: knots, startAt: new Date('2026-03-01T12:00:00Z') }));
    compute.push(ms);
    count = voyage.positions.length;
    const rows = voyage.positions.map((p) => ({ ...p, timestamp: p.at.toISOString(), estimated: true }));
    serialize.push(time(() => JSON.stringify(rows))[1]);
  }
  console.log(`  ${name.padEnd(30)} ${String(count).padStart(9)}   ${stats(compute).padEnd(32)}  ${stats(serialize)}`);
}
