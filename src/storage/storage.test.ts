import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshDatabase, onServer, type TestDatabase } from '../../test/kit/databases.js';
import { DatabaseNewerThanCodeError, loadMigrations, migrate, pendingMigrations } from './migrate.js';
import { PgDb } from './pg.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await freshDatabase();
});
afterAll(() => t.drop());

describe('migrations', () => {
  it('are numbered, forward-only, and all applied to a fresh database', async () => {
    const migrations = loadMigrations();
    expect(migrations.length).toBeGreaterThan(0);
    expect(migrations.map((m) => m.version)).toEqual([...migrations.map((m) => m.version)].sort((a, b) => a - b));
    expect(await pendingMigrations(t.db)).toEqual([]);
    expect(await migrate(t.db)).toEqual([]);
  });

  it('refuse a database migrated by a newer version (a binary rolled back without its backup)', async () => {
    const all = loadMigrations();
    const older = all.slice(0, -1);
    const newest = all.at(-1)!;
    const refusal = await migrate(t.db, older).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(DatabaseNewerThanCodeError);
    expect((refusal as Error).message).toContain(`${String(newest.version).padStart(4, '0')}_${newest.name} unknown to this one`);
    expect((refusal as Error).message).toContain('restore the backup taken before the upgrade');
    // The version that knows every migration still starts.
    expect(await migrate(t.db, all)).toEqual([]);
  });

  it.skipIf(!onServer())('apply once when several processes start at once (server only: PGlite is one process)', async () => {
    const { db } = t;
    await db.exec('CREATE SCHEMA race');
    // Three pools, as three processes would have, racing to migrate an empty schema.
    const url = new URL(t.url!);
    url.searchParams.set('options', '-c search_path=race');
    const pools = [1, 2, 3].map(() => new PgDb(url.toString(), { max: 2 }));
    try {
      const results = await Promise.all(pools.map((p) => migrate(p)));
      const all = results.flat().sort((a, b) => a - b);
      expect(all).toEqual(loadMigrations().map((m) => m.version));
      const rows = await pools[0]!.query<{ n: number }>('SELECT count(*)::int AS n FROM race.schema_migrations');
      expect(rows[0]!.n).toBe(loadMigrations().length);
    } finally {
      await Promise.all(pools.map((p) => p.close()));
    }
  });

  it('compress the large text written on hot paths with lz4 where the server has it (0013, 0014)', async () => {
    const [{ lz4 }] = (await t.db.query<{ lz4: boolean }>(
      `SELECT 'lz4' = ANY (enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`,
    )) as [{ lz4: boolean }];
    const columns = await t.db.query<{ col: string; method: string }>(
      `SELECT attrelid::regclass::text || '.' || attname AS col, attcompression::text AS method FROM pg_attribute
       WHERE (attrelid, attname) IN (('tracked_shipments'::regclass, 'state'), ('raw_observations'::regclass, 'payload'),
         ('raw_observations'::regclass, 'facts'), ('webhook_notifications'::regclass, 'body'))
       ORDER BY 1`,
    );
    const method = lz4 ? 'l' : '';
    expect(columns).toEqual(
      ['raw_observations.facts', 'raw_observations.payload', 'tracked_shipments.state', 'webhook_notifications.body'].map((col) => ({
        col,
        method,
      })),
    );
  });
});

describe('one query interface over both backends', () => {
  it('returns the same JavaScript types', async () => {
    const [row] = await t.db.query(
      `SELECT 9007199254740::int8 AS big, 12.50::numeric AS money, '2026-03-01'::date AS day,
              '2026-03-01T10:00:00Z'::timestamptz AS at, '{"a":1}'::jsonb AS doc, ARRAY['x','y']::text[] AS list,
              true AS flag, NULL::text AS nothing`,
    );
    expect(row).toEqual({
      big: 9007199254740,
      money: 12.5,
      day: '2026-03-01',
      at: new Date('2026-03-01T10:00:00Z'),
      doc: { a: 1 },
      list: ['x', 'y'],
      flag: true,
      nothing: null,
    });
  });

  it('commits a transaction, and rolls back everything when it throws', async () => {
    await t.db.exec('CREATE TABLE tx_probe (n int)');
    await t.db.transaction(async (tx) => {
      await tx.query('INSERT INTO tx_probe VALUES (1)');
    });
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query('INSERT INTO tx_probe VALUES (2)');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await t.db.query('SELECT n FROM tx_probe')).toEqual([{ n: 1 }]);
  });

  it('serializes concurrent read-modify-write transactions without losing updates', async () => {
    await t.db.exec('CREATE TABLE counter (id int PRIMARY KEY, n int); INSERT INTO counter VALUES (1, 0)');
    await Promise.all(
      Array.from({ length: 20 }, () =>
        t.db.transaction(async (tx) => {
          const [r] = await tx.query<{ n: number }>('SELECT n FROM counter WHERE id = 1 FOR UPDATE');
          await tx.query('UPDATE counter SET n = $1 WHERE id = 1', [r!.n + 1]);
        }),
      ),
    );
    expect(await t.db.query('SELECT n FROM counter')).toEqual([{ n: 20 }]);
  });
});

describe('listen', () => {
  const nextMessage = (got: (string | null)[], n: number) =>
    vi.waitFor(() => {
      if (got.length < n) throw new Error(`${got.length} of ${n} messages`);
    });

  it('hears a notification once its transaction commits, never one rolled back, and stops when asked', async () => {
    const got: (string | null)[] = [];
    const stop = await t.db.listen('tidemark_test', (p) => got.push(p));
    await t.db
      .transaction(async (tx) => {
        await tx.query("SELECT pg_notify('tidemark_test', 'rolled back')");
        throw new Error('abort');
      })
      .catch(() => {});
    await t.db.transaction((tx) => tx.query("SELECT pg_notify('tidemark_test', 'committed')"));
    await nextMessage(got, 1);
    expect(got).toEqual(['committed']);
    await stop();
    await t.db.query("SELECT pg_notify('tidemark_test', 'after stop')");
    await t.db.query("SELECT pg_notify('tidemark_test', 'after stop')");
    // A second listener on the same channel still hears (and proves the first's messages would have arrived).
    const later: (string | null)[] = [];
    const stop2 = await t.db.listen('tidemark_test', (p) => later.push(p));
    await t.db.query("SELECT pg_notify('tidemark_test', 'again')");
    await nextMessage(later, 1);
    expect(got).toEqual(['committed']);
    await stop2();
  });

  it.skipIf(!onServer())('tells the listener it may have missed messages when its connection was lost (server only)', async () => {
    const other = new PgDb(t.url!, { max: 1 });
    try {
      const got: (string | null)[] = [];
      await other.listen('tidemark_lost', (p) => got.push(p));
      await t.db.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'tidemark listen' AND datname = current_database()",
      );
      await vi.waitFor(() => expect(got).toContain(null), { timeout: 10_000 });
      await t.db.query("SELECT pg_notify('tidemark_lost', 'back')");
      await vi.waitFor(() => expect(got).toContain('back'));
    } finally {
      await other.close();
    }
  });
});

describe('prepared statements (server)', () => {
  it.skipIf(!onServer())('keep working when a migration changes the columns a prepared SELECT * returns', async () => {
    const db = new PgDb(t.url!, { max: 1 });
    try {
      await db.exec('CREATE TABLE prepared_probe (id int PRIMARY KEY, a text)');
      await db.query("INSERT INTO prepared_probe VALUES (1, 'x')");
      const read = () => db.query<Record<string, unknown>>('SELECT * FROM prepared_probe WHERE id = $1', [1]);
      // Prepared and planned on the pool's one connection.
      for (let i = 0; i < 6; i++) expect(await read()).toEqual([{ id: 1, a: 'x' }]);
      await t.db.exec("ALTER TABLE prepared_probe ADD COLUMN b text NOT NULL DEFAULT 'y'");
      expect(await read()).toEqual([{ id: 1, a: 'x', b: 'y' }]);
      expect(await read()).toEqual([{ id: 1, a: 'x', b: 'y' }]);
    } finally {
      await db.close();
    }
  });
});
