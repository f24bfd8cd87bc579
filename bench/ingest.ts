// Ingest: source observations → normalize → diff → persist → notifications, through the real TrackingEngine on
// PostgreSQL, against raw batched writes of the same rows (the baseline, same run).
//
// Setup (not timed): accounts with webhooks track N sandbox bills of lading through real tracking requests and
// first attempts (round 0, the world at t0). The measured round: the world two days later, where every container
// has a new actual milestone; its observations (carrier DCSA, POD terminal, railroad) are fetched in advance
// through the real adapters and handed to the engine by a PreparedRegistry (its injected source registry). The
// engine's sweep (`runDue`, what the worker's tracking.sweep job runs) then refreshes everything due. The baseline
// writes the rows that round wrote (observations, transport/estimated/account events, outbox rows, container,
// shipment and tracked-shipment updates) into copies of the tables as multi-row statements.
// With `workers: 2` the same round also runs in one, then two worker processes (bench/ingest-worker.ts) on fresh
// copies of the set-up database; each counts its carrier fetches, which proves no tracked shipment was refreshed
// by both.
//
// `npx tsx bench/ingest.ts [--smoke] [--workers 2] [--shipments N]`
import { type ChildProcess, fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pLimit from 'p-limit';
import { loadConfig } from '../src/config/index.js';
import { FEATURES, type Feature } from '../src/domain/account.js';
import { type Clocks, FixedClock, systemClock } from '../src/domain/clock.js';
import { EVENT_NAMES } from '../src/domain/events.js';
import { makeServices } from '../src/compose.js';
import { PgDb } from '../src/storage/pg.js';
import { backendPids, cpuOf, cpuUsedSince, machineBusySince, machineTicks, profileWindow } from './lib/cpu.js';
import { admin, databaseUrl, dropDatabase, createDatabase } from './lib/database.js';
import { fmt, type GoalResult } from './lib/report.js';
import { BENCH_SECRET_KEY } from './lib/servers.js';
import { buildEngine, drain, type Pick, pickStories, PreparedRegistry, prepareAnswers, type WorldSpec } from './ingest-world.js';

const PREFIX = 'bench_ingest';
const SEED = 'bench-ingest';
const DAY = 86_400_000;
const T0 = new Date('2026-03-01T12:00:00Z');
/** The measured round's world time: two days on, a typical gap between two line checks of a busy shipment. */
const T1 = new Date(T0.getTime() + 2 * DAY);
const ACCOUNTS = 4;
/** Every SHARED-th bill of lading is tracked by a second account too (one fetch, two projections). */
const SHARED = 5;
/** Concurrent statements of the baseline (the engine's pool has 10 connections). */
const BASELINE_CONCURRENCY = 4;
const BASELINE_BATCH = 500;
const BASELINE_RUNS = 3;
/** The goal: container updates a second. */
const GOAL_RATE = 5000;

export interface IngestOptions {
  smoke: boolean;
  workers?: number;
  shipments?: number;
}

/** A copy of the set-up database (PostgreSQL copies the files: fast), so each measured round starts the same. */
async function copyDatabase(template: string, name: string): Promise<string> {
  await dropDatabase(name);
  await admin((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}" STRATEGY FILE_COPY`));
  return databaseUrl(name);
}

/** Accounts with webhooks track every picked bill of lading; the first attempts run at t0. */
async function setUp(url: string, picks: Pick[], spec: WorldSpec): Promise<{ requests: number; ms: number }> {
  const db = new PgDb(url, { max: 10, applicationName: 'bench ingest setup' });
  try {
    const config = loadConfig({
      DATABASE_URL: url,
      TIDEMARK_SANDBOX: 'off',
      TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: 'on',
      TIDEMARK_SECRET_KEY: BENCH_SECRET_KEY,
    });
    const world = new FixedClock(spec.t0);
    const clocks: Clocks = { wall: systemClock, world };
    const services = makeServices(config, db, clocks);
    // Requests are attempted by this process below, not by the job queue.
    services.jobs.attach({ enqueue: async () => null });
    const accounts = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const account = await services.accounts.create(db, { name: `ingest-${i}`, plan: 'unlimited', features: [...FEATURES] as Feature[] });
      await services.webhooks.create(account, { url: `http://127.0.0.1:9/ingest/${i}`, events: [...EVENT_NAMES] });
      // One account has a second endpoint that wants only the transport events.
      if (i === 0) {
        await services.webhooks.create(account, {
          url: 'http://127.0.0.1:9/ingest/transport',
          events: EVENT_NAMES.filter((e) => e.startsWith('container.transport.')),
        });
      }
      accounts.push(account);
    }
    const input = (p: Pick) => ({
      requestType: 'bill_of_lading' as const,
      requestNumber: p.number,
      scac: p.scac,
      autoDetect: false,
      refNumbers: [],
      shipmentTags: [],
      customerId: null,
    });
    const first: string[] = [];
    const second: string[] = [];
    for (const [i, p] of picks.entries()) {
      first.push((await services.trackingRequests.create(accounts[i % ACCOUNTS]!, input(p))).id);
      if (i % SHARED === 0) second.push((await services.trackingRequests.create(accounts[(i + 1) % ACCOUNTS]!, input(p))).id);
    }
    const registry = new PreparedRegistry();
    registry.answers = await prepareAnswers(picks, spec.t0);
    const engine = buildEngine(db, clocks, registry);
    const started = performance.now();
    const limit = pLimit(4);
    // The second account's request reuses what the first one fetched a moment ago.
    for (const ids of [first, second]) await Promise.all(ids.map((id) => limit(() => engine.attempt(id, spec.t0))));
    const [failed] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM tracking_requests WHERE status <> 'created'");
    if (failed!.n > 0) throw new Error(`${failed!.n} tracking requests were not created`);
    return { requests: first.length + second.length, ms: performance.now() - started };
  } finally {
    await db.close();
  }
}

/** What one round wrote, counted in the database. */
interface Written {
  containers: number;
  trackedShipments: number;
  shipments: number;
  transportEventsNew: number;
  transportEventsUpdated: number;
  estimatedEvents: number;
  accountEvents: number;
  notifications: number;
  rawObservations: number;
}

async function written(db: PgDb, since: Date, seq: number): Promise<Written> {
  const [r] = await db.query<Record<keyof Written, number>>(
    `SELECT
       -- A container is updated when its snapshot changed or one of its transport events is new or corrected.
       (SELECT count(*)::int FROM containers c WHERE c.updated_at >= $1
          OR EXISTS (SELECT 1 FROM transport_events e WHERE e.container_id = c.id AND e.updated_at >= $1)) AS "containers",
       (SELECT count(*)::int FROM tracked_shipments WHERE updated_at >= $1) AS "trackedShipments",
       (SELECT count(*)::int FROM shipments WHERE updated_at >= $1) AS "shipments",
       (SELECT count(*)::int FROM transport_events WHERE created_at >= $1) AS "transportEventsNew",
       (SELECT count(*)::int FROM transport_events WHERE created_at < $1 AND updated_at >= $1) AS "transportEventsUpdated",
       (SELECT count(*)::int FROM estimated_events WHERE created_at >= $1) AS "estimatedEvents",
       (SELECT count(*)::int FROM account_events WHERE seq > $2) AS "accountEvents",
       (SELECT count(*)::int FROM webhook_notifications WHERE created_at >= $1) AS "notifications",
       (SELECT count(*)::int FROM raw_observations WHERE first_fetched_at >= $1) AS "rawObservations"`,
    [since, seq],
  );
  return r!;
}

/** The tables the round writes, what of each it wrote, and whether the baseline inserts or updates them. */
const BASELINE_TABLES: { table: string; where: string; update: boolean }[] = [
  { table: 'raw_observations', where: 'first_fetched_at >= $1', update: false },
  { table: 'transport_events', where: 'updated_at >= $1', update: false },
  { table: 'estimated_events', where: 'created_at >= $1', update: false },
  { table: 'account_events', where: 'seq > $2', update: false },
  { table: 'webhook_notifications', where: 'created_at >= $1', update: false },
  { table: 'tracked_shipments', where: 'updated_at >= $1', update: true },
  { table: 'shipments', where: 'updated_at >= $1', update: true },
  { table: 'containers', where: 'updated_at >= $1', update: true },
];

/**
 * Copies of the tables with their indexes, checks and foreign keys (to the live parent rows, which the copied rows
 * name), the updated ones filled as before the round: what the same rows cost to write, and nothing else.
 */
async function prepareBaseline(db: PgDb): Promise<void> {
  await db.exec(
    'DROP SCHEMA IF EXISTS baseline CASCADE; CREATE SCHEMA baseline; DROP SCHEMA IF EXISTS baseline_before CASCADE; CREATE SCHEMA baseline_before',
  );
  for (const { table, update } of BASELINE_TABLES) {
    await db.exec(`CREATE TABLE baseline.${table} (LIKE public.${table} INCLUDING ALL)`);
    if (update) {
      await db.exec(`INSERT INTO baseline.${table} SELECT * FROM public.${table}`);
      await db.exec(`CREATE TABLE baseline_before.${table} AS SELECT * FROM public.${table}`);
    }
    const keys = await db.query<{ name: string; def: string }>(
      `SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE contype = 'f' AND conrelid = $1::regclass`,
      [`public.${table}`],
    );
    for (const k of keys) await db.exec(`ALTER TABLE baseline.${table} ADD CONSTRAINT "${k.name}" ${k.def}`);
  }
  await db.exec('ANALYZE');
}

/** Empties the inserted copies and puts the updated ones back as they were before the round. */
async function resetBaseline(db: PgDb): Promise<void> {
  for (const { table, update } of BASELINE_TABLES) {
    await db.exec(`TRUNCATE baseline.${table}`);
    if (update) await db.exec(`INSERT INTO baseline.${table} SELECT * FROM baseline_before.${table}`);
  }
}

/**
 * The round and the baseline each start from a checkpoint with the tables read once, so neither pays for the
 * other's dirty pages or full-page WAL images, nor for a cold cache.
 */
async function settle(db: PgDb, schemas = ['public', 'baseline']): Promise<void> {
  await db.exec('CHECKPOINT');
  for (const { table } of BASELINE_TABLES) {
    for (const schema of schemas) await db.query(`SELECT count(*) FROM (SELECT * FROM ${schema}.${table}) t`);
  }
}

/**
 * The baseline: the rows the round wrote, written again into the copies as multi-row statements (500 rows
 * each, 4 at once): inserts for the event tables, `UPDATE … FROM` for containers, shipments, tracked shipments.
 */
async function runBaseline(db: PgDb, since: Date, seq: number): Promise<{ ms: number; rows: number; statements: number }> {
  const batches: { sql: string; rows: string; table: string }[] = [];
  let rows = 0;
  for (const { table, where, update } of BASELINE_TABLES) {
    const found = await db.query<{ r: unknown }>(
      `SELECT to_jsonb(t.*) AS r FROM public.${table} t WHERE ${where.replace('$2', String(seq))} AND $1::timestamptz IS NOT NULL`,
      [since],
    );
    rows += found.length;
    const columns = (
      await db.query<{ c: string }>(
        `SELECT column_name AS c FROM information_schema.columns WHERE table_schema = 'baseline' AND table_name = $1 AND column_name <> 'id'`,
        [table],
      )
    ).map((r) => `"${r.c}"`);
    const sql = update
      ? `UPDATE baseline.${table} x SET ${columns.map((c) => `${c} = v.${c}`).join(', ')}
         FROM jsonb_populate_recordset(NULL::baseline.${table}, $1::jsonb) v WHERE x.id = v.id`
      : `INSERT INTO baseline.${table} SELECT * FROM jsonb_populate_recordset(NULL::baseline.${table}, $1::jsonb)`;
    for (let i = 0; i < found.length; i += BASELINE_BATCH) {
      batches.push({ sql, table, rows: JSON.stringify(found.slice(i, i + BASELINE_BATCH).map((f) => f.r)) });
    }
  }
  const limit = pLimit(BASELINE_CONCURRENCY);
  const started = performance.now();
  const perTable: Record<string, number> = {};
  await Promise.all(
    batches.map((b) =>
      limit(async () => {
        const s = performance.now();
        await db.query(b.sql, [b.rows]);
        perTable[b.table] = (perTable[b.table] ?? 0) + performance.now() - s;
      }),
    ),
  );
  if (process.env.INGEST_DEBUG) console.log(perTable, Object.fromEntries(batches.map((b) => [b.table, b.rows.length])));
  return { ms: performance.now() - started, rows, statements: batches.length };
}

/** The measured round in this process: the engine's sweep at t1 until nothing is due. */
async function roundInProcess(url: string, picks: Pick[], spec: WorldSpec) {
  const db = new PgDb(url, { max: 10, applicationName: 'bench ingest' });
  try {
    const registry = new PreparedRegistry();
    const preparing = performance.now();
    registry.answers = await prepareAnswers(picks, spec.t1);
    const prepareMs = performance.now() - preparing;
    await prepareBaseline(db);
    const engine = buildEngine(db, { wall: systemClock, world: new FixedClock(spec.t1) }, registry);
    const [{ seq }] = (await db.query<{ seq: number }>('SELECT coalesce(max(seq), 0)::bigint AS seq FROM account_events')) as [
      { seq: number },
    ];
    await settle(db);
    const since = new Date();
    const ticks0 = machineTicks();
    const pg0 = cpuOf(await backendPids(db));
    const cpu0 = process.cpuUsage();
    const profiling = await profileWindow('ingest-round');
    const started = performance.now();
    const handled = await drain(engine, spec.t1);
    const ms = performance.now() - started;
    const cpu = process.cpuUsage(cpu0);
    const busy = machineBusySince(ticks0);
    const postgresCpuMs = cpuUsedSince(pg0, await backendPids(db)) * 1000;
    await profiling?.();
    const w = await written(db, since, seq);
    // The baseline is short: its median of three runs, each into the copies as they were before the round.
    const runs = [];
    for (let i = 0; i < BASELINE_RUNS; i++) {
      if (i > 0) await resetBaseline(db);
      await settle(db);
      runs.push(await runBaseline(db, since, seq));
    }
    const baseline = runs.sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)]!;
    const doubles = [...registry.carrierFetches.values()].filter((n) => n > 1).length;
    return {
      ms,
      handled,
      written: w,
      baseline,
      baselineRuns: runs.map((r) => r.ms),
      prepareMs,
      doubles,
      fetched: registry.carrierFetches.size,
      /** The engine's CPU (this process) and its PostgreSQL connections' in ms, and the share of the cores busy. */
      engineCpuMs: (cpu.user + cpu.system) / 1000,
      postgresCpuMs,
      busy,
    };
  } finally {
    await db.close();
  }
}

interface WorkerDone {
  type: 'done';
  handled: number;
  ms: number;
  fetches: Record<string, number>;
}

/** The measured round in `n` worker processes on one database, started together; wall time to the last one done. */
async function roundInWorkers(url: string, spec: WorldSpec, n: number) {
  const children: ChildProcess[] = [];
  const exited: Promise<unknown>[] = [];
  try {
    const ready: Promise<void>[] = [];
    for (let i = 0; i < n; i++) {
      const child = fork(resolve(import.meta.dirname, 'ingest-worker.ts'), [], {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      children.push(child);
      exited.push(new Promise((r) => child.once('exit', r)));
      ready.push(
        new Promise((r, fail) => {
          child.once('message', () => r());
          child.once('exit', (code) => fail(new Error(`ingest worker exited with ${code} before it was ready`)));
        }),
      );
      child.send({ type: 'prepare', url, spec: { ...spec, t0: spec.t0.toISOString(), t1: spec.t1.toISOString() } });
    }
    await Promise.all(ready);
    const db = new PgDb(url, { max: 2, applicationName: 'bench ingest count' });
    try {
      const [{ seq }] = (await db.query<{ seq: number }>('SELECT coalesce(max(seq), 0)::bigint AS seq FROM account_events')) as [
        { seq: number },
      ];
      await settle(db, ['public']);
      const since = new Date();
      const ticks0 = machineTicks();
      const cpu0 = cpuOf(children.map((c) => c.pid));
      const pg0 = cpuOf(await backendPids(db));
      const started = performance.now();
      const done = await Promise.all(
        children.map(
          (child) =>
            new Promise<WorkerDone>((r, fail) => {
              child.once('message', (m) => r(m as WorkerDone));
              child.once('exit', (code) => fail(new Error(`ingest worker exited with ${code}`)));
              child.send({ type: 'go' });
            }),
        ),
      );
      const ms = performance.now() - started;
      const busy = machineBusySince(ticks0);
      const workersCpuMs = cpuUsedSince(cpu0) * 1000;
      const postgresCpuMs = cpuUsedSince(pg0, await backendPids(db)) * 1000;
      const w = await written(db, since, seq);
      const fetches = new Map<string, number>();
      for (const d of done) for (const [k, v] of Object.entries(d.fetches)) fetches.set(k, (fetches.get(k) ?? 0) + v);
      const doubles = [...fetches.values()].filter((v) => v > 1).length;
      return { ms, written: w, perWorker: done.map((d) => d.handled), doubles, fetched: fetches.size, busy, workersCpuMs, postgresCpuMs };
    } finally {
      await db.close();
    }
  } finally {
    for (const child of children) if (child.connected) child.send({ type: 'exit' });
    await Promise.all(exited);
  }
}

const pct = (share: number) => `${Math.round(share * 100)}%`;
/** What a worker round's updates cost: CPU of the worker processes and of their PostgreSQL connections. */
const cpuText = (r: { workersCpuMs: number; postgresCpuMs: number; written: { containers: number } }) =>
  `CPU per update: workers ${fmt(r.workersCpuMs / r.written.containers, 2)} ms, PostgreSQL ${fmt(r.postgresCpuMs / r.written.containers, 2)} ms`;
/** `cores 84% busy`, or nothing where /proc/stat could not tell. */
const busyText = (share: number | null, before: string, after = '') => (share === null ? '' : `${before}cores ${pct(share)} busy${after}`);

export async function run(opts: IngestOptions): Promise<GoalResult[]> {
  const shipments = opts.shipments ?? (opts.smoke ? 60 : 3000);
  const spec: WorldSpec = { seed: SEED, shipments, t0: T0, t1: T1 };
  const picks = pickStories(spec);
  const containers = picks.reduce((n, p) => n + p.story.containers.length, 0);
  const template = PREFIX;
  const made: string[] = [template];
  try {
    const setup = await setUp(await createDatabase(template), picks, spec);
    made.push(`${PREFIX}_round`);
    const round = await roundInProcess(await copyDatabase(template, `${PREFIX}_round`), picks, spec);
    const rate = (round.written.containers / round.ms) * 1000;
    const baseRate = (round.written.containers / round.baseline.ms) * 1000;
    const ratio = rate / baseRate;
    const cpuPerUpdate = { engine: round.engineCpuMs / round.written.containers, postgres: round.postgresCpuMs / round.written.containers };
    /** Cores the goal's rate would keep busy at this CPU per update (engine and PostgreSQL). */
    const coresForGoal = (GOAL_RATE * (cpuPerUpdate.engine + cpuPerUpdate.postgres)) / 1000;
    const results: GoalResult[] = [
      {
        id: 'ingest',
        goal: `≥ ${fmt(GOAL_RATE)} container updates/s and ≥ 25% of the baseline`,
        measured:
          `${fmt(rate)} container updates/s (${fmt(round.written.containers)} containers of ${fmt(round.handled)} tracked shipments in ${fmt(round.ms / 1000, 1)} s; ` +
          `CPU per update: engine ${fmt(cpuPerUpdate.engine, 2)} ms, PostgreSQL ${fmt(cpuPerUpdate.postgres, 2)} ms, so ${fmt(GOAL_RATE)}/s needs ≈ ${fmt(coresForGoal, 1)} cores; this machine has ${availableParallelism()})`,
        baseline: `${fmt(baseRate)} container updates/s: raw batched writes of the same ${fmt(round.baseline.rows)} rows in ${fmt(round.baseline.ms / 1000, 2)} s`,
        ratio,
        pass: opts.smoke ? null : rate >= GOAL_RATE && ratio >= 0.25 && round.doubles === 0,
        figures: {
          container_updates_per_s: Math.round(rate),
          baseline_container_updates_per_s: Math.round(baseRate),
          round_ms: Math.round(round.ms),
          baseline_ms: Math.round(round.baseline.ms),
          baseline_runs_ms: round.baselineRuns.map((ms) => Math.round(ms)).join(' '),
          baseline_rows: round.baseline.rows,
          baseline_statements: round.baseline.statements,
          tracked_shipments: picks.length,
          tracked_containers: containers,
          refreshed: round.handled,
          ...Object.fromEntries(Object.entries(round.written).map(([k, v]) => [`written_${k}`, v])),
          setup_requests: setup.requests,
          setup_ms: Math.round(setup.ms),
          prepare_ms: Math.round(round.prepareMs),
          fetched_twice: round.doubles,
          engine_cpu_ms_per_update: cpuPerUpdate.engine,
          postgres_cpu_ms_per_update: cpuPerUpdate.postgres,
          cores_for_goal: coresForGoal,
          machine_busy: round.busy,
        },
        notes:
          `${ACCOUNTS} accounts with webhooks, every ${SHARED}th bill of lading followed by two accounts; the engine's sweep ` +
          `(runDue) in one process, pool of 10${round.busy === null ? '' : `, the machine's cores ${pct(round.busy)} busy during the round`}; ` +
          `the baseline is the median of ${BASELINE_RUNS} runs` +
          (baseRate < GOAL_RATE
            ? `; on this machine even the raw writes of these rows stay under ${fmt(GOAL_RATE)} container updates/s`
            : ''),
      },
    ];
    if (opts.workers && opts.workers > 1) {
      made.push(`${PREFIX}_w1`, `${PREFIX}_w${opts.workers}`);
      const one = await roundInWorkers(await copyDatabase(template, `${PREFIX}_w1`), spec, 1);
      const many = await roundInWorkers(await copyDatabase(template, `${PREFIX}_w${opts.workers}`), spec, opts.workers);
      const r1 = (one.written.containers / one.ms) * 1000;
      const rn = (many.written.containers / many.ms) * 1000;
      results.push({
        id: 'ingest-workers',
        goal: `throughput grows with the second worker process; no tracked shipment refreshed twice`,
        measured: `${opts.workers} worker processes: ${fmt(rn)} container updates/s (refreshes per worker ${many.perWorker.join(' + ')}; fetched twice: ${many.doubles}${busyText(many.busy, '; ')}; ${cpuText(many)})`,
        baseline: `1 worker process: ${fmt(r1)} container updates/s (${busyText(one.busy, '', '; ')}${cpuText(one)})`,
        ratio: rn / r1,
        pass: opts.smoke ? null : rn > r1 && many.doubles === 0 && one.doubles === 0 && many.fetched === picks.length,
        figures: {
          workers: opts.workers,
          one_worker_per_s: Math.round(r1),
          many_workers_per_s: Math.round(rn),
          one_worker_ms: Math.round(one.ms),
          many_workers_ms: Math.round(many.ms),
          many_containers: many.written.containers,
          one_containers: one.written.containers,
          fetched_twice: many.doubles,
          fetched: many.fetched,
          one_worker_cpu_ms_per_update: one.workersCpuMs / one.written.containers,
          many_workers_cpu_ms_per_update: many.workersCpuMs / many.written.containers,
          one_worker_postgres_cpu_ms_per_update: one.postgresCpuMs / one.written.containers,
          many_workers_postgres_cpu_ms_per_update: many.postgresCpuMs / many.written.containers,
          one_worker_machine_busy: one.busy,
          many_workers_machine_busy: many.busy,
        },
        notes:
          one.busy === null || many.busy === null
            ? undefined
            : `the machine's ${availableParallelism()} cores were ${pct(one.busy)} busy with one worker process, ${pct(many.busy)} with ${opts.workers}: ` +
              `a second worker adds throughput only where the first leaves cores idle`,
      });
    }
    return results;
  } finally {
    for (const name of made) await dropDatabase(name);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const args = process.argv.slice(2);
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? Number(args[i + 1]) : undefined;
  };
  const results = await run({ smoke: args.includes('--smoke'), workers: value('--workers'), shipments: value('--shipments') });
  for (const r of results) {
    console.log(
      `${r.id}: ${r.measured}\n  baseline: ${r.baseline}\n  ratio: ${r.ratio === null ? '—' : `${(r.ratio * 100).toFixed(0)}%`}  pass: ${r.pass}`,
    );
    console.log(`  ${JSON.stringify(r.figures)}`);
  }
  process.exit(0);
}
