import { one, type Queryable } from '../db.js';
import type { TrackedShipments } from '../schema.generated.js';

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

/** Drops every lease (only when no other process can hold one: the embedded database's single owner). */
export async function clearAllLeases(q: Queryable): Promise<void> {
  await q.query('UPDATE tracking_requests SET lease_until = NULL WHERE lease_until IS NOT NULL');
  await q.query('UPDATE tracked_shipments SET lease_until = NULL WHERE lease_until IS NOT NULL');
}
