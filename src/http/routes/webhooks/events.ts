// GET /v2/webhooks/events: the events a webhook can subscribe to, by category (those the account may receive).
import { z } from 'zod';
import { EVENT_NAMES } from '../../../domain/events.js';
import { listDocument } from '../../../render/schemas.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { API_ERRORS, described, errorResponses } from '../../schemas.js';

/**
 * A category of the event catalogue (api-wire-notes §4.13), a resource of this route only: not in src/render's
 * schemas because nothing else renders or includes one.
 */
export const webhookEventCategoryResource = z
  .strictObject({
    id: z.string().meta({ description: 'A slug: `tracking-request-events` …' }),
    type: z.literal('webhook_event_category'),
    attributes: z.strictObject({
      name: z.string(),
      events: z.array(z.strictObject({ name: z.enum(EVENT_NAMES), description: z.string() })),
    }),
    relationships: z.strictObject({}),
  })
  .meta({
    id: 'WebhookEventCategory',
    description: 'A category of webhook events, with the events of it the account may subscribe to (a category without any is left out).',
  });

export default function webhookEvents(app: App, deps: HttpDeps) {
  app.get(
    '/v2/webhooks/events',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'The events a webhook can subscribe to, by category (those the account may receive)',
        response: {
          200: described(listDocument(webhookEventCategoryResource), 'The event categories (one page: no paging links)'),
          // 400: text PostgreSQL cannot store in the query (http/text-guard.ts, every route).
          ...errorResponses(400, ...API_ERRORS),
        },
      },
    },
    async (req, reply) =>
      sendDocument(reply, 200, {
        data: deps.webhooks.eventCategories(accountOf(req).features).map((c) => ({
          id: c.id,
          type: 'webhook_event_category',
          attributes: { name: c.name, events: c.events.map((e) => ({ name: e.name, description: e.description })) },
          relationships: {},
        })),
        links: { self: selfUrl(deps.config.publicUrl, req) },
      }),
  );
}
