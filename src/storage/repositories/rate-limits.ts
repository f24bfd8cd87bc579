import { one, type Queryable } from '../db.js';

/**
 * Counts one request against `key` in the window starting at `windowStart` if the rolling total
 * (`previousWeight` × the previous window's count + this window's count) stays within `limit`.
 * One statement, so concurrent API processes cannot both take the last slot.
 * Returns the rolling count after this request, or null when the request is refused.
 */
export async function takeRateSlot(
  q: Queryable,
  key: string,
  windowStart: number,
  windowMs: number,
  previousWeight: number,
  limit: number,
): Promise<{ allowed: boolean; previous: number; current: number }> {
  const row = await one<{ previous: number; current: number | null }>(
    q,
    `WITH prev AS (
       SELECT COALESCE((SELECT count FROM rate_limit_windows WHERE key = $1 AND window_start = $3), 0) AS n
     ), ins AS (
       INSERT INTO rate_limit_windows AS w (key, window_start, count)
       SELECT $1, $2, 1 FROM prev WHERE floor(prev.n * $4::float8) + 1 <= $5
       ON CONFLICT (key, window_start) DO UPDATE SET count = w.count + 1
         WHERE floor((SELECT n FROM prev) * $4::float8) + w.count + 1 <= $5
       RETURNING w.count
     )
     SELECT (SELECT n FROM prev)::int AS previous, (SELECT count FROM ins)::int AS current`,
    [key, windowStart, windowStart - windowMs, previousWeight, limit],
  );
  if (row?.current != null) return { allowed: true, previous: row.previous, current: row.current };
  const cur = await one<{ count: number }>(q, 'SELECT count FROM rate_limit_windows WHERE key = $1 AND window_start = $2', [key, windowStart]);
  return { allowed: false, previous: row?.previous ?? 0, current: cur?.count ?? 0 };
}

/** Deletes windows that can no longer count (older than the previous window). */
export async function pruneRateWindows(q: Queryable, olderThan: number): Promise<number> {
  const rows = await q.query('DELETE FROM rate_limit_windows WHERE window_start < $1 RETURNING 1', [olderThan]);
  return rows.length;
}
