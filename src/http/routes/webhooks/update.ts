// PATCH /v2/webhooks/{id}: its URL, events, active flag or headers.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { idMismatch } from '../../errors.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { webhookKind } from '../../../render/webhook.js';
import { resourceDocument, webhookResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, idParams, WRITE_ERRORS } from '../../schemas.js';
import { webhookBody } from './body.js';

export default function updateWebhook(app: App, deps: HttpDeps) {
  const kind = webhookKind(deps);
  app.patch(
    '/v2/webhooks/:id',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Edit a webhook',
        description: 'Any of `url`, `events`, `active`, `headers`. Turning a deactivated webhook on again clears its failure record.',
        params: idParams,
        body: webhookBody,
        // 409: `data.id` is not the id of the URL.
        response: {
          200: described(resourceDocument(webhookResource), 'The webhook as changed'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404, 409),
        },
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      if (req.body.data.id !== undefined && req.body.data.id !== id) throw idMismatch();
      const webhook = await deps.webhooks.update(accountOf(req), id, req.body.data.attributes);
      return sendDocument(reply, 200, { data: kind.render(webhook), links: { self: selfUrl(deps.config.publicUrl, req) } });
    },
  );
}
