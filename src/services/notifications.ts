// Webhook notifications from the account's side (read only): one, a page of them, their delivery attempts,
// and the records their reference objects are rendered from. Delivery itself is the worker's.
import { notFound } from '../domain/errors.js';
import { isUuid } from '../lib/ids.js';
import type { Db } from '../storage/db.js';
import * as reads from '../storage/repositories/notification-reads.js';
import {
  findNotification,
  listNotifications,
  logsOf,
  type NotificationLogRow,
  type NotificationRow,
} from '../storage/repositories/webhooks.js';

// The event catalogue (domain data), re-exported for the routes that validate event names.
export {
  EVENT_CATALOGUE,
  EVENT_NAMES,
  type EventName,
  type EventSpec,
  eventSpec,
  type IncludedType,
  isEventName,
  type ReferenceObjectType,
} from '../domain/event-catalogue.js';
export type { EstimatedEventRow } from '../storage/repositories/notification-reads.js';
export type { NotificationLogRow, NotificationRow } from '../storage/repositories/webhooks.js';
export type { TransportEventRow } from '../storage/repositories/containers.js';

/** A notification as the API shows it: with its delivery attempts, oldest first, when they were read. */
export type NotificationRecord = NotificationRow & { logs?: NotificationLogRow[] };

export interface NotificationFilter {
  webhookId?: string;
  event?: string;
  deliveryStatus?: 'pending' | 'succeeded' | 'failed';
}

export class NotificationService {
  constructor(private readonly db: Db) {}

  /** The account's notification with its attempts; not_found for another account's or an unknown id. */
  async get(accountId: string, id: string): Promise<NotificationRecord> {
    const found = isUuid(id) ? await findNotification(this.db, accountId, id) : undefined;
    if (!found) throw notFound('webhook notification');
    return (await this.#withLogs([found]))[0]!;
  }

  /** The account's notifications, newest first, each with its attempts. */
  async list(
    accountId: string,
    filter: NotificationFilter,
    page: { limit: number; offset: number },
  ): Promise<{ items: NotificationRecord[]; total: number }> {
    const { items, total } = await listNotifications(this.db, accountId, filter, page);
    return { items: await this.#withLogs(items), total };
  }

  /** Every delivery attempt of these notifications, by notification, oldest first. */
  logsOf(notificationIds: string[]): Promise<NotificationLogRow[]> {
    return logsOf(this.db, [...new Set(notificationIds)]);
  }

  transportEventsByIds(accountId: string, ids: string[]) {
    return reads.findTransportEventsByIds(this.db, accountId, [...new Set(ids)]);
  }

  estimatedEventsByIds(accountId: string, ids: string[]) {
    return reads.findEstimatedEventsByIds(this.db, accountId, [...new Set(ids)]);
  }

  trackingRequestsByIds(accountId: string, ids: string[]) {
    return reads.findTrackingRequestsByIds(this.db, accountId, [...new Set(ids)]);
  }

  async #withLogs(rows: NotificationRow[]): Promise<NotificationRecord[]> {
    const logs = await this.logsOf(rows.map((r) => r.id));
    return rows.map((r) => ({ ...r, logs: logs.filter((l) => l.notification_id === r.id) }));
  }
}
