// Rendered API documents (a container's, a shipment's, as one request URL of one account asked for them) kept in
// the process, so that asking again costs no database query. Each document names what it was built from (change
// tags: its shipment, the tracked shipment its raw events come from, its POD vessel, its account); every write of
// those records says so on CHANGES_CHANNEL once it commits (storage/repositories/changes.ts), heard by every
// process, and this one drops the documents built from them. Correctness across processes rests on the rules of
// the credential cache (credential-cache.ts):
//   - documents are kept only while the process is listening; a lost connection drops them all once it is back
//     (`listen` reports null), as messages may have been missed meanwhile;
//   - a document is kept only if no change of anything it was built from was heard while it was being built
//     (`epoch` is taken before reading, `set` compares), so a read that raced a write cannot keep the old document;
//   - entries expire after `ttlMs` anyway: the bound on staleness if a writer dies between its commit and its NOTIFY.
// A process sees its own writes at once (the change is handed to it at the commit); another process sees them once
// the NOTIFY arrives, a few milliseconds later.
import { LRUCache } from 'lru-cache';
import type { Clock } from '../domain/clock.js';
import { type Db, Subscription } from '../storage/db.js';
import { CHANGES_CHANNEL } from '../storage/repositories/changes.js';

export { changeTag, shipmentDocumentTags } from '../storage/repositories/changes.js';

interface Entry {
  body: Buffer;
  tags: readonly string[];
}

/** How many tags' last change to remember; beyond it, reads begun earlier are not kept (rare, and only costs a miss). */
const MAX_CHANGED_TAGS = 100_000;

export class DocumentCache {
  readonly #entries: LRUCache<string, Entry>;
  /** The keys of the documents built from each tag. */
  readonly #byTag = new Map<string, Set<string>>();
  /** Change messages heard, counted; and the count at the last change of each tag. */
  #seq = 0;
  readonly #changedAt = new Map<string, number>();
  /** Reads begun before this count are not kept (everything was dropped, or a tag's last change was forgotten). */
  #floor = 0;
  readonly #subscription = new Subscription();
  #hits = 0;
  #misses = 0;
  readonly #off: boolean;

  /** `maxBytes` 0: nothing is ever kept (TIDEMARK_DOCUMENT_CACHE_MB=0). */
  constructor(clock: Clock, options: { maxBytes?: number; ttlMs?: number } = {}) {
    const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.#off = maxBytes === 0;
    this.#entries = new LRUCache<string, Entry>({
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: (entry, key) => entry.body.length + key.length * 2 + 64,
      ttl: options.ttlMs ?? 60_000,
      // The injected clock is read on every check (the default reuses a reading for a millisecond of real time).
      ttlResolution: 0,
      perf: { now: () => clock.now().getTime() },
      dispose: (entry, key) => this.#unindex(key, entry.tags),
    });
  }

  /** Starts listening for changes; until then (and after `stop`) nothing is kept. */
  async start(db: Db): Promise<void> {
    if (!this.#off) await this.#subscription.start(db, CHANGES_CHANNEL, (payload) => this.#changed(payload));
  }

  async stop(): Promise<void> {
    const stopping = this.#subscription.stop();
    this.#clear();
    await stopping;
  }

  get(key: string): Buffer | undefined {
    if (!this.#subscription.active) return undefined;
    const entry = this.#entries.get(key);
    if (entry) this.#hits++;
    else this.#misses++;
    return entry?.body;
  }

  /** The epoch to hand back to `set`: take it before reading the database. */
  epoch(): number {
    return this.#seq;
  }

  /** Keeps a document built from `tags`, unless one of them changed since `epoch` (then the next request builds it again). */
  set(key: string, body: Buffer, tags: readonly string[], epoch: number): void {
    if (!this.#subscription.active || epoch < this.#floor) return;
    for (const tag of tags) if ((this.#changedAt.get(tag) ?? 0) > epoch) return;
    this.#entries.set(key, { body, tags });
    if (!this.#entries.has(key)) return;
    for (const tag of tags) {
      const keys = this.#byTag.get(tag) ?? new Set<string>();
      this.#byTag.set(tag, keys.add(key));
    }
  }

  /** Hits, misses and what is kept, for /metrics. */
  stats(): { hits: number; misses: number; entries: number; bytes: number } {
    return { hits: this.#hits, misses: this.#misses, entries: this.#entries.size, bytes: this.#entries.calculatedSize };
  }

  #changed(payload: string | null): void {
    const seq = ++this.#seq;
    if (payload === null) {
      this.#clear();
      return;
    }
    for (const tag of payload.split(',')) {
      if (!tag) continue;
      this.#changedAt.set(tag, seq);
      const keys = this.#byTag.get(tag);
      if (keys) for (const key of [...keys]) this.#entries.delete(key);
    }
    if (this.#changedAt.size > MAX_CHANGED_TAGS) {
      this.#changedAt.clear();
      this.#floor = seq;
    }
  }

  #unindex(key: string, tags: readonly string[]): void {
    for (const tag of tags) {
      const keys = this.#byTag.get(tag);
      if (!keys) continue;
      keys.delete(key);
      if (keys.size === 0) this.#byTag.delete(tag);
    }
  }

  #clear(): void {
    this.#floor = ++this.#seq;
    this.#changedAt.clear();
    this.#entries.clear();
    this.#byTag.clear();
  }
}
