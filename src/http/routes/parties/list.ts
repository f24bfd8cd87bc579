// GET /v2/parties: the account's parties, a page at a time (the reference's `pagination` meta).
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { paginationMeta } from '../../jsonapi.js';
import { partyKind } from '../../../render/party.js';
import { listDocument, partyResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, listQuery } from '../../schemas.js';
import { sendPage } from '../handlers.js';

export default function listParties(app: App, deps: HttpDeps) {
  app.get(
    '/v2/parties',
    {
      schema: {
        tags: ['parties'],
        summary: 'List parties',
        querystring: listQuery,
        response: {
          200: described(listDocument(partyResource), 'A page of parties, with `meta.pagination`'),
          ...errorResponses(400, ...API_ERRORS),
        },
      },
    },
    async (req, reply) =>
      sendPage(reply, req, deps.config.publicUrl, {
        kind: partyKind,
        query: req.query,
        defaultInclude: null,
        pageSize: 25,
        load: (page) => deps.parties.list(accountOf(req).id, page),
        meta: (page, items, total) => ({ size: items.length, total, pagination: paginationMeta(page, total) }),
      }),
  );
}
