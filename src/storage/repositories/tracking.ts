// What the tracking engine reads and writes: the shared tracked shipments (one per carrier and number), the
// per-account shipments, containers and events projected from them, raw observations and the account event log.
import { newId } from '../../lib/ids.js';
import { one, type Queryable } from '../db.js';
import { insertNotificationsForEvents } from './webhooks.js';
import { changed, changeTag } from './changes.js';
import type {
  AccountEvents,
  Accounts,
  Containers,
  Shipments,
  SourceHealth,
  TrackedShipments,
  TransportEvents,
} from '../schema.generated.js';

export interface TrackedShipmentRow extends TrackedShipments {
  number_type: 'bill_of_lading' | 'booking_number' | 'container';
  /** The engine's StoredState (JSON); null before the first successful fetch. */
  state: TrackedShipments['state'];
}

/** The tracked shipment for a carrier and number, made on first use (concurrent callers get the same row). */
export async function ensureTrackedShipment(
  q: Queryable,
  key: { id: string; scac: string; numberType: string; number: string },
  now: Date,
): Promise<TrackedShipmentRow> {
  const row = await one<TrackedShipmentRow>(
    q,
    `INSERT INTO tracked_shipments (id, scac, number_type, number, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $5)
     ON CONFLICT (scac, number_type, number) DO UPDATE SET scac = EXCLUDED.scac
     RETURNING *`,
    [key.id, key.scac, key.numberType, key.number, now],
  );
  return row!;
}

export async function findTrackedShipment(q: Queryable, id: string): Promise<TrackedShipmentRow | undefined> {
  return one<TrackedShipmentRow>(q, 'SELECT * FROM tracked_shipments WHERE id = $1', [id]);
}

/**
 * A tracked shipment read under a share lock held until the transaction ends: a refresh's commit that has
 * written the row is waited for (and its version returned), one that has not yet written it waits for ours.
 * Share locks do not block each other.
 */
export async function lockTrackedShipment(q: Queryable, id: string): Promise<TrackedShipmentRow | undefined> {
  return one<TrackedShipmentRow>(q, 'SELECT * FROM tracked_shipments WHERE id = $1 FOR SHARE', [id]);
}

/** Takes a tracked shipment for one refresh unless another worker holds it (the lease is wall time). */
export async function claimTrackedShipment(
  q: Queryable,
  id: string,
  wallNow: Date,
  leaseUntil: Date,
  opts: { activeOnly: boolean },
): Promise<TrackedShipmentRow | undefined> {
  return one<TrackedShipmentRow>(
    q,
    `UPDATE tracked_shipments SET lease_until = $3
     WHERE id = $1 AND (lease_until IS NULL OR lease_until < $2) ${opts.activeOnly ? 'AND active' : ''}
     RETURNING *`,
    [id, wallNow, leaseUntil],
  );
}

/** Gives up the lease on a tracked shipment: the one held until `lease` only (another worker's stays), or any. */
export async function releaseTrackedShipment(q: Queryable, id: string, lease: Date | null = null): Promise<void> {
  if (lease) await q.query('UPDATE tracked_shipments SET lease_until = NULL WHERE id = $1 AND lease_until = $2', [id, lease]);
  else await q.query('UPDATE tracked_shipments SET lease_until = NULL WHERE id = $1', [id]);
}

/**
 * Active tracked shipments whose POD vessel is one of these (IMO numbers, read as the engine stored them) and
 * that have not arrived at their POD by the line's word (no `pod_ata_at`).
 */
export async function trackedShipmentsOnVessels(q: Queryable, imos: readonly string[]): Promise<string[]> {
  if (imos.length === 0) return [];
  const rows = await q.query<{ id: string }>(
    `SELECT id FROM tracked_shipments
     WHERE active AND state->'shipment'->>'pod_ata_at' IS NULL
       AND regexp_replace(upper(state->'shipment'->>'pod_vessel_imo'), '^IMO\\s*', '') = ANY($1::text[])
     ORDER BY id`,
    [imos],
  );
  return rows.map((r) => r.id);
}

/**
 * Takes up to `limit` active tracked shipments due at `worldNow`, the most overdue first, that no other worker
 * holds: leased until `leaseUntil` in one statement. Rows another worker is claiming at the same moment are
 * skipped, so concurrent workers get disjoint batches.
 */
export async function claimDueTrackedShipments(
  q: Queryable,
  worldNow: Date,
  wallNow: Date,
  leaseUntil: Date,
  limit: number,
): Promise<TrackedShipmentRow[]> {
  const rows = await q.query<TrackedShipmentRow>(
    `UPDATE tracked_shipments t SET lease_until = $3
     FROM (SELECT id FROM tracked_shipments
           WHERE active AND next_check_at <= $1 AND (lease_until IS NULL OR lease_until < $2)
           ORDER BY next_check_at, id LIMIT $4
           FOR UPDATE SKIP LOCKED) due
     WHERE t.id = due.id
     RETURNING t.*`,
    [worldNow, wallNow, leaseUntil, limit],
  );
  return rows.sort(
    (a, b) => (a.next_check_at?.getTime() ?? 0) - (b.next_check_at?.getTime() ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** The earliest due time after `worldNow` of any tracking-request attempt or active tracked shipment. */
export async function nextDueAfter(q: Queryable, worldNow: Date): Promise<Date | null> {
  const row = await one<{ at: Date | null }>(
    q,
    `SELECT least(
       (SELECT min(next_attempt_at) FROM tracking_requests WHERE next_attempt_at > $1 AND status IN ('pending', 'awaiting_manifest')),
       (SELECT min(next_check_at) FROM tracked_shipments WHERE active AND next_check_at > $1)) AS at`,
    [worldNow],
  );
  return row?.at ?? null;
}

export type TrackedShipmentUpdate = Pick<
  TrackedShipmentRow,
  | 'state'
  | 'rail_scac'
  | 'active'
  | 'stopped_reason'
  | 'next_check_at'
  | 'line_next_check_at'
  | 'terminal_next_check_at'
  | 'rail_next_check_at'
  | 'line_last_payload_sha256'
  | 'line_last_attempted_at'
  | 'line_last_succeeded_at'
  | 'line_last_changed_at'
  | 'line_consecutive_failures'
  | 'line_last_error'
  | 'terminal_checked_at'
  | 'rail_checked_at'
>;

/**
 * Stores the results of several refreshes and releases their leases, in one statement: each only while it still
 * holds the lease it was claimed with (`lease_until`). Returns the ids stored; a missing one was taken over by
 * another worker after its lease ran out.
 */
export async function saveTrackedShipments(
  q: Queryable,
  rows: readonly ({ id: string; lease_until: Date | null } & TrackedShipmentUpdate)[],
  now: Date,
): Promise<string[]> {
  if (rows.length === 0) return [];
  const saved = await q.query<{ id: string }>(
    `UPDATE tracked_shipments t SET state = x.state, rail_scac = x.rail_scac, active = x.active, stopped_reason = x.stopped_reason,
       next_check_at = x.next_check_at, line_last_attempted_at = x.line_last_attempted_at,
       line_last_succeeded_at = x.line_last_succeeded_at, line_last_changed_at = x.line_last_changed_at,
       line_consecutive_failures = x.line_consecutive_failures, line_last_error = x.line_last_error,
       terminal_checked_at = x.terminal_checked_at, rail_checked_at = x.rail_checked_at, line_next_check_at = x.line_next_check_at,
       terminal_next_check_at = x.terminal_next_check_at, rail_next_check_at = x.rail_next_check_at,
       line_last_payload_sha256 = x.line_last_payload_sha256, lease_until = NULL, updated_at = $2
     FROM jsonb_populate_recordset(NULL::tracked_shipments, $1::jsonb) x
     WHERE t.id = x.id AND t.lease_until IS NOT DISTINCT FROM x.lease_until
     RETURNING t.id`,
    [JSON.stringify(rows), now],
  );
  return saved.map((r) => r.id);
}

export async function deactivateTrackedShipment(q: Queryable, id: string, now: Date): Promise<void> {
  await q.query('UPDATE tracked_shipments SET active = false, next_check_at = NULL, updated_at = $2 WHERE id = $1', [id, now]);
}

/** Makes a tracked shipment active again and due at once. */
export async function reactivateTrackedShipment(q: Queryable, id: string, worldNow: Date, now: Date): Promise<void> {
  await q.query(
    `UPDATE tracked_shipments SET active = true, stopped_reason = NULL, next_check_at = $2, line_next_check_at = $2,
       terminal_next_check_at = NULL, rail_next_check_at = NULL, updated_at = $3
     WHERE id = $1`,
    [id, worldNow, now],
  );
}

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

export interface ContainerColumns {
  number: string;
  current_status: string;
  snapshot: unknown;
  terminal_checked_at: Date | null;
  terminal_next_check_at: Date | null;
  rail_checked_at: Date | null;
  rail_next_check_at: Date | null;
  /** What the board judges the container on besides the day (tracking/attention.ts pickupFacts of the snapshot). */
  pickup: { zone: string | null; lfd_day: string | null; holds: number; available: boolean; billed: boolean };
}

/** Inserts or updates an account container (see upsertContainers); returns its id. */
export async function upsertContainer(
  q: Queryable,
  c: { id: string; account_id: string; shipment_id: string },
  cols: ContainerColumns,
  now: Date,
): Promise<{ id: string }> {
  const [row] = await upsertContainers(q, [{ ...c, ...cols }], now);
  return { id: row!.id };
}

/**
 * Inserts or updates account containers in one statement (the last of two rows for one shipment and number wins);
 * returns the id of each. A delivery marked by hand stands until the sources report the empty return; updated_at
 * moves only when the snapshot changes.
 */
export async function upsertContainers(
  q: Queryable,
  rows: readonly ({ id: string; account_id: string; shipment_id: string } & ContainerColumns)[],
  now: Date,
): Promise<{ id: string; shipment_id: string; number: string }[]> {
  const unique = [...new Map(rows.map((r) => [`${r.shipment_id} ${r.number}`, r])).values()];
  if (unique.length === 0) return [];
  changed(
    q,
    unique.map((r) => changeTag.shipment(r.shipment_id)),
  );
  const flat = unique.map(({ pickup, ...r }) => ({
    ...r,
    pickup_zone: pickup.zone,
    pickup_lfd_day: pickup.lfd_day,
    pickup_holds: pickup.holds,
    pickup_available: pickup.available,
    pickup_billed: pickup.billed,
  }));
  return q.query<Pick<Containers, 'id' | 'shipment_id' | 'number'>>(
    `INSERT INTO containers (id, account_id, shipment_id, number, current_status, snapshot, terminal_checked_at,
       terminal_next_check_at, rail_checked_at, rail_next_check_at, pickup_zone, pickup_lfd_day, pickup_holds,
       pickup_available, pickup_billed, created_at, updated_at)
     SELECT x.id, x.account_id, x.shipment_id, x.number, x.current_status, x.snapshot, x.terminal_checked_at,
       x.terminal_next_check_at, x.rail_checked_at, x.rail_next_check_at, x.pickup_zone, x.pickup_lfd_day, x.pickup_holds,
       x.pickup_available, x.pickup_billed, $2, $2
     FROM jsonb_populate_recordset(NULL::containers, $1::jsonb) x
     ON CONFLICT (shipment_id, number) DO UPDATE SET
       current_status = CASE WHEN containers.manual_delivered_at IS NOT NULL AND EXCLUDED.current_status <> 'empty_returned'
         THEN 'delivered' ELSE EXCLUDED.current_status END,
       snapshot = EXCLUDED.snapshot,
       terminal_checked_at = EXCLUDED.terminal_checked_at, terminal_next_check_at = EXCLUDED.terminal_next_check_at,
       rail_checked_at = EXCLUDED.rail_checked_at, rail_next_check_at = EXCLUDED.rail_next_check_at,
       pickup_zone = EXCLUDED.pickup_zone, pickup_lfd_day = EXCLUDED.pickup_lfd_day, pickup_holds = EXCLUDED.pickup_holds,
       pickup_available = EXCLUDED.pickup_available, pickup_billed = EXCLUDED.pickup_billed,
       updated_at = CASE WHEN containers.snapshot IS DISTINCT FROM EXCLUDED.snapshot THEN EXCLUDED.updated_at ELSE containers.updated_at END
     RETURNING id, shipment_id, number`,
    [JSON.stringify(flat), now],
  );
}

/** `upsertTransportEvent` for many events in one statement (the last of two rows for one container and key wins). */
export async function upsertTransportEvents(
  q: Queryable,
  rows: readonly {
    id: string;
    account_id: string;
    shipment_id: string;
    container_id: string;
    event: string;
    key: string;
    timestamp: string | null;
    record: unknown;
  }[],
  now: Date,
): Promise<{ id: string; container_id: string; key: string }[]> {
  const unique = [...new Map(rows.map((r) => [`${r.container_id} ${r.key}`, r])).values()];
  if (unique.length === 0) return [];
  changed(
    q,
    unique.map((r) => changeTag.shipment(r.shipment_id)),
  );
  return q.query<Pick<TransportEvents, 'id' | 'container_id' | 'key'>>(
    `INSERT INTO transport_events (id, account_id, shipment_id, container_id, event, key, "timestamp", record, created_at, updated_at)
     SELECT x.id, x.account_id, x.shipment_id, x.container_id, x.event, x.key, x."timestamp", x.record, $2, $2
     FROM jsonb_populate_recordset(NULL::transport_events, $1::jsonb) x
     ON CONFLICT (container_id, key) DO UPDATE SET event = EXCLUDED.event, "timestamp" = EXCLUDED."timestamp", record = EXCLUDED.record,
       updated_at = CASE WHEN transport_events.record IS DISTINCT FROM EXCLUDED.record THEN EXCLUDED.updated_at ELSE transport_events.updated_at END
     RETURNING id, container_id, key`,
    [JSON.stringify(unique), now],
  );
}

/** The stored transport events of these (container, key) pairs that exist. */
export async function findTransportEventIds(
  q: Queryable,
  pairs: readonly { container_id: string; key: string }[],
): Promise<{ id: string; container_id: string; key: string }[]> {
  if (pairs.length === 0) return [];
  return q.query<Pick<TransportEvents, 'id' | 'container_id' | 'key'>>(
    `SELECT e.id, e.container_id, e.key FROM transport_events e
     JOIN unnest($1::uuid[], $2::text[]) AS x (container_id, key) ON e.container_id = x.container_id AND e.key = x.key`,
    [pairs.map((p) => p.container_id), pairs.map((p) => p.key)],
  );
}

/** Inserts a stored transport event or updates its record (a corrected time, say); returns its id. */
export async function upsertTransportEvent(
  q: Queryable,
  e: Parameters<typeof upsertTransportEvents>[1][number],
  now: Date,
): Promise<string> {
  const [row] = await upsertTransportEvents(q, [e], now);
  return row!.id;
}

export async function insertEstimatedEvent(
  q: Queryable,
  e: { id: string; account_id: string; shipment_id: string; event: string; estimated_timestamp: string; record: unknown },
  now: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO estimated_events (id, account_id, shipment_id, event, estimated_timestamp, record, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [e.id, e.account_id, e.shipment_id, e.event, e.estimated_timestamp, JSON.stringify(e.record), now],
  );
}

export async function insertEstimatedEvents(
  q: Queryable,
  rows: readonly { id: string; account_id: string; shipment_id: string; event: string; estimated_timestamp: string; record: unknown }[],
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `INSERT INTO estimated_events (id, account_id, shipment_id, event, estimated_timestamp, record, created_at)
     SELECT x.id, x.account_id, x.shipment_id, x.event, x.estimated_timestamp, x.record, $2
     FROM jsonb_populate_recordset(NULL::estimated_events, $1::jsonb) x`,
    [JSON.stringify(rows), now],
  );
}

/** An account event to store. */
export interface NewAccountEvent {
  id: string;
  account_id: string;
  event: string;
  tracking_request_id: string | null;
  shipment_id: string | null;
  container_id: string | null;
  transport_event_id: string | null;
  estimated_event_id: string | null;
  payload: unknown;
  occurred_at: Date;
}

/** A stored account event. */
export interface AccountEventRow extends NewAccountEvent, Pick<AccountEvents, 'seq' | 'created_at'> {}

/** Stores one account event with its outbox notifications (see insertAccountEvents). */
export async function insertAccountEvent(q: Queryable, e: NewAccountEvent, now: Date): Promise<void> {
  await insertAccountEvents(q, [e], now);
}

/**
 * Stores account events in the order given (their `seq` follows it) with their outbox notifications
 * (`insertNotificationsForEvents`, in the same transaction: both exist or neither does), in three statements
 * whatever the number of events.
 */
export async function insertAccountEvents(q: Queryable, rows: readonly NewAccountEvent[], now: Date): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `INSERT INTO account_events (id, account_id, event, tracking_request_id, shipment_id, container_id, transport_event_id,
       estimated_event_id, payload, occurred_at, created_at)
     SELECT x.id, x.account_id, x.event, x.tracking_request_id, x.shipment_id, x.container_id, x.transport_event_id,
       x.estimated_event_id, x.payload, x.occurred_at, $2
     FROM jsonb_populate_recordset(NULL::account_events, $1::jsonb) WITH ORDINALITY AS x
     ORDER BY x.ordinality`,
    [JSON.stringify(rows), now],
  );
  await insertNotificationsForEvents(q, rows, now);
}

/** An account's events in commit order (after `afterSeq` when given). */
export async function listAccountEvents(q: Queryable, accountId: string, afterSeq = 0): Promise<AccountEventRow[]> {
  return q.query<AccountEventRow>('SELECT * FROM account_events WHERE account_id = $1 AND seq > $2 ORDER BY seq', [accountId, afterSeq]);
}

/** Keeps each source's answer once per distinct payload (re-fetching the same answer only moves last_fetched_at). */
export async function keepRawObservations(
  q: Queryable,
  rows: readonly {
    id: string;
    tracked_shipment_id: string;
    source_id: string;
    target: unknown;
    payload: unknown;
    payload_sha256: string;
    facts: unknown;
    fetched_at: Date;
  }[],
): Promise<void> {
  // One row per distinct answer: the same answer twice in one batch is kept once, with its latest fetch.
  const unique = new Map<string, (typeof rows)[number]>();
  for (const r of rows) {
    const key = `${r.tracked_shipment_id} ${r.source_id} ${r.payload_sha256}`;
    const seen = unique.get(key);
    unique.set(key, seen ? { ...seen, fetched_at: seen.fetched_at > r.fetched_at ? seen.fetched_at : r.fetched_at } : r);
  }
  if (unique.size === 0) return;
  await q.query(
    `INSERT INTO raw_observations (id, tracked_shipment_id, source_id, target, payload, payload_sha256, facts, first_fetched_at, last_fetched_at)
     SELECT x.id, x.tracked_shipment_id, x.source_id, x.target, x.payload, x.payload_sha256, x.facts, x.fetched_at, x.fetched_at
     FROM jsonb_to_recordset($1::jsonb) AS x (id uuid, tracked_shipment_id uuid, source_id text, target jsonb, payload jsonb,
       payload_sha256 text, facts jsonb, fetched_at timestamptz)
     ON CONFLICT (tracked_shipment_id, source_id, payload_sha256) DO UPDATE SET last_fetched_at = EXCLUDED.last_fetched_at`,
    [JSON.stringify([...unique.values()])],
  );
  changed(
    q,
    [...unique.values()].map((r) => changeTag.tracked(r.tracked_shipment_id)),
  );
}

/** Records one answer (or failure) of a source. */
export async function recordSourceHealth(q: Queryable, sourceId: string, error: string | null, now: Date): Promise<void> {
  await q.query(
    `INSERT INTO source_health (source_id, last_attempt_at, last_success_at, last_failure_at, consecutive_failures, last_error)
     VALUES ($1, $2::timestamptz, CASE WHEN $3::text IS NULL THEN $2::timestamptz END,
       CASE WHEN $3::text IS NOT NULL THEN $2::timestamptz END, CASE WHEN $3::text IS NULL THEN 0 ELSE 1 END, $3::text)
     ON CONFLICT (source_id) DO UPDATE SET
       last_attempt_at = EXCLUDED.last_attempt_at,
       last_success_at = COALESCE(EXCLUDED.last_success_at, source_health.last_success_at),
       last_failure_at = COALESCE(EXCLUDED.last_failure_at, source_health.last_failure_at),
       consecutive_failures = CASE WHEN $3::text IS NULL THEN 0 ELSE source_health.consecutive_failures + 1 END,
       last_error = COALESCE($3::text, source_health.last_error)`,
    [sourceId, now, error],
  );
}

/**
 * Records the answers (or failures) of several sources, in the order they came, in one statement: each source
 * ends as if `recordSourceHealth` had been called for each answer in turn. Rows are written in source order,
 * so concurrent writers lock them in the same order.
 */
export async function recordSourceHealthMany(
  q: Queryable,
  outcomes: readonly { sourceId: string; error: string | null }[],
  now: Date,
): Promise<void> {
  const bySource = new Map<string, { ok: boolean; after_success: number; failed: number; error: string | null }>();
  for (const o of outcomes) {
    const s = bySource.get(o.sourceId) ?? { ok: false, after_success: 0, failed: 0, error: null };
    if (o.error === null) {
      s.ok = true;
      s.after_success = 0;
    } else {
      s.after_success++;
      s.failed++;
      s.error = o.error;
    }
    bySource.set(o.sourceId, s);
  }
  if (bySource.size === 0) return;
  const rows = [...bySource].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // consecutive_failures: the failures after the last success when there was one, else how many to add.
  await q.query(
    `INSERT INTO source_health (source_id, last_attempt_at, last_success_at, last_failure_at, consecutive_failures, last_error)
     SELECT x.source_id, $2::timestamptz, CASE WHEN x.ok THEN $2::timestamptz END, CASE WHEN x.failed > 0 THEN $2::timestamptz END,
       CASE WHEN x.ok THEN x.after_success ELSE x.failed END, x.error
     FROM jsonb_to_recordset($1::jsonb) AS x (source_id text, ok boolean, after_success integer, failed integer, error text, n integer)
     ORDER BY x.n
     ON CONFLICT (source_id) DO UPDATE SET
       last_attempt_at = EXCLUDED.last_attempt_at,
       last_success_at = COALESCE(EXCLUDED.last_success_at, source_health.last_success_at),
       last_failure_at = COALESCE(EXCLUDED.last_failure_at, source_health.last_failure_at),
       consecutive_failures = CASE WHEN EXCLUDED.last_success_at IS NOT NULL THEN EXCLUDED.consecutive_failures
         ELSE source_health.consecutive_failures + EXCLUDED.consecutive_failures END,
       last_error = COALESCE(EXCLUDED.last_error, source_health.last_error)`,
    [JSON.stringify(rows.map(([source_id, s], n) => ({ source_id, ...s, n }))), now],
  );
}

export interface SourceHealthRow extends SourceHealth {}

export async function listSourceHealth(q: Queryable): Promise<SourceHealthRow[]> {
  return q.query<SourceHealthRow>('SELECT * FROM source_health ORDER BY source_id');
}

/**
 * The stored AIS positions of the vessel with each IMO number from its `from` to `to`, oldest first, each naming
 * the index of its request (a vessel without a row has none). One query for all the requests.
 */
export async function vesselFixes(
  q: Queryable,
  requests: readonly { index: number; imo: string; from: Date }[],
  to: Date,
): Promise<{ index: number; at: Date; latitude: number; longitude: number; speed_knots: number | null }[]> {
  if (requests.length === 0) return [];
  return q.query(
    `SELECT x.index::int AS index, p."at", p.latitude, p.longitude, p.speed_knots
     FROM unnest($1::int[], $2::text[], $3::timestamptz[]) AS x (index, imo, "from")
     JOIN vessels v ON v.imo = x.imo
     JOIN vessel_positions p ON p.vessel_id = v.id AND p."at" >= x."from" AND p."at" <= $4
     ORDER BY x.index, p."at"`,
    [requests.map((r) => r.index), requests.map((r) => r.imo), requests.map((r) => r.from), to],
  );
}

/** Drops every lease (only when no other process can hold one: the embedded database's single owner). */
export async function clearAllLeases(q: Queryable): Promise<void> {
  await q.query('UPDATE tracking_requests SET lease_until = NULL WHERE lease_until IS NOT NULL');
  await q.query('UPDATE tracked_shipments SET lease_until = NULL WHERE lease_until IS NOT NULL');
}
