// A stop is bounded (issue 25, item 12): the real service, its webhook receiver hanging (deliveries in flight that
// would take the whole 60 s delivery timeout), a clock advance in flight, and its stdout a closed pipe, is asked to
// stop with SIGTERM. It is gone within TIDEMARK_STOP_TIMEOUT (the default 10 s) and has given its webhook leases
// back for other workers. On PGlite by default; on the PostgreSQL server when TEST_DATABASE_URL is set.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/storage/db.js';
import { PgliteDb } from '../../src/storage/pglite.js';
import { EVENT_NAMES } from '../../src/domain/event-catalogue.js';
import { callServer, type Server, startServer } from '../kit/cli.js';
import { freshDatabase, onServer, type TestDatabase } from '../kit/databases.js';
import { startReceiver } from '../kit/receiver.js';
import { until } from '../kit/wait.js';

const dirs: string[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c().catch(() => {});
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The documented default of TIDEMARK_STOP_TIMEOUT. */
const STOP_TIMEOUT_MS = 10_000;
/** What the test allows beyond it: the signal's delivery and the process's exit being noticed. */
const SLACK_MS = 1_500;

const call = (server: Server, auth: string, method: string, path: string, body?: unknown) =>
  callServer(server, { authorization: auth }, method, path, body);

describe('stopping the real service', () => {
  it('SIGTERM with deliveries hanging, an advance in flight and stdout closed: gone within the stop timeout, leases given back', {
    timeout: 300_000,
  }, async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    // The receiver takes every request and never answers: each attempt would wait out the delivery timeout.
    receiver.respond = () => ({ status: 200, delayMs: 600_000 });
    let database: TestDatabase | null = null;
    let dir: string | null = null;
    const env: Record<string, string> = { TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: '1', TIDEMARK_WEBHOOKS_TIMEOUT_MS: '60000' };
    if (onServer()) {
      database = await freshDatabase();
      cleanups.push(() => database!.drop());
      env.DATABASE_URL = database.url!;
      // A server keeps no key of its own for the secrets it seals (docs/operations.md).
      env.TIDEMARK_SECRET_KEY = randomBytes(32).toString('base64');
    } else {
      dir = mkdtempSync(join(tmpdir(), 'tidemark-stop-'));
      dirs.push(dir);
    }
    // A loaded machine (CI beside other test files) may take minutes to start it.
    const server = await startServer(dir ? ['--data-dir', dir] : [], env, 180_000);
    cleanups.push(async () => server.child.kill('SIGKILL'));
    const key = `Token ${server.apiKey!}`;
    const hook = await call(server, key, 'POST', '/v2/webhooks', {
      data: { type: 'webhook', attributes: { url: receiver.url, events: [...EVENT_NAMES] } },
    });
    expect(hook.status).toBe(201);
    for (const [number, scac] of [
      ['MEDU240200002', 'MSCU'],
      ['CMDU240300003', 'CMDU'],
    ]) {
      const res = await call(server, key, 'POST', '/v2/tracking_requests', {
        data: { type: 'tracking_request', attributes: { request_type: 'bill_of_lading', request_number: number, scac } },
      });
      expect(res.status).toBe(201);
    }
    const admin = `Bearer ${server.adminToken!}`;
    expect((await call(server, admin, 'POST', '/sandbox/clock/advance', { days: 2 })).status).toBe(200);
    // Deliveries are in flight: the receiver holds them.
    await until('deliveries in flight', 60_000, () => (receiver.received.length >= 1 ? true : null));

    // Whoever read the process's output is gone: every write from here on meets a closed pipe (EPIPE).
    server.child.stdout!.destroy();
    server.child.stderr!.destroy();
    // A long clock advance is in flight too (its answer does not matter: the process is stopping).
    void call(server, admin, 'POST', '/sandbox/clock/advance', { days: 30 }).catch(() => null);
    await new Promise((r) => setTimeout(r, 300));

    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      server.child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const asked = Date.now();
    server.child.kill('SIGTERM');
    const outcome = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), STOP_TIMEOUT_MS + 20_000))]);
    const tookMs = Date.now() - asked;
    expect(outcome, `still running ${tookMs} ms after SIGTERM`).not.toBeNull();
    expect(outcome!.signal).toBeNull();
    expect(tookMs).toBeLessThanOrEqual(STOP_TIMEOUT_MS + SLACK_MS);

    // The notifications it was sending are free for another worker now, not held until their leases run out.
    let db: Db;
    if (database) db = database.db;
    else {
      db = await PgliteDb.open(dir!, 'stop-process test');
      cleanups.unshift(() => db.close());
    }
    const [row] = await db.query<{ leased: number; pending: number }>(
      `SELECT count(*) FILTER (WHERE lease_until > now())::int AS leased,
              count(*) FILTER (WHERE delivery_status = 'pending')::int AS pending
         FROM webhook_notifications`,
    );
    expect(row!.pending).toBeGreaterThan(0);
    expect(row!.leased).toBe(0);
  });
});
