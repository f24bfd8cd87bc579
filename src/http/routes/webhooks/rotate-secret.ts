// POST /v2/webhooks/{id}/rotate_secret: a new signing secret, the old one still signing for 24 hours.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { webhookKind } from '../../../render/webhook.js';
import { resourceDocument, webhookResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, idParams, WRITE_ERRORS } from '../../schemas.js';

export default function rotateWebhookSecret(app: App, deps: HttpDeps) {
  const kind = webhookKind(deps);
  app.post(
    '/v2/webhooks/:id/rotate_secret',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Rotate the signing secret',
        description:
          'A new `whsec_…` secret; for 24 hours deliveries carry Standard Webhooks signatures with both the new and the old secret (and the hex signature with the new one), so receivers can switch without a gap.',
        params: idParams,
        // A body is parsed even here: 400 not JSON, 415 another media type, 422 text PostgreSQL cannot store; 403 a
        // web-app session without its CSRF header.
        response: {
          200: described(resourceDocument(webhookResource), 'The webhook with its new secret'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404),
        },
      },
    },
    async (req, reply) => {
      const webhook = await deps.webhooks.rotateSecret(accountOf(req).id, req.params.id);
      return sendDocument(reply, 200, { data: kind.render(webhook), links: { self: selfUrl(deps.config.publicUrl, req) } });
    },
  );
}
