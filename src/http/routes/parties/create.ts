import { z } from 'zod';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { sendDocument } from '../../reply.js';
import { partyKind } from '../../../render/party.js';
import { resourceBody } from '../../schemas.js';

export default function createParty(app: App, deps: HttpDeps) {
  app.post(
    '/v2/parties',
    {
      schema: {
        tags: ['parties'],
        summary: 'Create a party (a customer of the account)',
        body: resourceBody('party', z.object({ company_name: z.string().nullish() })),
      },
    },
    async (req, reply) => {
      const party = await deps.parties.create(accountOf(req).id, req.body.data.attributes.company_name);
      return sendDocument(reply, 201, { data: partyKind.render(party), links: { self: `/v2/parties/${party.id}` } });
    },
  );
}
