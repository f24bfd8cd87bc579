// When a failed delivery is tried again. Pure: the caller passes the clock's `now` and the random source, so a
// fixed clock and a fixed random make every schedule reproducible in tests.
export { parseDuration, parseRetrySchedule } from '../lib/durations.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * The default delays before retries 1 to 12 (so 13 attempts, as the reference API makes). Roughly doubling at first
 * so a blip is retried within seconds, then hours apart so a receiver that is down overnight still gets it:
 * 30 s, 1, 2, 5, 10, 20, 40 min, 1, 2, 4, 6, 9 h — 23 h 18.5 min in all (about a day), before jitter.
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = Object.freeze([
  30 * SECOND,
  1 * MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  20 * MINUTE,
  40 * MINUTE,
  1 * HOUR,
  2 * HOUR,
  4 * HOUR,
  6 * HOUR,
  9 * HOUR,
]);

/** ±20 %: spreads the retries of a burst that failed together, so a recovering receiver is not hit all at once. */
export const JITTER = 0.2;

/** A receiver's Retry-After can push a retry later, never by more than this: it must not park deliveries for days. */
export const MAX_RETRY_AFTER_SECONDS = 3_600;

export interface NextRetryOptions {
  /** Attempts made so far, the failed one included (1 after the first attempt). */
  attemptsMade: number;
  /** An operator's explicit schedule (`TIDEMARK_WEBHOOKS_RETRY_SCHEDULE`), used exactly; null for the default. */
  explicit: readonly number[] | null;
  /** The receiver's Retry-After of the failed attempt, in seconds (see `parseRetryAfter`). */
  retryAfterSeconds: number | null;
  /** In [0, 1), like Math.random. */
  random: () => number;
}

/**
 * Milliseconds to wait before the next attempt, or null when the schedule is spent (the notification has failed).
 * The default schedule is jittered; an explicit one is not. A Retry-After only ever lengthens the wait.
 */
export function nextRetryDelayMs(opts: NextRetryOptions): number | null {
  const { attemptsMade } = opts;
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1)
    throw new RangeError(`attemptsMade must be a whole number ≥ 1, got ${attemptsMade}`);
  const delays = opts.explicit ?? DEFAULT_RETRY_DELAYS_MS;
  const base = delays[attemptsMade - 1];
  if (base === undefined) return null;
  const scheduled = opts.explicit ? base : Math.round(base * (1 - JITTER + 2 * JITTER * opts.random()));
  if (opts.retryAfterSeconds === null || !(opts.retryAfterSeconds > 0)) return scheduled;
  return Math.max(scheduled, Math.min(opts.retryAfterSeconds, MAX_RETRY_AFTER_SECONDS) * SECOND);
}

/** An HTTP-date: IMF-fixdate, RFC 850 or asctime, all of which start with a day name (RFC 9110 §5.6.7). */
const HTTP_DATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /;

/**
 * Retry-After in seconds from `now`: delta-seconds or an HTTP-date (RFC 9110 §10.2.3). A date in the past is 0;
 * anything else unreadable is null (ignored), never an error: it is the receiver's header, not our input.
 */
export function parseRetryAfter(value: string | undefined, now: Date): number | null {
  const v = value?.trim();
  if (!v) return null;
  if (/^\d+$/.test(v)) {
    const seconds = Number(v);
    return Number.isSafeInteger(seconds) ? seconds : null;
  }
  if (!HTTP_DATE.test(v)) return null;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now.getTime()) / SECOND));
}
