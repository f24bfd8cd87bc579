import type { WindowEdges } from '../../domain/rate-limit.js';
import { one, type Queryable } from '../db.js';

/**
 * Counts `n` requests (all or none) against `key` in the current bucket if the rolling count stays within `limit`.
 * The older buckets no longer change, so the check on the current bucket's row (re-read under its row
 * lock by ON CONFLICT … WHERE) is exact even when several API processes race for the last slot.
 */
export async function takeRateSlot(q: Queryable, key: string, edges: WindowEdges, limit: number, n = 1): Promise<boolean> {
  const row = await one<{ taken: number | null }>(
    q,
    `WITH older AS (
       SELECT COALESCE(SUM(CASE WHEN window_start = $2 THEN floor(count * $4::float8) ELSE count END), 0)::int AS n
       FROM rate_limit_windows
       WHERE key = $1 AND window_start >= $2 AND window_start < $3
     ), ins AS (
       INSERT INTO rate_limit_windows AS r (key, window_start, count)
       SELECT $1, $3, $6::int FROM older WHERE older.n + $6::int <= $5
       ON CONFLICT (key, window_start) DO UPDATE SET count = r.count + $6::int
         WHERE (SELECT n FROM older) + r.count + $6::int <= $5
       RETURNING r.count
     )
     SELECT (SELECT count FROM ins) AS taken`,
    [key, edges.edgeStart, edges.currentStart, edges.edgeWeight, limit, n],
  );
  return row?.taken != null;
}

/** The buckets of `key` from `since` on (to tell a refused client when to retry). */
export async function rateBuckets(q: Queryable, key: string, since: number): Promise<Map<number, number>> {
  const rows = await q.query<{ window_start: number; count: number }>(
    'SELECT window_start, count FROM rate_limit_windows WHERE key = $1 AND window_start >= $2',
    [key, since],
  );
  return new Map(rows.map((r) => [Number(r.window_start), r.count]));
}

/** Counts `n` under `key` in the bucket starting at `bucketStart`, whatever the count (failures already made). */
export async function addRateCount(q: Queryable, key: string, bucketStart: number, n = 1): Promise<void> {
  await q.query(
    `INSERT INTO rate_limit_windows AS r (key, window_start, count) VALUES ($1, $2, $3)
     ON CONFLICT (key, window_start) DO UPDATE SET count = r.count + $3`,
    [key, bucketStart, n],
  );
}

/** Forgets every count of `key` (a successful sign-in clears its failures). */
export async function clearRateKey(q: Queryable, key: string): Promise<void> {
  await q.query('DELETE FROM rate_limit_windows WHERE key = $1', [key]);
}

/**
 * Deletes buckets that can no longer count: older than two windows, the window read from the key's `w<ms>:`
 * prefix (domain/rate-limit.ts `windowedKey`), else `defaultWindowMs`.
 */
export async function pruneRateWindows(q: Queryable, nowMs: number, defaultWindowMs: number): Promise<number> {
  const rows = await q.query(
    `DELETE FROM rate_limit_windows
     WHERE window_start < $1::bigint - 2 * COALESCE(substring(key FROM '^w([0-9]+):')::bigint, $2::bigint)
     RETURNING 1`,
    [nowMs, defaultWindowMs],
  );
  return rows.length;
}
