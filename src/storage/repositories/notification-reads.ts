// What a webhook notification's reference object is read from: an account's transport events, estimated
// events and tracking requests by id. Read-only; always scoped to the account.
import type { Queryable } from '../db.js';
import type { TransportEventRow } from './containers.js';
import type { TrackingRequestRecord } from './tracking-requests.js';
import type { EstimatedEvents } from '../schema.generated.js';

export interface EstimatedEventRow extends EstimatedEvents {
  /** The engine's EstimatedEventRecord. */
  record: Record<string, unknown>;
}

export async function findTransportEventsByIds(q: Queryable, accountId: string, ids: string[]): Promise<TransportEventRow[]> {
  if (ids.length === 0) return [];
  return q.query<TransportEventRow>('SELECT * FROM transport_events WHERE account_id = $1 AND id = ANY($2::uuid[])', [accountId, ids]);
}

export async function findEstimatedEventsByIds(q: Queryable, accountId: string, ids: string[]): Promise<EstimatedEventRow[]> {
  if (ids.length === 0) return [];
  return q.query<EstimatedEventRow>('SELECT * FROM estimated_events WHERE account_id = $1 AND id = ANY($2::uuid[])', [accountId, ids]);
}

export async function findTrackingRequestsByIds(q: Queryable, accountId: string, ids: string[]): Promise<TrackingRequestRecord[]> {
  if (ids.length === 0) return [];
  return q.query<TrackingRequestRecord>('SELECT * FROM tracking_requests WHERE account_id = $1 AND id = ANY($2::uuid[])', [accountId, ids]);
}
