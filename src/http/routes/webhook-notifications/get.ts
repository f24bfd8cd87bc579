// GET /v2/webhook_notifications/{id}: one notification, as it was delivered, with its delivery attempts.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { notificationMeta, webhookNotificationKind } from '../../../render/webhook-notification.js';
import { notificationDocument } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, idParams, includeQuery } from '../../schemas.js';
import { sendOne } from '../handlers.js';
import { DEFAULT_NOTIFICATION_INCLUDE } from './list.js';

export default function getWebhookNotification(app: App, deps: HttpDeps) {
  const kind = webhookNotificationKind(deps);
  app.get(
    '/v2/webhook_notifications/:id',
    {
      schema: {
        tags: ['webhook_notifications'],
        summary: 'Get a webhook notification',
        description:
          '`include`: `webhook`, `reference_object` and its relationships, `webhook_notification_logs` (one per delivery attempt: attempt, started_at, duration_ms, status_code, error, response_body). Without `include`, the webhook and the reference object are included. `meta` carries the sequence number and time of the event, as in the delivered body.',
        params: idParams,
        querystring: includeQuery,
        // 400: an `include` path the notification does not have.
        response: {
          200: described(notificationDocument, 'The notification, with `meta` as delivered'),
          ...errorResponses(400, ...API_ERRORS, 404),
        },
      },
    },
    async (req, reply) =>
      sendOne(reply, req, deps.config.publicUrl, {
        kind,
        include: req.query.include ?? DEFAULT_NOTIFICATION_INCLUDE,
        load: () => deps.notifications.get(accountOf(req).id, req.params.id),
        meta: notificationMeta,
      }),
  );
}
