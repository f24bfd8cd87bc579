// PostgreSQL server backend through a `pg` pool; many Tidemark processes may share one server.
import pg from 'pg';
import type { Db, Queryable, Row } from './db.js';

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

class ClientQueryable implements Queryable {
  constructor(private readonly client: pg.PoolClient) {}
  async query<T extends Row = Row>(text: string, values?: readonly unknown[]): Promise<T[]> {
    const res = await this.client.query<T>(text, values as unknown[] | undefined);
    return res.rows;
  }
  async exec(sql: string): Promise<void> {
    await this.client.query(sql);
  }
}

export class PgDb implements Db {
  readonly kind = 'postgres' as const;
  readonly pool: pg.Pool;

  constructor(
    readonly connectionString: string,
    options: { max?: number; applicationName?: string } = {},
  ) {
    this.pool = new pg.Pool({
      connectionString,
      max: options.max ?? 10,
      application_name: options.applicationName ?? 'tidemark',
      types: typeParsers,
    });
    // An idle client's error (server restart) must not crash the process; the pool replaces it.
    this.pool.on('error', () => {});
  }

  async query<T extends Row = Row>(text: string, values?: readonly unknown[]): Promise<T[]> {
    const res = await this.pool.query<T>(text, values as unknown[] | undefined);
    return res.rows;
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(new ClientQueryable(client));
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  poolStats() {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
