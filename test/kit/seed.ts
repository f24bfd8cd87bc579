// Shipments, containers and transport events written straight into the database the way the tracking engine
// leaves them, for tests of the read and edit API that need particular values (ports, times, stopped, customers).
import { newId } from '../../src/lib/ids.js';
import { insertShipment } from '../../src/storage/repositories/shipments.js';
import { type ContainerColumns, upsertContainer, upsertTransportEvent } from '../../src/storage/repositories/tracking.js';
import { pickupFacts } from '../../src/tracking/attention.js';
import { type ContainerSnapshot, emptyContainer, type TransportEventRecord } from '../../src/tracking/snapshot.js';
import type { TestApp } from './app.js';

export interface ShipmentSpec {
  bl: string;
  booking?: string;
  pol?: string;
  pod?: string;
  podTimezone?: string;
  eta?: string | null;
  ata?: string | null;
  stopped?: boolean;
  refs?: string[];
  customerId?: string | null;
  containers?: { number: string; refs?: string[]; snapshot?: Partial<ContainerSnapshot> }[];
}

/** A container's columns as the engine leaves them before any terminal or railroad has been asked. */
export function containerColumns(snapshot: ContainerSnapshot): ContainerColumns {
  return {
    number: snapshot.number,
    current_status: snapshot.current_status,
    snapshot,
    terminal_checked_at: null,
    terminal_next_check_at: null,
    rail_checked_at: null,
    rail_next_check_at: null,
    pickup: pickupFacts(snapshot),
  };
}

/** One shipment (created a second after the last one, by the test's wall clock) and its containers. */
export async function seedShipment(t: TestApp, accountId: string, s: ShipmentSpec): Promise<{ id: string; containerIds: string[] }> {
  t.clock.advance(1000);
  const id = newId();
  await insertShipment(t.services.db, {
    id,
    account_id: accountId,
    bill_of_lading_number: s.bl,
    request_number: s.bl,
    customer_id: s.customerId ?? null,
    ref_numbers: s.refs ?? [],
    shipping_line_scac: 'MAEU',
    created_at: t.clock.now(),
    updated_at: t.clock.now(),
  });
  if (s.customerId) {
    await t.services.db.query(
      `INSERT INTO party_roles (id, account_id, party_id, role, shipment_id, created_at, updated_at)
       VALUES ($1, $2, $3, 'customer', $4, $5, $5)`,
      [newId(), accountId, s.customerId, id, t.clock.now()],
    );
  }
  await t.services.db.query(
    `UPDATE shipments SET booking_number = $2, port_of_lading_locode = $3, port_of_discharge_locode = $4, pod_timezone = $5,
       pod_eta_at = $6, pod_ata_at = $7, line_tracking_stopped_at = $8, line_tracking_stopped_reason = $9 WHERE id = $1`,
    [
      id,
      s.booking ?? null,
      s.pol ?? null,
      s.pod ?? null,
      s.podTimezone ?? null,
      s.eta ?? null,
      s.ata ?? null,
      s.stopped ? t.clock.now() : null,
      s.stopped ? 'cancelled_by_user' : null,
    ],
  );
  const containerIds: string[] = [];
  for (const c of s.containers ?? []) {
    const snapshot = { ...emptyContainer(c.number), ...c.snapshot };
    const { id: cid } = await upsertContainer(
      t.services.db,
      { id: newId(), account_id: accountId, shipment_id: id },
      containerColumns(snapshot),
      t.clock.now(),
    );
    if (c.refs) await t.services.db.query('UPDATE containers SET ref_numbers = $2 WHERE id = $1', [cid, c.refs]);
    containerIds.push(cid);
  }
  return { id, containerIds };
}

/**
 * A transport event record as the engine stores one (`record` of `transport_events`): an actual from the shipping
 * line at no place, observed when it happened, with these fields changed.
 */
export function transportEventRecord(
  containerNumber: string,
  o: Partial<TransportEventRecord> & Pick<TransportEventRecord, 'event'>,
): TransportEventRecord {
  const timestamp = o.timestamp === undefined ? null : o.timestamp;
  return {
    key: `${o.event}|${containerNumber}|${timestamp ?? 'null'}`,
    milestone: null,
    classifier: 'actual',
    container_number: containerNumber,
    timestamp,
    timezone: null,
    location_locode: null,
    location_type: null,
    terminal: null,
    vessel_name: null,
    vessel_imo: null,
    voyage_number: null,
    rail_carrier_scac: null,
    data_source: 'shipping_line',
    value: null,
    source_id: null,
    source_event_id: null,
    source_code: null,
    reported_at: null,
    observed_at: timestamp,
    ...o,
  };
}

/** Stores a container's transport event, a second after the last thing seeded (by the test's wall clock); its id. */
export async function seedTransportEvent(
  t: TestApp,
  at: { accountId: string; shipmentId: string; containerId: string },
  record: TransportEventRecord,
): Promise<string> {
  t.clock.advance(1000);
  return upsertTransportEvent(
    t.services.db,
    {
      id: newId(),
      account_id: at.accountId,
      shipment_id: at.shipmentId,
      container_id: at.containerId,
      event: record.event,
      key: record.key,
      timestamp: record.timestamp,
      record,
    },
    t.clock.now(),
  );
}
