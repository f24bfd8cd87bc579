// DELETE /v2/api_keys/{id}: the key stops working at once.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { API_ERRORS, errorResponses, idParams, noContent, WRITE_ERRORS } from '../../schemas.js';

export default function deleteApiKey(app: App, deps: HttpDeps) {
  app.delete(
    '/v2/api_keys/:id',
    {
      schema: {
        tags: ['api_keys'],
        summary: 'Revoke an API key at once',
        params: idParams,
        // A body is parsed even here: 400 not JSON, 415 another media type, 422 text PostgreSQL cannot store; 403 a
        // web-app session without its CSRF header.
        response: { 204: noContent, ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404) },
      },
    },
    async (req, reply) => {
      await deps.accounts.revokeKey(deps.db, req.params.id, accountOf(req).id);
      return reply.code(204).send(null);
    },
  );
}
