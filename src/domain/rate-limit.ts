// Rolling 60-second rate limits, approximated by two fixed windows: the previous window's count is
// weighted by the share of it that still lies within the last 60 s. Pure; the counters live in
// PostgreSQL so every API process sees the same numbers.

export interface WindowPosition {
  windowStart: number;
  /** Share of the previous window inside the rolling window, 0..1. */
  previousWeight: number;
}

export function windowPosition(nowMs: number, windowMs: number): WindowPosition {
  const windowStart = Math.floor(nowMs / windowMs) * windowMs;
  const elapsed = nowMs - windowStart;
  return { windowStart, previousWeight: 1 - elapsed / windowMs };
}

/** The rolling count a request at `nowMs` sees, before it is counted. */
export function rollingCount(previous: number, current: number, pos: WindowPosition): number {
  return Math.floor(previous * pos.previousWeight) + current;
}

/**
 * Whole seconds until one more request fits, given the counts when a request was refused.
 * Always at least 1: a 429 never says "retry now".
 */
export function retryAfterSeconds(nowMs: number, windowMs: number, limit: number, previous: number, current: number): number {
  const { windowStart } = windowPosition(nowMs, windowMs);
  let waitMs: number;
  if (current + 1 <= limit && previous > 0) {
    // This window has room; wait until enough of the previous window has slid out.
    // Need floor(previous * (1 - e/W)) + current + 1 <= limit.
    const allowedPrev = limit - current - 1;
    const weight = (allowedPrev + 1) / previous; // floor(previous * w) <= allowedPrev when previous*w < allowedPrev+1
    const elapsedNeeded = windowMs * (1 - Math.min(1, weight));
    waitMs = windowStart + elapsedNeeded - nowMs;
  } else {
    // This window is full: in the next one, this window's count becomes the weighted previous.
    const weight = current > 0 ? limit / current : 1;
    const elapsedNeeded = windowMs * (1 - Math.min(1, weight));
    waitMs = windowStart + windowMs + elapsedNeeded - nowMs;
  }
  // The conditions above are strict (< not <=): one millisecond past the boundary is the first fit.
  return Math.max(1, Math.ceil((waitMs + 1) / 1000));
}
