// The engine's sweep refreshes due tracked shipments in batches committed together: two engines sweeping one
// database at once (two worker processes) refresh each tracked shipment once, and a refresh whose commit fails
// holds back no other refresh of its batch. Real seams: the sandbox faces over loopback, the real adapters, a
// real database (PGlite, or the server of TEST_DATABASE_URL with a pool per engine).
import { afterEach, describe, expect, it } from 'vitest';
import { FEATURES, type Feature } from '../domain/account.js';
import { SourceRegistry } from '../sources/registry.js';
import { PgDb } from '../storage/pg.js';
import { testApp, type TestApp } from '../../test/kit/app.js';
import { TrackingEngine } from './tracking-engine.js';

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
  t = await testApp({ sandbox: true, queue: true });
  t.services.config.publicUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
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
 * before a bill of lading's carrier request is sent.
 */
function engine(t: TestApp, fetched: Map<string, number>, whileFetching?: (number: string) => Promise<void>): TrackingEngine {
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
    db,
    clocks: s.clocks,
    registry: () => registry,
    shippingLines: s.shippingLines,
    jobs: s.jobs,
    rateLimits: s.rateLimits,
  });
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
  });

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
