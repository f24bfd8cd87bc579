// DELETE /v2/webhooks/{id}: the webhook and its notifications.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { API_ERRORS, errorResponses, idParams, noContent } from '../../schemas.js';

export default function deleteWebhook(app: App, deps: HttpDeps) {
  app.delete(
    '/v2/webhooks/:id',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Delete a webhook (and its notifications)',
        params: idParams,
        // 403: a web-app session without its CSRF header.
        response: { 204: noContent, ...errorResponses(...API_ERRORS, 403, 404) },
      },
    },
    async (req, reply) => {
      await deps.webhooks.delete(accountOf(req).id, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
