// Webhooks, the notification outbox and delivery attempts. Notifications are written in the transaction that
// commits their account event (insertNotificationsForEvents), which wakes the workers after commit (NOTIFY); workers claim
// due ones with SKIP LOCKED and a lease, and record a batch of attempts in a few statements.
import { newId } from '../../lib/ids.js';
import { one, type Queryable } from '../db.js';
import { listTotal } from './row-counts.js';
import type { AccountEvents, WebhookNotificationLogs, WebhookNotifications, Webhooks } from '../schema.generated.js';

export interface WebhookRow extends Webhooks {
  headers: { name: string; value: string }[];
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
export interface NotificationRow
  extends WebhookNotifications,
    Pick<
      AccountEvents,
      'tracking_request_id' | 'shipment_id' | 'container_id' | 'transport_event_id' | 'estimated_event_id' | 'occurred_at'
    > {
  delivery_status: 'pending' | 'succeeded' | 'failed';
  /** Attempts made before the latest redelivery or replay (the retry schedule counts from there). */
  retry_base: number;
  /** The document as first sent, serialized (null before the first attempt). */
  body: string | null;
  /**
   * The account event's order number (`ae.seq::text`: a bigint, kept exact as text): receivers order a container's
   * notifications by it (`meta.sequence`).
   */
  sequence: string;
  /** The engine's domain event (or the request event's payload). */
  payload: Record<string, unknown>;
  /** Domain time of the event. */
  occurred_at: AccountEvents['occurred_at'];
}

export interface NotificationLogRow extends WebhookNotificationLogs {}

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

/** The channel delivery workers LISTEN on; a NOTIFY on it says notifications fell due. */
export const DELIVERY_CHANNEL = 'tidemark_webhook_due';

/** Wakes the delivery workers once the notifications written through `q` are committed (see notifyAfterCommit). */
export function wakeDeliveryWorkers(q: Queryable): void {
  q.notifyAfterCommit?.(DELIVERY_CHANNEL);
}

/**
 * The outbox rows of account events (in the order given): one pending notification, due at once, per active
 * webhook of the event's account subscribed to it. Called in the transaction that writes the events, so both exist
 * or neither does; one statement finds the webhooks, one writes every notification, the workers are woken after
 * commit. Returns how many were written.
 */
export async function insertNotificationsForEvents(
  q: Queryable,
  events: readonly { id: string; account_id: string; event: string }[],
  now: Date,
): Promise<number> {
  if (events.length === 0) return 0;
  const accounts = [...new Set(events.map((e) => e.account_id))];
  const hooks = await q.query<Pick<Webhooks, 'id' | 'account_id' | 'events'>>(
    'SELECT id, account_id, events FROM webhooks WHERE account_id = ANY($1::uuid[]) AND active ORDER BY id',
    [accounts],
  );
  if (hooks.length === 0) return 0;
  const rows: { id: string; webhook_id: string; account_id: string; account_event_id: string; event: string }[] = [];
  for (const e of events) {
    for (const h of hooks) {
      if (h.account_id === e.account_id && h.events.includes(e.event)) {
        rows.push({ id: newId(), webhook_id: h.id, account_id: e.account_id, account_event_id: e.id, event: e.event });
      }
    }
  }
  if (rows.length === 0) return 0;
  await q.query(
    `INSERT INTO webhook_notifications (id, account_id, webhook_id, account_event_id, event, next_attempt_at, created_at, updated_at)
     SELECT x.id, x.account_id, x.webhook_id, x.account_event_id, x.event, $2, $2, $2
     FROM json_to_recordset($1::json) AS x(id uuid, account_id uuid, webhook_id uuid, account_event_id uuid, event text)`,
    [JSON.stringify(rows), now],
  );
  wakeDeliveryWorkers(q);
  return rows.length;
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
  // The page's ids first, from the account's (account_id, created_at DESC, id DESC) index, then only those rows
  // joined to their events: skipped rows cost an index entry each, not a join and a heap row.
  const items = await q.query<NotificationRow>(
    `WITH page AS (SELECT n.id FROM webhook_notifications n WHERE ${clause}
       ORDER BY n.created_at DESC, n.id DESC LIMIT $${values.length + 1} OFFSET $${values.length + 2})
     ${NOTIFICATION} WHERE n.account_id = $1 AND n.id IN (SELECT id FROM page) ORDER BY n.created_at DESC, n.id DESC`,
    [...values, page.limit, page.offset],
  );
  const total = await listTotal(
    q,
    accountId,
    'webhook_notifications',
    { filtered: where.length > 1, page, rows: items.length },
    async () => {
      const count = await one<{ n: number }>(q, `SELECT count(*)::int AS n FROM webhook_notifications n WHERE ${clause}`, values);
      return count?.n ?? 0;
    },
  );
  return { items, total };
}

/**
 * Takes up to `limit` notifications that are due and not held by another worker, at most `perWebhook` of any
 * one webhook (a backlog at one endpoint cannot crowd out the others) and none of the webhooks in `skipWebhooks`
 * (those whose lanes this worker has full), leasing them until `leaseUntil`. The chosen ones are locked with SKIP
 * LOCKED: two workers claiming at once never wait for each other or take the same notification; `raced` says
 * another claim took some of those chosen (claim again: there may be more). A worker that dies leaves leases
 * that expire, and its notifications are sent again.
 */
export async function claimDueNotifications(
  q: Queryable,
  now: Date,
  leaseUntil: Date,
  limit: number,
  perWebhook = limit,
  skipWebhooks: readonly string[] = [],
): Promise<{ rows: NotificationRow[]; raced: boolean }> {
  // The candidates are a few times `limit` so that other endpoints are reached behind one endpoint's backlog, taken
  // by the due index alone (ties in any order) so that this stays cheap however many are due; only the chosen
  // are locked. One row at least: the count chosen, with the claimed notifications (if any).
  const rows = await q.query<NotificationRow & { chosen: number }>(
    `WITH due AS (
       SELECT id, webhook_id, next_attempt_at FROM webhook_notifications
       WHERE next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $1) AND webhook_id <> ALL($5::uuid[])
       ORDER BY next_attempt_at LIMIT $3 * 4
     ), chosen AS (
       SELECT id FROM (
         SELECT id, next_attempt_at, row_number() OVER (PARTITION BY webhook_id ORDER BY next_attempt_at, id) AS rn FROM due
       ) fair WHERE rn <= $4 ORDER BY next_attempt_at, id LIMIT $3
     ), picked AS (
       SELECT n.id FROM webhook_notifications n
       WHERE n.id IN (SELECT id FROM chosen) AND n.next_attempt_at <= $1 AND (n.lease_until IS NULL OR n.lease_until <= $1)
       FOR UPDATE SKIP LOCKED
     ), claimed AS (
       UPDATE webhook_notifications n SET lease_until = $2 FROM picked WHERE n.id = picked.id RETURNING n.*
     )
     SELECT c.chosen, n.*, ae.seq::text AS sequence, ae.tracking_request_id, ae.shipment_id, ae.container_id,
       ae.transport_event_id, ae.estimated_event_id, ae.payload, ae.occurred_at
     FROM (SELECT count(*)::int AS chosen FROM chosen) c
     LEFT JOIN claimed n ON true
     LEFT JOIN account_events ae ON ae.id = n.account_event_id
     ORDER BY n.next_attempt_at, n.id`,
    [now, leaseUntil, limit, perWebhook, skipWebhooks],
  );
  const chosen = rows[0]?.chosen ?? 0;
  const claimed = rows.filter((r) => r.id !== null).map(({ chosen: _, ...r }) => r as NotificationRow);
  return { rows: claimed, raced: claimed.length < chosen };
}

/** The webhooks of claimed notifications (whatever their account: the worker serves every account). */
export async function findWebhooksForDelivery(q: Queryable, ids: string[]): Promise<WebhookRow[]> {
  if (ids.length === 0) return [];
  return q.query<WebhookRow>('SELECT * FROM webhooks WHERE id = ANY($1::uuid[])', [ids]);
}

/** An endpoint's outcomes over a batch of attempts, in the order they ended (see `endpointSummary`). */
export interface EndpointOutcome {
  webhookId: string;
  /** When the last attempt ended. */
  at: Date;
  /** When the failures that ended the batch began; null when the last attempt succeeded. */
  failingSince: Date | null;
  /** A success came before those failures: the endpoint's failure streak starts again at `failingSince`. */
  restarted: boolean;
  /** The last failure's reason. */
  lastError: string;
}

/**
 * After attempts (one statement for any number of endpoints): a success ends the endpoint's failure streak; a
 * failure starts one or, once every delivery has failed for `disableAfterMs`, deactivates the webhook with the
 * reason. Written against the row as it is when updated, so concurrent workers' outcomes combine.
 */
export async function noteEndpointOutcomes(q: Queryable, outcomes: readonly EndpointOutcome[], disableAfterMs: number): Promise<void> {
  if (outcomes.length === 0) return;
  const since = `(CASE WHEN v.failing_since IS NULL THEN NULL WHEN v.restarted THEN v.failing_since
                   ELSE coalesce(w.failing_since, v.failing_since) END)`;
  const disable = `(w.active AND ${since} IS NOT NULL AND ${since} <= v.at - $2 * interval '1 millisecond')`;
  await q.query(
    `UPDATE webhooks w SET failing_since = ${since},
       active = CASE WHEN ${disable} THEN false ELSE w.active END,
       deactivated_at = CASE WHEN ${disable} THEN v.at ELSE w.deactivated_at END,
       deactivated_reason = CASE WHEN ${disable}
         THEN 'Every delivery failed since ' || to_char(${since} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
              || '; last error: ' || v.last_error
         ELSE w.deactivated_reason END,
       updated_at = CASE WHEN v.failing_since IS NULL THEN w.updated_at ELSE v.at END
     FROM json_to_recordset($1::json) AS v(id uuid, at timestamptz, failing_since timestamptz, restarted boolean, last_error text)
     WHERE w.id = v.id AND (v.failing_since IS NOT NULL OR w.failing_since IS NOT NULL)`,
    [
      JSON.stringify(
        outcomes.map((o) => ({
          id: o.webhookId,
          at: o.at.toISOString(),
          failing_since: o.failingSince?.toISOString() ?? null,
          restarted: o.restarted,
          last_error: textOnly(o.lastError.slice(0, 500)),
        })),
      ),
      disableAfterMs,
    ],
  );
}

/** One attempt's outcome, for `noteEndpointOutcomes`. */
export async function noteEndpointOutcome(
  q: Queryable,
  webhookId: string,
  succeeded: boolean,
  now: Date,
  disableAfterMs: number,
  lastError: string,
): Promise<void> {
  await noteEndpointOutcomes(
    q,
    [{ webhookId, at: now, failingSince: succeeded ? null : now, restarted: false, lastError }],
    disableAfterMs,
  );
}

/** Keeps the documents as first sent, byte for byte (a body already kept stays). */
export async function setNotificationBodies(q: Queryable, bodies: readonly { id: string; body: string }[]): Promise<void> {
  if (bodies.length === 0) return;
  await q.query(
    `UPDATE webhook_notifications n SET body = v.body FROM json_to_recordset($1::json) AS v(id uuid, body text)
     WHERE n.id = v.id AND n.body IS NULL`,
    [JSON.stringify(bodies.map((b) => ({ id: b.id, body: textOnly(b.body) })))],
  );
}

export async function setNotificationBody(q: Queryable, id: string, body: string): Promise<void> {
  await setNotificationBodies(q, [{ id, body }]);
}

/** A log row before it is written (its id is given then). */
export type AttemptLog = Pick<
  NotificationLogRow,
  'notification_id' | 'attempt' | 'started_at' | 'duration_ms' | 'status_code' | 'error' | 'response_body'
>;

export interface AttemptRecord {
  log: AttemptLog;
  /** The next attempt's time, or succeeded, or failed for good. */
  outcome: { status: 'pending' | 'succeeded' | 'failed'; nextAttemptAt: Date | null };
  /** When the outcome was decided (the notification's `updated_at`, and `delivered_at` on success). */
  at: Date;
}

/** Records attempts and their outcomes in one statement: the log rows, and each notification's state (lease ended). */
export async function recordAttempts(q: Queryable, attempts: readonly AttemptRecord[]): Promise<void> {
  if (attempts.length === 0) return;
  await q.query(
    `WITH v AS (
       SELECT * FROM json_to_recordset($1::json) AS v(id uuid, notification_id uuid, attempt int, started_at timestamptz,
         duration_ms int, status_code int, error text, response_body text, status text, next_attempt_at timestamptz, at timestamptz)
     ), logs AS (
       INSERT INTO webhook_notification_logs (id, notification_id, attempt, started_at, duration_ms, status_code, error, response_body)
       SELECT id, notification_id, attempt, started_at, duration_ms, status_code, error, response_body FROM v
     )
     UPDATE webhook_notifications n SET attempts = v.attempt, delivery_status = v.status, next_attempt_at = v.next_attempt_at,
       lease_until = NULL, delivered_at = CASE WHEN v.status = 'succeeded' THEN v.at ELSE n.delivered_at END, updated_at = v.at
     FROM v WHERE n.id = v.notification_id`,
    [
      JSON.stringify(
        attempts.map(({ log, outcome, at }) => ({
          id: newId(),
          notification_id: log.notification_id,
          attempt: log.attempt,
          started_at: log.started_at.toISOString(),
          duration_ms: log.duration_ms,
          status_code: log.status_code,
          error: log.error === null ? null : textOnly(log.error),
          response_body: log.response_body === null ? null : textOnly(log.response_body),
          status: outcome.status,
          next_attempt_at: outcome.nextAttemptAt?.toISOString() ?? null,
          at: at.toISOString(),
        })),
      ),
    ],
  );
}

/** Records one attempt and its outcome: the next attempt's time, or succeeded, or failed for good. */
export async function recordAttempt(
  q: Queryable,
  log: AttemptLog,
  outcome: { status: 'pending' | 'succeeded' | 'failed'; nextAttemptAt: Date | null },
  now: Date,
): Promise<void> {
  await recordAttempts(q, [{ log, outcome, at: now }]);
}

/** PostgreSQL text cannot hold NUL. */
const textOnly = (s: string) => (s.includes('\u0000') ? s.replaceAll('\u0000', '\uFFFD') : s);

/** Every lease (only at the start of the one process that can use an embedded database: they are a dead one's). */
export async function clearNotificationLeases(q: Queryable): Promise<void> {
  await q.query('UPDATE webhook_notifications SET lease_until = NULL WHERE lease_until IS NOT NULL');
}

/** Gives leased notifications back without an attempt (shutting down, or a lease too short to start one). */
export async function releaseNotifications(q: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await q.query('UPDATE webhook_notifications SET lease_until = NULL WHERE id = ANY($1::uuid[])', [ids]);
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
  if (rows.length > 0) wakeDeliveryWorkers(q);
  return rows.map((r) => r.id);
}
