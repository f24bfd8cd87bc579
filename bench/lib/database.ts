// Bench databases on a PostgreSQL server (default: the local one, 127.0.0.1:5432, user postgres), one per
// data size, kept between runs so a 1M fill is paid once (`--fresh` drops it first).
import pg from 'pg';
import { migrate } from '../../src/storage/migrate.js';
import { PgDb } from '../../src/storage/pg.js';

/** The server the bench uses: TIDEMARK_BENCH_DATABASE_URL (any database on it), else the local server. */
export const SERVER_URL = process.env.TIDEMARK_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `fn` on a connection to the server's `postgres` database (CREATE / DROP DATABASE). */
export async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: databaseUrl('postgres') });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

export async function databaseExists(name: string): Promise<boolean> {
  return admin(async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1);
}

export async function dropDatabase(name: string): Promise<void> {
  await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** A new, migrated database named `name` (an old one of that name is dropped first). */
export async function createDatabase(name: string): Promise<string> {
  await dropDatabase(name);
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = databaseUrl(name);
  const db = new PgDb(url, { max: 2, applicationName: 'tidemark bench' });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  return url;
}

export async function serverVersion(): Promise<string> {
  return admin(async (c) => (await c.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version);
}
