// GET /v2/party_roles/{id}: one party role; `include=party` sideloads the party.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { partyRoleKind } from '../../../render/party-role.js';
import { partyRoleResource, resourceDocument } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, idParams, includeQuery } from '../../schemas.js';
import { sendOne } from '../handlers.js';

export default function getPartyRole(app: App, deps: HttpDeps) {
  const kind = partyRoleKind(deps.parties);
  app.get(
    '/v2/party_roles/:id',
    {
      schema: {
        tags: ['parties'],
        summary: 'Get a party role',
        params: idParams,
        querystring: includeQuery,
        response: { 200: described(resourceDocument(partyRoleResource), 'The party role'), ...errorResponses(400, 404, ...API_ERRORS) },
      },
    },
    async (req, reply) =>
      sendOne(reply, req, deps.config.publicUrl, {
        kind,
        include: req.query.include,
        load: () => deps.partyRoles.get(accountOf(req).id, req.params.id),
      }),
  );
}
