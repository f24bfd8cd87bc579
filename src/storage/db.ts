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
   */
  notifyAfterCommit?(channel: string): void;
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

/**
 * Sends NOTIFYs one at a time per channel; those asked for while one is on its way become one more after it, so a
 * burst of commits costs a few statements. A failed send is dropped: listeners also poll.
 */
export class Notifier {
  readonly #again = new Map<string, boolean>();
  readonly #sending = new Set<Promise<void>>();

  constructor(private readonly send: (channel: string) => Promise<unknown>) {}

  notify(channel: string): void {
    if (this.#again.has(channel)) {
      this.#again.set(channel, true);
      return;
    }
    this.#again.set(channel, false);
    const sending: Promise<void> = this.send(channel)
      .then(
        () => {},
        () => {},
      )
      .finally(() => {
        this.#sending.delete(sending);
        const again = this.#again.get(channel);
        this.#again.delete(channel);
        if (again) this.notify(channel);
      });
    this.#sending.add(sending);
  }

  /** Resolves once nothing is being sent. */
  async idle(): Promise<void> {
    while (this.#sending.size > 0) await Promise.all(this.#sending);
  }
}
