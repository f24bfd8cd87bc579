// DELETE /v2/webhooks/{id}: the webhook and its notifications. 200 with `{}`, as the reference documents it: its SDK
// parses the body of every 2xx, so a 204 would fail there (docs/extensions.md lists the deletes that answer 204).
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { z } from 'zod';
import { API_ERRORS, described, errorResponses, idParams, WRITE_ERRORS } from '../../schemas.js';

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
        response: {
          200: described(z.strictObject({}), 'Deleted: an empty JSON object'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404),
        },
      },
    },
    async (req, reply) => {
      await deps.webhooks.delete(accountOf(req).id, req.params.id);
      return reply.code(200).send({});
    },
  );
}
