// One query interface over both backends: PGlite (embedded, one session) and a PostgreSQL server
// through a `pg` pool. Repositories and the job queue only ever see `Queryable`.

export type Row = Record<string, unknown>;

export interface Queryable {
  /** One statement with `$n` parameters. */
  query<T extends Row = Row>(text: string, values?: readonly unknown[]): Promise<T[]>;
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Wakes the LISTENers of `channel` once this handle's writes are committed: after COMMIT in a transaction (not
   * after a rollback), at once outside one. The NOTIFY is a statement of its own after the commit, never part of
   * the transaction: PostgreSQL makes every committing transaction that notifies wait for one global lock.
   * A `payload` (comma-free words; those of one channel are joined with commas, several per NOTIFY) is also handed
   * to this process's own listeners at the commit, so that the process reads its own writes without waiting for
   * the NOTIFY to come back.
   */
  notifyAfterCommit?(channel: string, payload?: string): void;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs `fn` in one transaction. Inside it, use only the handle passed to `fn`: on PGlite the
   * instance is locked for the whole transaction, and a query on `db` itself would wait forever.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Calls `onMessage` with each NOTIFY payload on `channel` (from any process on the database), and with null
   * when messages may have been missed (the listening connection was lost and is back): drop what you cached.
   * Resolves once listening; the returned function stops.
   */
  listen(channel: string, onMessage: (payload: string | null) => void): Promise<() => Promise<void>>;
  /** Pool statistics for /metrics. */
  poolStats(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

/** One LISTEN that a process-local cache holds: it may keep answers only while `active`. */
export class Subscription {
  #stop: (() => Promise<void>) | null = null;

  get active(): boolean {
    return this.#stop !== null;
  }

  async start(db: Db, channel: string, onMessage: (payload: string | null) => void): Promise<void> {
    if (this.#stop) return;
    this.#stop = await db.listen(channel, onMessage);
  }

  async stop(): Promise<void> {
    const stop = this.#stop;
    this.#stop = null;
    await stop?.();
  }
}

/** The first row, or undefined. */
export async function one<T extends Row>(q: Queryable, text: string, values?: readonly unknown[]): Promise<T | undefined> {
  const rows = await q.query<T>(text, values);
  return rows[0];
}

/** Unique-violation (23505) of a named constraint, for turning races into 422s. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return false;
  return constraint === undefined || e.constraint === constraint || (e.message ?? '').includes(constraint);
}

/** NOTIFY payloads are limited to 8000 bytes; words are joined into messages of at most this many characters. */
const MAX_PAYLOAD = 7000;

/**
 * Sends NOTIFYs one at a time per channel; those asked for while one is on its way become one more after it, so a
 * burst of commits costs a few statements. Payload words asked for meanwhile are sent together (each once), in as
 * few messages as fit; a channel asked for without words gets one empty message. Words are also handed to `local`
 * at once. A failed send is dropped: listeners also poll, or expire what they keep.
 */
export class Notifier {
  /** Per channel being sent: null, or the words asked for since (an empty set: a wake-up without words). */
  readonly #next = new Map<string, Set<string> | null>();
  readonly #sending = new Set<Promise<void>>();

  constructor(
    private readonly send: (channel: string, payload: string) => Promise<unknown>,
    private readonly local: (channel: string, payload: string) => void = () => {},
  ) {}

  notify(channel: string, payload = ''): void {
    if (payload !== '') this.local(channel, payload);
    this.#queue(channel, payload === '' ? [] : payload.split(','));
  }

  #queue(channel: string, words: readonly string[]): void {
    if (this.#next.has(channel)) {
      const waiting = this.#next.get(channel) ?? new Set<string>();
      for (const w of words) waiting.add(w);
      this.#next.set(channel, waiting);
      return;
    }
    this.#next.set(channel, null);
    const sending: Promise<void> = (async () => {
      for (const message of messagesOf(words)) await this.send(channel, message);
    })()
      .catch(() => {})
      .finally(() => {
        this.#sending.delete(sending);
        const waiting = this.#next.get(channel);
        this.#next.delete(channel);
        if (waiting) this.#queue(channel, [...waiting]);
      });
    this.#sending.add(sending);
  }

  /** Resolves once nothing is being sent. */
  async idle(): Promise<void> {
    while (this.#sending.size > 0) await Promise.all(this.#sending);
  }
}

/** What a transaction asked to notify, sent once it commits. */
export class Notices {
  readonly #words = new Map<string, string[]>();
  add(channel: string, payload: string): void {
    const words = this.#words.get(channel) ?? [];
    if (payload !== '') words.push(payload);
    this.#words.set(channel, words);
  }
  sendTo(notifier: Notifier): void {
    for (const [channel, words] of this.#words) notifier.notify(channel, words.join(','));
  }
}

/** Words joined into messages of at most MAX_PAYLOAD characters; no words: one empty message. */
function messagesOf(words: readonly string[]): string[] {
  if (words.length === 0) return [''];
  const unique = [...new Set(words)];
  const out: string[] = [];
  let current = '';
  for (const w of unique) {
    if (current && current.length + 1 + w.length > MAX_PAYLOAD) {
      out.push(current);
      current = '';
    }
    current = current ? `${current},${w}` : w;
  }
  out.push(current);
  return out;
}
