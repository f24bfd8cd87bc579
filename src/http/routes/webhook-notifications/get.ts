// GET /v2/webhook_notifications/{id}: one notification, as it was delivered, with its delivery attempts.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { parseInclude, resolveIncluded } from '../../../render/jsonapi.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { notificationMeta, webhookNotificationKind } from '../../../render/webhook-notification.js';
import { includeQuery, uuidParam } from '../../schemas.js';
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
        params: uuidParam,
        querystring: includeQuery,
      },
    },
    async (req, reply) => {
      const include = parseInclude(req.query.include ?? DEFAULT_NOTIFICATION_INCLUDE, kind);
      const record = await deps.notifications.get(accountOf(req).id, req.params.id);
      const included = await resolveIncluded(kind, [record], include);
      return sendDocument(reply, 200, {
        data: kind.render(record),
        included,
        links: { self: selfUrl(deps.config.publicUrl, req) },
        meta: notificationMeta(record),
      });
    },
  );
}
