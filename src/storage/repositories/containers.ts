// An account's containers as the API reads them (the tracking engine writes them: repositories/tracking.ts).
import { one, type Queryable } from '../db.js';

export interface ContainerRecord {
  id: string;
  account_id: string;
  shipment_id: string;
  number: string;
  ref_numbers: string[];
  current_status: string;
  /** The engine's ContainerSnapshot (wire attribute names). */
  snapshot: Record<string, unknown>;
  terminal_checked_at: Date | null;
  terminal_next_check_at: Date | null;
  rail_checked_at: Date | null;
  rail_next_check_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** The shipment's last attempt at the line (domain time). */
  shipment_last_tracking_request_at: Date | null;
  tracked_shipment_id: string | null;
  /** Its transport events, newest first (the relationship carries every id). */
  transport_event_ids: string[];
  [k: string]: unknown;
}

const SELECT = `SELECT c.*, s.line_tracking_last_attempted_at AS shipment_last_tracking_request_at, s.tracked_shipment_id,
    ARRAY(SELECT e.id FROM transport_events e WHERE e.container_id = c.id ORDER BY e."timestamp" DESC NULLS LAST, e.id DESC)
      AS transport_event_ids
  FROM containers c JOIN shipments s ON s.id = c.shipment_id`;

export async function findContainer(q: Queryable, accountId: string, id: string): Promise<ContainerRecord | undefined> {
  return one<ContainerRecord>(q, `${SELECT} WHERE c.account_id = $1 AND c.id = $2`, [accountId, id]);
}

/** The account's containers, newest first; `number` matches exactly (already normalized). */
export async function listContainers(
  q: Queryable,
  accountId: string,
  filter: { number?: string },
  page: { limit: number; offset: number },
): Promise<{ items: ContainerRecord[]; total: number }> {
  const where = ['c.account_id = $1'];
  const values: unknown[] = [accountId];
  if (filter.number) {
    values.push(filter.number);
    where.push(`c.number = $${values.length}`);
  }
  const clause = where.join(' AND ');
  const items = await q.query<ContainerRecord>(
    `${SELECT} WHERE ${clause} ORDER BY c.created_at DESC, c.id DESC LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
    [...values, page.limit, page.offset],
  );
  const count = await one<{ n: number }>(q, `SELECT count(*)::int AS n FROM containers c WHERE ${clause}`, values);
  return { items, total: count?.n ?? 0 };
}

/** The account's containers of these shipments, newest first (for `include=containers`). */
export async function containersOfShipments(q: Queryable, accountId: string, shipmentIds: string[]): Promise<ContainerRecord[]> {
  if (shipmentIds.length === 0) return [];
  return q.query<ContainerRecord>(
    `${SELECT} WHERE c.account_id = $1 AND c.shipment_id = ANY($2::uuid[]) ORDER BY c.created_at DESC, c.id DESC`,
    [accountId, shipmentIds],
  );
}

/** The latest answer of each source about a tracked shipment, with the facts parsed from it. */
export async function latestObservations(
  q: Queryable,
  trackedShipmentId: string,
): Promise<{ id: string; source_id: string; facts: { milestones?: unknown[] }; first_fetched_at: Date; last_fetched_at: Date }[]> {
  return q.query(
    `SELECT DISTINCT ON (source_id, target) id, source_id, facts, first_fetched_at, last_fetched_at
     FROM raw_observations WHERE tracked_shipment_id = $1 ORDER BY source_id, target, last_fetched_at DESC, id DESC`,
    [trackedShipmentId],
  );
}

export interface TransportEventRow {
  id: string;
  account_id: string;
  shipment_id: string;
  container_id: string;
  event: string;
  /** The engine's TransportEventRecord. */
  record: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  [k: string]: unknown;
}

/** A container's transport events, newest first by when Tidemark stored them (as the reference orders them). */
export async function listTransportEvents(
  q: Queryable,
  accountId: string,
  containerIds: string[],
  page: { limit: number; offset: number },
): Promise<{ items: TransportEventRow[]; total: number }> {
  const items = await q.query<TransportEventRow>(
    `SELECT * FROM transport_events WHERE account_id = $1 AND container_id = ANY($2::uuid[])
     ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
    [accountId, containerIds, page.limit, page.offset],
  );
  const count = await one<{ n: number }>(
    q,
    'SELECT count(*)::int AS n FROM transport_events WHERE account_id = $1 AND container_id = ANY($2::uuid[])',
    [accountId, containerIds],
  );
  return { items, total: count?.n ?? 0 };
}

/** The account's containers with these ids. */
export async function findContainersByIds(q: Queryable, accountId: string, ids: string[]): Promise<ContainerRecord[]> {
  if (ids.length === 0) return [];
  return q.query<ContainerRecord>(`${SELECT} WHERE c.account_id = $1 AND c.id = ANY($2::uuid[])`, [accountId, ids]);
}
