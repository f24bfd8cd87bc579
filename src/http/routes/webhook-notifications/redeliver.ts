// POST /v2/webhook_notifications/{id}/redeliver: beyond the reference API, which cannot replay a missed
// notification. The stored notification is queued again with its id and body (receivers de-duplicate by id).
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { sendDocument } from '../../reply.js';
import { webhookNotificationKind } from '../../../render/webhook-notification.js';
import { resourceDocument, webhookNotificationResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, idParams, WRITE_ERRORS } from '../../schemas.js';

export default function redeliverNotification(app: App, deps: HttpDeps) {
  const kind = webhookNotificationKind(deps);
  app.post(
    '/v2/webhook_notifications/:id/redeliver',
    {
      schema: {
        tags: ['webhook_notifications'],
        summary: 'Send a notification again',
        description:
          'Queues the stored notification for delivery again, with its original id and body, whatever its delivery status; answers 202 with the notification (`delivery_status: pending`). Its retry schedule starts afresh.',
        params: idParams,
        // A body is parsed even here: 400 not JSON, 415 another media type, 422 text PostgreSQL cannot store; 403 a
        // web-app session without its CSRF header.
        response: {
          202: described(resourceDocument(webhookNotificationResource), 'Queued again: the notification, `delivery_status: pending`'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404),
        },
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      const accountId = accountOf(req).id;
      await deps.webhooks.redeliver(accountId, id);
      const record = await deps.notifications.get(accountId, id);
      return sendDocument(reply, 202, {
        data: kind.render(record),
        links: { self: `${deps.config.publicUrl}/v2/webhook_notifications/${id}` },
      });
    },
  );
}
