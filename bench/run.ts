// `npm run bench`: every benchmark of docs/performance.md in one run against the local PostgreSQL server (the
// generated data is made on first use and kept), then one table — each goal, the measured figure, the baseline
// measured in the same run, pass/fail — and a JSON file in bench/results/.
//   npm run bench                      the full run (about an hour the first time: the 1M data is generated)
//   npm run bench -- --smoke           a quick run on 10k that proves every benchmark still runs (CI)
//   npm run bench -- --only container-get,shipments-list     some of them
//   npm run bench -- --minutes 2       a shorter memory run
import { parseArgs } from 'node:util';
import * as containerGet from './container-get.js';
import * as fanout from './fanout.js';
import * as ingest from './ingest.js';
import { serverVersion } from './lib/database.js';
import { type GoalResult, machine, type RunInfo, summaryTable, writeResults } from './lib/report.js';
import * as memory from './memory.js';
import * as pglite from './pglite.js';
import * as shipmentsList from './shipments-list.js';

const { values } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    only: { type: 'string' },
    skip: { type: 'string' },
    minutes: { type: 'string' },
  },
});
const smoke = values.smoke!;

const BENCHES: [string, () => Promise<GoalResult[]>][] = [
  ['container-get', () => containerGet.run({ smoke })],
  ['shipments-list', () => shipmentsList.run({ smoke })],
  ['pglite', () => pglite.run({ smoke })],
  // Both run with one worker process and then two on the same server (the scale-out ratio).
  ['ingest', () => ingest.run({ smoke, workers: 2 })],
  ['fanout', () => fanout.run({ smoke, workers: 2 })],
  ['memory', () => memory.run({ smoke, ...(values.minutes ? { minutes: Number(values.minutes) } : {}) })],
];

const only = values.only?.split(',');
const skip = values.skip?.split(',') ?? [];
const chosen = BENCHES.filter(([name]) => (!only || only.includes(name)) && !skip.includes(name));
const info: RunInfo = {
  startedAt: new Date().toISOString(),
  finishedAt: '',
  ...machine(),
  postgres: await serverVersion().catch(() => null),
  size: smoke ? '10k' : '1m (PGlite: 100k)',
  smoke,
};
const results: GoalResult[] = [];
let failed = false;
for (const [name, bench] of chosen) {
  console.log(`\n— ${name} —`);
  const started = Date.now();
  try {
    const out = await bench();
    results.push(...out);
    for (const r of out)
      console.log(
        `  ${r.id}: ${r.measured}${r.baseline ? ` | baseline ${r.baseline}` : ''} | ${r.pass === null ? 'n/a' : r.pass ? 'PASS' : 'FAIL'}`,
      );
  } catch (err) {
    failed = true;
    console.error(`  ${name} did not run: ${(err as Error).stack ?? err}`);
    results.push({
      id: name,
      goal: '(the benchmark failed to run)',
      measured: String((err as Error).message).slice(0, 200),
      baseline: null,
      ratio: null,
      pass: false,
      figures: {},
    });
  }
  console.log(`  (${((Date.now() - started) / 1000).toFixed(0)} s)`);
}
info.finishedAt = new Date().toISOString();
console.log(`\n${summaryTable(info, results)}`);
console.log(`\nresults: ${writeResults(info, results)}`);
// A benchmark that could not run fails the command (CI's smoke run); a goal missed is reported, not an error.
process.exit(failed ? 1 : 0);
