import { z } from 'zod';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { pageLinks, parsePage } from '../../jsonapi.js';
import { sendDocument } from '../../reply.js';
import { shippingLineKind } from '../../../render/shipping-line.js';
import { listDocument, shippingLineResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, listQuery } from '../../schemas.js';

export default function listShippingLines(app: App, deps: HttpDeps) {
  app.get(
    '/v2/shipping_lines',
    {
      schema: {
        tags: ['shipping_lines'],
        summary: 'List the shipping lines the account can track (one page of 100 holds them all)',
        querystring: listQuery.extend({ search: z.string().optional().describe('Filter by name or SCAC') }),
        response: {
          200: described(listDocument(shippingLineResource), 'A page of shipping lines (no `first`/`prev` links, no `meta`)'),
          ...errorResponses(400, ...API_ERRORS),
        },
      },
    },
    async (req, reply) => {
      const page = parsePage(req.query, 100);
      const all = deps.shippingLines.list(accountOf(req), req.query.search);
      const items = all.slice(page.offset, page.offset + page.limit);
      const { first: _first, prev: _prev, ...links } = pageLinks(deps.config.publicUrl, req.url, page, all.length);
      return sendDocument(reply, 200, { data: items.map(shippingLineKind.render), links });
    },
  );
}
