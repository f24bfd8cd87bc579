// The per-account shipments the engine projects from a tracked shipment: found, linked, inserted, updated, stopped.
import { newId } from '../../lib/ids.js';
import { one, type Queryable } from '../db.js';
import { changed, changeTag } from './changes.js';
import type { Accounts, Shipments } from '../schema.generated.js';

/** An account's shipment with what stop and resume need; undefined when it is not the account's. */
export async function findAccountShipment(
  q: Queryable,
  accountId: string,
  id: string,
): Promise<{ id: string; account_id: string; tracked_shipment_id: string | null; line_tracking_stopped_at: Date | null } | undefined> {
  return one(q, 'SELECT id, account_id, tracked_shipment_id, line_tracking_stopped_at FROM shipments WHERE account_id = $1 AND id = $2', [
    accountId,
    id,
  ]);
}

/** The tracked shipment behind an account's container; undefined when it is not the account's. */
export async function findAccountContainerTracking(
  q: Queryable,
  accountId: string,
  containerId: string,
): Promise<{ tracked_shipment_id: string | null; line_tracking_stopped_at: Date | null } | undefined> {
  return one(
    q,
    `SELECT s.tracked_shipment_id, s.line_tracking_stopped_at FROM containers c JOIN shipments s ON s.id = c.shipment_id
     WHERE c.account_id = $1 AND c.id = $2`,
    [accountId, containerId],
  );
}

export async function resumeShipment(q: Queryable, id: string, worldNow: Date, now: Date): Promise<void> {
  await q.query(
    `UPDATE shipments SET line_tracking_stopped_at = NULL, line_tracking_stopped_reason = NULL, line_tracking_stopped_by_user = false,
       line_tracking_next_attempt_at = $2, updated_at = $3
     WHERE id = $1`,
    [id, worldNow, now],
  );
  changed(q, [changeTag.shipment(id)]);
}

/** An account's shipment that follows a tracked shipment (the projection's target). */
export interface LinkedShipment extends Pick<Shipments, 'id' | 'account_id' | 'line_tracking_stopped_at'> {
  /** The account's features (accounts, joined). */
  features: Accounts['features'];
}

/** Every account shipment fed by these tracked shipments that is still being tracked, naming its tracked shipment. */
export async function activeLinkedShipmentsOf(
  q: Queryable,
  trackedIds: readonly string[],
): Promise<(LinkedShipment & { tracked_shipment_id: string })[]> {
  if (trackedIds.length === 0) return [];
  return q.query<LinkedShipment & { tracked_shipment_id: string }>(
    `SELECT s.id, s.account_id, a.features, s.line_tracking_stopped_at, s.tracked_shipment_id
     FROM shipments s JOIN accounts a ON a.id = s.account_id
     WHERE s.tracked_shipment_id = ANY($1::uuid[]) AND s.line_tracking_stopped_at IS NULL
     ORDER BY s.created_at, s.id`,
    [trackedIds],
  );
}

/**
 * The account's shipment already following this tracked shipment or, for a bill of lading or booking, any of
 * its shipments with that number at that carrier (tracked through another request type): a duplicate.
 */
export async function findAccountShipmentFor(
  q: Queryable,
  accountId: string,
  trackedId: string,
  numberType: string,
  number: string,
  scac: string,
): Promise<{ id: string } | undefined> {
  return one<{ id: string }>(
    q,
    `SELECT id FROM shipments
     WHERE account_id = $1 AND (
       tracked_shipment_id = $2
       OR ($3 = 'bill_of_lading' AND upper(bill_of_lading_number) = upper($4) AND shipping_line_scac = $5)
       OR ($3 = 'booking_number' AND upper(booking_number) = upper($4) AND shipping_line_scac = $5)
       OR ($3 = 'container' AND EXISTS (
         SELECT 1 FROM containers c WHERE c.shipment_id = shipments.id AND c.number = upper($4)
       ) AND shipping_line_scac = $5))
     ORDER BY line_tracking_stopped_at NULLS FIRST, created_at
     LIMIT 1`,
    [accountId, trackedId, numberType, number, scac],
  );
}

/** The wire columns of a shipment that the engine fills from the snapshot. */
export interface ShipmentColumns {
  bill_of_lading_number: string;
  booking_number: string | null;
  shipping_line_scac: string | null;
  shipping_line_name: string | null;
  shipping_line_short_name: string | null;
  port_of_lading_locode: string | null;
  port_of_lading_name: string | null;
  pol_etd_at: string | null;
  pol_atd_at: string | null;
  pol_original_etd_at: string | null;
  pol_timezone: string | null;
  port_of_discharge_locode: string | null;
  port_of_discharge_name: string | null;
  pod_terminal_firms_code: string | null;
  pod_vessel_name: string | null;
  pod_vessel_imo: string | null;
  pod_voyage_number: string | null;
  pod_eta_at: string | null;
  pod_original_eta_at: string | null;
  pod_ata_at: string | null;
  pod_timezone: string | null;
  destination_locode: string | null;
  destination_name: string | null;
  destination_eta_at: string | null;
  destination_ata_at: string | null;
  destination_original_eta_at: string | null;
  destination_timezone: string | null;
  line_tracking_last_attempted_at: Date | null;
  line_tracking_last_succeeded_at: Date | null;
  line_tracking_next_attempt_at: Date | null;
  /** The whole ShipmentSnapshot (JSON). */
  snapshot: unknown;
}

const SHIPMENT_COLUMNS: (keyof ShipmentColumns & keyof Shipments)[] = [
  'bill_of_lading_number',
  'booking_number',
  'shipping_line_scac',
  'shipping_line_name',
  'shipping_line_short_name',
  'port_of_lading_locode',
  'port_of_lading_name',
  'pol_etd_at',
  'pol_atd_at',
  'pol_original_etd_at',
  'pol_timezone',
  'port_of_discharge_locode',
  'port_of_discharge_name',
  'pod_terminal_firms_code',
  'pod_vessel_name',
  'pod_vessel_imo',
  'pod_voyage_number',
  'pod_eta_at',
  'pod_original_eta_at',
  'pod_ata_at',
  'pod_timezone',
  'destination_locode',
  'destination_name',
  'destination_eta_at',
  'destination_ata_at',
  'destination_original_eta_at',
  'destination_timezone',
  'line_tracking_last_attempted_at',
  'line_tracking_last_succeeded_at',
  'line_tracking_next_attempt_at',
  'snapshot',
];

const columnValue = (cols: ShipmentColumns, k: keyof ShipmentColumns) => (k === 'snapshot' ? JSON.stringify(cols[k]) : cols[k]);

export async function insertTrackedAccountShipment(
  q: Queryable,
  s: {
    id: string;
    account_id: string;
    tracked_shipment_id: string;
    customer_id: string | null;
    request_number: string;
    ref_numbers: string[];
    tags: string[];
    created_at: Date;
  },
  cols: ShipmentColumns,
): Promise<void> {
  const names = ['id', 'account_id', 'tracked_shipment_id', 'customer_id', 'request_number', 'normalized_number', 'ref_numbers', 'tags'];
  const values: unknown[] = [
    s.id,
    s.account_id,
    s.tracked_shipment_id,
    s.customer_id,
    s.request_number,
    s.request_number,
    s.ref_numbers,
    s.tags,
  ];
  for (const k of SHIPMENT_COLUMNS) {
    names.push(k);
    values.push(columnValue(cols, k));
  }
  names.push('created_at', 'updated_at');
  values.push(s.created_at, s.created_at);
  await q.query(`INSERT INTO shipments (${names.join(', ')}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')})`, values);
  changed(q, [changeTag.shipment(s.id)]);
  // The customer the request named is the shipment's customer role (party roles keep customer_id in step).
  if (s.customer_id) {
    await q.query(
      `INSERT INTO party_roles (id, account_id, party_id, role, shipment_id, created_at, updated_at)
       VALUES ($1, $2, $3, 'customer', $4, $5, $5)`,
      [newId(), s.account_id, s.customer_id, s.id, s.created_at],
    );
  }
}

/** Writes the engine's columns of several shipments in one statement. */
export async function updateShipmentColumnsMany(
  q: Queryable,
  rows: readonly { id: string; cols: ShipmentColumns }[],
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `UPDATE shipments s SET ${SHIPMENT_COLUMNS.map((k) => `${k} = x.${k}`).join(', ')}, updated_at = $2
     FROM jsonb_populate_recordset(NULL::shipments, $1::jsonb) x
     WHERE s.id = x.id`,
    [JSON.stringify(rows.map((r) => ({ id: r.id, ...r.cols }))), now],
  );
  changed(
    q,
    rows.map((r) => changeTag.shipment(r.id)),
  );
}

export async function stopShipment(q: Queryable, id: string, reason: string, worldNow: Date, byUser: boolean, now: Date): Promise<void> {
  await q.query(
    `UPDATE shipments SET line_tracking_stopped_at = $2, line_tracking_stopped_reason = $3, line_tracking_stopped_by_user = $4,
       line_tracking_next_attempt_at = NULL, updated_at = $5
     WHERE id = $1 AND line_tracking_stopped_at IS NULL`,
    [id, worldNow, reason, byUser, now],
  );
  changed(q, [changeTag.shipment(id)]);
}
