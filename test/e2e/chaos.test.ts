// The database going away under load (issue 25, item 1). One `--roles api` and one `--roles worker` process of the
// real `tidemark` command share a PostgreSQL server; while requests are tracked, the sandbox clock is advanced and
// webhooks are delivered to a local receiver, every connection of theirs to the test database is terminated
// (`pg_terminate_backend`, what a server restart does to them) again and again, many of them inside a transaction.
// Then: both processes are alive, every request was answered 2xx, 4xx or 503 (never a 500, never a dropped
// connection), every notification committed to the outbox reached the receiver, and no job is left active past the
// reclaim window. Runs only with TEST_DATABASE_URL: several processes cannot share the embedded PGlite database.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURES } from '../../src/domain/account.js';
import { SANDBOX_EXAMPLES } from '../../src/sandbox/world/scenarios.js';
import { EVENT_NAMES } from '../../src/domain/event-catalogue.js';
import { ORPHAN_RECLAIM_SECONDS } from '../../src/workers/queue.js';
import { startWorldClock } from '../kit/app.js';
import { type Server, startServer } from '../kit/cli.js';
import { freshDatabase, onServer, serverUrl, type TestDatabase } from '../kit/databases.js';
import { type Receiver, startReceiver } from '../kit/receiver.js';

const ADMIN_TOKEN = `tma_${randomBytes(24).toString('hex')}`;
const ENV = {
  TIDEMARK_ADMIN_TOKEN: ADMIN_TOKEN,
  TIDEMARK_SECRET_KEY: randomBytes(32).toString('base64'),
  TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: 'on',
  // Short enough that a claim lost with its connection (its lease: twice this plus 30 s) is free again in the test.
  TIDEMARK_WEBHOOKS_TIMEOUT_MS: '2000',
  TIDEMARK_WEBHOOKS_RETRY_SCHEDULE: '2s,2s,2s,2s,2s,2s,2s,2s,2s,2s',
};
const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };
/** How long the load and the terminations go on, how often the terminations come, and how many at most. */
const LOAD_MS = 25_000;
const KILL_EVERY_MS = [1200, 2500] as const;
const MAX_KILL_ROUNDS = 14;
/** The world clock starts here (not the day the test runs), as in scale-out.test.ts. */
const WORLD_START = '2026-11-25T00:00:00Z';
const RAISED = { default: 1_000_000, create_tracking_request: 1_000_000, infer_number: 1_000_000, refresh_container: 1_000_000 };

/** An answer's status, or 0 when there was none (the connection dropped). */
interface Answer {
  what: string;
  status: number;
  retryAfter: string | null;
  body: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What a dead process said last: the crash report Node prints (it ends with the Node.js version), else the tail. */
function crashOf(s: Server): string {
  const out = s.output();
  const end = out.search(/^Node\.js v\d+/m);
  return end >= 0 ? out.slice(Math.max(0, end - 5000), end + 40) : out.slice(-4000);
}

describe.skipIf(!onServer())(
  'chaos: every connection to PostgreSQL terminated, again and again, under load (needs TEST_DATABASE_URL)',
  () => {
    let database: TestDatabase;
    let admin: pg.Client;
    let receiver: Receiver;
    const servers: Server[] = [];
    let api: Server;
    let worker: Server;
    let auth: Record<string, string>;
    const answers: Answer[] = [];

    /** Sends a request and records its answer; a dropped connection is recorded as status 0. */
    async function call(what: string, headers: Record<string, string>, method: string, path: string, body?: unknown): Promise<Answer> {
      let answer: Answer;
      try {
        const res = await fetch(`${api.url}${path}`, {
          method,
          headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          // A slow answer is still an answer (an advance goes on through source errors); none may hang.
          signal: AbortSignal.timeout(75_000),
        });
        answer = { what, status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() };
      } catch (err) {
        answer = { what, status: 0, retryAfter: null, body: String((err as Error).cause ?? err) };
      }
      answers.push(answer);
      return answer;
    }

    beforeAll(async () => {
      database = await freshDatabase();
      await startWorldClock(database.db, WORLD_START, new Date());
      admin = new pg.Client({ connectionString: serverUrl(new URL(database.url!).pathname.slice(1)), application_name: 'chaos admin' });
      await admin.connect();
      receiver = await startReceiver();
    });
    afterAll(async () => {
      for (const s of servers) s.child.kill('SIGKILL');
      await receiver?.close();
      await admin?.end();
      await database?.drop();
    });

    it('keeps both processes up, answers 2xx/4xx/503 only, delivers every committed notification, leaves no job stuck', {
      timeout: 420_000,
    }, async () => {
      const env = { DATABASE_URL: database.url!, ...ENV };
      // A loaded machine (CI beside other test files) may take minutes to start them.
      api = await startServer(['--roles', 'api'], env, 150_000);
      servers.push(api);
      worker = await startServer(['--roles', 'worker'], { ...env, TIDEMARK_SANDBOX_URL: api.url! }, 150_000);
      servers.push(worker);
      auth = { authorization: `Token ${api.apiKey!}` };
      const raised = await call('raise limits', ADMIN, 'PATCH', '/admin/accounts/operator', {
        rate_limits: RAISED,
        plan: 'unlimited',
        features: [...FEATURES],
      });
      expect(raised.status, raised.body).toBe(200);
      const hook = await call('webhook', auth, 'POST', '/v2/webhooks', {
        data: { type: 'webhook', attributes: { url: receiver.url, events: [...EVENT_NAMES] } },
      });
      expect(hook.status, hook.body).toBe(201);

      const until = Date.now() + LOAD_MS;
      const running = () => Date.now() < until;
      const numbers = SANDBOX_EXAMPLES.filter((e) => e.request_type === 'bill_of_lading' || e.request_type === 'booking_number');
      // Tracks the documented numbers one after the other (a repeat answers 422).
      const tracker = (async () => {
        for (let i = 0; running(); i++) {
          const e = numbers[i % numbers.length]!;
          await call('track', auth, 'POST', '/v2/tracking_requests', {
            data: {
              type: 'tracking_request',
              attributes: { request_type: e.request_type, request_number: e.request_number, scac: e.scac },
            },
          });
          await sleep(150);
        }
      })();
      // Reads what there is.
      const reader = (async () => {
        while (running()) {
          await call('read', auth, 'GET', '/v2/tracking_requests?page[size]=10');
          await call('read', auth, 'GET', '/v2/shipments?page[size]=5');
          await sleep(100);
        }
      })();
      // Walks the world on: each advance refreshes what falls due, in transactions that commit notifications.
      const walker = (async () => {
        while (running()) {
          await call('advance', ADMIN, 'POST', '/sandbox/clock/advance', { hours: 2 });
          await sleep(200);
        }
      })();
      // Terminates every backend of the test database but this one, catching as many as it can inside a transaction.
      let rounds = 0;
      let inTransaction = 0;
      let terminated = 0;
      const chaos = (async () => {
        await sleep(3000);
        while (running() && rounds < MAX_KILL_ROUNDS) {
          // Up to a second's wait for a moment with some transaction open, then every connection goes.
          for (let i = 0; i < 50; i++) {
            const { rows } = await admin.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_stat_activity
               WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL AND state <> 'idle'`,
            );
            if (rows[0]!.n > 0) break;
            await sleep(20);
          }
          const { rows } = await admin.query<{ in_tx: boolean; done: boolean }>(
            `SELECT xact_start IS NOT NULL AND state <> 'idle' AS in_tx, pg_terminate_backend(pid) AS done FROM pg_stat_activity
             WHERE datname = current_database() AND pid <> pg_backend_pid()`,
          );
          rounds++;
          terminated += rows.filter((r) => r.done).length;
          inTransaction += rows.filter((r) => r.done && r.in_tx).length;
          await sleep(KILL_EVERY_MS[0] + Math.random() * (KILL_EVERY_MS[1] - KILL_EVERY_MS[0]));
        }
      })();
      await Promise.all([tracker, reader, walker, chaos]);

      const byStatus: Record<string, number> = {};
      for (const a of answers) byStatus[`${a.what} ${a.status}`] = (byStatus[`${a.what} ${a.status}`] ?? 0) + 1;
      if (process.env.TIDEMARK_CHAOS_PROGRESS) console.log({ rounds, terminated, inTransaction, byStatus });
      // The terminations were real and many, and hit transactions.
      expect(rounds).toBeGreaterThanOrEqual(8);
      expect(terminated).toBeGreaterThan(rounds * 3);
      expect(inTransaction).toBeGreaterThan(0);

      // Both processes lived through it.
      for (const s of servers)
        expect({ exit: s.child.exitCode, signal: s.child.signalCode }, crashOf(s)).toEqual({ exit: null, signal: null });

      // Every request was answered: 2xx, 4xx, or 503 with Retry-After and a JSON:API body; never a 500, never dropped.
      const bad = answers.filter((a) => !(a.status >= 200 && a.status < 500) && a.status !== 503);
      expect(bad.map((a) => `${a.what} ${a.status} ${a.body.slice(0, 300)}`)).toEqual([]);
      const unavailable = answers.filter((a) => a.status === 503);
      for (const a of unavailable) {
        expect(a.retryAfter, a.body).toMatch(/^\d+$/);
        expect((JSON.parse(a.body) as { errors: { status: string }[] }).errors[0]!.status).toBe('503');
      }
      expect(answers.filter((a) => a.status >= 200 && a.status < 300).length).toBeGreaterThan(20);

      // Once the database is left alone, the processes serve again, and the worker works off what was left.
      const after = await call('after', auth, 'GET', '/v2/tracking_requests?page[size]=1');
      expect(after.status, after.body).toBe(200);
      const outboxOf = async () =>
        (await admin.query<{ id: string; delivery_status: string }>('SELECT id, delivery_status FROM webhook_notifications')).rows;
      const delivered = () => new Set(receiver.received.map((r) => r.json.data.id));
      let missing: string[] = [];
      const deadline = Date.now() + 45_000;
      for (;;) {
        const outbox = await outboxOf();
        const got = delivered();
        missing = outbox.filter((n) => !got.has(n.id)).map((n) => `${n.id} ${n.delivery_status}`);
        if ((missing.length === 0 && outbox.length > 0) || Date.now() > deadline) break;
        await sleep(500);
      }
      expect((await outboxOf()).length).toBeGreaterThan(0);
      if (process.env.TIDEMARK_CHAOS_PROGRESS) console.log({ outbox: (await outboxOf()).length, received: receiver.received.length });
      // Every notification committed to the outbox reached the receiver (at least once).
      expect(missing).toEqual([]);

      // No job is held by nobody: none active without a heartbeat for longer than the reclaim window.
      const { rows: stuck } = await admin.query(
        `SELECT name, id, state, started_on, heartbeat_on FROM pgboss.job
         WHERE state = 'active' AND COALESCE(heartbeat_on, started_on) < now() - make_interval(secs => $1)`,
        [ORPHAN_RECLAIM_SECONDS],
      );
      expect(stuck).toEqual([]);
      for (const s of servers) expect(s.child.exitCode).toBeNull();
    });
  },
);
