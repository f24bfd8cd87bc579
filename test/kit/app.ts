// An HTTP app on a fresh database with a fixed wall clock, plus helpers to make accounts and keys.
import type { Account, Feature, Plan } from '../../src/domain/account.js';
import { FixedClock } from '../../src/domain/clock.js';
import { loadConfig, type Config } from '../../src/config/index.js';
import pino from 'pino';
import { jobDefinitions, makeServices, openSandbox, type Services } from '../../src/compose.js';
import { JobQueue } from '../../src/workers/queue.js';
import { buildApp } from '../../src/http/app.js';
import { listen } from '../../src/http/listener.js';
import type { App } from '../../src/http/context.js';
import type { Db } from '../../src/storage/db.js';
import { ensureClock } from '../../src/storage/repositories/sandbox.js';
import { freshDatabase, type TestDatabase } from './databases.js';

export const TEST_PUBLIC_URL = 'http://tidemark.test';

/**
 * TIDEMARK_SECRET_KEY of test apps (a server requires one; on PGlite the key file is for data directories, and test
 * databases have none). services/keyring.test.ts covers the other cases.
 */
export const TEST_SECRET_KEY = 'dGlkZW1hcmsgdGVzdCBzZWNyZXQga2V5IDMyIGJ5dGU=';

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ TIDEMARK_PUBLIC_URL: TEST_PUBLIC_URL, TIDEMARK_SECRET_KEY: TEST_SECRET_KEY, ...env });
}

export interface TestApp {
  app: App;
  services: Services;
  clock: FixedClock;
  database: TestDatabase;
  /** Where the app listens (also its public URL) with `listen`; null otherwise (inject() only). */
  url: string | null;
  /** The job queue (not polling: run due jobs with `queue.runOnce()`); null unless asked for with `queue: true`. */
  queue: JobQueue | null;
  /** A new account with one API key; the key is ready for `Authorization: Token`. */
  account(opts?: {
    name?: string;
    plan?: Plan;
    features?: Feature[];
  }): Promise<{ account: Account; token: string; auth: { authorization: string } }>;
  close(): Promise<void>;
}

let accounts = 0;

/**
 * `sandbox: true` turns the simulated world on, its clock in the database starting at `worldStart` (default: the
 * wall clock's time); otherwise the fixed clock is both wall and world time. A test whose wall clock must be the
 * real time (a browser's cookies and "just now") gives `worldStart`, so that the world it plays does not depend on
 * the day it runs. `listen` binds 127.0.0.1 (on a free port unless given one) before the services are made, as a
 * process does, and makes the address the public URL: the sandbox faces are then reached over HTTP by the real
 * adapters, and links name the address.
 */
export async function testApp(
  options: {
    database?: TestDatabase;
    clock?: FixedClock;
    env?: Record<string, string>;
    sandbox?: boolean;
    queue?: boolean;
    worldStart?: Date | string;
    listen?: boolean | { port: number };
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await freshDatabase());
  const clock = options.clock ?? new FixedClock('2026-03-01T12:00:00.500Z');
  const listener = options.listen ? await listen('127.0.0.1', options.listen === true ? 0 : options.listen.port) : null;
  const config = testConfig({
    TIDEMARK_SANDBOX: options.sandbox ? 'on' : 'off',
    ...(listener ? { TIDEMARK_PUBLIC_URL: listener.address } : {}),
    ...options.env,
  });
  if (options.worldStart !== undefined) {
    if (!config.sandbox.enabled) throw new Error('testApp: worldStart needs sandbox: true');
    await startWorldClock(database.db, options.worldStart, clock.now(), config.sandbox.speed);
  }
  const { clocks, sandbox } = await openSandbox(config, database.db, clock);
  const services = makeServices(config, database.db, clocks, sandbox);
  const queue = options.queue
    ? await JobQueue.start(database.db, jobDefinitions(services), { logger: pino({ level: 'silent' }), supervise: false })
    : null;
  if (queue) services.jobs.attach(queue);
  // Documents are kept as in the API role, so that every test reading after a write proves the write drops them.
  await services.documents.start(database.db);
  const app = await buildApp(services, listener ? { listener } : {});
  await app.ready();
  return {
    app,
    url: listener?.address ?? null,
    services,
    queue,
    clock,
    database,
    async account(opts = {}) {
      const account = await services.accounts.create(database.db, {
        name: opts.name ?? `acct-${process.pid}-${accounts++}`,
        plan: opts.plan ?? 'unlimited',
        features: opts.features ?? [],
      });
      const { token } = await services.accounts.issueKey(database.db, account.id);
      return { account, token, auth: { authorization: `Token ${token}` } };
    },
    async close() {
      // Every test has had its answers: connections still open (a client's keep-alive, a stream a client left
      // unread) are cut, so that closing never waits on a peer.
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
      await services.documents.stop();
      if (queue) await queue.stop(1000);
      if (!options.database) await database.drop();
    },
  };
}

/**
 * Starts the sandbox world clock of a fresh database at `world` (speed 0 unless given: it moves only when
 * advanced), as the first start of a process would at its wall-clock time. Every process started on the database
 * afterwards finds the clock there and keeps it, so the world's stories do not depend on the day the test runs.
 */
export async function startWorldClock(db: Db, world: Date | string, wall: Date, speed = 0): Promise<void> {
  const row = await ensureClock(db, new Date(world), wall, speed);
  if (row.baseWorldAt.getTime() !== new Date(world).getTime()) throw new Error('startWorldClock: the world clock had started already');
}
