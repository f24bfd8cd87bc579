// A crash at any moment of a refresh's commit loses nothing and half-writes nothing. The database itself
// fails the N-th row written (a trigger on every table the engine writes), for N = 1, 2, … until a refresh
// gets through: each failed try must leave exactly what was there before, the lease it held must expire so
// another worker can take over, and the refresh that finally succeeds must announce each change once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '../../src/domain/account.js';
import { LEASE_MS } from '../../src/services/tracking-engine.js';
import { testApp, type TestApp } from '../kit/app.js';

const TABLES = [
  'tracking_requests',
  'tracked_shipments',
  'shipments',
  'containers',
  'transport_events',
  'estimated_events',
  'raw_observations',
  'account_events',
];

let t: TestApp;
let account: Account;

beforeAll(async () => {
  t = await testApp({ sandbox: true, queue: true, listen: true });
  account = (await t.account()).account;
  await t.database.db.exec(`
    CREATE SEQUENCE crash_writes;
    CREATE TABLE crash_at (n bigint NOT NULL);
    CREATE FUNCTION crash_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM crash_at) AND nextval('crash_writes') >= (SELECT n FROM crash_at LIMIT 1) THEN
        RAISE EXCEPTION 'simulated crash at write %', currval('crash_writes');
      END IF;
      RETURN NEW;
    END $$;
    ${TABLES.map((table) => `CREATE TRIGGER crash_${table} BEFORE INSERT OR UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION crash_guard();`).join('\n')}
  `);
});
afterAll(() => t.close());

/**
 * Everything the engine wrote, as comparable text. Leases aside (a crashed worker leaves its lease to expire),
 * and the bare identity row of a tracked shipment never fetched yet (made before the fetch, outside the
 * commit, so that concurrent requests for one number share it; it holds nothing).
 */
async function everything(): Promise<string> {
  const parts: string[] = [];
  for (const table of TABLES) {
    const where = table === 'tracked_shipments' ? 'WHERE state IS NOT NULL' : '';
    const rows = await t.database.db.query(`SELECT * FROM ${table} ${where} ORDER BY id`);
    parts.push(JSON.stringify(rows.map(({ lease_until: _lease, ...rest }) => rest)));
  }
  return parts.join('\n');
}

async function crashAt(n: number | null): Promise<void> {
  await t.database.db.query('DELETE FROM crash_at');
  if (n !== null) {
    await t.database.db.query("SELECT setval('crash_writes', 1, false)");
    await t.database.db.query('INSERT INTO crash_at (n) VALUES ($1)', [n]);
  }
}

/** The invariants a half-written commit would break. */
async function consistent(): Promise<void> {
  const db = t.database.db;
  // Every container the account has was announced once.
  const unannounced = await db.query(
    `SELECT c.number FROM containers c WHERE (SELECT count(*) FROM account_events e WHERE e.container_id = c.id AND e.event = 'container.created') <> 1`,
  );
  expect(unannounced).toEqual([]);
  // The account's containers are exactly the tracked state's.
  const [tracked] = await db.query<{ state: { containers: { number: string }[] } }>('SELECT state FROM tracked_shipments');
  const numbers = (await db.query<{ number: string }>('SELECT number FROM containers ORDER BY number')).map((r) => r.number);
  expect(numbers).toEqual(tracked!.state.containers.map((c) => c.number).sort());
  // Every announced transport event is stored, and every succeeded request points at its shipment.
  const dangling = await db.query(
    `SELECT e.id FROM account_events e WHERE e.event LIKE 'container.transport.%' AND e.transport_event_id IS NULL`,
  );
  expect(dangling).toEqual([]);
  const orphans = await db.query(`SELECT id FROM tracking_requests WHERE status = 'created' AND shipment_id IS NULL`);
  expect(orphans).toEqual([]);
}

describe('a crash at any write of a commit', () => {
  it('rolls the whole commit back, and the retry after the lease expires announces each change once', async () => {
    const examples = (await t.services.sandbox!.examples()) as readonly { scenario: string; scac: string | null; request_number: string }[];
    const e = examples.find((x) => x.scenario === 'holds')!;
    const req = await t.services.trackingRequests.create(account, {
      requestType: 'bill_of_lading',
      requestNumber: e.request_number,
      scac: e.scac,
      autoDetect: false,
      refNumbers: [],
      shipmentTags: [],
      customerId: null,
    });

    // The first attempt: crash at each write in turn until it gets through.
    let tries = 0;
    for (let n = 1; ; n++) {
      const before = await everything();
      await crashAt(n);
      const ok = await t.services.trackingEngine.attempt(req.id).then(
        () => true,
        () => false,
      );
      await crashAt(null);
      const [row] = await t.database.db.query<{ status: string }>('SELECT status FROM tracking_requests WHERE id = $1', [req.id]);
      if (ok && row!.status === 'created') break;
      expect(await everything(), `crash at write ${n}`).toBe(before);
      t.clock.advance(LEASE_MS + 1);
      tries++;
      expect(tries).toBeLessThan(500);
    }
    expect(tries).toBeGreaterThan(3);
    await consistent();

    // Days later, a refresh with changes (discharge, holds): crash at each write of its commit too.
    await t.services.sandbox!.clock.moveTo(t.database.db, new Date(t.services.sandbox!.clock.now().getTime() + 12 * 86_400_000));
    const [{ id }] = (await t.database.db.query<{ id: string }>('SELECT id FROM tracked_shipments')) as [{ id: string }];
    const eventsBefore = (await t.database.db.query('SELECT 1 FROM account_events')).length;
    let refreshTries = 0;
    for (let n = 1; ; n++) {
      const before = await everything();
      await crashAt(n);
      const ok = await t.services.trackingEngine.refresh(id, { force: true }).then(
        (done) => done,
        () => false,
      );
      await crashAt(null);
      if (ok) break;
      expect(await everything(), `crash at write ${n}`).toBe(before);
      t.clock.advance(LEASE_MS + 1);
      refreshTries++;
      expect(refreshTries).toBeLessThan(500);
    }
    expect(refreshTries).toBeGreaterThan(3);
    await consistent();
    const after = await t.database.db.query<{ event: string; payload: { transport_event?: { key: string } } }>(
      'SELECT event, payload FROM account_events ORDER BY seq',
    );
    expect(after.length).toBeGreaterThan(eventsBefore);
    const actuals = after
      .filter((x) => x.event.startsWith('container.transport.') && !x.event.includes('.estimated.'))
      .map((x) => x.payload.transport_event!.key);
    expect(new Set(actuals).size).toBe(actuals.length);
  }, 300_000);
});
