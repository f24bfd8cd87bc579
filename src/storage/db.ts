// One query interface over both backends: PGlite (embedded, one session) and a PostgreSQL server
// through a `pg` pool. Repositories and the job queue only ever see `Queryable`.
import { TidemarkError } from '../domain/errors.js';

/**
 * What a statement's rows may be declared as: any object type, so a plain interface qualifies (no index signature,
 * which would hide a misspelt column). Declare rows from src/storage/schema.generated.ts (`Pick<Shipments, …>`), or
 * check a join's row against it (schema-check.ts): the SQL text itself is not checked.
 */
export type Row = object;
/** The row of a statement whose result type nobody declared. */
export type UntypedRow = Record<string, unknown>;

export interface Queryable {
  /** One statement with `$n` parameters. */
  query<T extends Row = UntypedRow>(text: string, values?: readonly unknown[]): Promise<T[]>;
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

/** Socket errors that mean the server went away or cannot be reached (not a bad statement). */
const CONNECTION_ERRNOS = new Set(['ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
/**
 * SQLSTATEs of a server that is going, gone or not back yet: admin_shutdown (`pg_terminate_backend`, a fast
 * shutdown), crash_shutdown, cannot_connect_now (starting up, shutting down, in recovery). Class 08 (connection
 * exception) is matched as a class.
 */
const CONNECTION_SQLSTATES = new Set(['57P01', '57P02', '57P03']);
/** What `pg` says, without a code, about a connection that dropped or could not be made in time. */
const CONNECTION_MESSAGES = [
  /^Connection terminated/i,
  /connection error and is not queryable/i,
  /^Client was closed and is not queryable/i,
  /^timeout exceeded when trying to connect/i,
  /^Cannot use a pool after calling end/i,
];

/**
 * True when `err` says the database connection was lost or cannot be made (the server restarted, crashed, was
 * stopped, or our backend was terminated), as opposed to an error of the statement itself. Looks through `cause`
 * and an AggregateError's `errors` (a connect tried over several addresses).
 */
export function isConnectionError(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string') {
    if (CONNECTION_ERRNOS.has(e.code) || CONNECTION_SQLSTATES.has(e.code)) return true;
    if (/^08[0-9A-Z]{3}$/.test(e.code)) return true;
  }
  if (typeof e.message === 'string' && CONNECTION_MESSAGES.some((m) => m.test(e.message as string))) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isConnectionError(x, depth + 1))) return true;
  return e.cause !== undefined && e.cause !== err && isConnectionError(e.cause, depth + 1);
}

/** Seconds a client is asked to wait before trying again while the database is away (a restart takes a few). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The error the rest of Tidemark sees when the database connection is lost: `unavailable` (HTTP 503 with
 * Retry-After, a retried job), the driver's error kept as the cause for the log. Any other error is returned as is.
 */
export function asUnavailable(err: unknown): unknown {
  if (err instanceof TidemarkError || !isConnectionError(err)) return err;
  return new TidemarkError('unavailable', 'The database cannot be reached now', {
    items: [{ title: 'Service Unavailable', detail: 'The database cannot be reached right now; try again shortly.' }],
    retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
    cause: err,
  });
}
