import { containsPattern } from '../../lib/lists.js';
import { one, type Queryable } from '../db.js';
import { listTotal } from './row-counts.js';
import type { TrackingRequests } from '../schema.generated.js';

export type RequestType = 'bill_of_lading' | 'booking_number' | 'container';
export type TrackingRequestStatus = 'pending' | 'awaiting_manifest' | 'created' | 'failed' | 'tracking_stopped';

/** The staged initial custom fields' bookkeeping: the engine's, never rendered (examples and fakes may leave it out). */
type InitialCustomFieldColumns = 'initial_custom_fields' | 'initial_custom_fields_applied_at' | 'initial_custom_fields_skipped';

/** A tracking request as stored (wire attribute names where the API has them). */
export interface TrackingRequestRecord
  extends Omit<TrackingRequests, InitialCustomFieldColumns>,
    Partial<Pick<TrackingRequests, InitialCustomFieldColumns>> {
  request_type: RequestType;
  /** Empty until auto-detection picks a carrier. */
  scac: TrackingRequests['scac'];
  status: TrackingRequestStatus;
  /** Domain time of the next attempt; null when none is due. */
  next_attempt_at: TrackingRequests['next_attempt_at'];
}

export type NewTrackingRequest = Pick<
  TrackingRequestRecord,
  | 'id'
  | 'account_id'
  | 'request_type'
  | 'request_number'
  | 'scac'
  | 'auto_detect_scac'
  | 'ref_numbers'
  | 'shipment_tags'
  | 'customer_id'
  | 'next_attempt_at'
  | 'created_at'
  | 'updated_at'
> & { initial_custom_fields?: unknown };

export async function insertTrackingRequest(q: Queryable, r: NewTrackingRequest): Promise<TrackingRequestRecord> {
  const row = await one<TrackingRequestRecord>(
    q,
    `INSERT INTO tracking_requests (id, account_id, request_type, request_number, scac, auto_detect_scac, ref_numbers,
       shipment_tags, customer_id, status, next_attempt_at, created_at, updated_at, initial_custom_fields)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $10, $11, $12, $13) RETURNING *`,
    [
      r.id,
      r.account_id,
      r.request_type,
      r.request_number,
      r.scac,
      r.auto_detect_scac,
      r.ref_numbers,
      r.shipment_tags,
      r.customer_id,
      r.next_attempt_at,
      r.created_at,
      r.updated_at,
      r.initial_custom_fields === undefined || r.initial_custom_fields === null ? null : JSON.stringify(r.initial_custom_fields),
    ],
  );
  return row!;
}

export async function findTrackingRequest(q: Queryable, accountId: string, id: string): Promise<TrackingRequestRecord | undefined> {
  return one<TrackingRequestRecord>(q, 'SELECT * FROM tracking_requests WHERE account_id = $1 AND id = $2', [accountId, id]);
}

export interface TrackingRequestFilter {
  /** Matches the request number or any ref number, case-insensitively, as a substring. */
  q?: string;
  requestNumber?: string;
  statuses?: TrackingRequestStatus[];
  scac?: string;
  requestType?: RequestType;
  createdFrom?: Date;
  createdTo?: Date;
  updatedFrom?: Date;
  updatedTo?: Date;
}

export async function listTrackingRequests(
  q: Queryable,
  accountId: string,
  filter: TrackingRequestFilter,
  page: { limit: number; offset: number },
): Promise<{ items: TrackingRequestRecord[]; total: number }> {
  const where = ['account_id = $1'];
  const values: unknown[] = [accountId];
  const add = (sql: (n: string) => string, value: unknown) => {
    values.push(value);
    where.push(sql(`$${values.length}`));
  };
  if (filter.q) {
    add(
      (n) => `(request_number ILIKE ${n} ESCAPE '\\' OR EXISTS (SELECT 1 FROM unnest(ref_numbers) r WHERE r ILIKE ${n} ESCAPE '\\'))`,
      containsPattern(filter.q),
    );
  }
  if (filter.requestNumber) add((n) => `upper(request_number) = upper(${n})`, filter.requestNumber);
  if (filter.statuses?.length) add((n) => `status = ANY(${n}::text[])`, filter.statuses);
  if (filter.scac) add((n) => `upper(scac) = upper(${n})`, filter.scac);
  if (filter.requestType) add((n) => `request_type = ${n}`, filter.requestType);
  if (filter.createdFrom) add((n) => `created_at >= ${n}`, filter.createdFrom);
  if (filter.createdTo) add((n) => `created_at <= ${n}`, filter.createdTo);
  if (filter.updatedFrom) add((n) => `updated_at >= ${n}`, filter.updatedFrom);
  if (filter.updatedTo) add((n) => `updated_at <= ${n}`, filter.updatedTo);
  const clause = where.join(' AND ');
  // The page's ids through the account's index (created_at DESC, id DESC), then those rows (see listShipments).
  const items = await q.query<TrackingRequestRecord>(
    `WITH page AS (SELECT id FROM tracking_requests WHERE ${clause}
       ORDER BY created_at DESC, id DESC LIMIT $${values.length + 1} OFFSET $${values.length + 2})
     SELECT * FROM tracking_requests WHERE account_id = $1 AND id IN (SELECT id FROM page) ORDER BY created_at DESC, id DESC`,
    [...values, page.limit, page.offset],
  );
  const total = await listTotal(q, accountId, 'tracking_requests', { filtered: where.length > 1, page, rows: items.length }, async () => {
    const count = await one<{ n: number }>(q, `SELECT count(*)::int AS n FROM tracking_requests WHERE ${clause}`, values);
    return count?.n ?? 0;
  });
  return { items, total };
}

export async function updateRefNumbers(
  q: Queryable,
  accountId: string,
  id: string,
  refNumbers: string[],
  now: Date,
): Promise<TrackingRequestRecord | undefined> {
  return one<TrackingRequestRecord>(
    q,
    'UPDATE tracking_requests SET ref_numbers = $3, updated_at = $4 WHERE account_id = $1 AND id = $2 RETURNING *',
    [accountId, id, refNumbers, now],
  );
}

/**
 * Takes the request for one attempt: only when an attempt is due (pending or awaiting manifest) and no other
 * worker holds it. The lease (wall time) lets another worker take over if this one dies mid-attempt.
 */
export async function claimTrackingRequest(
  q: Queryable,
  id: string,
  wallNow: Date,
  leaseUntil: Date,
): Promise<TrackingRequestRecord | undefined> {
  return one<TrackingRequestRecord>(
    q,
    `UPDATE tracking_requests SET lease_until = $3
     WHERE id = $1 AND status IN ('pending', 'awaiting_manifest') AND next_attempt_at IS NOT NULL
       AND (lease_until IS NULL OR lease_until < $2)
     RETURNING *`,
    [id, wallNow, leaseUntil],
  );
}

/** Ids of requests whose next attempt is due at `worldNow`, oldest due first. */
export async function dueTrackingRequests(q: Queryable, worldNow: Date, wallNow: Date, limit: number): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `SELECT id FROM tracking_requests
     WHERE next_attempt_at <= $1 AND status IN ('pending', 'awaiting_manifest') AND (lease_until IS NULL OR lease_until < $2)
     ORDER BY next_attempt_at, created_at, id LIMIT $3`,
    [worldNow, wallNow, limit],
  );
  return rows.map((r) => r.id);
}

export type RequestOutcome = Pick<
  TrackingRequestRecord,
  'status' | 'failed_reason' | 'is_retrying' | 'retry_count' | 'next_attempt_at' | 'awaiting_since' | 'shipment_id' | 'scac'
>;

/** Records an attempt's outcome and releases the lease. */
export async function finishAttempt(q: Queryable, id: string, outcome: RequestOutcome, now: Date): Promise<TrackingRequestRecord> {
  const row = await one<TrackingRequestRecord>(
    q,
    `UPDATE tracking_requests SET status = $2, failed_reason = $3, is_retrying = $4, retry_count = $5, next_attempt_at = $6,
       awaiting_since = $7, shipment_id = $8, scac = $9, lease_until = NULL, updated_at = $10
     WHERE id = $1 RETURNING *`,
    [
      id,
      outcome.status,
      outcome.failed_reason,
      outcome.is_retrying,
      outcome.retry_count,
      outcome.next_attempt_at,
      outcome.awaiting_since,
      outcome.shipment_id,
      outcome.scac,
      now,
    ],
  );
  return row!;
}

/** Requests that created (or point at) a shipment: they follow its stop and resume. */
export async function setStatusForShipment(
  q: Queryable,
  shipmentId: string,
  from: TrackingRequestStatus,
  to: TrackingRequestStatus,
  now: Date,
): Promise<TrackingRequestRecord[]> {
  return q.query<TrackingRequestRecord>(
    `UPDATE tracking_requests SET status = $3, updated_at = $4 WHERE shipment_id = $1 AND status = $2 RETURNING *`,
    [shipmentId, from, to, now],
  );
}

/** Active containers of an account (the free plan's cap counts them). */
export async function countActiveContainers(q: Queryable, accountId: string): Promise<number> {
  const row = await one<{ n: number }>(
    q,
    `SELECT count(*)::int AS n FROM containers c JOIN shipments s ON s.id = c.shipment_id
     WHERE c.account_id = $1 AND s.line_tracking_stopped_at IS NULL`,
    [accountId],
  );
  return row?.n ?? 0;
}

/**
 * The request's staged `initial_custom_fields`, marked applied at `now` in the caller's transaction; undefined when it
 * has none or they were applied already. The row lock makes a second attempt that raced this one wait and find them
 * applied, so they are taken once.
 */
export async function takeInitialCustomFields(q: Queryable, id: string, now: Date): Promise<unknown> {
  const row = await one<{ staged: unknown }>(
    q,
    `UPDATE tracking_requests SET initial_custom_fields_applied_at = $2
     WHERE id = $1 AND initial_custom_fields IS NOT NULL AND initial_custom_fields_applied_at IS NULL
     RETURNING initial_custom_fields AS staged`,
    [id, now],
  );
  return row?.staged;
}

/** What of the request's initial custom fields was not applied, and why. */
export async function recordSkippedInitialCustomFields(q: Queryable, id: string, skipped: unknown[]): Promise<void> {
  await q.query('UPDATE tracking_requests SET initial_custom_fields_skipped = $2 WHERE id = $1', [id, JSON.stringify(skipped)]);
}
