// GET /v2/parties/{id}: one of the account's parties (customers).
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { partyKind } from '../../../render/party.js';
import { partyResource, resourceDocument } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, idParams } from '../../schemas.js';
import { sendOne } from '../handlers.js';

export default function getParty(app: App, deps: HttpDeps) {
  app.get(
    '/v2/parties/:id',
    {
      schema: {
        tags: ['parties'],
        summary: 'Get a party',
        params: idParams,
        // 400: a query parameter with text that cannot be stored (http/text-guard.ts), on every route, parameters or not.
        response: { 200: described(resourceDocument(partyResource), 'The party'), ...errorResponses(400, 404, ...API_ERRORS) },
      },
    },
    async (req, reply) =>
      sendOne(reply, req, deps.config.publicUrl, {
        kind: partyKind,
        include: null,
        load: () => deps.parties.get(accountOf(req).id, req.params.id),
      }),
  );
}
