// The storage boundary's answer to a database that goes away: connection-class errors become `unavailable`
// (HTTP 503 with Retry-After, a retried job), everything else passes through as it was; and on a PostgreSQL server,
// a backend terminated mid-transaction (what a restart does) fails that transaction cleanly instead of ending the
// process with an unhandled 'error' event of the checked-out client.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, onServer, serverUrl, type TestDatabase } from '../../test/kit/databases.js';
import { TidemarkError } from '../domain/errors.js';
import { asUnavailable, DATABASE_RETRY_AFTER_SECONDS, isConnectionError } from './db.js';
import { PgDb } from './pg.js';
import { until } from '../../test/kit/wait.js';

/** An error as `pg` or Node make them: a message, and a code when there is one. */
const err = (message: string, code?: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(message), { code, ...extra });

describe('connection errors', () => {
  it.each([
    ['a reset socket', err('read ECONNRESET', 'ECONNRESET'), true],
    ['a refused connection', err('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'), true],
    ['a write to a closed socket', err('write EPIPE', 'EPIPE'), true],
    ['a connect that timed out at the socket', err('connect ETIMEDOUT 10.0.0.9:5432', 'ETIMEDOUT'), true],
    ['an unreachable host', err('connect EHOSTUNREACH 10.0.0.9:5432', 'EHOSTUNREACH'), true],
    ['pg_terminate_backend / a fast shutdown (57P01)', err('terminating connection due to administrator command', '57P01'), true],
    ['a crash of another backend (57P02)', err('terminating connection because of crash of another server process', '57P02'), true],
    ['a server starting up (57P03)', err('the database system is starting up', '57P03'), true],
    ['a server shutting down (57P03)', err('the database system is shutting down', '57P03'), true],
    ['class 08: connection_failure', err('connection failure', '08006'), true],
    ['class 08: client unable to establish', err('could not connect', '08001'), true],
    ['class 08: protocol violation', err('protocol violation', '08P01'), true],
    ['pg: the server closed the connection', err('Connection terminated unexpectedly'), true],
    ['pg: a connect that timed out', err('Connection terminated due to connection timeout'), true],
    ['pg: a client whose connection failed', err('Client has encountered a connection error and is not queryable'), true],
    ['pg-pool: no connection in time', err('timeout exceeded when trying to connect'), true],
    ['pg-pool: the pool is closing (a process stopping)', err('Cannot use a pool after calling end on the pool'), true],
    [
      'a refusal on every address tried (AggregateError)',
      new AggregateError([err('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], ''),
      true,
    ],
    ['a wrapped cause', new Error('could not claim', { cause: err('read ECONNRESET', 'ECONNRESET') }), true],
    ['a unique violation', err('duplicate key value violates unique constraint "x"', '23505'), false],
    ['a deadlock', err('deadlock detected', '40P01'), false],
    ['a serialization failure', err('could not serialize access', '40001'), false],
    ['a statement timeout (57014, same class, not a connection)', err('canceling statement due to statement timeout', '57014'), false],
    ['a syntax error', err('syntax error at or near "SELEC"', '42601'), false],
    ['a NUL in text', err('invalid byte sequence for encoding "UTF8": 0x00', '22021'), false],
    ['too many connections (the server is up; class 53)', err('sorry, too many clients already', '53300'), false],
    ['a programming error', new TypeError("Cannot read properties of undefined (reading 'id')"), false],
    ['a message that only mentions a connection', err('the webhook connection terminated unexpectedly'), false],
    ['not an error', 'ECONNRESET', false],
    ['nothing', undefined, false],
  ])('%s → %s', (_what, error, connection) => {
    expect(isConnectionError(error)).toBe(connection);
    const mapped = asUnavailable(error);
    if (connection) {
      expect(mapped).toBeInstanceOf(TidemarkError);
      const e = mapped as TidemarkError;
      expect(e.code).toBe('unavailable');
      expect(e.retryable).toBe(true);
      expect(e.retryAfterSeconds).toBe(DATABASE_RETRY_AFTER_SECONDS);
      expect(e.cause).toBe(error);
      // No database text reaches a client: the item says what to do, the driver's message stays in the cause.
      expect(JSON.stringify(e.items)).not.toMatch(/ECONN|EPIPE|terminat|57P|08/);
    } else expect(mapped).toBe(error);
  });

  it('leaves a Tidemark error as it is, even one caused by a lost connection', () => {
    const own = new TidemarkError('conflict', 'busy', { cause: err('read ECONNRESET', 'ECONNRESET') });
    expect(asUnavailable(own)).toBe(own);
  });
});

describe.skipIf(!onServer())('a backend terminated under a PgDb (server only)', () => {
  let t: TestDatabase;
  let db: PgDb;
  let admin: pg.Client;
  const unhandled: unknown[] = [];
  const onUncaught = (e: unknown) => unhandled.push(e);

  beforeAll(async () => {
    t = await freshDatabase();
    db = new PgDb(t.url!, { max: 3, applicationName: 'tidemark chaos-unit' });
    admin = new pg.Client({ connectionString: serverUrl(new URL(t.url!).pathname.slice(1)) });
    await admin.connect();
    process.on('uncaughtException', onUncaught);
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await admin?.end();
    await db?.close();
    await t?.drop();
  });

  const terminateOurs = () =>
    admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');

  it('fails a transaction whose connection is terminated between two statements as unavailable, and serves the next', async () => {
    let reached = false;
    const failed = await db
      .transaction(async (tx) => {
        await tx.query('SELECT 1');
        // The transaction's code waits on something else (a source, a render) while the server drops it.
        await terminateOurs();
        await new Promise((r) => setTimeout(r, 200));
        reached = true;
        await tx.query('SELECT 2');
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(reached).toBe(true);
    expect(failed).toBeInstanceOf(TidemarkError);
    expect((failed as TidemarkError).code).toBe('unavailable');
    // The broken client was thrown away, not pooled again: the next transaction and query work.
    expect(await db.transaction((tx) => tx.query<{ n: number }>('SELECT 3 AS n'))).toEqual([{ n: 3 }]);
    expect(await db.query<{ n: number }>('SELECT 4 AS n')).toEqual([{ n: 4 }]);
    expect(unhandled).toEqual([]);
  });

  it('fails a statement whose backend is terminated while it runs as unavailable', async () => {
    const running = db.query('SELECT pg_sleep(5)').then(
      () => null,
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 300));
    await terminateOurs();
    const failed = await running;
    expect((failed as TidemarkError).code).toBe('unavailable');
    expect(await db.query<{ n: number }>('SELECT 5 AS n')).toEqual([{ n: 5 }]);
    expect(unhandled).toEqual([]);
  });

  it('hears its LISTEN connection terminated, reconnects, and tells the listener it may have missed messages', async () => {
    const heard: (string | null)[] = [];
    const stop = await db.listen('chaos_unit', (p) => heard.push(p));
    try {
      await terminateOurs();
      await until('the listener told it may have missed messages', 10_000, () => heard.includes(null), 100);
      await admin.query("NOTIFY chaos_unit, 'back'");
      await until('the notification after the reconnect', 10_000, () => heard.includes('back'), 100);
    } finally {
      await stop();
    }
    expect(unhandled).toEqual([]);
  });
});

describe('a transaction that fails for a reason of its own (both databases)', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await freshDatabase();
    await t.db.exec('CREATE TABLE unique_probe (k text PRIMARY KEY)');
  });
  afterAll(() => t?.drop());

  it('keeps its own error, rolls back, and leaves the connection usable', async () => {
    const own = new TidemarkError('conflict', 'taken');
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query("INSERT INTO unique_probe VALUES ('a')");
        throw own;
      }),
    ).rejects.toBe(own);
    const dup = await t.db
      .transaction(async (tx) => {
        await tx.query("INSERT INTO unique_probe VALUES ('b')");
        await tx.query("INSERT INTO unique_probe VALUES ('b')");
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(dup).not.toBeInstanceOf(TidemarkError);
    expect((dup as { code?: string }).code).toBe('23505');
    expect(await t.db.query('SELECT k FROM unique_probe')).toEqual([]);
  });
});
