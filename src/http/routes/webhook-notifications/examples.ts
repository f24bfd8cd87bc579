// GET /v2/webhook_notifications/examples?event=…: the sample document a receiver of that event gets.
import { z } from 'zod';
import { TidemarkError } from '../../../domain/errors.js';
import { isEventName } from '../../../services/notifications.js';
import type { App, HttpDeps } from '../../context.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { exampleNotification } from '../../../render/webhook-notification.js';
import { notificationDocument } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses } from '../../schemas.js';

/** The reference API's answer without `event`: a 400 on the parameter, with a null detail. */
const missingEvent = () => new TidemarkError('bad_request', 'event is required', { items: [{ detail: null, parameter: 'event' }] });

export default function webhookNotificationExamples(app: App, deps: HttpDeps) {
  app.get(
    '/v2/webhook_notifications/examples',
    {
      schema: {
        tags: ['webhook_notifications'],
        summary: 'The sample notification of an event',
        description:
          'The document is what a webhook subscribed to the event receives (`included` as for real notifications), rendered from fixed sample records: its ids are the same every time.',
        querystring: z
          .object({ event: z.string().optional().describe('Required: one of the webhook events (GET /v2/webhooks/events)') })
          .catchall(z.unknown()),
        // 400: no `event`, or not an event's name.
        response: {
          200: described(notificationDocument, 'The sample notification of the event, as a webhook receives it'),
          ...errorResponses(400, ...API_ERRORS),
        },
      },
    },
    async (req, reply) => {
      const raw = req.query.event;
      if (raw === undefined || raw.trim() === '') throw missingEvent();
      const event = raw.trim();
      if (!isEventName(event)) {
        const detail = `'${event}' is not a webhook event`;
        throw new TidemarkError('bad_request', detail, { items: [{ detail, parameter: 'event' }] });
      }
      const doc = await exampleNotification(event, deps.config.publicUrl);
      doc.links = { self: selfUrl(deps.config.publicUrl, req) };
      return sendDocument(reply, 200, doc);
    },
  );
}
