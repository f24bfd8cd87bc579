import type { Queryable } from '../db.js';
import { insertNotificationsForEvents } from './webhooks.js';
import type { AccountEvents } from '../schema.generated.js';

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
