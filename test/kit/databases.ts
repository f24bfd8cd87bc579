// Fresh, migrated databases for tests, cloned from a template made once per run (global-setup.ts):
// PGlite loads a dump of a migrated data directory; a PostgreSQL server (TEST_DATABASE_URL) copies a
// migrated template database with CREATE DATABASE … TEMPLATE. Never a new initdb per test.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import type { Db } from '../../src/storage/db.js';
import { PgDb } from '../../src/storage/pg.js';
import { PgliteDb } from '../../src/storage/pglite.js';

export const onServer = () => Boolean(process.env.TEST_DATABASE_URL);

/** URL of another database on the same server. */
export function serverUrl(database: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${database}`;
  return url.toString();
}

let counter = 0;

export interface TestDatabase {
  db: Db;
  /** For tests that need a second connection pool (several "processes" on one server). */
  url: string | null;
  drop(): Promise<void>;
}

export async function freshDatabase(): Promise<TestDatabase> {
  if (!onServer()) {
    const dump = readFileSync(inject('pgliteTemplate'));
    const db = await PgliteDb.memory(new Blob([dump]));
    return { db, url: null, drop: () => db.close() };
  }
  // Clones are named after the template, so whoever made the template can drop them all (.ci/run does).
  const name = `${inject('serverTemplate')}__${process.pid}_${counter++}`;
  const admin = new pg.Client({ connectionString: serverUrl('postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${inject('serverTemplate')}"`);
  } finally {
    await admin.end();
  }
  const url = serverUrl(name);
  const db = new PgDb(url, { max: 5 });
  return {
    db,
    url,
    async drop() {
      await db.close();
      const c = new pg.Client({ connectionString: serverUrl('postgres') });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    serverTemplate: string;
  }
}
