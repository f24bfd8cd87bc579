import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { freshDatabase, type TestDatabase } from '../../test/kit/databases.js';
import { deadLetterName, JobQueue, type JobDefinition } from './queue.js';

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
