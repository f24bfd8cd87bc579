// GET /v2/webhooks/events: the events a webhook can subscribe to, by category (those the account may receive).
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { selfUrl, sendDocument } from '../../reply.js';

export default function webhookEvents(app: App, deps: HttpDeps) {
  app.get(
    '/v2/webhooks/events',
    { schema: { tags: ['webhooks'], summary: 'The events a webhook can subscribe to, by category (those the account may receive)' } },
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
