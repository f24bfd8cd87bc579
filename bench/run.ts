// `npm run bench`: every benchmark of docs/performance.md in one run against the local PostgreSQL server (the
// generated data is made on first use and kept), then one table — each goal, the measured figure, the baseline
// measured in the same run, pass/fail — and a JSON file in bench/results/. Each benchmark runs in a process of
// its own (bench/lib/run-one.ts): the fan-out receiver measured 0.165 ms of CPU a delivery after the benchmarks
// before it had grown the shared process's heap, 0.105 ms when the benchmark ran alone.
//   npm run bench                      the full run (about an hour the first time: the 1M data is generated)
//   npm run bench -- --smoke           a quick run on 10k that proves every benchmark still runs (CI)
//   npm run bench -- --only container-get,shipments-list     some of them
//   npm run bench -- --minutes 2       a shorter memory run
import { fork } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BENCHES, type BenchOptions } from './lib/benches.js';
import { serverVersion } from './lib/database.js';
import { type GoalResult, machine, type RunInfo, summaryTable, writeResults } from './lib/report.js';

const { values } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    only: { type: 'string' },
    skip: { type: 'string' },
    minutes: { type: 'string' },
  },
});
const smoke = values.smoke!;
const options: BenchOptions = { smoke, ...(values.minutes ? { minutes: Number(values.minutes) } : {}) };

/** Runs one benchmark in a process of its own (bench/lib/run-one.ts) and resolves with its results. */
function runAlone(name: string): Promise<GoalResult[]> {
  return new Promise((done, fail) => {
    const child = fork(resolve(import.meta.dirname, 'lib/run-one.ts'), [name, JSON.stringify(options)], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let results: GoalResult[] | null = null;
    child.on('message', (m) => {
      results = (m as { results: GoalResult[] }).results;
    });
    child.on('error', fail);
    child.on('exit', (code, signal) => {
      if (results) done(results);
      else fail(new Error(`${name} exited with ${signal ?? code} before it reported`));
    });
  });
}

const only = values.only?.split(',');
const skip = values.skip?.split(',') ?? [];
const chosen = Object.keys(BENCHES).filter((name) => (!only || only.includes(name)) && !skip.includes(name));
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
for (const name of chosen) {
  console.log(`\n— ${name} —`);
  const started = Date.now();
  try {
    const out = await runAlone(name);
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
