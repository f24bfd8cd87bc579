import { z } from 'zod';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { sendDocument } from '../../reply.js';
import { partyKind } from '../../../render/party.js';
import { partyResource, resourceDocument } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, resourceBody, WRITE_ERRORS } from '../../schemas.js';

export default function createParty(app: App, deps: HttpDeps) {
  app.post(
    '/v2/parties',
    {
      schema: {
        tags: ['parties'],
        summary: 'Create a party (a customer of the account)',
        body: resourceBody('party', z.object({ company_name: z.string().nullish() })),
        // 422 also for a blank, too long or taken name.
        response: { 201: described(resourceDocument(partyResource), 'The party'), ...errorResponses(...API_ERRORS, ...WRITE_ERRORS) },
      },
    },
    async (req, reply) => {
      const party = await deps.parties.create(accountOf(req).id, req.body.data.attributes.company_name);
      return sendDocument(reply, 201, { data: partyKind.render(party), links: { self: `/v2/parties/${party.id}` } });
    },
  );
}
