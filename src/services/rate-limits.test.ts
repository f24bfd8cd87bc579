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

describe('longer windows and failure counts', () => {
  it('a limit over an hour holds for the hour, says when to retry, and survives the pruner while it counts', async () => {
    const c = new FixedClock('2026-11-24T11:00:00Z');
    const limits = new RateLimitService(t.db, c);
    const HOUR = 3600_000;
    expect((await limits.takeKeyed('hourly', 2, HOUR)).allowed).toBe(true);
    c.advance(20 * 60_000);
    expect((await limits.takeKeyed('hourly', 2, HOUR)).allowed).toBe(true);
    c.advance(20 * 60_000);
    const refused = await limits.takeKeyed('hourly', 2, HOUR);
    expect(refused).toMatchObject({ allowed: false, limit: 2 });
    // The first one leaves the window 20 minutes (and a bucket at most) from now.
    const retry = (refused as { retryAfterSeconds: number }).retryAfterSeconds;
    expect(retry).toBeGreaterThan(20 * 60 - 1);
    expect(retry).toBeLessThanOrEqual(25 * 60);
    // The minute's pruner (two minutes of age) leaves the hour's buckets alone.
    await limits.takeKeyed('minutely', 5);
    c.advance(3 * 60_000);
    await limits.prune();
    expect(await counted('w3600000:hourly')).toBe(2);
    expect(await counted('minutely')).toBe(0);
    expect((await limits.takeKeyed('hourly', 2, HOUR)).allowed).toBe(false);
    c.advance(retry * 1000);
    expect((await limits.takeKeyed('hourly', 2, HOUR)).allowed).toBe(true);
    // Two hours after the last, they are gone.
    c.advance(2 * HOUR + 600_000);
    await limits.prune();
    expect(await counted('w3600000:hourly')).toBe(0);
  });

  it('failure slots are taken before the attempt is judged, given back when it was no failure, and cleared', async () => {
    const c = new FixedClock('2026-11-24T12:00:00Z');
    const limits = new RateLimitService(t.db, c);
    const Q = 15 * 60_000;
    // Three attempts at once all hold their slot: a fourth in flight with them is refused before it is judged.
    const held = await Promise.all([1, 2, 3, 4].map(() => limits.reserve('fails', 3, Q)));
    expect(held.filter((h) => h.allowed)).toHaveLength(3);
    expect(held.find((h) => !h.allowed)).toMatchObject({ allowed: false, limit: 3 });
    // One of them turns out right: its slot comes back, and one more attempt may be made.
    await held.find((h) => h.allowed)!.refund();
    expect(await counted('w900000:fails')).toBe(2);
    const next = await limits.reserve('fails', 3, Q);
    expect(next.allowed).toBe(true);
    expect((await limits.reserve('fails', 3, Q)).allowed).toBe(false);
    // A refusal holds nothing to give back.
    await held.find((h) => !h.allowed)!.refund();
    expect(await counted('w900000:fails')).toBe(3);
    c.advance(Q + 75_000);
    expect((await limits.reserve('fails', 3, Q)).allowed).toBe(true);
    await limits.clear('fails', Q);
    expect(await counted('w900000:fails')).toBe(0);
  });
});
