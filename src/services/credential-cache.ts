// What an API key resolves to (its account, with plan, features and limits), kept in the process so that a
// request does not read the database to authenticate. Every change that could make an entry wrong (a key
// revoked, an account's plan, features or limits changed) is announced with NOTIFY on `CREDENTIALS_CHANNEL`
// by whichever process (API, worker, CLI) makes it; every process listening drops that account's entries.
// Correctness across processes rests on three rules:
//   - the cache is used only while the process is listening (a lost connection clears it and stops caching
//     until the listener is back: `listen` reports null);
//   - an answer read from the database is kept only if no announcement arrived while it was being read (an
//     epoch counter), so a read that raced a change cannot bring the old answer back after the drop;
//   - entries expire after `ttlMs` anyway.
import type { Account } from '../domain/account.js';
import type { Clock } from '../domain/clock.js';
import { type Db, type Queryable, Subscription } from '../storage/db.js';

export const CREDENTIALS_CHANNEL = 'tidemark_credentials';

/** Tells every process that `accountId`'s keys or account changed (sent when `q`'s transaction commits). */
export async function announceCredentialChange(q: Queryable, accountId: string): Promise<void> {
  await q.query('SELECT pg_notify($1, $2)', [CREDENTIALS_CHANNEL, accountId]);
}

export interface CachedCredential {
  account: Account;
  keyId: string;
  /** When this process last recorded the key's use (wall time, ms). */
  touchedAt: number;
}

export class CredentialCache {
  readonly #entries = new Map<string, CachedCredential & { expiresAt: number }>();
  readonly #subscription = new Subscription();
  #epoch = 0;

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 10_000,
  ) {}

  /** Starts listening for changes; until then (and after `stop`) nothing is cached. */
  async start(db: Db): Promise<void> {
    await this.#subscription.start(db, CREDENTIALS_CHANNEL, (accountId) => this.#changed(accountId));
  }

  async stop(): Promise<void> {
    const stopping = this.#subscription.stop();
    this.#clear();
    await stopping;
  }

  get(digest: string): CachedCredential | undefined {
    if (!this.#subscription.active) return undefined;
    const hit = this.#entries.get(digest);
    if (!hit) return undefined;
    if (hit.expiresAt <= this.clock.now().getTime()) {
      this.#entries.delete(digest);
      return undefined;
    }
    return hit;
  }

  /** The epoch to hand back to `set`: take it before reading the database. */
  epoch(): number {
    return this.#epoch;
  }

  /** Keeps what was read, unless something changed since `epoch` (then the next request reads again). */
  set(digest: string, value: CachedCredential, epoch: number): void {
    if (!this.#subscription.active || epoch !== this.#epoch) return;
    if (this.#entries.size >= this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(digest, { ...value, expiresAt: this.clock.now().getTime() + this.ttlMs });
  }

  #changed(accountId: string | null): void {
    this.#epoch++;
    if (accountId === null) {
      this.#clear();
      return;
    }
    for (const [digest, entry] of this.#entries) if (entry.account.id === accountId) this.#entries.delete(digest);
  }

  #clear(): void {
    this.#epoch++;
    this.#entries.clear();
  }
}
