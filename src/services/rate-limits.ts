// Per-account rolling-minute limits, counted in PostgreSQL so that every API process shares them.
import { rateLimitFor, RATE_WINDOW_MS, type Account, type RateBucket } from '../domain/account.js';
import type { Clock } from '../domain/clock.js';
import { reservationSize, retryAfterSeconds, windowEdges } from '../domain/rate-limit.js';
import type { Queryable } from '../storage/db.js';
import { pruneRateWindows, rateBuckets, takeRateSlot } from '../storage/repositories/rate-limits.js';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number; limit: number };

export class RateLimitService {
  /** Slots this process reserved in the current bucket and has not used yet, per key. */
  readonly #reserved = new Map<string, { bucket: number; left: number }>();

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
    const held = this.#reserved.get(key);
    if (held && held.bucket === edges.currentStart && held.left > 0) {
      held.left--;
      return { allowed: true };
    }
    this.#reserved.delete(key);
    // High limits: reserve a batch in the shared count and use it from memory; else (or when the batch no
    // longer fits) one slot, checked exactly.
    const batch = reservationSize(limit);
    if (batch > 1 && (await takeRateSlot(this.db, key, edges, limit, batch))) {
      this.#reserved.set(key, { bucket: edges.currentStart, left: batch - 1 });
      return { allowed: true };
    }
    if (await takeRateSlot(this.db, key, edges, limit)) return { allowed: true };
    const buckets = await rateBuckets(this.db, key, edges.edgeStart);
    return { allowed: false, limit, retryAfterSeconds: retryAfterSeconds(buckets, nowMs, limit, RATE_WINDOW_MS) };
  }

  /** Deletes buckets that can no longer count (older than two windows); returns how many. */
  prune(): Promise<number> {
    return pruneRateWindows(this.db, this.clock.now().getTime() - 2 * RATE_WINDOW_MS);
  }
}
