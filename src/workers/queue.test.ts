import { TestClock } from 'pg-boss';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { freshDatabase, type TestDatabase } from '../../test/kit/databases.js';
import { until } from '../../test/kit/wait.js';
import { deadLetterName, JobQueue, type JobDefinition, ORPHAN_RECLAIM_SECONDS, RECLAIM } from './queue.js';

const log = pino({ level: 'silent' });
let t: TestDatabase;
let queue: JobQueue;
let second: JobQueue;
const attempts = new Map<string, number>();

const record: JobDefinition<{ tag: string }> = {
  name: 'test.record',
  schema: z.object({ tag: z.string() }),
  async handler({ tag }, ctx) {
    attempts.set(tag, (attempts.get(tag) ?? 0) + 1);
    await t.db.query('INSERT INTO job_probe (tag, job_id) VALUES ($1, $2)', [tag, ctx.jobId]);
  },
};

const flaky: JobDefinition<{ tag: string; failTimes: number }> = {
  name: 'test.flaky',
  schema: z.object({ tag: z.string(), failTimes: z.number() }),
  retryLimit: 2,
  retryDelay: 0,
  retryBackoff: false,
  async handler({ tag, failTimes }, ctx) {
    attempts.set(tag, (attempts.get(tag) ?? 0) + 1);
    if (ctx.retryCount < failTimes) throw new Error(`attempt ${ctx.retryCount} fails`);
    await t.db.query('INSERT INTO job_probe (tag, job_id) VALUES ($1, $2)', [tag, ctx.jobId]);
  },
};

const defs = [record, flaky] as JobDefinition<never>[];

beforeAll(async () => {
  t = await freshDatabase();
  await t.db.exec('CREATE TABLE job_probe (tag text, job_id text)');
  queue = await JobQueue.start(t.db, defs, { logger: log, supervise: false });
  second = await JobQueue.start(t.db, defs, { logger: log, supervise: false });
});
afterAll(async () => {
  await second.stop(1000);
  await queue.stop(1000);
  await t.drop();
});

const probe = async (tag: string) => (await t.db.query('SELECT job_id FROM job_probe WHERE tag = $1', [tag])).length;

describe('job queue', () => {
  it('runs a job enqueued in a committed transaction', async () => {
    await t.db.transaction(async (tx) => {
      await tx.query("INSERT INTO job_probe (tag, job_id) VALUES ('data-change', 'n/a')");
      await queue.enqueue(tx, 'test.record', { tag: 'committed' });
    });
    expect(await queue.runOnce('test.record')).toEqual({ completed: 1, failed: 0 });
    expect(await probe('committed')).toBe(1);
  });

  it('never runs a job whose transaction rolled back', async () => {
    await expect(
      t.db.transaction(async (tx) => {
        await queue.enqueue(tx, 'test.record', { tag: 'rolled-back' });
        throw new Error('the data change failed');
      }),
    ).rejects.toThrow();
    expect(await queue.runOnce('test.record')).toEqual({ completed: 0, failed: 0 });
    expect(await probe('rolled-back')).toBe(0);
  });

  it('refuses payloads that do not match the job schema, before anything is written', async () => {
    await expect(t.db.transaction((tx) => queue.enqueue(tx, 'test.record', { tag: 5 }))).rejects.toThrow();
    await expect(t.db.transaction((tx) => queue.enqueue(tx, 'test.nope', {}))).rejects.toThrow(/Unknown job queue/);
  });

  it('retries a failing job and completes it when it recovers', async () => {
    await t.db.transaction((tx) => queue.enqueue(tx, 'test.flaky', { tag: 'recovers', failTimes: 1 }));
    // retryDelay 0: the retry is due at once, so one run-once pass sees the failure and the retry.
    expect(await queue.runOnce('test.flaky')).toEqual({ completed: 1, failed: 1 });
    expect(attempts.get('recovers')).toBe(2);
    expect(await probe('recovers')).toBe(1);
  });

  it('moves a job that keeps failing to the dead-letter queue after its retries', async () => {
    await t.db.transaction((tx) => queue.enqueue(tx, 'test.flaky', { tag: 'doomed', failTimes: 99 }));
    let failed = 0;
    for (let i = 0; i < 5; i++) failed += (await queue.runOnce('test.flaky')).failed;
    expect(failed).toBe(3); // the first attempt and two retries
    expect(attempts.get('doomed')).toBe(3);
    const dead = await queue.boss.fetch<{ tag: string }>(deadLetterName('test.flaky'));
    expect(dead.map((j) => j.data.tag)).toEqual(['doomed']);
  });

  it('never gives one job to two workers', async () => {
    await t.db.transaction(async (tx) => {
      for (let i = 0; i < 30; i++) await queue.enqueue(tx, 'test.record', { tag: `many-${i}` });
    });
    const [a, b] = await Promise.all([queue.runOnce('test.record'), second.runOnce('test.record')]);
    expect(a.completed + b.completed).toBe(30);
    const rows = await t.db.query<{ tag: string }>("SELECT tag FROM job_probe WHERE tag LIKE 'many-%'");
    expect(rows).toHaveLength(30);
    expect(new Set(rows.map((r) => r.tag)).size).toBe(30);
  });
});

// A worker killed mid-job (SIGKILL, a crash, a lost host) leaves its job active. Driven by pg-boss's own TestClock
// (its timers and the database's job_now() move together, only when ticked), with the queue's real settings: the
// supervisor of a live worker process takes the job back within 90 s, by its missing heartbeat; a live worker's
// long job is never taken from it.
describe('a job whose worker died', () => {
  let d: TestDatabase;
  let clock: TestClock;
  let q: JobQueue;
  let started = 0;
  const gates: (() => void)[] = [];
  const long: JobDefinition<{ tag: string }> = {
    name: 'test.long',
    schema: z.object({ tag: z.string() }),
    // The settings of the tracking jobs (compose.ts): retried, the default delay and backoff.
    retryLimit: 5,
    async handler({ tag }) {
      started++;
      await new Promise<void>((resolve) => gates.push(resolve));
      await d.db.query('INSERT INTO job_probe (tag, job_id) VALUES ($1, $2)', [tag, 'n/a']);
    },
  };
  const job = (id: string) => q.boss.getJobById('test.long', id);
  const jobIdOf = async (tag: string) => (await q.boss.findJobs<{ tag: string }>('test.long', { data: { tag } }))[0]!.id;

  beforeAll(async () => {
    d = await freshDatabase();
    await d.db.exec('CREATE TABLE job_probe (tag text, job_id text)');
    // Ahead of the real time: jobs sent through Tidemark's own connections (enqueue in a transaction) are stamped by
    // the server's clock (only pg-boss's sessions read the test clock), and must be due at once in test time.
    clock = new TestClock(Date.now() + 3_600_000);
    // supervise: a worker process's queue, whose supervisor looks for orphans.
    q = await JobQueue.start(d.db, [long] as JobDefinition<never>[], { logger: log, supervise: true, clock });
  });
  afterAll(async () => {
    for (const g of gates) g();
    await q?.stop(1000);
    await d?.drop();
  });

  it('is reclaimable well within 90 s by the settings', () => {
    expect(ORPHAN_RECLAIM_SECONDS).toBe(RECLAIM.heartbeatSeconds + 2 * RECLAIM.superviseSeconds);
    // Back in `retry` by then, plus its first retry delay (5 s with backoff) and a worker's poll (2 s).
    expect(ORPHAN_RECLAIM_SECONDS + 10 + 2).toBeLessThanOrEqual(90);
  });

  it('is taken back from a killed worker and fetched by another within 90 s', async () => {
    await d.db.transaction((tx) => q.enqueue(tx, 'test.long', { tag: 'orphan' }));
    // The worker that fetched it dies at once: no heartbeat, no completion, ever.
    const [taken] = await q.boss.fetch<{ tag: string }>('test.long');
    expect(taken?.data.tag).toBe('orphan');
    let backAfter: number | null = null;
    for (let second = 1; second <= 90; second++) {
      await clock.tick(1000);
      const [again] = await q.boss.fetch<{ tag: string }>('test.long', { includeMetadata: true });
      if (!again) continue;
      expect(again.id).toBe(taken!.id);
      expect(again.retryCount).toBe(1);
      backAfter = second;
      break;
    }
    expect(backAfter, 'the orphaned job was still held after 90 s').not.toBeNull();
    // Not before its heartbeat could have lapsed: a worker that merely paused is not robbed.
    expect(backAfter!).toBeGreaterThan(RECLAIM.heartbeatSeconds);
    await q.boss.complete('test.long', taken!.id);
  });

  it('never takes a long job from a live worker (work(): pg-boss heartbeats it)', async () => {
    await q.work();
    await d.db.transaction((tx) => q.enqueue(tx, 'test.long', { tag: 'long-work' }));
    const before = started;
    for (let i = 0; i < 10 && started === before; i++) await clock.tick(2000);
    expect(started).toBe(before + 1);
    const id = await jobIdOf('long-work');
    // Ten minutes of a handler that is alive: heartbeats go on, supervisors pass, nobody takes it.
    await clock.tick(10 * 60_000);
    expect((await job(id))?.state).toBe('active');
    expect((await job(id))?.retryCount).toBe(0);
    expect(started).toBe(before + 1);
    gates.shift()!();
    for (let i = 0; i < 20 && (await job(id))?.state !== 'completed'; i++) await clock.tick(500);
    expect((await job(id))?.state).toBe('completed');
  });

  it('never takes a long job from runOnce (it heartbeats like work())', async () => {
    await q.boss.offWork('test.long');
    await d.db.transaction((tx) => q.enqueue(tx, 'test.long', { tag: 'long-once' }));
    const running = q.runOnce('test.long', 1);
    await until('the job running', 1000, () => gates.length > 0, 20);
    const id = await jobIdOf('long-once');
    await clock.tick(10 * 60_000);
    expect((await job(id))?.state).toBe('active');
    gates.shift()!();
    expect(await running).toEqual({ completed: 1, failed: 0 });
    expect((await job(id))?.state).toBe('completed');
  });
});
