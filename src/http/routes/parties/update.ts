import { z } from 'zod';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { partyKind } from '../../../render/party.js';
import { partyResource, resourceDocument } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, idParams, resourceBody, WRITE_ERRORS } from '../../schemas.js';

export default function updateParty(app: App, deps: HttpDeps) {
  app.patch(
    '/v2/parties/:id',
    {
      schema: {
        tags: ['parties'],
        summary: 'Rename a party',
        params: idParams,
        body: resourceBody('party', z.object({ company_name: z.string().nullish() })),
        // 422 also for a blank, too long or taken name.
        response: {
          200: described(resourceDocument(partyResource), 'The party as renamed'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404),
        },
      },
    },
    async (req, reply) => {
      const party = await deps.parties.rename(accountOf(req).id, req.params.id, req.body.data.attributes.company_name);
      return sendDocument(reply, 200, { data: partyKind.render(party), links: { self: selfUrl(deps.config.publicUrl, req) } });
    },
  );
}
