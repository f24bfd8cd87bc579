// GET /v2/containers/board (beyond the reference API): the containers that need action today, most urgent
// first, each with what it needs in `meta.attention`, a page at a time (`filter[needs]` narrows the list to one
// kind), and the counts per kind over all of them in the document meta.
import { BOARD_KINDS } from '../../../services/containers.js';
import { containerKind } from '../../../render/kinds.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { parseInclude, resolveIncluded } from '../../../render/jsonapi.js';
import { MAX_PAGE_SIZE, pageLinks, parsePage } from '../../jsonapi.js';
import { filterParams, oneOf } from '../../query.js';
import { sendDocument } from '../../reply.js';

import { boardContainerResource, boardMeta, listDocument } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, listQuery } from '../../schemas.js';

const querystring = listQuery.extend({
  filter: filterParams({ needs: oneOf(BOARD_KINDS) }, 'is not a filter of the board; it takes filter[needs]'),
});

export default function containerBoard(app: App, deps: HttpDeps) {
  const kind = containerKind(deps);
  app.get(
    '/v2/containers/board',
    {
      schema: {
        tags: ['containers'],
        summary: 'The containers that need action today',
        description: `Containers on hold, available, whose last free day is today, tomorrow or passed (counted in the pickup place’s own calendar, at the world time), or accruing demurrage; most urgent first, ${MAX_PAGE_SIZE} a page unless \`page[size]\` says fewer. Each carries \`meta.attention\` \`{holds, available, lfd, lfd_days_left, demurrage_accruing}\`; the document \`meta.counts\` has a count per kind over all pages, \`meta.total\` the number listed. \`filter[needs]\` (${BOARD_KINDS.join(', ')}) lists one kind only. \`include\` as on GET /v2/containers.`,
        querystring,
        response: {
          200: described(
            listDocument(boardContainerResource, { meta: boardMeta }),
            'The containers that need action, each with `meta.attention`; `meta.counts` per kind over all pages',
          ),
          ...errorResponses(400, ...API_ERRORS),
        },
      },
    },
    async (req, reply) => {
      const include = parseInclude(req.query.include, kind);
      const page = parsePage(req.query, MAX_PAGE_SIZE);
      const needs = req.query.filter?.needs;
      const { items, total, counts } = await deps.containers.board(accountOf(req).id, page, needs);
      const included = await resolveIncluded(kind, items, include);
      return sendDocument(reply, 200, {
        data: items.map((c) => {
          const { needs_action: _always, ...attention } = c.attention;
          return { ...kind.render(c), meta: { attention } };
        }),
        included,
        links: pageLinks(deps.config.publicUrl, req.url, page, total),
        meta: { size: items.length, total, counts },
      });
    },
  );
}
