// One query interface over both backends: PGlite (embedded, one session) and a PostgreSQL server
// through a `pg` pool. Repositories and the job queue only ever see `Queryable`.

export type Row = Record<string, unknown>;

export interface Queryable {
  /** One statement with `$n` parameters. */
  query<T extends Row = Row>(text: string, values?: readonly unknown[]): Promise<T[]>;
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
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
