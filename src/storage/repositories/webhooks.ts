// Webhooks, the notification outbox and delivery attempts. Notifications are written in the transaction that
// commits their account event (insertNotificationsFor); workers claim due ones with SKIP LOCKED and a lease.
import { newId } from '../../lib/ids.js';
import { one, type Queryable } from '../db.js';

export interface WebhookRow {
  id: string;
  account_id: string;
  url: string;
  active: boolean;
  events: string[];
  headers: { name: string; value: string }[];
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  deactivated_at: Date | null;
  deactivated_reason: string | null;
  created_at: Date;
  updated_at: Date;
  [k: string]: unknown;
}

/** A webhook as the API shows it: its signing secret unsealed, the sealed columns left out. */
export interface WebhookView {
  id: string;
  account_id: string;
  url: string;
  active: boolean;
  events: string[];
  headers: { name: string; value: string }[];
  secret: string;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  deactivated_at: Date | null;
  deactivated_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A notification with the account event it announces (the reference object's ids and the event's payload). */
export interface NotificationRow {
  id: string;
  account_id: string;
  webhook_id: string;
  account_event_id: string;
  event: string;
  delivery_status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  /** Attempts made before the latest redelivery or replay (the retry schedule counts from there). */
  retry_base: number;
  next_attempt_at: Date | null;
  lease_until: Date | null;
  /** The document as first sent, serialized (null before the first attempt). */
  body: string | null;
  delivered_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** The account event's order number: receivers order a container's notifications by it (`meta.sequence`). */
  sequence: string;
  tracking_request_id: string | null;
  shipment_id: string | null;
  container_id: string | null;
  transport_event_id: string | null;
  estimated_event_id: string | null;
  /** The engine's domain event (or the request event's payload). */
  payload: Record<string, unknown>;
  /** Domain time of the event. */
  occurred_at: Date;
  [k: string]: unknown;
}

export interface NotificationLogRow {
  id: string;
  notification_id: string;
  attempt: number;
  started_at: Date;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_body: string | null;
  [k: string]: unknown;
}

// ---------- webhooks ----------

export async function insertWebhook(
  q: Queryable,
  w: Omit<WebhookRow, 'failing_since' | 'deactivated_at' | 'deactivated_reason'>,
): Promise<WebhookRow> {
  const row = await one<WebhookRow>(
    q,
    `INSERT INTO webhooks (id, account_id, url, active, events, headers, secret_sealed, previous_secret_sealed,
       previous_secret_expires_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
    [
      w.id,
      w.account_id,
      w.url,
      w.active,
      w.events,
      JSON.stringify(w.headers),
      w.secret_sealed,
      w.previous_secret_sealed,
      w.previous_secret_expires_at,
      w.created_at,
      w.updated_at,
    ],
  );
  return row!;
}

export async function findWebhook(q: Queryable, accountId: string, id: string): Promise<WebhookRow | undefined> {
  return one<WebhookRow>(q, 'SELECT * FROM webhooks WHERE account_id = $1 AND id = $2', [accountId, id]);
}

export async function findWebhooksByIds(q: Queryable, accountId: string, ids: string[]): Promise<WebhookRow[]> {
  if (ids.length === 0) return [];
  return q.query<WebhookRow>('SELECT * FROM webhooks WHERE account_id = $1 AND id = ANY($2::uuid[])', [accountId, ids]);
}

export async function listWebhooks(
  q: Queryable,
  accountId: string,
  page: { limit: number; offset: number },
): Promise<{ items: WebhookRow[]; total: number }> {
  const items = await q.query<WebhookRow>(
    'SELECT * FROM webhooks WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3',
    [accountId, page.limit, page.offset],
  );
  const count = await one<{ n: number }>(q, 'SELECT count(*)::int AS n FROM webhooks WHERE account_id = $1', [accountId]);
  return { items, total: count?.n ?? 0 };
}

export type WebhookChanges = Partial<
  Pick<
    WebhookRow,
    | 'url'
    | 'active'
    | 'events'
    | 'headers'
    | 'secret_sealed'
    | 'previous_secret_sealed'
    | 'previous_secret_expires_at'
    | 'failing_since'
    | 'deactivated_at'
    | 'deactivated_reason'
  >
>;

export async function updateWebhook(
  q: Queryable,
  accountId: string,
  id: string,
  changes: WebhookChanges,
  now: Date,
): Promise<WebhookRow | undefined> {
  const names = Object.keys(changes) as (keyof WebhookChanges)[];
  const values = names.map((k) => (k === 'headers' ? JSON.stringify(changes[k]) : changes[k]));
  const sets = names.map((k, i) => `${k} = $${i + 3}`);
  return one<WebhookRow>(
    q,
    `UPDATE webhooks SET ${[...sets, `updated_at = $${names.length + 3}`].join(', ')} WHERE account_id = $1 AND id = $2 RETURNING *`,
    [accountId, id, ...values, now],
  );
}

export async function deleteWebhook(q: Queryable, accountId: string, id: string): Promise<boolean> {
  return (
    (await one<{ id: string }>(q, 'DELETE FROM webhooks WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id])) !== undefined
  );
}

// ---------- the outbox ----------

/**
 * One pending notification per active webhook of the account subscribed to the event, due at once. Called in
 * the transaction that writes the account event, so both exist or neither does.
 */
export async function insertNotificationsFor(
  q: Queryable,
  e: { id: string; account_id: string; event: string },
  now: Date,
): Promise<number> {
  const hooks = await q.query<{ id: string }>('SELECT id FROM webhooks WHERE account_id = $1 AND active AND $2 = ANY(events) ORDER BY id', [
    e.account_id,
    e.event,
  ]);
  for (const h of hooks) {
    await q.query(
      `INSERT INTO webhook_notifications (id, account_id, webhook_id, account_event_id, event, next_attempt_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6, $6)`,
      [newId(), e.account_id, h.id, e.id, e.event, now],
    );
  }
  return hooks.length;
}

const NOTIFICATION = `SELECT n.*, ae.seq::text AS sequence, ae.tracking_request_id, ae.shipment_id, ae.container_id,
    ae.transport_event_id, ae.estimated_event_id, ae.payload, ae.occurred_at
  FROM webhook_notifications n JOIN account_events ae ON ae.id = n.account_event_id`;

export async function findNotification(q: Queryable, accountId: string, id: string): Promise<NotificationRow | undefined> {
  return one<NotificationRow>(q, `${NOTIFICATION} WHERE n.account_id = $1 AND n.id = $2`, [accountId, id]);
}

export async function findNotificationsByIds(q: Queryable, ids: string[]): Promise<NotificationRow[]> {
  if (ids.length === 0) return [];
  return q.query<NotificationRow>(`${NOTIFICATION} WHERE n.id = ANY($1::uuid[])`, [ids]);
}

export async function listNotifications(
  q: Queryable,
  accountId: string,
  filter: { webhookId?: string; event?: string; deliveryStatus?: string },
  page: { limit: number; offset: number },
): Promise<{ items: NotificationRow[]; total: number }> {
  const where = ['n.account_id = $1'];
  const values: unknown[] = [accountId];
  const add = (sql: (p: string) => string, v: unknown) => {
    values.push(v);
    where.push(sql(`$${values.length}`));
  };
  if (filter.webhookId) add((p) => `n.webhook_id = ${p}::uuid`, filter.webhookId);
  if (filter.event) add((p) => `n.event = ${p}`, filter.event);
  if (filter.deliveryStatus) add((p) => `n.delivery_status = ${p}`, filter.deliveryStatus);
  const clause = where.join(' AND ');
  const items = await q.query<NotificationRow>(
    `${NOTIFICATION} WHERE ${clause} ORDER BY n.created_at DESC, n.id DESC LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
    [...values, page.limit, page.offset],
  );
  const count = await one<{ n: number }>(q, `SELECT count(*)::int AS n FROM webhook_notifications n WHERE ${clause}`, values);
  return { items, total: count?.n ?? 0 };
}

/**
 * Takes up to `limit` notifications that are due and not held by another worker, at most `perWebhook` of any
 * one webhook (a backlog at one endpoint cannot crowd out the others), leasing them until `leaseUntil`. Two
 * workers may pick the same candidates: the lease condition is checked again on the locked row, so each
 * notification goes to one of them. A worker that dies leaves a lease that expires, and it is sent again.
 */
export async function claimDueNotifications(
  q: Queryable,
  now: Date,
  leaseUntil: Date,
  limit: number,
  perWebhook = limit,
): Promise<NotificationRow[]> {
  const claimed = await q.query<{ id: string }>(
    `WITH due AS (
       SELECT id, webhook_id, next_attempt_at FROM webhook_notifications
       WHERE next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
       ORDER BY next_attempt_at, id LIMIT $3 * 20
     ), fair AS (
       SELECT id, next_attempt_at, row_number() OVER (PARTITION BY webhook_id ORDER BY next_attempt_at, id) AS rn FROM due
     )
     UPDATE webhook_notifications n SET lease_until = $2
     WHERE n.id IN (SELECT id FROM fair WHERE rn <= $4 ORDER BY next_attempt_at, id LIMIT $3)
       AND n.next_attempt_at <= $1 AND (n.lease_until IS NULL OR n.lease_until <= $1)
     RETURNING n.id`,
    [now, leaseUntil, limit, perWebhook],
  );
  return findNotificationsByIds(
    q,
    claimed.map((c) => c.id),
  );
}

/** The webhooks of claimed notifications (whatever their account: the worker serves every account). */
export async function findWebhooksForDelivery(q: Queryable, ids: string[]): Promise<WebhookRow[]> {
  if (ids.length === 0) return [];
  return q.query<WebhookRow>('SELECT * FROM webhooks WHERE id = ANY($1::uuid[])', [ids]);
}

/**
 * After an attempt: a success ends the endpoint's failure streak; a failure starts one or, once every
 * delivery has failed for `disableAfterMs`, deactivates the webhook with the reason.
 */
export async function noteEndpointOutcome(
  q: Queryable,
  webhookId: string,
  succeeded: boolean,
  now: Date,
  disableAfterMs: number,
  lastError: string,
): Promise<void> {
  if (succeeded) {
    await q.query('UPDATE webhooks SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL', [webhookId]);
    return;
  }
  await q.query(
    `UPDATE webhooks SET failing_since = coalesce(failing_since, $2),
       active = CASE WHEN active AND coalesce(failing_since, $2) <= $3 THEN false ELSE active END,
       deactivated_at = CASE WHEN active AND coalesce(failing_since, $2) <= $3 THEN $2 ELSE deactivated_at END,
       deactivated_reason = CASE WHEN active AND coalesce(failing_since, $2) <= $3
         THEN 'Every delivery failed since ' || to_char(coalesce(failing_since, $2) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
              || '; last error: ' || $4
         ELSE deactivated_reason END,
       updated_at = $2
     WHERE id = $1`,
    [webhookId, now, new Date(now.getTime() - disableAfterMs), lastError.slice(0, 500)],
  );
}

/** Keeps the document as first sent, byte for byte. */
export async function setNotificationBody(q: Queryable, id: string, body: string): Promise<void> {
  await q.query('UPDATE webhook_notifications SET body = $2 WHERE id = $1 AND body IS NULL', [id, body]);
}

/** Records one attempt and its outcome: the next attempt's time, or succeeded, or failed for good. */
export async function recordAttempt(
  q: Queryable,
  log: Omit<NotificationLogRow, 'id'>,
  outcome: { status: 'pending' | 'succeeded' | 'failed'; nextAttemptAt: Date | null },
  now: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO webhook_notification_logs (id, notification_id, attempt, started_at, duration_ms, status_code, error, response_body)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [newId(), log.notification_id, log.attempt, log.started_at, log.duration_ms, log.status_code, log.error, log.response_body],
  );
  await q.query(
    `UPDATE webhook_notifications SET attempts = $2, delivery_status = $3, next_attempt_at = $4, lease_until = NULL,
       delivered_at = CASE WHEN $3 = 'succeeded' THEN $5::timestamptz ELSE delivered_at END, updated_at = $5
     WHERE id = $1`,
    [log.notification_id, log.attempt, outcome.status, outcome.nextAttemptAt, now],
  );
}

/** Every lease (only at the start of the one process that can use an embedded database: they are a dead one's). */
export async function clearNotificationLeases(q: Queryable): Promise<void> {
  await q.query('UPDATE webhook_notifications SET lease_until = NULL WHERE lease_until IS NOT NULL');
}

/** Gives a leased notification back without an attempt (shutting down). */
export async function releaseNotification(q: Queryable, id: string): Promise<void> {
  await q.query('UPDATE webhook_notifications SET lease_until = NULL WHERE id = $1', [id]);
}

export async function logsOf(q: Queryable, notificationIds: string[]): Promise<NotificationLogRow[]> {
  if (notificationIds.length === 0) return [];
  return q.query<NotificationLogRow>(
    'SELECT * FROM webhook_notification_logs WHERE notification_id = ANY($1::uuid[]) ORDER BY notification_id, attempt',
    [notificationIds],
  );
}

/**
 * Queues stored notifications to be sent again now (redeliver, replay): pending with a fresh attempt due, their
 * ids and bodies unchanged so receivers can de-duplicate. Returns how many were queued.
 */
export async function requeueNotifications(
  q: Queryable,
  accountId: string,
  where: { ids?: string[]; webhookId?: string; from?: Date; to?: Date; events?: string[] },
  now: Date,
): Promise<string[]> {
  const cond = ['account_id = $1'];
  const values: unknown[] = [accountId, now];
  const add = (sql: (p: string) => string, v: unknown) => {
    values.push(v);
    cond.push(sql(`$${values.length}`));
  };
  if (where.ids) add((p) => `id = ANY(${p}::uuid[])`, where.ids);
  if (where.webhookId) add((p) => `webhook_id = ${p}::uuid`, where.webhookId);
  if (where.from) add((p) => `created_at >= ${p}`, where.from);
  if (where.to) add((p) => `created_at <= ${p}`, where.to);
  if (where.events?.length) add((p) => `event = ANY(${p}::text[])`, where.events);
  const rows = await q.query<{ id: string }>(
    `UPDATE webhook_notifications SET delivery_status = 'pending', next_attempt_at = $2, lease_until = NULL, retry_base = attempts,
       updated_at = $2
     WHERE ${cond.join(' AND ')} RETURNING id`,
    values,
  );
  return rows.map((r) => r.id);
}
