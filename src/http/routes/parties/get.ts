import { accountOf, type App, type HttpDeps } from '../../context.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { partyKind } from '../../../render/party.js';

export default function getParty(app: App, deps: HttpDeps) {
  app.get('/v2/parties/:id', { schema: { tags: ['parties'], summary: 'Get a party' } }, async (req, reply) => {
    const { id } = req.params as { id: string };
    const party = await deps.parties.get(accountOf(req).id, id);
    return sendDocument(reply, 200, { data: partyKind.render(party), links: { self: selfUrl(deps.config.publicUrl, req) } });
  });
}
