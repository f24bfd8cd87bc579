// GET /v2/webhooks/{id}: one webhook.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { webhookKind } from '../../../render/webhook.js';
import { resourceDocument, webhookResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, idParams } from '../../schemas.js';
import { sendOne } from '../handlers.js';

export default function getWebhook(app: App, deps: HttpDeps) {
  const kind = webhookKind(deps);
  app.get(
    '/v2/webhooks/:id',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Get a webhook',
        params: idParams,
        // 400: text PostgreSQL cannot store in the query (http/text-guard.ts, every route).
        response: { 200: described(resourceDocument(webhookResource), 'The webhook'), ...errorResponses(400, ...API_ERRORS, 404) },
      },
    },
    async (req, reply) =>
      sendOne(reply, req, deps.config.publicUrl, { kind, include: null, load: () => deps.webhooks.get(accountOf(req).id, req.params.id) }),
  );
}
