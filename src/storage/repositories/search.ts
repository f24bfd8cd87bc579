// GET /v2/search, one query per entity: exact matches (GIN over tidemark_search_keys, 0006_search.sql)
// first, then substring matches walking the account's rows newest first, both capped at the caller's limit.
import type { Queryable } from '../db.js';
import type { Shipments, TrackingRequests } from '../schema.generated.js';

export type SearchEntityType = 'shipment' | 'cargo' | 'tracking_request';

/** One hit as the API shows it (wire attribute names), plus whether it matched exactly. */
export interface SearchHit {
  id: string;
  entity_type: SearchEntityType;
  number: string;
  shipment_id: string | null;
  scac: Shipments['shipping_line_scac'];
  port_of_lading_name: Shipments['port_of_lading_name'];
  port_of_discharge_name: Shipments['port_of_discharge_name'];
  containers_count: number | null;
  tracking_stopped: boolean;
  tracking_stopped_reason: Shipments['line_tracking_stopped_reason'];
  status: string | null;
  failed_reason: TrackingRequests['failed_reason'];
  ref_numbers: string[];
  created_at: Date;
  updated_at: Date;
  exact: boolean;
}

export interface SearchTerms {
  /** Exact keys: the input as typed and as a container number would be stored (upper-cased in SQL). */
  keys: string[];
  /** `%input%` with LIKE wildcards escaped by a backslash, matched case-insensitively. */
  pattern: string;
  /** `%INPUT%` normalized as a container number (escaped), or null when nothing is left of it. */
  numberPattern: string | null;
}

const ESC = `ESCAPE '\\'`;
/** A stored number as normalizeContainerNumber writes one (container numbers are stored so already). */
const stripped = (column: string) => `regexp_replace(upper(${column}), '[[:space:]./-]', '', 'g')`;
const refMatch = (column: string, p: string) => `EXISTS (SELECT 1 FROM unnest(${column}) AS r WHERE r ILIKE ${p} ${ESC})`;

/**
 * Wraps the exact and partial id queries of one table: exact hits newest first, then substring hits that
 * were not exact, newest first; `select` reads the wire fields from `hits h` joined to the table.
 */
function ranked(table: string, alias: string, scope: string, exact: string, partial: string, select: string): string {
  // MATERIALIZED keeps the planner on the GIN index for the exact keys: left to itself, it walks the
  // account's rows newest first and runs tidemark_search_keys on each, hoping to stop early.
  return `WITH matched AS MATERIALIZED (
      SELECT ${alias}.id, ${alias}.created_at FROM ${table} ${alias} WHERE ${scope} AND ${exact}
    ), exact AS (
      SELECT id FROM matched ORDER BY created_at DESC, id DESC LIMIT $4
    ), partial AS (
      SELECT ${alias}.id FROM ${table} ${alias}
      WHERE ${scope} AND ${alias}.id NOT IN (SELECT id FROM exact) AND (${partial})
      ORDER BY ${alias}.created_at DESC, ${alias}.id DESC LIMIT $4
    ), hits AS (
      SELECT id, true AS exact FROM exact UNION ALL SELECT id, false AS exact FROM partial
    )
    ${select}
    ORDER BY h.exact DESC, ${alias}.created_at DESC, ${alias}.id DESC
    LIMIT $4`;
}

// Parameters: $1 account, $2 keys, $3 pattern, $4 limit; then $5 number pattern and $6 numbers to leave out
// where a table uses them (every parameter sent must appear in the statement).
const KEYS = `tidemark_search_keys($2::text[], '{}'::text[])`;

const containersCount = (shipment: string) => `(SELECT count(*)::int FROM containers cc WHERE cc.shipment_id = ${shipment})`;

/** Shipments by bill of lading, booking or request number, or reference number. */
export async function searchShipments(q: Queryable, accountId: string, terms: SearchTerms, limit: number): Promise<SearchHit[]> {
  if (limit <= 0) return [];
  const sql = ranked(
    'shipments',
    's',
    's.account_id = $1',
    `tidemark_search_keys(ARRAY[s.bill_of_lading_number, s.booking_number, s.request_number], s.ref_numbers) && ${KEYS}`,
    `s.bill_of_lading_number ILIKE $3 ${ESC} OR s.booking_number ILIKE $3 ${ESC} OR s.request_number ILIKE $3 ${ESC}
       OR ${refMatch('s.ref_numbers', '$3')}`,
    `SELECT s.id, 'shipment' AS entity_type, s.bill_of_lading_number AS number, s.id AS shipment_id,
       s.shipping_line_scac AS scac, s.port_of_lading_name, s.port_of_discharge_name,
       ${containersCount('s.id')} AS containers_count,
       s.line_tracking_stopped_at IS NOT NULL AS tracking_stopped, s.line_tracking_stopped_reason AS tracking_stopped_reason,
       CASE WHEN s.line_tracking_stopped_at IS NULL THEN 'created' ELSE 'tracking_stopped' END AS status,
       NULL::text AS failed_reason, s.ref_numbers, s.created_at, s.updated_at, h.exact
     FROM hits h JOIN shipments s ON s.id = h.id`,
  );
  return q.query<SearchHit>(sql, [accountId, terms.keys, terms.pattern, limit]);
}

/** Containers by number (typed with or without spaces and dashes) or reference number. */
export async function searchContainers(q: Queryable, accountId: string, terms: SearchTerms, limit: number): Promise<SearchHit[]> {
  if (limit <= 0) return [];
  const sql = ranked(
    'containers',
    'c',
    'c.account_id = $1',
    `tidemark_search_keys(ARRAY[c.number], c.ref_numbers) && ${KEYS}`,
    `c.number ILIKE $3 ${ESC} OR ($5::text IS NOT NULL AND ${stripped('c.number')} LIKE $5 ${ESC})
       OR ${refMatch('c.ref_numbers', '$3')}`,
    `SELECT c.id, 'cargo' AS entity_type, c.number, c.shipment_id, s.shipping_line_scac AS scac,
       s.port_of_lading_name, s.port_of_discharge_name, ${containersCount('c.shipment_id')} AS containers_count,
       s.line_tracking_stopped_at IS NOT NULL AS tracking_stopped, s.line_tracking_stopped_reason AS tracking_stopped_reason,
       c.current_status AS status, NULL::text AS failed_reason, c.ref_numbers, c.created_at, c.updated_at, h.exact
     FROM hits h JOIN containers c ON c.id = h.id JOIN shipments s ON s.id = c.shipment_id`,
  );
  return q.query<SearchHit>(sql, [accountId, terms.keys, terms.pattern, limit, terms.numberPattern]);
}

/**
 * Tracking requests by request number (container numbers typed any way) or reference number, leaving out
 * those whose request number is one of `exceptNumbers` (case-insensitively).
 */
export async function searchTrackingRequests(
  q: Queryable,
  accountId: string,
  terms: SearchTerms,
  limit: number,
  exceptNumbers: string[],
): Promise<SearchHit[]> {
  if (limit <= 0) return [];
  const scope = `tr.account_id = $1 AND upper(tr.request_number) <> ALL (tidemark_search_keys($6::text[], '{}'::text[]))`;
  const sql = ranked(
    'tracking_requests',
    'tr',
    scope,
    `tidemark_search_keys(ARRAY[tr.request_number], tr.ref_numbers) && ${KEYS}`,
    `tr.request_number ILIKE $3 ${ESC} OR ($5::text IS NOT NULL AND ${stripped('tr.request_number')} LIKE $5 ${ESC})
       OR ${refMatch('tr.ref_numbers', '$3')}`,
    `SELECT tr.id, 'tracking_request' AS entity_type, tr.request_number AS number, tr.shipment_id,
       NULLIF(tr.scac, '') AS scac, s.port_of_lading_name, s.port_of_discharge_name,
       CASE WHEN s.id IS NULL THEN NULL ELSE ${containersCount('s.id')} END AS containers_count,
       (tr.status = 'tracking_stopped' OR s.line_tracking_stopped_at IS NOT NULL) AS tracking_stopped,
       s.line_tracking_stopped_reason AS tracking_stopped_reason,
       tr.status, tr.failed_reason, tr.ref_numbers, tr.created_at, tr.updated_at, h.exact
     FROM hits h JOIN tracking_requests tr ON tr.id = h.id
       LEFT JOIN shipments s ON s.id = tr.shipment_id AND s.account_id = tr.account_id`,
  );
  return q.query<SearchHit>(sql, [accountId, terms.keys, terms.pattern, limit, terms.numberPattern, exceptNumbers]);
}
