import { normalizeContainerNumber } from '../../domain/container-number.js';
import { containsPattern } from '../../lib/lists.js';
import { one, type Queryable } from '../db.js';
import { type CustomFieldMatch, customFieldMatch } from './custom-field-match.js';
import type { EstimatedEventRow } from './notification-reads.js';
import { listTotal } from './row-counts.js';
import { changed, changeTag } from './changes.js';
import type { Containers, Parties, Shipments, VesselPodEtas } from '../schema.generated.js';

/** A shipment as stored: the wire attributes (snake_case, as the API names them) plus keys. */
export interface ShipmentRecord
  extends Pick<
      Shipments,
      | 'id'
      | 'account_id'
      | 'customer_id'
      | 'bill_of_lading_number'
      | 'normalized_number'
      | 'request_number'
      | 'ref_numbers'
      | 'tags'
      | 'shipping_line_scac'
      | 'shipping_line_name'
      | 'shipping_line_short_name'
      | 'port_of_lading_locode'
      | 'port_of_lading_name'
      | 'pol_etd_at'
      | 'pol_atd_at'
      | 'pol_original_etd_at'
      | 'pol_timezone'
      | 'port_of_discharge_locode'
      | 'port_of_discharge_name'
      | 'pod_terminal_firms_code'
      | 'pod_vessel_name'
      | 'pod_vessel_imo'
      | 'pod_voyage_number'
      | 'pod_eta_at'
      | 'pod_original_eta_at'
      | 'pod_ata_at'
      | 'pod_timezone'
      | 'destination_locode'
      | 'destination_name'
      | 'destination_eta_at'
      | 'destination_ata_at'
      | 'destination_original_eta_at'
      | 'destination_timezone'
      | 'line_tracking_last_attempted_at'
      | 'line_tracking_last_succeeded_at'
      | 'line_tracking_stopped_at'
      | 'line_tracking_next_attempt_at'
      | 'line_tracking_stopped_reason'
      | 'created_at'
      | 'updated_at'
    >,
    Partial<Pick<Shipments, 'tracked_shipment_id'>> {
  /** The customer's company name (parties, joined). */
  customer_name: Parties['company_name'] | null;
  /** The tracked shipment whose sources fill it (null before its first attempt). */
  tracked_shipment_id?: Shipments['tracked_shipment_id'];
  /** Extra: when the line is next asked (domain time). */
  line_tracking_next_attempt_at: Shipments['line_tracking_next_attempt_at'];
  /** Its containers, newest first. */
  container_ids: Containers['id'][];
  /** The engine's ShipmentSnapshot as stored (jsonb, shape unchecked here); null before the first fetch. */
  snapshot: Shipments['snapshot'];
  /**
   * The POD vessel's predicted arrival at the POD (vessel_pod_etas, joined); null without a prediction. Always
   * selected here; optional for records made by hand (the webhook examples).
   */
  predicted_pod_eta_at?: VesselPodEtas['predicted_at'] | null;
  predicted_distance_nm?: VesselPodEtas['distance_nm'] | null;
  predicted_speed_knots?: VesselPodEtas['speed_knots'] | null;
  /** Its party roles' ids (set by the service that renders it: not selected here). */
  party_role_ids?: string[];
  /** Its custom-field values' ids, set when a request includes `custom_fields` (render/custom-field-include.ts). */
  custom_field_ids?: string[];
}

// The POD vessel's predicted arrival at the POD (vessel_pod_etas) comes along: shipments render it.
const SELECT = `SELECT s.*, p.company_name AS customer_name,
    ARRAY(SELECT c.id FROM containers c WHERE c.shipment_id = s.id ORDER BY c.created_at DESC, c.id DESC) AS container_ids,
    e.predicted_at AS predicted_pod_eta_at, e.distance_nm AS predicted_distance_nm, e.speed_knots AS predicted_speed_knots
  FROM shipments s LEFT JOIN parties p ON p.id = s.customer_id
  LEFT JOIN vessel_pod_etas e ON e.imo = regexp_replace(upper(s.pod_vessel_imo), '^IMO\\s*', '')
    AND e.pod_locode = s.port_of_discharge_locode`;

/** What the shipments list can be narrowed by (all optional; every one given must hold). */
export interface ShipmentFilter {
  /** Master BL, booking, reference or container number, anywhere in it, any case (containers: spaces and dashes ignored). */
  q?: string;
  /** The number the shipment was tracked by (bill of lading or booking; never a container number), exactly. */
  number?: string;
  trackingStopped?: boolean;
  /** `YYYY-MM-DD`, inclusive, in the POD's local calendar: arrival is the actual arrival, else the estimate. */
  arrivalFrom?: string;
  arrivalTo?: string;
  portsOfLading?: string[];
  portsOfDischarge?: string[];
  customerId?: string;
  /** The customer's company name, anywhere in it, any case. */
  customerName?: string;
  /** The shipping line (SCAC). */
  carriers?: string[];
  /** Shipments with a container in one of these statuses. */
  containerStatuses?: string[];
  /** Its port of lading, port of discharge or destination is one of these UN/LOCODEs. */
  ports?: string[];
  /** Updated after this instant. */
  updatedAfter?: Date;
  /** Custom-field values it holds (every one): `filter[custom_fields][<slug>]`, see `customFieldMatch`. */
  customFields?: CustomFieldMatch[];
}

export async function listShipments(
  q: Queryable,
  accountId: string,
  filter: ShipmentFilter,
  page: { limit: number; offset: number },
): Promise<{ items: ShipmentRecord[]; total: number }> {
  const where = ['s.account_id = $1'];
  const values: unknown[] = [accountId];
  const add = (sql: (n: string) => string, value: unknown) => {
    values.push(value);
    where.push(sql(`$${values.length}`));
  };
  if (filter.q) {
    values.push(containsPattern(filter.q), containsPattern(normalizeContainerNumber(filter.q)));
    const [text, box] = [`$${values.length - 1}`, `$${values.length}`];
    where.push(`(s.bill_of_lading_number ILIKE ${text} ESCAPE '\\' OR s.booking_number ILIKE ${text} ESCAPE '\\'
      OR s.request_number ILIKE ${text} ESCAPE '\\'
      OR EXISTS (SELECT 1 FROM unnest(s.ref_numbers) r WHERE r ILIKE ${text} ESCAPE '\\')
      OR EXISTS (SELECT 1 FROM containers c WHERE c.shipment_id = s.id AND (c.number LIKE ${box} ESCAPE '\\'
        OR EXISTS (SELECT 1 FROM unnest(c.ref_numbers) r WHERE r ILIKE ${text} ESCAPE '\\'))))`);
  }
  if (filter.number) {
    add(
      (n) => `(upper(s.bill_of_lading_number) = upper(${n}) OR upper(s.booking_number) = upper(${n})
        OR (upper(s.request_number) = upper(${n})
            AND NOT EXISTS (SELECT 1 FROM tracked_shipments t WHERE t.id = s.tracked_shipment_id AND t.number_type = 'container')))`,
      filter.number,
    );
  }
  if (filter.trackingStopped !== undefined) where.push(`s.line_tracking_stopped_at IS ${filter.trackingStopped ? 'NOT ' : ''}NULL`);
  const arrivalDay = `(coalesce(s.pod_ata_at, s.pod_eta_at) AT TIME ZONE coalesce(s.pod_timezone, 'UTC'))::date`;
  if (filter.arrivalFrom) add((n) => `${arrivalDay} >= ${n}::date`, filter.arrivalFrom);
  if (filter.arrivalTo) add((n) => `${arrivalDay} <= ${n}::date`, filter.arrivalTo);
  if (filter.portsOfLading) add((n) => `s.port_of_lading_locode = ANY(${n}::text[])`, filter.portsOfLading);
  if (filter.portsOfDischarge) add((n) => `s.port_of_discharge_locode = ANY(${n}::text[])`, filter.portsOfDischarge);
  if (filter.customerId) add((n) => `s.customer_id = ${n}::uuid`, filter.customerId);
  if (filter.customerName) add((n) => `p.company_name ILIKE ${n} ESCAPE '\\'`, containsPattern(filter.customerName));
  if (filter.carriers) add((n) => `s.shipping_line_scac = ANY(${n}::text[])`, filter.carriers);
  if (filter.containerStatuses) {
    add(
      // The account named in the EXISTS lets PostgreSQL read containers_account_status_idx alone (migration 0018).
      (n) =>
        `EXISTS (SELECT 1 FROM containers c WHERE c.account_id = $1 AND c.shipment_id = s.id AND c.current_status = ANY(${n}::text[]))`,
      filter.containerStatuses,
    );
  }
  if (filter.ports) {
    add(
      (n) => `(s.port_of_lading_locode = ANY(${n}::text[]) OR s.port_of_discharge_locode = ANY(${n}::text[])
        OR s.destination_locode = ANY(${n}::text[]))`,
      filter.ports,
    );
  }
  if (filter.updatedAfter) add((n) => `s.updated_at > ${n}`, filter.updatedAfter);
  for (const match of filter.customFields ?? []) where.push(customFieldMatch('s.id', match, values));
  const clause = where.join(' AND ');
  // The page's ids first, walking only the account's index (created_at DESC, id DESC): a deep page skips
  // its offset there, not through the full rows with their containers and predicted ETA. Then those rows.
  // Parties only when a filter reads them: the planner drops an unused join, but still reads the heap for it.
  const from = `FROM shipments s${filter.customerName ? ' LEFT JOIN parties p ON p.id = s.customer_id' : ''}`;
  const items = await q.query<ShipmentRecord>(
    `WITH page AS (SELECT s.id ${from} WHERE ${clause}
       ORDER BY s.created_at DESC, s.id DESC LIMIT $${values.length + 1} OFFSET $${values.length + 2})
     ${SELECT} WHERE s.account_id = $1 AND s.id IN (SELECT id FROM page) ORDER BY s.created_at DESC, s.id DESC`,
    [...values, page.limit, page.offset],
  );
  const total = await listTotal(q, accountId, 'shipments', { filtered: where.length > 1, page, rows: items.length }, async () => {
    const count = await one<{ n: number }>(q, `SELECT count(*)::int AS n ${from} WHERE ${clause}`, values);
    return count?.n ?? 0;
  });
  return { items, total };
}

/** Sets a shipment's reference numbers and tags (each when given); undefined when the account has no such shipment. */
export async function updateShipmentLabels(
  q: Queryable,
  accountId: string,
  id: string,
  changes: { ref_numbers?: string[]; tags?: string[] },
  now: Date,
): Promise<boolean> {
  const row = await one<{ id: string }>(
    q,
    `UPDATE shipments SET ref_numbers = coalesce($3, ref_numbers), tags = coalesce($4, tags), updated_at = $5
     WHERE account_id = $1 AND id = $2 RETURNING id`,
    [accountId, id, changes.ref_numbers ?? null, changes.tags ?? null, now],
  );
  changed(q, [changeTag.shipment(id)]);
  return row !== undefined;
}

export async function findShipment(q: Queryable, accountId: string, id: string): Promise<ShipmentRecord | undefined> {
  return one<ShipmentRecord>(q, `${SELECT} WHERE s.account_id = $1 AND s.id = $2`, [accountId, id]);
}

/** Inserts a shipment with its identity columns; the tracking engine fills the rest. */
export async function insertShipment(
  q: Queryable,
  s: Pick<ShipmentRecord, 'id' | 'account_id' | 'bill_of_lading_number' | 'created_at' | 'updated_at'> &
    Partial<
      Pick<
        ShipmentRecord,
        | 'customer_id'
        | 'normalized_number'
        | 'request_number'
        | 'ref_numbers'
        | 'tags'
        | 'shipping_line_scac'
        | 'shipping_line_name'
        | 'shipping_line_short_name'
      >
    >,
): Promise<void> {
  await q.query(
    `INSERT INTO shipments (id, account_id, customer_id, bill_of_lading_number, normalized_number, request_number,
       ref_numbers, tags, shipping_line_scac, shipping_line_name, shipping_line_short_name, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      s.id,
      s.account_id,
      s.customer_id ?? null,
      s.bill_of_lading_number,
      s.normalized_number ?? null,
      s.request_number ?? null,
      s.ref_numbers ?? [],
      s.tags ?? [],
      s.shipping_line_scac ?? null,
      s.shipping_line_name ?? null,
      s.shipping_line_short_name ?? null,
      s.created_at,
      s.updated_at,
    ],
  );
  changed(q, [changeTag.shipment(s.id)]);
}

/** The account's shipments with these ids (for includes). */
export async function findShipmentsByIds(q: Queryable, accountId: string, ids: string[]): Promise<ShipmentRecord[]> {
  if (ids.length === 0) return [];
  return q.query<ShipmentRecord>(`${SELECT} WHERE s.account_id = $1 AND s.id = ANY($2::uuid[])`, [accountId, ids]);
}

/** A shipment's arrival estimates as they came, newest first (its ETA history). */
export async function listEstimatedEvents(
  q: Queryable,
  accountId: string,
  shipmentId: string,
  page: { limit: number; offset: number },
): Promise<{ items: EstimatedEventRow[]; total: number }> {
  const items = await q.query<EstimatedEventRow>(
    'SELECT * FROM estimated_events WHERE account_id = $1 AND shipment_id = $2 ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4',
    [accountId, shipmentId, page.limit, page.offset],
  );
  const count = await one<{ n: number }>(q, 'SELECT count(*)::int AS n FROM estimated_events WHERE account_id = $1 AND shipment_id = $2', [
    accountId,
    shipmentId,
  ]);
  return { items, total: count?.n ?? 0 };
}
