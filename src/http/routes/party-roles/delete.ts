// DELETE /v2/party_roles/{id}: the party no longer has that role (a shipment's customer falls back to the one before).
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { idParams } from '../../schemas.js';

export default function deletePartyRole(app: App, deps: HttpDeps) {
  app.delete(
    '/v2/party_roles/:id',
    { schema: { tags: ['parties'], summary: 'Remove a party role', params: idParams } },
    async (req, reply) => {
      await deps.partyRoles.delete(accountOf(req).id, req.params.id);
      return reply.code(204).send();
    },
  );
}
