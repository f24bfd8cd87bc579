// The copy's rules (which targets it refuses) as tables, and, on the PostgreSQL pass, a copy into a database our
// migrations ran on before (the rows they wrote are not data, told by a fresh run on PGlite).
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, onServer, type TestDatabase } from '../../test/kit/databases.js';
import { testConfig } from '../../test/kit/app.js';
import { jobDefinitions, makeServices } from '../compose.js';
import { systemClock } from '../domain/clock.js';
import { parseSecretKey } from '../lib/sealed.js';
import { seededTables, type ServerIdentity, type TableDigest } from '../storage/copy.js';
import type { Db } from '../storage/db.js';
import { loadMigrations, migrate } from '../storage/migrate.js';
import { PgliteDb } from '../storage/pglite.js';
import { JobQueue } from '../workers/queue.js';
import { AccountService } from './accounts.js';
import { copyDatabase, occupiedTables, targetProblems } from './database-copy.js';

const server = (o: Partial<ServerIdentity> = {}): ServerIdentity => ({
  version: 'PostgreSQL 15.20 (Debian 15.20-0+deb12u1) on x86_64-pc-linux-gnu',
  versionNum: 150020,
  systemId: '7400000000000000001',
  database: 'tidemark',
  ...o,
});
const pglite = server({
  version: 'PostgreSQL 18.6 (PGlite 0.5.16) on wasm32-unknown-emscripten',
  versionNum: 180006,
  systemId: '77',
  database: 'postgres',
});

describe('targetProblems', () => {
  const cases: { name: string; target: ServerIdentity; problems: RegExp[] }[] = [
    { name: 'a PostgreSQL 15 server', target: server(), problems: [] },
    { name: 'a newer server', target: server({ version: 'PostgreSQL 17.2 on aarch64', versionNum: 170002 }), problems: [] },
    {
      name: 'a server too old',
      target: server({ version: 'PostgreSQL 14.11 on x86_64', versionNum: 140011 }),
      problems: [/PostgreSQL 14; Tidemark needs 15/],
    },
    {
      name: 'not PostgreSQL',
      target: server({ version: 'CockroachDB CCL v23.1.11 (x86_64-pc-linux-gnu)', versionNum: 130000 }),
      problems: [/not a PostgreSQL server .*CockroachDB/],
    },
    { name: 'the source itself', target: { ...pglite }, problems: [/the source database itself/] },
    { name: 'the same cluster, another database', target: { ...pglite, database: 'other' }, problems: [] },
    { name: 'a server that does not tell its identifier', target: server({ systemId: null }), problems: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const problems = targetProblems(pglite, c.target);
      expect(problems).toHaveLength(c.problems.length);
      for (const [i, p] of c.problems.entries()) expect(problems[i]).toMatch(p);
    });
  }
});

describe('occupiedTables', () => {
  const d = (rows: number, md5 = 'x'): TableDigest => ({ rows, md5 });
  const seeded = new Set(['derivation']);
  const fresh = new Map([['derivation', d(1, 'v0')]]);
  const cases: { name: string; found: [string, TableDigest][]; made: Map<string, TableDigest> | null; occupied: string[] }[] = [
    { name: 'nothing anywhere', found: [], made: null, occupied: [] },
    { name: 'empty tables', found: [['accounts', d(0)]], made: fresh, occupied: [] },
    {
      name: 'rows in a table no migration writes',
      found: [
        ['accounts', d(2)],
        ['api_keys', d(1)],
      ],
      made: null,
      occupied: ['accounts (2)', 'api_keys (1)'],
    },
    { name: "a new database: the migrations' row", found: [['derivation', d(1, 'v3')]], made: null, occupied: [] },
    { name: 'migrated before: the row as a fresh run leaves it', found: [['derivation', d(1, 'v0')]], made: fresh, occupied: [] },
    { name: 'migrated before: the row changed since', found: [['derivation', d(1, 'v3')]], made: fresh, occupied: ['derivation (1)'] },
    {
      name: 'migrated before: rows a fresh run does not leave',
      found: [['derivation', d(2, 'v0')]],
      made: fresh,
      occupied: ['derivation (2)'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const occupied = occupiedTables(new Map(c.found), seeded, c.made).map((o) => `${o.table} (${o.rows})`);
      expect(occupied).toEqual(c.occupied);
    });
  }

  it("our migrations' INSERT INTO name the tables they write", () => {
    expect(seededTables([{ sql: 'CREATE TABLE a (x int);\ninsert into "b" (x) VALUES (1);\nINSERT  INTO c SELECT 1' }])).toEqual(
      new Set(['b', 'c']),
    );
    // Today: the derivation's version row, and two backfills.
    expect(seededTables(loadMigrations())).toEqual(new Set(['derivation', 'party_roles', 'account_row_counts']));
  });
});

describe.skipIf(!onServer())('copyDatabase into a database our migrations ran on before (PostgreSQL pass)', () => {
  const KEY = parseSecretKey('dGlkZW1hcmsgdGVzdCBzZWNyZXQga2V5IDMyIGJ5dGU=');
  const open: (Db | TestDatabase)[] = [];
  afterAll(async () => {
    for (const o of open.reverse()) await ('drop' in o ? o.drop() : o.close());
  });
  const startJobs = async (db: Db) => {
    const queue = await JobQueue.start(db, jobDefinitions(makeServices(testConfig(), db)), {
      logger: pino({ level: 'silent' }),
      supervise: false,
    });
    return { sender: queue, stop: () => queue.stop(1000) };
  };
  const source = async () => {
    const db = await PgliteDb.memory();
    open.push(db);
    await migrate(db);
    await new AccountService(systemClock).create(db, { name: 'copied', plan: 'unlimited' });
    await db.query('UPDATE derivation SET version = 7');
    return db;
  };

  it('copies over the rows the migrations wrote there (a fresh run on PGlite leaves the same as on the server)', {
    timeout: 60_000,
  }, async () => {
    const target = await freshDatabase();
    open.push(target);
    const report = await copyDatabase({
      source: await source(),
      target: target.db,
      secretKey: { configured: KEY, keyFile: '/nonexistent/secret-key' },
      startJobs,
      clock: systemClock,
    });
    expect(report.tables.find((t) => t.name === 'accounts')).toEqual({ name: 'accounts', rows: 1 });
    expect(await target.db.query('SELECT version FROM derivation')).toEqual([{ version: 7 }]);
  });
});
