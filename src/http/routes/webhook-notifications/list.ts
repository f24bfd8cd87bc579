// GET /v2/webhook_notifications: the account's notifications, newest first, with their delivery attempts.
import { isUuid } from '../../../lib/ids.js';
import { isEventName, type NotificationFilter } from '../../../services/notifications.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { paginationMeta } from '../../jsonapi.js';
import { webhookNotificationKind } from '../../../render/webhook-notification.js';
import { checkedValue, filterParams, oneOf } from '../../query.js';
import { listDocument, webhookNotificationResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, listQuery } from '../../schemas.js';
import { sendPage } from '../handlers.js';

/** What `include` is when the request names none: the webhook and the reference object, as the reference API. */
export const DEFAULT_NOTIFICATION_INCLUDE = 'webhook,reference_object';

const STATUSES = ['pending', 'succeeded', 'failed'] as const;

const querystring = listQuery.extend({
  filter: filterParams(
    {
      webhook_id: checkedValue(isUuid, 'must be a webhook id').describe('A webhook id'),
      event: checkedValue(isEventName, 'must be a webhook event (GET /v2/webhooks/events lists them)').describe('A webhook event name'),
      delivery_status: oneOf(STATUSES),
    },
    'is not a filter of webhook notifications',
  ),
});

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
        querystring,
        // 400: a wrong filter, include or page parameter.
        response: {
          200: described(listDocument(webhookNotificationResource), 'A page of notifications, newest first'),
          ...errorResponses(400, ...API_ERRORS),
        },
      },
    },
    async (req, reply) => {
      const { webhook_id, event, delivery_status } = req.query.filter ?? {};
      const filter: NotificationFilter = {
        ...(webhook_id ? { webhookId: webhook_id.toLowerCase() } : {}),
        ...(event ? { event } : {}),
        ...(delivery_status ? { deliveryStatus: delivery_status } : {}),
      };
      return sendPage(reply, req, deps.config.publicUrl, {
        kind,
        query: req.query,
        defaultInclude: DEFAULT_NOTIFICATION_INCLUDE,
        pageSize: 30,
        load: (page) => deps.notifications.list(accountOf(req).id, filter, page),
        // An empty list says no last page, as the reference API does.
        meta: (page, items, total) => ({
          size: items.length,
          total,
          pagination: total === 0 ? { current: page.number, records: 0 } : paginationMeta(page, total),
        }),
      });
    },
  );
}
