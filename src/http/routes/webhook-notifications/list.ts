// GET /v2/webhook_notifications: the account's notifications, newest first, with their delivery attempts.
import { badRequest } from '../../../domain/errors.js';
import { isUuid } from '../../../lib/ids.js';
import { isEventName, type NotificationFilter } from '../../../services/notifications.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { parseInclude } from '../../../render/jsonapi.js';
import { paginationMeta, parsePage } from '../../jsonapi.js';
import { sendList } from '../../reply.js';
import { webhookNotificationKind } from '../../../render/webhook-notification.js';
import { filtersOf, singleValue } from '../../query.js';
import { listQuery } from '../../schemas.js';

/** What `include` is when the request names none: the webhook and the reference object, as the reference API. */
export const DEFAULT_NOTIFICATION_INCLUDE = 'webhook,reference_object';

const STATUSES = ['pending', 'succeeded', 'failed'] as const;

export default function listWebhookNotifications(app: App, deps: HttpDeps) {
  const kind = webhookNotificationKind(deps);
  app.get(
    '/v2/webhook_notifications',
    {
      schema: {
        tags: ['webhook_notifications'],
        summary: 'List webhook notifications, newest first',
        description:
          'Filters: `filter[webhook_id]`, `filter[event]`, `filter[delivery_status]` (pending, succeeded, failed). `include`: `webhook`, `reference_object` and its relationships (`reference_object.shipment`, `.container`, `.location`, `.terminal`, `.vessel`, `.port`…), `webhook_notification_logs` (one per delivery attempt). Without `include`, the webhook and the reference object are included.',
        querystring: listQuery,
      },
    },
    async (req, reply) => {
      const query = req.query as Record<string, unknown>;
      const include = parseInclude(query.include ?? DEFAULT_NOTIFICATION_INCLUDE, kind);
      const page = parsePage(query, 30);
      const filter = parseFilter(query);
      const { items, total } = await deps.notifications.list(accountOf(req).id, filter, page);
      // An empty list says no last page, as the reference API does.
      const meta = {
        size: items.length,
        total,
        pagination: total === 0 ? { current: page.number, records: 0 } : paginationMeta(page, total),
      };
      return sendList(reply, req, deps.config.publicUrl, { kind, items, total, page, include, meta });
    },
  );
}

function parseFilter(query: Record<string, unknown>): NotificationFilter {
  const text = (name: string, value: unknown) => singleValue(value, name);
  const f = filtersOf(query);
  for (const k of Object.keys(f)) {
    if (!['webhook_id', 'event', 'delivery_status'].includes(k)) {
      throw badRequest(`filter[${k}] is not a filter of webhook notifications`, { parameter: `filter[${k}]` });
    }
  }
  const filter: NotificationFilter = {};
  const webhookId = text('filter[webhook_id]', f.webhook_id);
  if (webhookId) {
    if (!isUuid(webhookId)) throw badRequest('filter[webhook_id] must be a webhook id', { parameter: 'filter[webhook_id]' });
    filter.webhookId = webhookId.toLowerCase();
  }
  const event = text('filter[event]', f.event);
  if (event) {
    if (!isEventName(event)) throw badRequest(`filter[event]: '${event}' is not a webhook event`, { parameter: 'filter[event]' });
    filter.event = event;
  }
  const status = text('filter[delivery_status]', f.delivery_status);
  if (status) {
    if (!(STATUSES as readonly string[]).includes(status)) {
      throw badRequest(`filter[delivery_status] must be one of ${STATUSES.join(', ')}`, { parameter: 'filter[delivery_status]' });
    }
    filter.deliveryStatus = status as NotificationFilter['deliveryStatus'];
  }
  return filter;
}
