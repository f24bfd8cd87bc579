import { afterEach, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../test/kit/databases.js';
import type { Db } from '../storage/db.js';
import { readiness } from './readiness.js';

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.drop();
  database = undefined;
});

describe('readiness (GET /readyz)', () => {
  it('is ready on a migrated database, naming its kind', async () => {
    database = await freshDatabase();
    expect(await readiness(database.db)).toEqual({ status: 'ready', database: database.db.kind });
  });

  it('is migrating while a migration of this version has not run, naming it', async () => {
    database = await freshDatabase();
    const [latest] = await database.db.query<{ version: number }>('SELECT max(version)::int AS version FROM schema_migrations');
    const version = latest!.version;
    await database.db.query('DELETE FROM schema_migrations WHERE version = $1', [version]);
    expect(await readiness(database.db)).toEqual({ status: 'migrating', pending_migrations: [version] });
  });

  it('is unavailable when the database does not answer', async () => {
    // A handle whose every query fails, as a pool whose server went away does (connection-errors.test.ts has the real one).
    const gone = { kind: 'postgres', query: () => Promise.reject(new Error('connection terminated')) } as unknown as Db;
    expect(await readiness(gone)).toEqual({ status: 'unavailable', database: 'postgres' });
  });
});
