// DELETE /v2/webhooks/{id}: the webhook and its notifications.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { API_ERRORS, errorResponses, idParams, noContent, WRITE_ERRORS } from '../../schemas.js';

export default function deleteWebhook(app: App, deps: HttpDeps) {
  app.delete(
    '/v2/webhooks/:id',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Delete a webhook (and its notifications)',
        params: idParams,
        // A body is parsed even here: 400 not JSON, 415 another media type, 422 text PostgreSQL cannot store; 403 a
        // web-app session without its CSRF header.
        response: { 204: noContent, ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404) },
      },
    },
    async (req, reply) => {
      await deps.webhooks.delete(accountOf(req).id, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
