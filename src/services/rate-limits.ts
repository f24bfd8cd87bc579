// Rolling-window limits (per account a minute; sign-up, sign-in failures and e-mail over longer windows), counted
// in PostgreSQL so that every API process shares them.
import { rateLimitFor, RATE_WINDOW_MS, type Account, type RateBucket } from '../domain/account.js';
import type { Clock } from '../domain/clock.js';
import { bucketFor, reservationSize, retryAfterSeconds, windowEdges, windowedKey } from '../domain/rate-limit.js';
import type { Queryable } from '../storage/db.js';
import { addRateCount, clearRateKey, pruneRateWindows, rateBuckets, takeRateSlot } from '../storage/repositories/rate-limits.js';

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

  /**
   * Counts one request under `key` (an account's bucket, `source:<id>` for our calls to a source, `signup:…`)
   * within `limit` over the rolling `windowMs` (a minute unless given).
   */
  async takeKeyed(name: string, limit: number, windowMs = RATE_WINDOW_MS): Promise<RateDecision> {
    const key = windowedKey(name, windowMs, RATE_WINDOW_MS);
    const bucketMs = bucketFor(windowMs);
    const nowMs = this.clock.now().getTime();
    const edges = windowEdges(nowMs, windowMs, bucketMs);
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
    return this.#refusal(key, limit, windowMs, nowMs);
  }

  /**
   * Takes one slot of a limit on failures before the attempt is judged, exactly (never from a batch held in
   * memory), so that attempts in flight together cannot all pass a check made before any of them is counted; the
   * attempt that turns out not to be a failure gives its slot back with `refund` (in the bucket it was taken from).
   */
  async reserve(name: string, limit: number, windowMs = RATE_WINDOW_MS): Promise<RateDecision & { refund(): Promise<void> }> {
    const key = windowedKey(name, windowMs, RATE_WINDOW_MS);
    const nowMs = this.clock.now().getTime();
    const edges = windowEdges(nowMs, windowMs, bucketFor(windowMs));
    if (await takeRateSlot(this.db, key, edges, limit)) {
      return { allowed: true, refund: () => addRateCount(this.db, key, edges.currentStart, -1) };
    }
    return { ...(await this.#refusal(key, limit, windowMs, nowMs)), refund: async () => {} };
  }

  /** Forgets what was counted under `key` over `windowMs`. */
  async clear(name: string, windowMs = RATE_WINDOW_MS): Promise<void> {
    await clearRateKey(this.db, windowedKey(name, windowMs, RATE_WINDOW_MS));
  }

  async #refusal(key: string, limit: number, windowMs: number, nowMs: number): Promise<RateDecision> {
    const bucketMs = bucketFor(windowMs);
    const buckets = await rateBuckets(this.db, key, windowEdges(nowMs, windowMs, bucketMs).edgeStart);
    return { allowed: false, limit, retryAfterSeconds: retryAfterSeconds(buckets, nowMs, limit, windowMs, bucketMs) };
  }

  /** Deletes buckets that can no longer count (older than two of their windows); returns how many. */
  prune(): Promise<number> {
    return pruneRateWindows(this.db, this.clock.now().getTime(), RATE_WINDOW_MS);
  }
}
