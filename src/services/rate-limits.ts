// Per-account rolling-minute limits, counted in PostgreSQL so that every API process shares them.
import { rateLimitFor, RATE_WINDOW_MS, type Account, type RateBucket } from '../domain/account.js';
import type { Clock } from '../domain/clock.js';
import { retryAfterSeconds, windowEdges } from '../domain/rate-limit.js';
import type { Queryable } from '../storage/db.js';
import { pruneRateWindows, rateBuckets, takeRateSlot } from '../storage/repositories/rate-limits.js';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number; limit: number };

export class RateLimitService {
  constructor(
    private readonly db: Queryable,
    private readonly clock: Clock,
  ) {}

  /** Counts one request of `account` in `bucket`, unless that would exceed the account's limit. */
  async take(account: Pick<Account, 'id' | 'rateLimits'>, bucket: RateBucket): Promise<RateDecision> {
    return this.takeKeyed(`${account.id}:${bucket}`, rateLimitFor(account, bucket));
  }

  /** Counts one request under `key` (an account's bucket, or `source:<id>` for our calls to a source). */
  async takeKeyed(key: string, limit: number): Promise<RateDecision> {
    const nowMs = this.clock.now().getTime();
    const edges = windowEdges(nowMs, RATE_WINDOW_MS);
    if (await takeRateSlot(this.db, key, edges, limit)) return { allowed: true };
    const buckets = await rateBuckets(this.db, key, edges.edgeStart);
    return { allowed: false, limit, retryAfterSeconds: retryAfterSeconds(buckets, nowMs, limit, RATE_WINDOW_MS) };
  }

  /** Deletes buckets that can no longer count (older than two windows); returns how many. */
  prune(): Promise<number> {
    return pruneRateWindows(this.db, this.clock.now().getTime() - 2 * RATE_WINDOW_MS);
  }
}
