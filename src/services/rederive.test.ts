// The re-derivation after a change of the derivation rules, on a real database (PGlite, or the server of
// TEST_DATABASE_URL): data stored under the rules before derivation version 1 (a box at sea that a terminal said was
// "not available" stored as `not_available`; the line's last free day taken over the terminal's earlier one) is
// re-derived for the tracked shipments and every account's containers, silently, once, resumably.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { FEATURES, type Feature } from '../domain/account.js';
import { EVENT_NAMES } from '../domain/events.js';
import type { Db, Queryable, Row } from '../storage/db.js';
import { MIGRATIONS_DIR } from '../storage/migrate.js';
import { PgDb } from '../storage/pg.js';
import { pickupFacts } from '../tracking/attention.js';
import type { StoredState } from '../tracking/changes.js';
import { DERIVATION_VERSION, rederiveState } from '../tracking/derivation.js';
import type { ContainerSnapshot, ShipmentSnapshot } from '../tracking/snapshot.js';
import { type TestApp, testApp } from '../../test/kit/app.js';
import {
  ARRIVED,
  AT_SEA,
  AVAILABLE,
  insertAccountShipment,
  insertTrackedShipment,
  oldState,
  RAILING,
  SAILING,
} from '../../test/kit/old-derivation.js';
import { Rederivation } from './rederive.js';

interface Seeded {
  t: TestApp;
  accountA: string;
  accountB: string;
  tracked: { arrived: string; sailing: string };
  /** Account shipment ids: A follows both; B followed the arrived one and stopped. */
  shipments: { a1: string; a2: string; b1: string };
  /** A's container marked delivered by hand. */
  handDelivered: string;
}

let t: TestApp | null = null;
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
  await t?.close();
  t = null;
});

/**
 * An install as the version before derivation version 1 left it: tracked shipments with states derived by the old
 * rules, the account shipments and containers projected from them with the board facts migration 0020 filled, a
 * container marked delivered by hand, webhooks listening to everything.
 */
async function seedOldInstall(): Promise<Seeded> {
  t = await testApp({ env: { TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: 'on' } });
  t.clock.set('2026-03-09T12:00:00Z');
  const db = t.database.db;
  const { account: a } = await t.account({ features: [...FEATURES] as Feature[] });
  const { account: b } = await t.account();
  for (const account of [a, b]) {
    const events = EVENT_NAMES.filter((e) => e !== 'container.pickup_lfd_rail.changed' || account.features.includes('rail_lfd'));
    await t.services.webhooks.create(account, { url: 'http://127.0.0.1:9/hooks', events });
  }
  const now = t.clock.now();
  const arrived = await insertTrackedShipment(db, 'MAEUOLD0001', oldState(ARRIVED, [AVAILABLE, RAILING]), now);
  const sailing = await insertTrackedShipment(db, 'MAEUOLD0002', oldState(SAILING, [AT_SEA]), now);
  const accountShipment = (
    accountId: string,
    trackedId: string,
    shipment: ShipmentSnapshot,
    containers: Record<string, unknown>[],
    stopped = false,
  ) => {
    t!.clock.advance(1000);
    return insertAccountShipment(db, { accountId, trackedId, shipment, containers, stopped, now: t!.clock.now() });
  };
  const a1 = await accountShipment(a.id, arrived, ARRIVED, [AVAILABLE, RAILING]);
  const a2 = await accountShipment(a.id, sailing, SAILING, [AT_SEA]);
  const b1 = await accountShipment(b.id, arrived, ARRIVED, [AVAILABLE, RAILING], true);
  // The board's facts as the version before this one kept them (its pickupFacts, which 0020 repeats in SQL).
  await db.exec(readFileSync(`${MIGRATIONS_DIR}/0020_board_facts_backfill.sql`, 'utf8'));
  const [{ id: handDelivered }] = (await db.query<{ id: string }>('SELECT id FROM containers WHERE shipment_id = $1 AND number = $2', [
    a1,
    'MSKU1000002',
  ])) as [{ id: string }];
  await t.services.containers.update(a.id, handDelivered, { deliveredAt: new Date('2026-03-08T18:00:00Z') });
  // Derived before the version was kept.
  await db.query('UPDATE derivation SET version = 0');
  return { t, accountA: a.id, accountB: b.id, tracked: { arrived, sailing }, shipments: { a1, a2, b1 }, handDelivered };
}

async function counts(db: Queryable): Promise<Record<string, number>> {
  const [row] = await db.query<{ events: number; notifications: number; transport: number; estimated: number }>(
    `SELECT (SELECT count(*)::int FROM account_events) AS events, (SELECT count(*)::int FROM webhook_notifications) AS notifications,
       (SELECT count(*)::int FROM transport_events) AS transport, (SELECT count(*)::int FROM estimated_events) AS estimated`,
  );
  return row!;
}

interface ContainerRow {
  id: string;
  shipment_id: string;
  number: string;
  current_status: string;
  snapshot: ContainerSnapshot;
  zone: string | null;
  lfd_day: string | null;
  holds: number;
  available: boolean;
  billed: boolean;
  updated_at: Date;
  manual_delivered_at: Date | null;
}

async function containers(db: Queryable): Promise<ContainerRow[]> {
  return db.query<ContainerRow & Row>(
    `SELECT id, shipment_id, number, current_status, snapshot, pickup_zone AS zone, to_char(pickup_lfd_day, 'YYYY-MM-DD') AS lfd_day,
       pickup_holds AS holds, pickup_available AS available, pickup_billed AS billed, updated_at, manual_delivered_at
     FROM containers ORDER BY shipment_id, number`,
  );
}

async function trackedState(db: Queryable, id: string): Promise<StoredState> {
  const [row] = await db.query<{ state: StoredState }>('SELECT state FROM tracked_shipments WHERE id = $1', [id]);
  return row!.state;
}

function factsOf(r: ContainerRow) {
  return { zone: r.zone, lfd_day: r.lfd_day, holds: r.holds, available: r.available, billed: r.billed };
}

describe('the re-derivation of stored data', () => {
  it('re-derives tracked states and every account container under the current rules, silently, once', async () => {
    const s = await seedOldInstall();
    const db = s.t.database.db;
    const before = await counts(db);
    const stateBefore = await trackedState(db, s.tracked.arrived);
    const rowsBefore = await containers(db);
    // As stored: the box at sea "not available", the rail move "not available" before it reached the ramp, the line's
    // last free day on the board.
    const status = (rows: ContainerRow[], shipment: string, number: string) =>
      rows.find((r) => r.shipment_id === shipment && r.number === number)!;
    expect(status(rowsBefore, s.shipments.a2, 'MSKU1000001').current_status).toBe('not_available');
    expect(status(rowsBefore, s.shipments.a1, 'MSKU1000003').current_status).toBe('not_available');
    expect(status(rowsBefore, s.shipments.a1, 'MSKU1000002').current_status).toBe('delivered');
    expect(status(rowsBefore, s.shipments.b1, 'MSKU1000002').lfd_day).toBe('2026-03-10');

    s.t.clock.advance(60_000);
    const result = await new Rederivation({ db, wall: s.t.clock }).run();
    expect(result).toMatchObject({
      ran: true,
      version: DERIVATION_VERSION,
      trackedShipments: 2,
      containers: 3 + 2,
      skipped: [],
      stopped: false,
    });

    // The tracked states: containers re-derived, everything else as it was.
    const arrived = await trackedState(db, s.tracked.arrived);
    expect(arrived).toEqual(rederiveState(stateBefore));
    expect(arrived.transportEvents).toEqual(stateBefore.transportEvents);
    const sailing = await trackedState(db, s.tracked.sailing);
    expect(sailing.containers[0]).toMatchObject({ current_status: 'on_ship', available_for_pickup: null, availability_known: false });
    expect(arrived.containers.map((c) => [c.number, c.current_status, c.pickup_lfd_binding, c.pickup_lfd_binding_party])).toEqual([
      ['MSKU1000002', 'available', '2026-03-06T08:00:00Z', 'terminal'],
      ['MSKU1000003', 'on_rail', null, null],
    ]);

    // Every account's containers: the active followers' from the tracked state, the stopped shipment's from its own
    // rows; status, snapshot and board facts as a projection writes them; the hand-marked delivery stands.
    const rows = await containers(db);
    const stateOf = (shipmentId: string) => (shipmentId === s.shipments.a2 ? sailing : arrived);
    for (const r of rows) {
      const snapshot = stateOf(r.shipment_id).containers.find((c) => c.number === r.number)!;
      expect(r.snapshot, r.number).toEqual(snapshot);
      expect(factsOf(r), r.number).toEqual(pickupFacts(snapshot));
      expect(r.current_status, r.number).toBe(r.id === s.handDelivered ? 'delivered' : snapshot.current_status);
    }
    expect(status(rows, s.shipments.a2, 'MSKU1000001').current_status).toBe('on_ship');
    expect(status(rows, s.shipments.b1, 'MSKU1000003').current_status).toBe('on_rail');
    expect(status(rows, s.shipments.b1, 'MSKU1000002').lfd_day).toBe('2026-03-06');

    // Nothing announced, no event of any kind written.
    expect(await counts(db)).toEqual(before);
    expect(await db.query('SELECT version, target, step, after_id FROM derivation')).toEqual([
      { version: DERIVATION_VERSION, target: null, step: null, after_id: null },
    ]);

    // A second run finds nothing to do and writes nothing; a forced one re-derives to the same rows.
    s.t.clock.advance(60_000);
    const again = await new Rederivation({ db, wall: s.t.clock }).run();
    expect(again).toMatchObject({ ran: false, version: DERIVATION_VERSION, containers: 0 });
    expect(await containers(db)).toEqual(rows);
    const forced = await new Rederivation({ db, wall: s.t.clock }).run({ force: true });
    expect(forced).toMatchObject({ ran: true, containers: 5 });
    expect(await containers(db)).toEqual(rows);
    expect(await trackedState(db, s.tracked.arrived)).toEqual(arrived);
    expect(await counts(db)).toEqual(before);

    // The mark taken back: the box is on the board with the facts written for it, the terminal's day passed.
    await s.t.services.containers.update(s.accountA, s.handDelivered, { deliveredAt: null });
    const board = await s.t.services.containers.board(s.accountA, { limit: 100, offset: 0 });
    expect(board.items.map((c) => [c.id, c.attention.lfd])).toEqual([[s.handDelivered, 'passed']]);
  });

  it('commits batch by batch and resumes after a stop or a failed batch', async () => {
    const s = await seedOldInstall();
    const db = s.t.database.db;
    const before = await containers(db);
    const [first, second] = [s.tracked.arrived, s.tracked.sailing].sort() as [string, string];

    // Stopped after its first batch (one tracked shipment): that batch is committed, the rest is not touched.
    let batches = 0;
    const stopped = await new Rederivation({ db, wall: s.t.clock, batch: 1 }).run({ shouldStop: () => batches++ >= 1 });
    expect(stopped).toMatchObject({ ran: true, stopped: true, trackedShipments: 1, version: 0 });
    expect(await db.query('SELECT version, target, step, after_id FROM derivation')).toEqual([
      { version: 0, target: DERIVATION_VERSION, step: 'tracked', after_id: first },
    ]);
    expect((await trackedState(db, second)).containers[0]!.pickup_lfd_binding).toBeUndefined();
    expect((await trackedState(db, first)).containers[0]!.pickup_lfd_binding).not.toBeUndefined();

    // The next batch fails as it writes (a crash): rolled back, the progress stays where it was.
    const failing = failingOn(db, /INSERT INTO containers/);
    await expect(new Rederivation({ db: failing, wall: s.t.clock, batch: 1 }).run()).rejects.toThrow('lost the connection');
    expect(await db.query('SELECT version, target, step, after_id FROM derivation')).toEqual([
      { version: 0, target: DERIVATION_VERSION, step: 'tracked', after_id: first },
    ]);
    expect((await trackedState(db, second)).containers[0]!.pickup_lfd_binding).toBeUndefined();

    // Resumed: done, and the rows are those of one run from the start.
    const resumed = await new Rederivation({ db, wall: s.t.clock, batch: 1 }).run();
    expect(resumed).toMatchObject({ ran: true, stopped: false, version: DERIVATION_VERSION, trackedShipments: 1 });
    const rows = await containers(db);
    expect(rows.map((r) => r.id)).toEqual(before.map((r) => r.id));
    for (const r of rows) {
      const state = await trackedState(db, r.shipment_id === s.shipments.a2 ? s.tracked.sailing : s.tracked.arrived);
      expect(r.snapshot).toEqual(state.containers.find((c) => c.number === r.number));
    }
  });

  it('lets processes that start together take the batches in turn, each once', async () => {
    const s = await seedOldInstall();
    const db = s.t.database.db;
    // Another process: a pool of its own on a server; on PGlite, the one database.
    let other: Db = db;
    if (s.t.database.url) {
      const own = new PgDb(s.t.database.url, { max: 3 });
      closing.push(() => own.close());
      other = own;
    }
    const [one, two] = await Promise.all([
      new Rederivation({ db, wall: s.t.clock, batch: 1 }).run(),
      new Rederivation({ db: other, wall: s.t.clock, batch: 1 }).run(),
    ]);
    expect(one.version).toBe(DERIVATION_VERSION);
    expect(two.version).toBe(DERIVATION_VERSION);
    // Two tracked shipments, five account containers, one stopped account shipment: each written by one process.
    expect(one.trackedShipments + two.trackedShipments).toBe(2);
    expect(one.containers + two.containers).toBe(5);
    const rows = await containers(db);
    expect(rows.find((r) => r.number === 'MSKU1000001')!.current_status).toBe('on_ship');
  });
});

/** A database whose transactions fail at the first statement matching `pattern`, as if the connection were lost. */
function failingOn(db: Db, pattern: RegExp): Db {
  const guard = (q: Queryable): Queryable => ({
    query: <T extends Row = Row>(text: string, values?: readonly unknown[]) => {
      if (pattern.test(text)) return Promise.reject(new Error('lost the connection'));
      return q.query<T>(text, values);
    },
    exec: (sql: string) => q.exec(sql),
    notifyAfterCommit: q.notifyAfterCommit?.bind(q),
  });
  return {
    kind: db.kind,
    query: (text, values) => db.query(text, values),
    exec: (sql) => db.exec(sql),
    transaction: (fn) => db.transaction((tx) => fn(guard(tx))),
    listen: (channel, onMessage) => db.listen(channel, onMessage),
    poolStats: () => db.poolStats(),
    close: () => db.close(),
  };
}
