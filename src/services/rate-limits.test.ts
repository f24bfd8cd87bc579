import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../test/kit/databases.js';
import { FixedClock } from '../domain/clock.js';
import type { Db } from '../storage/db.js';
import { PgDb } from '../storage/pg.js';
import { RateLimitService } from './rate-limits.js';

// Two API processes (on a server: two pools) sharing one limit.
let t: TestDatabase;
let other: Db;
const clock = new FixedClock('2026-11-24T10:00:01Z');
beforeAll(async () => {
  t = await freshDatabase();
  other = t.url ? new PgDb(t.url, { max: 2 }) : t.db;
});
afterAll(async () => {
  if (other !== t.db) await other.close();
  await t.drop();
});

const counted = async (key: string) =>
  (await t.db.query<{ n: number }>('SELECT coalesce(sum(count), 0)::int AS n FROM rate_limit_windows WHERE key = $1', [key]))[0]!.n;

describe('rate limits shared by several processes', () => {
  it('a high limit is taken in reserved batches, and never exceeded between two processes', async () => {
    const one = new RateLimitService(t.db, clock);
    const two = new RateLimitService(other, clock);
    const limit = 10_000;
    expect((await one.takeKeyed('high', limit)).allowed).toBe(true);
    // The first request reserved a thousandth of the limit in the shared count.
    expect(await counted('high')).toBe(10);
    let allowed = 1;
    for (let i = 0; i < limit + 100; i++) if ((await (i % 2 ? one : two).takeKeyed('high', limit)).allowed) allowed++;
    expect(allowed).toBeLessThanOrEqual(limit);
    // Each process can hold back at most one unused batch.
    expect(allowed).toBeGreaterThanOrEqual(limit - 2 * 10);
    expect(await counted('high')).toBeLessThanOrEqual(limit);
  });

  it('an ordinary limit is checked in the database on every request, exactly', async () => {
    const one = new RateLimitService(t.db, clock);
    const two = new RateLimitService(other, clock);
    let allowed = 0;
    for (let i = 0; i < 150; i++) if ((await (i % 2 ? one : two).takeKeyed('low', 100)).allowed) allowed++;
    expect(allowed).toBe(100);
    expect(await counted('low')).toBe(100);
  });
});
