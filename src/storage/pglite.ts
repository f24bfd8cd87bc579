// PGlite backend: embedded PostgreSQL in the data directory, one session, guarded by a lock file.
import { PGlite, types, type Transaction } from '@electric-sql/pglite';
import { type Db, Notices, Notifier, type Queryable, type Row, type UntypedRow } from './db.js';
import { lockDataDir, type DirLock } from './dir-lock.js';

/** Same JS types as the pg backend (see pg.ts): int8 and numeric as numbers, date as 'YYYY-MM-DD'. */
const parsers = {
  [types.INT8]: (v: string) => Number(v),
  [types.NUMERIC]: (v: string) => Number(v),
  [types.DATE]: (v: string) => v,
};

class PgliteQueryable implements Queryable {
  constructor(
    private readonly target: PGlite | Transaction,
    /** Sends at once, or keeps until the transaction commits. */
    private readonly notify: (channel: string, payload: string) => void,
  ) {}
  notifyAfterCommit(channel: string, payload = ''): void {
    this.notify(channel, payload);
  }
  async query<T extends Row = UntypedRow>(text: string, values?: readonly unknown[]): Promise<T[]> {
    const res = await this.target.query<T>(text, values as unknown[] | undefined);
    return res.rows;
  }
  async exec(sql: string): Promise<void> {
    await this.target.exec(sql);
  }
}

export class PgliteDb implements Db {
  readonly kind = 'pglite' as const;
  readonly #plain: PgliteQueryable;
  readonly #notifier: Notifier;
  /** This process's listeners, for the payloads it sends itself (handed over at the commit). */
  readonly #handlers = new Map<string, Set<(payload: string) => void>>();

  private constructor(
    readonly pglite: PGlite,
    private readonly lock: DirLock | null,
  ) {
    this.#notifier = new Notifier(
      // One process: payload words reached every listener at the commit (below); only wake-ups go through NOTIFY.
      async (channel, payload) => {
        if (payload === '') await pglite.query("SELECT pg_notify($1, '')", [channel]);
      },
      (channel, payload) => {
        for (const h of this.#handlers.get(channel) ?? []) h(payload);
      },
    );
    this.#plain = new PgliteQueryable(pglite, (channel, payload) => this.#notifier.notify(channel, payload));
  }

  /** Opens (creating if needed) the database in `dataDir`; throws `locked` if another process has it. */
  static async open(dataDir: string, purpose: string): Promise<PgliteDb> {
    const lock = lockDataDir(dataDir, purpose);
    try {
      const pglite = await PGlite.create({ dataDir: `${dataDir}/pg`, parsers });
      return new PgliteDb(pglite, lock);
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  /** An in-memory database, optionally loaded from a dump (tests clone a migrated template this way). */
  static async memory(loadDataDir?: Blob | File): Promise<PgliteDb> {
    const pglite = await PGlite.create({ parsers, ...(loadDataDir ? { loadDataDir } : {}) });
    return new PgliteDb(pglite, null);
  }

  query<T extends Row = UntypedRow>(text: string, values?: readonly unknown[]): Promise<T[]> {
    return this.#plain.query<T>(text, values);
  }

  async exec(sql: string): Promise<void> {
    await this.pglite.exec(sql);
  }

  notifyAfterCommit(channel: string, payload = ''): void {
    this.#notifier.notify(channel, payload);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const notices = new Notices();
    const result = await this.pglite.transaction((tx) => fn(new PgliteQueryable(tx, (channel, payload) => notices.add(channel, payload))));
    notices.sendTo(this.#notifier);
    return result;
  }

  async listen(channel: string, onMessage: (payload: string | null) => void): Promise<() => Promise<void>> {
    // One embedded instance: its notifications cannot be lost in transit.
    const callback = (payload: string) => onMessage(payload);
    const local = this.#handlers.get(channel) ?? new Set();
    this.#handlers.set(channel, local.add(callback));
    await this.pglite.listen(channel, callback);
    return async () => {
      local.delete(callback);
      if (!this.pglite.closed) await this.pglite.unlisten(channel, callback);
    };
  }

  poolStats() {
    return { total: 1, idle: 1, waiting: 0 };
  }

  async close(): Promise<void> {
    try {
      await this.#notifier.idle();
      if (!this.pglite.closed) await this.pglite.close();
    } finally {
      this.lock?.release();
    }
  }
}
