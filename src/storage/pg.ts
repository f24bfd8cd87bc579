// PostgreSQL server backend through a `pg` pool; many Tidemark processes may share one server.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { TidemarkError } from '../domain/errors.js';
import { asUnavailable, type Db, isConnectionError, Notices, Notifier, type Queryable, type Row, type UntypedRow } from './db.js';

const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;

/** Parsers matching PGlite's (see pglite.ts), so both backends return the same JS types. */
const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
    if (oid === DATE) return (v: string) => v;
    // biome-ignore lint/suspicious/noExplicitAny: pg's overloads do not accept a union format
    return pg.types.getTypeParser(oid, format as any);
  },
} as pg.CustomTypesConfig;

/**
 * Parameterized statements are prepared once per connection under a name derived from their text, so PostgreSQL
 * parses and plans a hot query once per connection instead of on every call (planning was most of the server
 * time of a container GET). At most `MAX_NAMED` texts get a name (SQL is built from a bounded set of shapes, but a
 * bug must not grow every connection without end); a text whose cached plan PostgreSQL refuses after a schema
 * change (`cached plan must not change result type`, a migration run by a newer process) is sent unnamed from then on.
 */
const MAX_NAMED = 2000;
const statementNames = new Map<string, string | null>();

function statement(text: string, values: readonly unknown[] | undefined): pg.QueryConfig {
  if (values === undefined) return { text };
  let name = statementNames.get(text);
  if (name === undefined) {
    name = statementNames.size < MAX_NAMED ? `t${createHash('sha1').update(text).digest('hex').slice(0, 20)}` : null;
    statementNames.set(text, name);
  }
  return name ? { name, text, values: values as unknown[] } : { text, values: values as unknown[] };
}

async function run<T extends Row>(target: pg.Pool | pg.PoolClient, text: string, values: readonly unknown[] | undefined): Promise<T[]> {
  // pg types rows as an index signature, which a plain interface is not; the row type is the caller's declaration.
  try {
    return (await target.query(statement(text, values))).rows as T[];
  } catch (err) {
    if ((err as { code?: string }).code !== '0A000' || !statementNames.get(text)) throw asUnavailable(err);
    statementNames.set(text, null);
    return (await target.query(statement(text, values)).catch((e: unknown) => Promise.reject(asUnavailable(e)))).rows as T[];
  }
}

class ClientQueryable implements Queryable {
  /** Channels to notify once the transaction commits, with their payload words. */
  readonly notices = new Notices();
  constructor(private readonly client: pg.PoolClient) {}
  notifyAfterCommit(channel: string, payload = ''): void {
    this.notices.add(channel, payload);
  }
  query<T extends Row = UntypedRow>(text: string, values?: readonly unknown[]): Promise<T[]> {
    return run<T>(this.client, text, values);
  }
  async exec(sql: string): Promise<void> {
    await this.client.query(sql).catch((err: unknown) => Promise.reject(asUnavailable(err)));
  }
}

export class PgDb implements Db {
  readonly kind = 'postgres' as const;
  readonly pool: pg.Pool;
  readonly #notifier = new Notifier(
    (channel, payload) => this.pool.query('SELECT pg_notify($1, $2)', [channel, payload]),
    (channel, payload) => this.#listeners?.dispatch(channel, payload),
  );

  constructor(
    readonly connectionString: string,
    options: { max?: number; applicationName?: string } = {},
  ) {
    this.pool = new pg.Pool({
      connectionString,
      max: options.max ?? 10,
      application_name: options.applicationName ?? 'tidemark',
      types: typeParsers,
      // A server that vanished without a word (a network cut, a host gone) is noticed instead of waited on forever.
      keepAlive: true,
      // A server that accepts no connection answers 503 after this, instead of holding the request.
      connectionTimeoutMillis: 10_000,
    });
    // An idle client's error (server restart) must not crash the process; the pool replaces it.
    this.pool.on('error', () => {});
  }

  query<T extends Row = UntypedRow>(text: string, values?: readonly unknown[]): Promise<T[]> {
    return run<T>(this.pool, text, values);
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql).catch((err: unknown) => Promise.reject(asUnavailable(err)));
  }

  notifyAfterCommit(channel: string, payload = ''): void {
    this.#notifier.notify(channel, payload);
  }

  /**
   * A checked-out client has no listener of the pool's: should its connection drop between two statements (the
   * transaction's code awaits something else), its 'error' event would be unhandled and end the process. It is
   * heard here, the transaction fails as `unavailable`, and the broken client is destroyed, not pooled again.
   */
  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    let lost: Error | null = null;
    const onError = (err: Error) => {
      lost ??= err;
    };
    // The listener is attached in the pool's callback itself, not after an await: a client handed over while the
    // pool handles its previous user's last reply can meet its termination in the same read from the socket, before
    // any promise continuation runs.
    const client = await new Promise<pg.PoolClient>((resolve, reject) => {
      this.pool.connect((err, c) => {
        if (err || !c) return reject(asUnavailable(err ?? new Error('no client')));
        c.on('error', onError);
        resolve(c);
      });
    });
    try {
      await client.query('BEGIN');
      const tx = new ClientQueryable(client);
      const result = await fn(tx);
      await client.query('COMMIT');
      tx.notices.sendTo(this.#notifier);
      return result;
    } catch (err) {
      // A connection lost meanwhile is what to say, unless the transaction's code gave an answer of its own.
      const cause = lost && !(err instanceof TidemarkError) && !isConnectionError(err) ? lost : err;
      // Only on a connection still there: a ROLLBACK on a dead one would wait for nothing (the server rolled back).
      // A connection whose ROLLBACK failed is not pooled again either.
      if (!lost) await client.query('ROLLBACK').catch((e: unknown) => onError(e as Error));
      throw asUnavailable(cause);
    } finally {
      client.off('error', onError);
      client.release(lost ?? undefined);
    }
  }

  /** One connection per process holds every LISTEN; it reconnects (after a second) when it drops. */
  async listen(channel: string, onMessage: (payload: string | null) => void): Promise<() => Promise<void>> {
    this.#listeners ??= new Listener(this.connectionString);
    return this.#listeners.add(channel, onMessage);
  }

  #listeners: Listener | undefined;

  /** A connection of its own, outside the pool (a LISTEN holds it for good), reconnected when it drops. */
  poolStats() {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  async close(): Promise<void> {
    await this.#listeners?.close();
    await this.#notifier.idle();
    await this.pool.end();
  }
}

/** The LISTEN connection: channels and their handlers, re-subscribed after a reconnect. */
class Listener {
  readonly #handlers = new Map<string, Set<(payload: string | null) => void>>();
  #client: pg.Client | null = null;
  #connecting: Promise<pg.Client> | null = null;
  #closed = false;
  #retry: NodeJS.Timeout | null = null;

  constructor(private readonly connectionString: string) {}

  async add(channel: string, handler: (payload: string | null) => void): Promise<() => Promise<void>> {
    const fresh = !this.#handlers.has(channel);
    if (fresh) this.#handlers.set(channel, new Set());
    const set = this.#handlers.get(channel)!;
    set.add(handler);
    const client = await this.#connect();
    if (fresh) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    return async () => {
      set.delete(handler);
      if (set.size > 0 || this.#handlers.get(channel) !== set) return;
      this.#handlers.delete(channel);
      await this.#client?.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`).catch(() => {});
    };
  }

  /** Hands a message to this process's handlers of `channel`. */
  dispatch(channel: string, payload: string): void {
    for (const h of this.#handlers.get(channel) ?? []) h(payload);
  }

  #connect(): Promise<pg.Client> {
    if (this.#client) return Promise.resolve(this.#client);
    this.#connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.connectionString, application_name: 'tidemark listen' });
      client.on('notification', (m) => this.dispatch(m.channel, m.payload ?? ''));
      client.on('error', () => this.#lost(client));
      client.on('end', () => this.#lost(client));
      try {
        await client.connect();
        for (const channel of this.#handlers.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      } catch (err) {
        client.removeAllListeners('end');
        await client.end().catch(() => {});
        throw err;
      } finally {
        this.#connecting = null;
      }
      this.#client = client;
      return client;
    })();
    return this.#connecting;
  }

  /** The connection is gone: whatever was sent meanwhile is lost, so every handler hears null once it is back. */
  #lost(client: pg.Client): void {
    if (this.#client !== client) return;
    this.#client = null;
    if (this.#closed) return;
    const reconnect = () => {
      this.#retry = null;
      if (this.#closed) return;
      this.#connect().then(
        () => {
          for (const set of this.#handlers.values()) for (const h of set) h(null);
        },
        () => {
          this.#retry = setTimeout(reconnect, 1000);
        },
      );
    };
    this.#retry = setTimeout(reconnect, 1000);
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => {});
  }
}
