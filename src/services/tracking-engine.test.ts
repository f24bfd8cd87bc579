// The engine's sweep refreshes due tracked shipments in batches committed together: two engines sweeping one
// database at once (two worker processes) refresh each tracked shipment once, and a refresh whose commit fails
// holds back no other refresh of its batch. A new account's attempt that reuses a fresh tracked shipment gets
// what a refresh committed meanwhile. Real seams: the sandbox faces over loopback, the real adapters, a
// real database (PGlite, or the server of TEST_DATABASE_URL with a pool per engine).
import { afterEach, describe, expect, it } from 'vitest';
import { FEATURES, type Feature } from '../domain/account.js';
import { SourceRegistry } from '../sources/registry.js';
import type { Db, Queryable, Row } from '../storage/db.js';
import { PgDb } from '../storage/pg.js';
import { testApp, type TestApp } from '../../test/kit/app.js';
import { onServer } from '../../test/kit/databases.js';
import { TrackingEngine } from './tracking-engine.js';
import { until } from '../../test/kit/wait.js';

const DAY = 86_400_000;
const NUMBERS = ['MAEU', 'MSCU', 'HLCU', 'CMDU', 'ONEY', 'COSU', 'ZIMU'].map((scac, i) => ({
  scac,
  number: `${scac}SWEEP${String(i).padStart(4, '0')}`,
}));

let t: TestApp | null = null;
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
  await t?.close();
  t = null;
});

/** Two accounts track NUMBERS (the first also by a second account); first attempts done; the world a week on. */
async function tracked(): Promise<{ t: TestApp; worldNow: Date }> {
  t = await testApp({ sandbox: true, queue: true, listen: true });
  const { account } = await t.account({ features: [...FEATURES] as Feature[] });
  const { account: other } = await t.account({ features: [...FEATURES] as Feature[] });
  for (const [i, n] of NUMBERS.entries()) {
    for (const a of i === 0 ? [account, other] : [account]) {
      await t.services.trackingRequests.create(a, {
        requestType: 'bill_of_lading',
        requestNumber: n.number,
        scac: n.scac,
        autoDetect: false,
        refNumbers: [],
        shipmentTags: [],
        customerId: null,
      });
    }
  }
  await t.queue!.runOnce('tracking.attempt');
  const created = await t.database.db.query("SELECT 1 FROM tracking_requests WHERE status = 'created'");
  expect(created.length).toBe(NUMBERS.length + 1);
  const sandbox = t.services.sandbox!;
  await sandbox.clock.moveTo(t.database.db, new Date(sandbox.clock.now().getTime() + 7 * DAY));
  return { t, worldNow: sandbox.clock.now() };
}

/**
 * An engine of its own (a worker process), its carrier requests counted per bill of lading; `whileFetching` runs
 * before a bill of lading's carrier request is sent; `wrap` stands between the engine and its database.
 */
function engine(
  t: TestApp,
  fetched: Map<string, number>,
  whileFetching?: (number: string) => Promise<void>,
  wrap: (db: Db) => Db = (db) => db,
): TrackingEngine {
  const counting: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const number = url.pathname.endsWith('/v2/events') ? url.searchParams.get('transportDocumentReference') : null;
    if (number) {
      fetched.set(number, (fetched.get(number) ?? 0) + 1);
      await whileFetching?.(number);
    }
    return globalThis.fetch(input, init);
  };
  const registry = new SourceRegistry({ sandboxUrl: t.services.config.publicUrl, carriers: {}, fetch: counting });
  let db = t.database.db;
  if (t.database.url) {
    const own = new PgDb(t.database.url, { max: 5 });
    closing.push(() => own.close());
    db = own;
  }
  const s = t.services;
  return new TrackingEngine({
    db: wrap(db),
    clocks: s.clocks,
    registry: () => registry,
    shippingLines: s.shippingLines,
    jobs: s.jobs,
    rateLimits: s.rateLimits,
  });
}

/**
 * A database whose first transaction waits for `gate` before it begins (`at: 'begin'`) or, its statements run,
 * before it commits (`at: 'commit'`); `reached` resolves when it starts waiting.
 */
class PausingDb implements Db {
  readonly reached: Promise<void>;
  #reach!: () => void;
  #paused = false;

  constructor(
    private readonly db: Db,
    private readonly gate: Promise<void>,
    private readonly at: 'begin' | 'commit',
  ) {
    this.reached = new Promise((resolve) => {
      this.#reach = resolve;
    });
  }

  get kind() {
    return this.db.kind;
  }
  query<T extends Row = Row>(text: string, values?: readonly unknown[]): Promise<T[]> {
    return this.db.query<T>(text, values);
  }
  exec(sql: string): Promise<void> {
    return this.db.exec(sql);
  }
  notifyAfterCommit(channel: string, payload?: string): void {
    this.db.notifyAfterCommit?.(channel, payload);
  }
  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    if (this.#paused) return this.db.transaction(fn);
    this.#paused = true;
    if (this.at === 'begin') {
      this.#reach();
      await this.gate;
      return this.db.transaction(fn);
    }
    return this.db.transaction(async (tx) => {
      try {
        return await fn(tx);
      } finally {
        this.#reach();
        await this.gate;
      }
    });
  }
  listen(channel: string, onMessage: (payload: string | null) => void): Promise<() => Promise<void>> {
    return this.db.listen(channel, onMessage);
  }
  poolStats() {
    return this.db.poolStats();
  }
  close(): Promise<void> {
    return this.db.close();
  }
}

/** An engine whose first transaction pauses (see PausingDb) until `open()`. */
function pausedEngine(t: TestApp, at: 'begin' | 'commit') {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let pausing: PausingDb | undefined;
  const paused = engine(t, new Map(), undefined, (own) => {
    pausing = new PausingDb(own, gate, at);
    return pausing;
  });
  return { engine: paused, reached: pausing!.reached, open };
}

/** Resolves once a session of the test's database waits for a lock, or once `settled` has. */
async function lockWaitOr(db: Db, settled: Promise<unknown>): Promise<void> {
  let done = false;
  settled.then(
    () => (done = true),
    () => (done = true),
  );
  await until(
    'a session waiting for a lock, or the work settled',
    20_000,
    async () => {
      if (done) return true;
      const [row] = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      return row!.n > 0;
    },
    10,
  );
}

/** What an account's shipment shows: its engine columns, containers and transport events. */
async function shown(db: Db, shipmentId: string) {
  const [shipment] = await db.query(
    `SELECT snapshot, pod_eta_at, pod_ata_at, destination_ata_at, line_tracking_last_attempted_at, line_tracking_last_succeeded_at,
       line_tracking_next_attempt_at FROM shipments WHERE id = $1`,
    [shipmentId],
  );
  const containers = await db.query(
    `SELECT number, current_status, snapshot, terminal_checked_at, rail_checked_at FROM containers
     WHERE shipment_id = $1 ORDER BY number`,
    [shipmentId],
  );
  const events = await db.query(
    `SELECT c.number, e.key, e.event, e."timestamp" FROM transport_events e JOIN containers c ON c.id = e.container_id
     WHERE e.shipment_id = $1 ORDER BY c.number, e.key`,
    [shipmentId],
  );
  return { shipment, containers, events };
}

async function refreshedAt(t: TestApp, worldNow: Date): Promise<{ number: string; leased: boolean }[]> {
  return t.database.db.query<{ number: string; leased: boolean }>(
    'SELECT number, lease_until IS NOT NULL AS leased FROM tracked_shipments WHERE line_last_attempted_at = $1 ORDER BY number',
    [worldNow],
  );
}

describe('the sweep', () => {
  it('refreshes each due tracked shipment once when two workers sweep at the same time', async () => {
    const { t, worldNow } = await tracked();
    const fetched = new Map<string, number>();
    const [a, b] = await Promise.all([engine(t, fetched).runDue(worldNow), engine(t, fetched).runDue(worldNow)]);
    expect(a + b).toBe(NUMBERS.length);
    expect(Object.fromEntries(fetched)).toEqual(Object.fromEntries(NUMBERS.map((n) => [n.number, 1])));
    expect(await refreshedAt(t, worldNow)).toEqual(
      NUMBERS.map((n) => ({ number: n.number, leased: false })).sort((x, y) => (x.number < y.number ? -1 : 1)),
    );
    // Both accounts following the first number got its refresh.
    const shipments = await t.database.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM shipments s JOIN tracked_shipments ts ON ts.id = s.tracked_shipment_id
       WHERE ts.number = $1 AND s.line_tracking_last_attempted_at = $2`,
      [NUMBERS[0]!.number, worldNow],
    );
    expect(shipments[0]!.n).toBe(2);
    // Nothing is due any more.
    expect(await engine(t, fetched).runDue(worldNow)).toBe(0);
  });

  it('commits the rest of a batch when one refresh cannot be written, and that one on the next sweep', async () => {
    const { t, worldNow } = await tracked();
    const db = t.database.db;
    const [bad] = await db.query<{ id: string }>(
      'SELECT s.id FROM shipments s JOIN tracked_shipments ts ON ts.id = s.tracked_shipment_id WHERE ts.number = $1 LIMIT 1',
      [NUMBERS[2]!.number],
    );
    await db.exec(`
      CREATE FUNCTION refuse_shipment() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.id = '${bad!.id}' THEN RAISE EXCEPTION 'this shipment cannot be written'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_shipment BEFORE UPDATE ON shipments FOR EACH ROW EXECUTE FUNCTION refuse_shipment();
    `);
    const fetched = new Map<string, number>();
    await expect(engine(t, fetched).runDue(worldNow)).rejects.toThrow('this shipment cannot be written');
    const others = NUMBERS.filter((n) => n !== NUMBERS[2]).map((n) => ({ number: n.number, leased: false }));
    expect(await refreshedAt(t, worldNow)).toEqual(others.sort((x, y) => (x.number < y.number ? -1 : 1)));
    // Its lease is released: the next sweep takes it again and gets it through.
    const [held] = await db.query<{ leased: boolean }>(
      'SELECT lease_until IS NOT NULL AS leased FROM tracked_shipments WHERE number = $1',
      [NUMBERS[2]!.number],
    );
    expect(held!.leased).toBe(false);
    await db.exec('DROP TRIGGER refuse_shipment ON shipments');
    expect(await engine(t, fetched).runDue(worldNow)).toBe(1);
    expect((await refreshedAt(t, worldNow)).length).toBe(NUMBERS.length);
    // Every transport event of the week was announced once, the retried shipment's included.
    const keys = await db.query<{ key: string; n: number }>(
      `SELECT event || ' ' || container_id || ' ' || (payload->'transport_event'->>'key') AS key, count(*)::int AS n FROM account_events
       WHERE event LIKE 'container.transport.%' AND event NOT LIKE '%.estimated.%' GROUP BY 1 HAVING count(*) > 1`,
    );
    expect(keys).toEqual([]);
  }, 90_000); // A week of refreshes for every number, twice: ~25 s alone, more beside other test files.

  it('does not write a refresh whose lease ran out and another worker took, nor release that worker’s lease', async () => {
    const { t, worldNow } = await tracked();
    const db = t.database.db;
    const slow = NUMBERS[3]!.number;
    const theirs = new Date(t.clock.now().getTime() + 3_600_000);
    // The carrier answers so late that the lease expires and another worker claims the shipment meanwhile.
    const sweeper = engine(t, new Map(), async (number) => {
      if (number === slow) await db.query('UPDATE tracked_shipments SET lease_until = $2 WHERE number = $1', [number, theirs]);
    });
    await expect(sweeper.runDue(worldNow)).rejects.toThrow('ran out and another worker took it over');
    const others = NUMBERS.filter((n) => n.number !== slow).map((n) => ({ number: n.number, leased: false }));
    expect(await refreshedAt(t, worldNow)).toEqual(others.sort((x, y) => (x.number < y.number ? -1 : 1)));
    const [row] = await db.query<{ lease_until: Date; state_at: string | null }>(
      'SELECT lease_until, line_last_attempted_at AS state_at FROM tracked_shipments WHERE number = $1',
      [slow],
    );
    expect(row!.lease_until).toEqual(theirs);
    expect(row!.state_at).not.toEqual(worldNow);
  });
});

/** Account A tracks a number (its attempt fetches, so the tracked shipment is fresh); B asks for it too. */
async function reusing() {
  const app = await testApp({ sandbox: true, queue: true, listen: true });
  t = app;
  const db = app.database.db;
  const { account: a } = await app.account({ features: [...FEATURES] as Feature[] });
  const { account: b } = await app.account({ features: [...FEATURES] as Feature[] });
  const n = NUMBERS[0]!;
  const input = {
    requestType: 'bill_of_lading' as const,
    requestNumber: n.number,
    scac: n.scac,
    autoDetect: false,
    refNumbers: [],
    shipmentTags: [],
    customerId: null,
  };
  const requestA = await app.services.trackingRequests.create(a, input);
  await app.queue!.runOnce('tracking.attempt');
  const [tracked] = await db.query<{ id: string }>('SELECT id FROM tracked_shipments WHERE number = $1', [n.number]);
  const [doneA] = await db.query<{ shipment_id: string }>('SELECT shipment_id FROM tracking_requests WHERE id = $1', [requestA.id]);
  const requestB = await app.services.trackingRequests.create(b, input);
  return {
    t: app,
    a,
    trackedId: tracked!.id,
    shipmentA: doneA!.shipment_id,
    fetchedAt: app.services.sandbox!.clock.now(),
    requestB: requestB.id,
  };
}

async function requestRow(db: Db, id: string) {
  const [row] = await db.query<{ status: string; shipment_id: string | null; next_attempt_at: Date | null }>(
    'SELECT status, shipment_id, next_attempt_at FROM tracking_requests WHERE id = $1',
    [id],
  );
  return row!;
}

/** B's request ended created, its shipment showing what A's shows. */
async function endsLikeA(db: Db, requestB: string, shipmentA: string): Promise<void> {
  const done = await requestRow(db, requestB);
  expect(done.status).toBe('created');
  expect(await shown(db, done.shipment_id!)).toEqual(await shown(db, shipmentA));
}

/** The world three weeks on: the vessel has arrived and discharged, which A's refresh will learn. */
async function later(t: TestApp, fetchedAt: Date): Promise<Date> {
  return t.services.sandbox!.clock.moveTo(t.database.db, new Date(fetchedAt.getTime() + 21 * DAY));
}

describe('a new account reusing a freshly fetched tracked shipment', () => {
  it('gets what a refresh committed while its attempt was on its way to its transaction', async () => {
    const { t, trackedId, shipmentA, fetchedAt, requestB } = await reusing();
    const db = t.database.db;
    const before = await shown(db, shipmentA);
    const attempting = pausedEngine(t, 'begin');
    const attempt = attempting.engine.attempt(requestB, fetchedAt);
    await attempting.reached;
    // Another worker refreshes the tracked shipment, for A only: B has no shipment yet.
    const worldNow = await later(t, fetchedAt);
    expect(await engine(t, new Map()).refresh(trackedId, { worldNow, force: true })).toBe(true);
    const after = await shown(db, shipmentA);
    expect(after.events.length).toBeGreaterThan(before.events.length);

    attempting.open();
    expect(await attempt).toBe(true);
    const done = await requestRow(db, requestB);
    expect(done.status).toBe('created');
    expect(await shown(db, done.shipment_id!)).toEqual(after);
  });

  // Transactions interleave only on a server: on PGlite a transaction holds the only connection.
  it.skipIf(!onServer())('gets what a refresh that wrote the tracked shipment first commits during its transaction', async () => {
    const { t, trackedId, shipmentA, fetchedAt, requestB } = await reusing();
    const db = t.database.db;
    const attempting = pausedEngine(t, 'begin');
    const attempt = attempting.engine.attempt(requestB, fetchedAt);
    await attempting.reached;
    // The refresh has written everything, for A only, and not committed yet when B's transaction starts.
    const refreshing = pausedEngine(t, 'commit');
    const refresh = refreshing.engine.refresh(trackedId, { worldNow: await later(t, fetchedAt), force: true });
    await refreshing.reached;
    attempting.open();
    await lockWaitOr(db, attempt);
    refreshing.open();
    expect(await refresh).toBe(true);
    expect(await attempt).toBe(true);

    await endsLikeA(db, requestB, shipmentA);
  });

  it.skipIf(!onServer())('is refreshed by a refresh that writes the tracked shipment during its transaction', async () => {
    const { t, trackedId, shipmentA, fetchedAt, requestB } = await reusing();
    const db = t.database.db;
    // The refresh has fetched and is about to commit when B's attempt writes B's shipment, not committed yet.
    const refreshing = pausedEngine(t, 'begin');
    const refresh = refreshing.engine.refresh(trackedId, { worldNow: await later(t, fetchedAt), force: true });
    await refreshing.reached;
    const attempting = pausedEngine(t, 'commit');
    const attempt = attempting.engine.attempt(requestB, fetchedAt);
    await attempting.reached;
    refreshing.open();
    await lockWaitOr(db, refresh);
    attempting.open();
    expect(await attempt).toBe(true);
    expect(await refresh).toBe(true);

    await endsLikeA(db, requestB, shipmentA);
  });

  it('does not follow a tracked shipment that a refresh stopped meanwhile, and fetches it on its next attempt', async () => {
    const { t, a, trackedId, shipmentA, fetchedAt, requestB } = await reusing();
    const db = t.database.db;
    const attempting = pausedEngine(t, 'begin');
    const attempt = attempting.engine.attempt(requestB, fetchedAt);
    await attempting.reached;
    // A stops tracking; the refresh finds nobody following and stops asking.
    await t.services.trackingEngine.stopTracking(a.id, shipmentA);
    expect(await engine(t, new Map()).refresh(trackedId, { worldNow: fetchedAt, force: true })).toBe(true);
    const active = async () =>
      (await db.query<{ active: boolean }>('SELECT active FROM tracked_shipments WHERE id = $1', [trackedId]))[0]!.active;
    expect(await active()).toBe(false);

    attempting.open();
    expect(await attempt).toBe(true);
    const retry = new Date(fetchedAt.getTime() + 60_000);
    expect(await requestRow(db, requestB)).toMatchObject({ status: 'pending', shipment_id: null, next_attempt_at: retry });
    expect(await engine(t, new Map()).attempt(requestB, retry)).toBe(true);
    expect((await requestRow(db, requestB)).status).toBe('created');
    expect(await active()).toBe(true);
  });

  it('stops at once for a new account when the journey it asks for is over, as it stopped for the others', async () => {
    const { t, shipmentA, trackedId, fetchedAt, requestB } = await reusing();
    const db = t.database.db;
    // Months on: every container is back empty; A's refresh stops the tracked shipment and A's shipment.
    const worldNow = await t.services.sandbox!.clock.moveTo(db, new Date(fetchedAt.getTime() + 150 * DAY));
    expect(await engine(t, new Map()).refresh(trackedId, { worldNow, force: true })).toBe(true);
    const stoppedReason = async (shipmentId: string) =>
      (
        await db.query<{ reason: string | null }>('SELECT line_tracking_stopped_reason AS reason FROM shipments WHERE id = $1', [
          shipmentId,
        ])
      )[0]!.reason;
    const reason = await stoppedReason(shipmentA);
    expect(reason).not.toBeNull();

    // B's attempt fetches again (nothing fresh to reuse) and finds the journey still over.
    expect(await engine(t, new Map()).attempt(requestB, worldNow)).toBe(true);
    const done = await requestRow(db, requestB);
    expect(done.status).toBe('tracking_stopped');
    expect(await stoppedReason(done.shipment_id!)).toBe(reason);
    expect(await shown(db, done.shipment_id!)).toEqual(await shown(db, shipmentA));
  });
});
