import { z } from 'zod';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { partyKind } from '../../../render/party.js';
import { idParams, resourceBody } from '../../schemas.js';

export default function updateParty(app: App, deps: HttpDeps) {
  app.patch(
    '/v2/parties/:id',
    {
      schema: {
        tags: ['parties'],
        summary: 'Rename a party',
        params: idParams,
        body: resourceBody('party', z.object({ company_name: z.string().nullish() })),
      },
    },
    async (req, reply) => {
      const party = await deps.parties.rename(accountOf(req).id, req.params.id, req.body.data.attributes.company_name);
      return sendDocument(reply, 200, { data: partyKind.render(party), links: { self: selfUrl(deps.config.publicUrl, req) } });
    },
  );
}
