import type { Queryable } from '../db.js';
import { changed, changeTag } from './changes.js';
import type { Containers, TransportEvents } from '../schema.generated.js';

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
