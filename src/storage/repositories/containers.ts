// An account's containers as the API reads them (the tracking engine writes them: repositories/tracking.ts).
import { containsPattern } from '../../lib/lists.js';
import { one, type Queryable } from '../db.js';
import { type CustomFieldMatch, customFieldMatch } from './custom-field-match.js';
import { listTotal } from './row-counts.js';
import { changed, changeTag } from './changes.js';
import type { Containers, RawObservations, Shipments, TransportEvents } from '../schema.generated.js';

type OptionalContainerColumns =
  | 'manual_delivered_at'
  | 'pickup_zone'
  | 'pickup_lfd_day'
  | 'pickup_holds'
  | 'pickup_available'
  | 'pickup_billed';

/**
 * A container row (`c.*`) with what the list and the document need of its shipment. The columns that only some
 * readers need are optional, so that records made by hand (the webhook examples) need not name them; a query here
 * always returns them.
 */
export interface ContainerRecord
  extends Omit<Containers, 'snapshot' | OptionalContainerColumns>,
    Partial<Pick<Containers, OptionalContainerColumns>> {
  /**
   * The engine's ContainerSnapshot (wire attribute names), as stored (jsonb, shape unchecked here): services read it
   * with readContainerSnapshot (src/tracking/stored.ts).
   */
  snapshot: Record<string, unknown>;
  /** The shipment's last attempt at the line (domain time). */
  shipment_last_tracking_request_at: Shipments['line_tracking_last_attempted_at'];
  tracked_shipment_id: Shipments['tracked_shipment_id'];
  /** The shipment's POD vessel (its predicted arrival shows on the shipment). */
  shipment_pod_vessel_imo?: Shipments['pod_vessel_imo'];
  /** Its transport events in their one order (transportEventOrder; the relationship carries every id). */
  transport_event_ids: TransportEvents['id'][];
  /** Its raw events' ids (set by the container service: they are derived, not stored). */
  raw_event_ids?: string[];
  /** Its custom-field values' ids, set when a request includes `custom_fields` (render/custom-field-include.ts). */
  custom_field_ids?: string[];
}

/**
 * The one order of a container's transport events, wherever they are listed (the transport_events route, the
 * container's `transport_events` relationship, include=transport_events, the MCP tools): newest first by when it
 * happened (`timestamp`); pickup changes, whose `timestamp` is the new date, by when Tidemark saw them
 * (`observed_at`, domain time); those with neither last; then newest stored first. Unlike the reference API
 * (newest `created_at` first): a history first seen at once would be in no order. `e` is the table's alias.
 * Containers have tens of events: the container's rows come by the (container_id, key) index and are sorted.
 */
export const transportEventOrder = (e: string) =>
  `COALESCE(CASE WHEN starts_with(${e}.event, 'container.pickup_') THEN (${e}.record->>'observed_at')::timestamptz END, ${e}."timestamp")
     DESC NULLS LAST, ${e}.created_at DESC, ${e}.id DESC`;

const SELECT = `SELECT c.*, s.line_tracking_last_attempted_at AS shipment_last_tracking_request_at, s.tracked_shipment_id,
    s.pod_vessel_imo AS shipment_pod_vessel_imo,
    ARRAY(SELECT e.id FROM transport_events e WHERE e.container_id = c.id ORDER BY ${transportEventOrder('e')})
      AS transport_event_ids
  FROM containers c JOIN shipments s ON s.id = c.shipment_id`;

export async function findContainer(q: Queryable, accountId: string, id: string): Promise<ContainerRecord | undefined> {
  return one<ContainerRecord>(q, `${SELECT} WHERE c.account_id = $1 AND c.id = $2`, [accountId, id]);
}

/** What the containers list can be narrowed by. */
export interface ContainerFilter {
  /** Exactly this number (already normalized). */
  number?: string;
  /** The container's customer: its own customer role, else its shipment's customer. */
  customerId?: string;
  /** The customer's company name, anywhere in it, any case. */
  customerName?: string;
  /** Its current status is one of these. */
  statuses?: string[];
  /** Its shipment's port of lading, port of discharge or destination is one of these UN/LOCODEs. */
  ports?: string[];
  /** Its shipment's shipping line (SCAC) is one of these. */
  carriers?: string[];
  /** Updated after this instant. */
  updatedAfter?: Date;
  /** Custom-field values it holds (every one): `filter[custom_fields][<slug>]`, see `customFieldMatch`. */
  customFields?: CustomFieldMatch[];
}

/** The account's containers, newest first. */
export async function listContainers(
  q: Queryable,
  accountId: string,
  filter: ContainerFilter,
  page: { limit: number; offset: number },
): Promise<{ items: ContainerRecord[]; total: number }> {
  const where = ['c.account_id = $1'];
  const values: unknown[] = [accountId];
  const add = (sql: (n: string) => string, value: unknown) => {
    values.push(value);
    where.push(sql(`$${values.length}`));
  };
  if (filter.number) add((n) => `c.number = ${n}`, filter.number);
  // The customer party of each container: its own customer role, else its shipment's.
  const customers = `(SELECT r.party_id FROM party_roles r WHERE r.container_id = c.id AND lower(r.role) = 'customer'
      UNION SELECT s2.customer_id FROM shipments s2 WHERE s2.id = c.shipment_id AND s2.customer_id IS NOT NULL)`;
  if (filter.customerId) add((n) => `${n}::uuid IN ${customers}`, filter.customerId);
  if (filter.customerName) {
    add(
      (n) => `EXISTS (SELECT 1 FROM parties p WHERE p.id IN ${customers} AND p.company_name ILIKE ${n} ESCAPE '\\')`,
      containsPattern(filter.customerName),
    );
  }
  if (filter.statuses) add((n) => `c.current_status = ANY(${n}::text[])`, filter.statuses);
  if (filter.ports) {
    add(
      (n) => `(s.port_of_lading_locode = ANY(${n}::text[]) OR s.port_of_discharge_locode = ANY(${n}::text[])
        OR s.destination_locode = ANY(${n}::text[]))`,
      filter.ports,
    );
  }
  if (filter.carriers) add((n) => `s.shipping_line_scac = ANY(${n}::text[])`, filter.carriers);
  if (filter.updatedAfter) add((n) => `c.updated_at > ${n}`, filter.updatedAfter);
  for (const match of filter.customFields ?? []) where.push(customFieldMatch('c.id', match, values));
  const clause = where.join(' AND ');
  // The page's ids first, walking only the account's index (created_at DESC, id DESC), then those rows (see
  // listShipments). The shipment only when a filter reads it (every container has one: no row is lost without it).
  const from = `FROM containers c${filter.ports || filter.carriers ? ' JOIN shipments s ON s.id = c.shipment_id' : ''}`;
  const items = await q.query<ContainerRecord>(
    `WITH page AS (SELECT c.id ${from} WHERE ${clause}
       ORDER BY c.created_at DESC, c.id DESC LIMIT $${values.length + 1} OFFSET $${values.length + 2})
     ${SELECT} WHERE c.account_id = $1 AND c.id IN (SELECT id FROM page) ORDER BY c.created_at DESC, c.id DESC`,
    [...values, page.limit, page.offset],
  );
  const total = await listTotal(q, accountId, 'containers', { filtered: where.length > 1, page, rows: items.length }, async () => {
    const count = await one<{ n: number }>(q, `SELECT count(*)::int AS n ${from} WHERE ${clause}`, values);
    return count?.n ?? 0;
  });
  return { items, total };
}

/** The account's containers of these shipments, newest first (for `include=containers`). */
export async function containersOfShipments(q: Queryable, accountId: string, shipmentIds: string[]): Promise<ContainerRecord[]> {
  if (shipmentIds.length === 0) return [];
  return q.query<ContainerRecord>(
    `${SELECT} WHERE c.account_id = $1 AND c.shipment_id = ANY($2::uuid[]) ORDER BY c.created_at DESC, c.id DESC`,
    [accountId, shipmentIds],
  );
}

/** The numbers of a shipment's containers (where initial custom fields name one). */
export async function containerNumbersOf(q: Queryable, accountId: string, shipmentId: string): Promise<{ id: string; number: string }[]> {
  return q.query<{ id: string; number: string }>(
    'SELECT id, number FROM containers WHERE account_id = $1 AND shipment_id = $2 ORDER BY created_at, id',
    [accountId, shipmentId],
  );
}

export interface LatestObservation
  extends Pick<RawObservations, 'id' | 'tracked_shipment_id' | 'source_id' | 'first_fetched_at' | 'last_fetched_at'> {
  facts: { milestones?: unknown[] };
}

/** The latest answer of each source about these tracked shipments, with the facts parsed from it. */
export async function latestObservations(q: Queryable, trackedShipmentIds: string[]): Promise<LatestObservation[]> {
  if (trackedShipmentIds.length === 0) return [];
  return q.query<LatestObservation>(
    `SELECT DISTINCT ON (tracked_shipment_id, source_id, target) id, tracked_shipment_id, source_id, facts, first_fetched_at, last_fetched_at
     FROM raw_observations WHERE tracked_shipment_id = ANY($1::uuid[])
     ORDER BY tracked_shipment_id, source_id, target, last_fetched_at DESC, id DESC`,
    [trackedShipmentIds],
  );
}

export interface TransportEventRow
  extends Pick<TransportEvents, 'id' | 'account_id' | 'shipment_id' | 'container_id' | 'event' | 'created_at' | 'updated_at'> {
  /** The engine's TransportEventRecord. */
  record: Record<string, unknown>;
}

/** These containers' transport events in their one order (transportEventOrder). */
export async function listTransportEvents(
  q: Queryable,
  accountId: string,
  containerIds: string[],
  page: { limit: number; offset: number },
): Promise<{ items: TransportEventRow[]; total: number }> {
  const items = await q.query<TransportEventRow>(
    `SELECT * FROM transport_events e WHERE e.account_id = $1 AND e.container_id = ANY($2::uuid[])
     ORDER BY ${transportEventOrder('e')} LIMIT $3 OFFSET $4`,
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

/** Sets a container's reference numbers; false when the account has no such container. */
export async function updateContainerRefNumbers(
  q: Queryable,
  accountId: string,
  id: string,
  refNumbers: string[],
  now: Date,
): Promise<boolean> {
  const row = await one<Pick<Containers, 'shipment_id'>>(
    q,
    'UPDATE containers SET ref_numbers = $3, updated_at = $4 WHERE account_id = $1 AND id = $2 RETURNING shipment_id',
    [accountId, id, refNumbers, now],
  );
  if (row) changed(q, [changeTag.shipment(row.shipment_id)]);
  return row !== undefined;
}

/**
 * Marks (or, with null, unmarks) a delivery by hand. The status is `delivered` while it is marked, unless the
 * sources already report the empty return; unmarked, it is the sources' status again (the rule the engine's
 * container upsert applies too). Returns the delivery mark it replaced.
 */
export async function setManualDelivery(
  q: Queryable,
  accountId: string,
  id: string,
  deliveredAt: Date | null,
  now: Date,
): Promise<{ previous: Date | null } | undefined> {
  const row = await one<Pick<Containers, 'shipment_id'> & { previous: Containers['manual_delivered_at'] }>(
    q,
    `UPDATE containers c SET manual_delivered_at = $3::timestamptz, updated_at = $4,
       current_status = CASE WHEN $3::timestamptz IS NOT NULL AND c.snapshot->>'current_status' <> 'empty_returned'
         THEN 'delivered' ELSE c.snapshot->>'current_status' END
     FROM (SELECT manual_delivered_at FROM containers WHERE account_id = $1 AND id = $2 FOR UPDATE) old
     WHERE c.account_id = $1 AND c.id = $2
     RETURNING old.manual_delivered_at AS previous, c.shipment_id`,
    [accountId, id, deliveredAt, now],
  );
  if (!row) return undefined;
  changed(q, [changeTag.shipment(row.shipment_id)]);
  return { previous: row.previous };
}

/**
 * The statuses of the containers the board looks at (at a pickup place, the POD terminal, an off-dock yard or an
 * inland ramp, or on their way from one to the next): the predicate of the partial index containers_board_facts_idx
 * (migration 0022). Keep the two the same, or the index is not used (src/services/containers-board.test.ts checks).
 */
export const BOARD_STATUSES = `c.current_status NOT IN ('picked_up', 'delivered', 'empty_returned', 'dropped', 'loaded', 'new', 'on_ship')`;

/** The zones (pickup_zone; '' for none) whose day the board of this account needs. */
export async function boardZones(q: Queryable, accountId: string): Promise<string[]> {
  const rows = await q.query<{ zone: string }>(
    `SELECT DISTINCT coalesce(c.pickup_zone, '') AS zone FROM containers c WHERE c.account_id = $1 AND ${BOARD_STATUSES}`,
    [accountId],
  );
  return rows.map((r) => r.zone);
}

/** The kinds of the board as SQL over a judged row (`holds`, `available`, `billed`, `days_left`). */
const BOARD_KIND_SQL = {
  on_hold: 'holds > 0',
  available: 'available',
  lfd_today: 'days_left = 0',
  lfd_tomorrow: 'days_left = 1',
  lfd_passed: 'days_left < 0',
  demurrage_accruing: '(days_left < 0 OR billed)',
} as const;

export type BoardKindName = keyof typeof BOARD_KIND_SQL;

/** Every kind's count, as `json_build_object` arguments. */
const BOARD_COUNTS_SQL = Object.entries(BOARD_KIND_SQL)
  .map(([name, sql]) => `'${name}', count(*) FILTER (WHERE ${sql})`)
  .join(', ');

/** Needing action: of any kind (attentionOf's needs_action is the same union). */
const NEEDS_ACTION_SQL = Object.values(BOARD_KIND_SQL)
  .map((sql) => `(${sql})`)
  .join(' OR ');

/**
 * The board of an account in one statement, from containers_board_facts_idx alone: every container there judged on its
 * pickup facts (migrations 0019-0021) against the day it is in its zone (`today`: zone, '' for none, to `YYYY-MM-DD`;
 * every zone of `boardZones` must be there), those of a stopped shipment left out. Answers the count of each kind
 * (`needs_action`: those needing anything) and one page of ids of those needing `kind` (or anything), most urgent
 * first: the fewest days left to the last free day, then the most holds, then the newest. The kinds are those of
 * tracking/attention.ts (isKind); src/services/containers-board.test.ts holds the two together.
 */
export async function boardPage(
  q: Queryable,
  accountId: string,
  today: ReadonlyMap<string, string>,
  kind: BoardKindName | undefined,
  page: { limit: number; offset: number },
): Promise<{ counts: Record<BoardKindName | 'needs_action', number>; ids: string[] }> {
  const [row] = await q.query<{ counts: Record<BoardKindName | 'needs_action', number>; ids: string[] }>(
    `WITH today AS (
       SELECT zone, day FROM json_to_recordset($2::json) AS t(zone text, day date)
     ), judged AS (
       SELECT c.id, c.created_at, c.pickup_holds AS holds, c.pickup_available AS available, c.pickup_billed AS billed,
         c.pickup_lfd_day - t.day AS days_left
       FROM containers c JOIN today t ON t.zone = coalesce(c.pickup_zone, '')
       WHERE c.account_id = $1 AND ${BOARD_STATUSES}
         AND c.shipment_id NOT IN (SELECT s.id FROM shipments s WHERE s.account_id = $1 AND s.line_tracking_stopped_at IS NOT NULL)
     ), needing AS MATERIALIZED (
       SELECT * FROM judged WHERE ${NEEDS_ACTION_SQL}
     )
     SELECT (SELECT json_build_object('needs_action', count(*), ${BOARD_COUNTS_SQL}) FROM needing) AS counts,
       ARRAY(SELECT id::text AS page_id FROM needing WHERE ${kind ? BOARD_KIND_SQL[kind] : 'true'}
             ORDER BY days_left ASC NULLS LAST, holds DESC, created_at DESC, id DESC LIMIT $3 OFFSET $4) AS ids`,
    [accountId, JSON.stringify([...today].map(([zone, day]) => ({ zone, day }))), page.limit, page.offset],
  );
  return { counts: row!.counts, ids: row!.ids };
}
