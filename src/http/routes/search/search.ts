// GET /v2/search?query=: the account's shipments, containers and tracking requests by number or reference.
import { z } from 'zod';
import { badRequest } from '../../../domain/errors.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { searchResultKind } from '../../../render/search-result.js';
import { listDocument, searchResultResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses } from '../../schemas.js';

const searchQuery = z
  .object({
    query: z
      .string()
      .optional()
      .describe('Required. A bill of lading, booking, container, tracking request or reference number, whole or in part'),
  })
  .catchall(z.unknown());

export default function search(app: App, deps: HttpDeps) {
  app.get(
    '/v2/search',
    {
      schema: {
        tags: ['search'],
        summary: 'Search shipments, containers and tracking requests by number',
        description:
          "Matches bill of lading, booking and request numbers, container numbers (any case, with or without spaces and dashes) and reference numbers, exactly or in part, in this account. At most 25 `search_result`s: shipments, then containers (`entity_type: cargo`), then tracking requests; exact matches before partial ones, newest first. A tracking request whose number is the bill of lading of a shipment in the results is left out. `status` is the container's `current_status`, the tracking request's status, or for a shipment `created` (tracking) or `tracking_stopped`.",
        querystring: searchQuery,
        // 400 also for a blank or too long query.
        response: {
          200: described(listDocument(searchResultResource), 'At most 25 results (not paged); `links.current` names the query as searched'),
          ...errorResponses(400, ...API_ERRORS),
        },
      },
    },
    async (req, reply) => {
      // The schema has already answered 400 for a repeated query (an array) or query[…] (an object).
      const raw = req.query.query;
      if (!raw?.trim()) throw badRequest("query can't be blank", { parameter: 'query' });
      const hits = await deps.search.search(accountOf(req).id, raw);
      const current = `${deps.config.publicUrl}/v2/search?query=${encodeURIComponent(raw.trim())}`;
      return sendDocument(reply, 200, {
        data: hits.map(searchResultKind.render),
        links: { self: selfUrl(deps.config.publicUrl, req), current },
      });
    },
  );
}
