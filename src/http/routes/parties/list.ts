import { accountOf, type App, type HttpDeps } from '../../context.js';
import { pageLinks, paginationMeta, parsePage } from '../../jsonapi.js';
import { sendDocument } from '../../reply.js';
import { partyKind } from '../../../render/party.js';
import { listQuery } from '../../schemas.js';

export default function listParties(app: App, deps: HttpDeps) {
  app.get('/v2/parties', { schema: { tags: ['parties'], summary: 'List parties', querystring: listQuery } }, async (req, reply) => {
    const page = parsePage(req.query, 25);
    const { items, total } = await deps.parties.list(accountOf(req).id, page);
    return sendDocument(reply, 200, {
      data: items.map(partyKind.render),
      links: pageLinks(deps.config.publicUrl, req.url, page, total),
      meta: { size: items.length, total, pagination: paginationMeta(page, total) },
    });
  });
}
