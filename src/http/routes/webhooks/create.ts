// POST /v2/webhooks: a webhook, with its signing secret in this response.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { sendDocument } from '../../reply.js';
import { webhookKind } from '../../../render/webhook.js';
import { resourceDocument, webhookResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, WRITE_ERRORS } from '../../schemas.js';
import { webhookBody } from './body.js';

export default function createWebhook(app: App, deps: HttpDeps) {
  const kind = webhookKind(deps);
  app.post(
    '/v2/webhooks',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Create a webhook',
        description:
          '`url` (https), `events` (names from GET /v2/webhooks/events; left out, every event the account may receive now, stored as that list; an empty list is refused), `active` (default true), `headers` `[{name, value}]` sent with every delivery, and `secret` to keep one (migrating receivers); else a `whsec_…` secret is generated. The response carries the secret.',
        body: webhookBody,
        response: {
          201: described(resourceDocument(webhookResource), 'The webhook, with its signing secret'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS),
        },
      },
    },
    async (req, reply) => {
      const webhook = await deps.webhooks.create(accountOf(req), req.body.data.attributes);
      return sendDocument(reply, 201, { data: kind.render(webhook), links: { self: `/v2/webhooks/${webhook.id}` } });
    },
  );
}
