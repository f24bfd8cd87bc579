// Migration 0024 gives the transport event records stored before `observed_at` existed one, from what each record
// tells (a pickup change's key, an actual's timestamp and report time, an estimate's report time), in the rows the
// API serves and in the tracked shipments' state alike; and the transport events list is then in its order. Runs
// on PGlite, and on the PostgreSQL server too with TEST_DATABASE_URL.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { MIGRATIONS_DIR } from '../../src/storage/migrate.js';
import type { TransportEventRecord } from '../../src/tracking/snapshot.js';
import { testApp, type TestApp } from '../kit/app.js';
import { seedShipment, seedTransportEvent, transportEventRecord } from '../kit/seed.js';

const BACKFILL = readFileSync(`${MIGRATIONS_DIR}/0024_transport_event_observed_at.sql`, 'utf8');
const NUMBER = 'MSKU9070323';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t?.close());

/** A record as stored before `observed_at` existed: without the key. */
function old(o: Partial<TransportEventRecord> & Pick<TransportEventRecord, 'event'>): TransportEventRecord {
  const { observed_at: _, ...rest } = transportEventRecord(NUMBER, o);
  return rest as TransportEventRecord;
}

describe('migration 0024 (observed_at backfill)', () => {
  it('fills observed_at of the records that lack it, in the rows and in the tracked state, and the list follows it', async () => {
    const { account, auth } = await t.account();
    const { id: shipmentId, containerIds } = await seedShipment(t, account.id, { bl: 'MAEU50', containers: [{ number: NUMBER }] });
    const at = { accountId: account.id, shipmentId, containerId: containerIds[0]! };
    const cases: [string, TransportEventRecord, string | null][] = [
      [
        'a new last free day: the domain time its key ends with',
        old({
          event: 'container.pickup_lfd.changed',
          key: `container.pickup_lfd.changed|${NUMBER}|2026-03-20T07:00:00Z|2026-03-04T12:00:00Z`,
          timestamp: '2026-03-20T07:00:00Z',
          value: '2026-03-20T07:00:00Z',
          data_source: 'terminal',
        }),
        '2026-03-04T12:00:00Z',
      ],
      [
        'an appointment cancelled (no timestamp): its key too',
        old({
          event: 'container.pickup_appointment.changed',
          key: `container.pickup_appointment.changed|${NUMBER}|null|2026-03-06T00:00:00Z`,
          timestamp: null,
          data_source: 'terminal',
        }),
        '2026-03-06T00:00:00Z',
      ],
      [
        'an actual reported after it happened: the report, to the second',
        old({ event: 'container.transport.vessel_arrived', timestamp: '2026-03-05T10:00:00Z', reported_at: '2026-03-05T13:20:00.900Z' }),
        '2026-03-05T13:20:00Z',
      ],
      [
        'an actual "reported" before it happened: when it happened',
        old({ event: 'container.transport.vessel_departed', timestamp: '2026-02-03T00:00:00Z', reported_at: '2026-02-02T23:00:00Z' }),
        '2026-02-03T00:00:00Z',
      ],
      [
        'an actual without a report time: when it happened',
        old({ event: 'container.transport.vessel_loaded', timestamp: '2026-02-01T08:00:00Z' }),
        '2026-02-01T08:00:00Z',
      ],
      [
        'an actual without a timestamp: none',
        old({ event: 'container.transport.rail_arrived', timestamp: null, reported_at: '2026-03-01T00:00:00Z' }),
        null,
      ],
      [
        'an estimate: its report time, not the time it names',
        old({
          event: 'container.transport.estimated.vessel_arrived',
          classifier: 'estimated',
          timestamp: '2026-03-10T00:00:00Z',
          reported_at: '2026-02-20T06:00:00Z',
        }),
        '2026-02-20T06:00:00Z',
      ],
      [
        'an estimate without a report time: none',
        old({ event: 'container.transport.estimated.vessel_departed', classifier: 'estimated', timestamp: '2026-01-30T00:00:00Z' }),
        null,
      ],
      [
        'a delivery marked by hand: when it happened',
        {
          ...old({ event: 'container.transport.delivered', key: 'manual:delivered', timestamp: '2026-02-28T17:30:15Z' }),
          data_source: 'user' as never,
        },
        '2026-02-28T17:30:15Z',
      ],
      [
        'a record that has it: as it is',
        transportEventRecord(NUMBER, {
          event: 'container.transport.full_out',
          timestamp: '2026-03-01T00:00:00Z',
          observed_at: '2026-03-07T00:00:00Z',
        }),
        '2026-03-07T00:00:00Z',
      ],
    ];
    const ids = new Map<string, string>();
    for (const [what, record] of cases) ids.set(what, await seedTransportEvent(t, at, record));

    // The tracked shipment's state holds the same records; one without state and one without events are left alone.
    const state = {
      shipment: null,
      containers: [],
      transportEvents: cases.map(([, record]) => record),
      estimatedEvents: [],
      withdrawals: [],
    };
    const tracked = [newId(), newId(), newId()];
    for (const [i, s] of [state, null, { ...state, transportEvents: [] }].entries()) {
      await t.services.db.query(
        `INSERT INTO tracked_shipments (id, scac, number_type, number, state, created_at, updated_at)
         VALUES ($1, 'MAEU', 'bill_of_lading', $2, $3, $4, $4)`,
        [tracked[i], `MAEU5000${i}`, s === null ? null : JSON.stringify(s), t.clock.now()],
      );
    }

    const rowsBefore = await t.services.db.query<{ id: string; updated_at: Date }>(
      'SELECT id, updated_at FROM transport_events WHERE container_id = $1 ORDER BY id',
      [at.containerId],
    );
    await t.services.db.exec(BACKFILL);

    const rows = new Map(
      (
        await t.services.db.query<{ id: string; record: Record<string, unknown> }>(
          'SELECT id, record FROM transport_events WHERE container_id = $1',
          [at.containerId],
        )
      ).map((r) => [r.id, r.record]),
    );
    for (const [what, record, expected] of cases) {
      const row = rows.get(ids.get(what)!)!;
      expect(row.observed_at, what).toBe(expected);
      // Nothing else of the record changes.
      expect({ ...row, observed_at: undefined }, what).toEqual({ ...record, observed_at: undefined });
    }
    const [after, none, empty] = await Promise.all(
      tracked.map(
        async (id) =>
          (await t.services.db.query<{ state: typeof state | null }>('SELECT state FROM tracked_shipments WHERE id = $1', [id]))[0]!.state,
      ),
    );
    expect(after).toEqual({ ...state, transportEvents: cases.map(([, record, expected]) => ({ ...record, observed_at: expected })) });
    expect(none).toBeNull();
    expect(empty).toEqual({ ...state, transportEvents: [] });
    // Wall time is the service's own: the rows' updated_at stays.
    expect(
      await t.services.db.query('SELECT id, updated_at FROM transport_events WHERE container_id = $1 ORDER BY id', [at.containerId]),
    ).toEqual(rowsBefore);

    // The list follows the backfilled order: pickup changes by observed_at, the others by timestamp, undated last.
    const list = await t.app.inject({ url: `/v2/containers/${at.containerId}/transport_events`, headers: auth });
    expect(list.statusCode, list.body).toBe(200);
    const served = list.json().data as { id: string; attributes: { observed_at: string | null } }[];
    const byId = new Map([...ids].map(([what, id]) => [id, what]));
    expect(served.map((e) => byId.get(e.id))).toEqual([
      'an estimate: its report time, not the time it names', // 03-10, the time it names
      'an appointment cancelled (no timestamp): its key too', // seen 03-06
      'an actual reported after it happened: the report, to the second', // 03-05 10:00
      'a new last free day: the domain time its key ends with', // seen 03-04 12:00 (its new date is 03-20)
      'a record that has it: as it is', // 03-01
      'a delivery marked by hand: when it happened', // 02-28
      'an actual "reported" before it happened: when it happened', // 02-03
      'an actual without a report time: when it happened', // 02-01
      'an estimate without a report time: none', // 01-30
      'an actual without a timestamp: none', // no time: last
    ]);
    for (const e of served) expect(e.attributes.observed_at).toBe(cases.find(([what]) => what === byId.get(e.id))![2]);

    // Run again: nothing lacks it any more, nothing changes.
    await t.services.db.exec(BACKFILL);
    const again = await t.services.db.query<{ id: string; record: Record<string, unknown> }>(
      'SELECT id, record FROM transport_events WHERE container_id = $1',
      [at.containerId],
    );
    expect(new Map(again.map((r) => [r.id, r.record]))).toEqual(rows);
  });
});
