// DELETE /v2/party_roles/{id}: the party no longer has that role (a shipment's customer falls back to the one before).
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { API_ERRORS, errorResponses, idParams, noContent, WRITE_ERRORS } from '../../schemas.js';

export default function deletePartyRole(app: App, deps: HttpDeps) {
  app.delete(
    '/v2/party_roles/:id',
    {
      schema: {
        tags: ['parties'],
        summary: 'Remove a party role',
        params: idParams,
        // WRITE_ERRORS: a body is parsed on DELETE too (415, 400, 422 for text that cannot be stored); 403 CSRF.
        response: { 204: noContent, ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404) },
      },
    },
    async (req, reply) => {
      await deps.partyRoles.delete(accountOf(req).id, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
