// Rolling-window rate limits (the API's minute, sign-up's hour). Requests are counted in buckets (5 s for the
// minute); the rolling count is the sum of the buckets inside the window plus the still-inside share of the
// bucket that straddles its start. Pure; the counters live in PostgreSQL so every API process sees the same numbers.

export const BUCKET_MS = 5_000;

export interface WindowEdges {
  /** Start of the bucket that `now` falls in (where this request is counted). */
  currentStart: number;
  /** Start of the bucket that straddles `now - window`. */
  edgeStart: number;
  /** Share of the edge bucket still inside the window, 0..1. */
  edgeWeight: number;
}

export function windowEdges(nowMs: number, windowMs: number, bucketMs = BUCKET_MS): WindowEdges {
  const from = nowMs - windowMs;
  const edgeStart = Math.floor(from / bucketMs) * bucketMs;
  return {
    currentStart: Math.floor(nowMs / bucketMs) * bucketMs,
    edgeStart,
    edgeWeight: (edgeStart + bucketMs - from) / bucketMs,
  };
}

/** Requests counted in the rolling window ending at `nowMs`; `buckets` maps bucket start → count. */
export function rollingCount(buckets: ReadonlyMap<number, number>, nowMs: number, windowMs: number, bucketMs = BUCKET_MS): number {
  const { currentStart, edgeStart, edgeWeight } = windowEdges(nowMs, windowMs, bucketMs);
  let n = 0;
  for (const [start, count] of buckets) {
    if (start < edgeStart || start > currentStart) continue;
    n += start === edgeStart ? Math.floor(count * edgeWeight) : count;
  }
  return n;
}

/**
 * Whole seconds until one more request fits, if no other request comes in meanwhile. At least 1:
 * a 429 never says "retry now". At most the window plus a bucket (all has slid out by then).
 */
export function retryAfterSeconds(
  buckets: ReadonlyMap<number, number>,
  nowMs: number,
  limit: number,
  windowMs: number,
  bucketMs = BUCKET_MS,
): number {
  const max = Math.ceil((windowMs + bucketMs) / 1000);
  for (let s = 1; s < max; s++) {
    if (rollingCount(buckets, nowMs + s * 1000, windowMs, bucketMs) + 1 <= limit) return s;
  }
  return max;
}

/**
 * How many slots a process reserves at once for a limit: one (every request checked in the database) up to
 * 9,999 a minute; above that a thousandth of the limit, used up from memory. Reserved slots count whether
 * used or not, so the limit is never exceeded; each process can at worst leave a thousandth of it unused per
 * bucket (about 1.3% of the limit in a window), refused early rather than let through.
 */
export function reservationSize(limit: number): number {
  return limit >= 10_000 ? Math.floor(limit / 1000) : 1;
}

/** Twelve buckets a window whatever its length: 5 s for the minute, 75 s for a quarter hour, 5 min for the hour. */
export function bucketFor(windowMs: number): number {
  return Math.max(1000, Math.round(windowMs / 12));
}

/**
 * The stored key of a limit over `windowMs`: the minute's keys are stored as they are, longer windows carry
 * their length (`w3600000:signup:all`) so that the pruner, which sees only rows, keeps their buckets long enough.
 */
export function windowedKey(key: string, windowMs: number, defaultWindowMs: number): string {
  return windowMs === defaultWindowMs ? key : `w${windowMs}:${key}`;
}
