// On-demand refreshes (`PATCH /v2/containers/{id}/refresh`, issue 25 item 10): one waiting refresh per container
// (asking again while it waits queues nothing), accounts served in turn however many refreshes one of them asked
// for, and nothing promised lost when the job queue stops between accepting and running, or a job dies holding
// its requests. The queue is driven job by job with JobQueue.runOnce; no sleeps.
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { jobDefinitions } from '../../src/compose.js';
import { newId } from '../../src/lib/ids.js';
import { REFRESH_REQUEST_ATTEMPTS, TRACKING_REFRESH_JOB } from '../../src/services/tracking-engine.js';
import { takeContainerRefreshes } from '../../src/storage/repositories/refreshes.js';
import { JobQueue } from '../../src/workers/queue.js';
import { type TestApp, testApp } from '../kit/app.js';
import { seedShipment } from '../kit/seed.js';

let t: TestApp | null = null;
const queues: JobQueue[] = [];
afterEach(async () => {
  for (const q of queues.splice(0)) await q.stop(1000);
  await t?.close();
  t = null;
});

/** A job queue on the app's database, attached to its services as a process's would be (not polling). */
async function startQueue(app: TestApp): Promise<JobQueue> {
  const queue = await JobQueue.start(app.database.db, jobDefinitions(app.services), {
    logger: pino({ level: 'silent' }),
    supervise: false,
  });
  app.services.jobs.attach(queue);
  queues.push(queue);
  return queue;
}

let numbers = 0;
/**
 * `n` containers of the account, each of a shipment following a tracked shipment of its own (active, due in a
 * year: nothing but an on-demand refresh asks its sources).
 */
async function trackedContainers(app: TestApp, accountId: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const k = ++numbers;
    const bl = `MAEU${String(k).padStart(9, '0')}`;
    const { id: shipmentId, containerIds } = await seedShipment(app, accountId, {
      bl,
      containers: [{ number: `MSKU${String(k).padStart(7, '0')}` }],
    });
    const trackedId = newId();
    const now = app.clock.now();
    await app.database.db.query(
      `INSERT INTO tracked_shipments (id, scac, number_type, number, active, next_check_at, line_next_check_at, created_at, updated_at)
       VALUES ($1, 'MAEU', 'bill_of_lading', $2, true, $3, $3, $4, $4)`,
      [trackedId, bl, new Date(now.getTime() + 365 * 86_400_000), now],
    );
    await app.database.db.query('UPDATE shipments SET tracked_shipment_id = $2 WHERE id = $1', [shipmentId, trackedId]);
    ids.push(containerIds[0]!);
  }
  return ids;
}

async function refreshJobs(app: TestApp): Promise<{ created: number; all: number }> {
  const [row] = await app.database.db.query<{ created: number; all: number }>(
    `SELECT count(*) FILTER (WHERE state = 'created')::int AS created, count(*)::int AS all FROM pgboss.job WHERE name = $1`,
    [TRACKING_REFRESH_JOB],
  );
  return row!;
}

const waiting = async (app: TestApp, accountId?: string) =>
  (
    await app.database.db.query<{ container_id: string }>(
      `SELECT container_id FROM container_refreshes WHERE $1::uuid IS NULL OR account_id = $1 ORDER BY seq`,
      [accountId ?? null],
    )
  ).map((r) => r.container_id);

/** When the line was last asked about the container's shipment (null: never since it was seeded). */
async function lineAskedAt(app: TestApp, containerId: string): Promise<Date | null> {
  const [row] = await app.database.db.query<{ at: Date | null }>(
    `SELECT ts.line_last_attempted_at AS at FROM containers c JOIN shipments s ON s.id = c.shipment_id
       JOIN tracked_shipments ts ON ts.id = s.tracked_shipment_id WHERE c.id = $1`,
    [containerId],
  );
  return row!.at;
}

async function refreshVia(app: TestApp, auth: { authorization: string }, containerId: string) {
  const res = await app.app.inject({ method: 'PATCH', url: `/v2/containers/${containerId}/refresh`, headers: auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('on-demand container refreshes', () => {
  it('keeps one waiting refresh per container: asking again while it waits answers the same and queues no second job', async () => {
    t = await testApp();
    const queue = await startQueue(t);
    const { account, auth } = await t.account({ features: ['refresh'] });
    const [container] = await trackedContainers(t, account.id, 1);

    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await refreshVia(t, auth, container!));
    expect(answers).toEqual(Array(5).fill({ message: 'Started refresh for Shipping line, Terminal, Rail' }));
    expect(await refreshJobs(t)).toEqual({ created: 1, all: 1 });
    expect(await waiting(t)).toEqual([container]);

    expect(await queue.runOnce(TRACKING_REFRESH_JOB)).toEqual({ completed: 1, failed: 0 });
    expect(await lineAskedAt(t, container!)).not.toBeNull();
    expect(await waiting(t)).toEqual([]);
    // Served: the next request is a new one, with its job.
    await refreshVia(t, auth, container!);
    expect(await refreshJobs(t)).toEqual({ created: 1, all: 2 });
    expect(await queue.runOnce(TRACKING_REFRESH_JOB)).toEqual({ completed: 1, failed: 0 });
  }, 60_000);

  it("serves accounts in turn: after 340 refreshes from one account, another account's runs within the next 2 jobs", async () => {
    t = await testApp();
    const queue = await startQueue(t);
    const a = await t.account({ features: ['refresh'] });
    const b = await t.account({ features: ['refresh'] });
    // A's 340 refreshes come in over more than a minute of the refresh bucket's 10: the test lifts A's limit.
    await t.services.accounts.update(t.database.db, a.account.id, { rateLimits: { refresh_container: 1000 } });
    const aContainers = await trackedContainers(t, a.account.id, 340);
    const [bContainer] = await trackedContainers(t, b.account.id, 1);
    for (const c of aContainers) await refreshVia(t, a.auth, c);
    await refreshVia(t, b.auth, bContainer!);
    expect(await refreshJobs(t)).toEqual({ created: 341, all: 341 });

    let jobsUntilB = 0;
    while ((await lineAskedAt(t, bContainer!)) === null) {
      expect(await queue.runOnce(TRACKING_REFRESH_JOB, 1)).toEqual({ completed: 1, failed: 0 });
      jobsUntilB++;
      expect(jobsUntilB, "B's refresh still waits").toBeLessThanOrEqual(2);
    }
    expect(await waiting(t, b.account.id)).toEqual([]);
    // A's are served oldest first, and none was lost or doubled on the way.
    const aLeft = await waiting(t, a.account.id);
    expect(aLeft).toEqual(aContainers.slice(jobsUntilB - 1));
    expect(await lineAskedAt(t, aContainers[0]!)).not.toBeNull();
    expect(await lineAskedAt(t, aContainers[1]!)).toBeNull();

    // B asks again while A still has hundreds waiting: again within 2 jobs.
    await refreshVia(t, b.auth, bContainer!);
    let again = 0;
    while (await waiting(t, b.account.id).then((w) => w.length > 0)) {
      expect(await queue.runOnce(TRACKING_REFRESH_JOB, 1)).toEqual({ completed: 1, failed: 0 });
      again++;
      expect(again, "B's second refresh still waits").toBeLessThanOrEqual(2);
    }
  }, 120_000);

  it('tries a refresh that fails again, gives it up after a few failures, and holds no other back meanwhile', async () => {
    t = await testApp();
    const queue = await startQueue(t);
    const a = await t.account({ features: ['refresh'] });
    const b = await t.account({ features: ['refresh'] });
    const [bad] = await trackedContainers(t, a.account.id, 1);
    const [good] = await trackedContainers(t, b.account.id, 1);
    // The bad container's tracked shipment takes no refresh (its leases still come and go): each fails at its commit.
    const [row] = await t.database.db.query<{ id: string }>(
      'SELECT s.tracked_shipment_id AS id FROM containers c JOIN shipments s ON s.id = c.shipment_id WHERE c.id = $1',
      [bad],
    );
    await t.database.db.exec(`
      CREATE FUNCTION refuse_tracked() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.id = '${row!.id}' AND NEW.line_last_attempted_at IS DISTINCT FROM OLD.line_last_attempted_at THEN
          RAISE EXCEPTION 'this tracked shipment cannot be written';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_tracked BEFORE UPDATE ON tracked_shipments FOR EACH ROW EXECUTE FUNCTION refuse_tracked();
    `);
    await refreshVia(t, a.auth, bad!);
    await refreshVia(t, b.auth, good!);

    const failures = async () =>
      (await t!.database.db.query<{ failures: number }>('SELECT failures FROM container_refreshes WHERE container_id = $1', [bad]))[0]
        ?.failures;
    // The first job takes A's (A was asked first) and fails: given back with a failure and a job to come back.
    expect(await queue.runOnce(TRACKING_REFRESH_JOB, 1)).toEqual({ completed: 1, failed: 0 });
    expect(await failures()).toBe(1);
    // B's is served next.
    expect(await queue.runOnce(TRACKING_REFRESH_JOB, 1)).toEqual({ completed: 1, failed: 0 });
    expect(await waiting(t, b.account.id)).toEqual([]);
    expect(await lineAskedAt(t, good!)).not.toBeNull();
    // A's is tried until its third failure, then given up: nothing waits and no job is left.
    await queue.runOnce(TRACKING_REFRESH_JOB);
    expect(await waiting(t)).toEqual([]);
    expect(await refreshJobs(t).then((j) => j.created)).toBe(0);
    const [{ n } = { n: 0 }] = await t.database.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state = 'completed'",
      [TRACKING_REFRESH_JOB],
    );
    // B's job, and one per attempt at A's.
    expect(n).toBe(1 + REFRESH_REQUEST_ATTEMPTS);
  }, 60_000);

  it('loses no accepted refresh when the job queue stops between accepting and running, nor when a job dies holding them', async () => {
    t = await testApp();
    const first = await startQueue(t);
    const a = await t.account({ features: ['refresh'] });
    const b = await t.account({ features: ['refresh'] });
    const aContainers = await trackedContainers(t, a.account.id, 3);
    const [bContainer] = await trackedContainers(t, b.account.id, 1);
    for (const c of [...aContainers, bContainer!]) await refreshVia(t, c === bContainer ? b.auth : a.auth, c);
    // The worker goes away before any job ran (as a killed process's would), and another starts.
    await first.stop(1000);
    queues.splice(queues.indexOf(first), 1);
    const second = await startQueue(t);

    // A job dies holding the refreshes it took: nobody else may take them while its hold lasts…
    const [job] = await second.boss.fetch(TRACKING_REFRESH_JOB);
    const wall = t.clock.now();
    const held = await t.database.db.transaction((tx) => takeContainerRefreshes(tx, job!.id, wall, new Date(wall.getTime() + 3600_000)));
    expect(held.map((r) => r.container_id)).toEqual([aContainers[0]]);
    expect(await t.services.trackingEngine.serveContainerRefresh(newId())).not.toBe('none');
    expect(await waiting(t)).toContain(aContainers[0]);
    // …and pg-boss's retry of the same job (same id) takes them back and serves them.
    expect(await t.services.trackingEngine.serveContainerRefresh(job!.id)).toBe('refreshed');
    await second.boss.complete(TRACKING_REFRESH_JOB, job!.id);
    expect(await waiting(t)).not.toContain(aContainers[0]);

    // The jobs queued before the stop serve the rest.
    const ran = await second.runOnce(TRACKING_REFRESH_JOB);
    expect(ran.failed).toBe(0);
    expect(await waiting(t)).toEqual([]);
    for (const c of [...aContainers, bContainer!]) expect(await lineAskedAt(t, c), c).not.toBeNull();
  }, 60_000);
});
