// GET /v2/containers/board (beyond the reference API): the containers that need action today, most urgent
// first, each with what it needs in `meta.attention`, a page at a time (`filter[needs]` narrows the list to one
// kind), and the counts per kind over all of them in the document meta.
import { badRequest } from '../../../domain/errors.js';
import { BOARD_KINDS, type BoardKind } from '../../../services/containers.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { parseInclude, resolveIncluded } from '../../../render/jsonapi.js';
import { MAX_PAGE_SIZE, pageLinks, parsePage } from '../../jsonapi.js';
import { filtersOf, singleValue } from '../../query.js';
import { sendDocument } from '../../reply.js';
import { containerKind } from '../../../render/container.js';
import { listQuery } from '../../schemas.js';

export default function containerBoard(app: App, deps: HttpDeps) {
  const kind = containerKind(deps);
  app.get(
    '/v2/containers/board',
    {
      schema: {
        tags: ['containers'],
        summary: 'The containers that need action today',
        description: `Containers on hold, available, whose last free day is today, tomorrow or passed (counted in the pickup place’s own calendar, at the world time), or accruing demurrage; most urgent first, ${MAX_PAGE_SIZE} a page unless \`page[size]\` says fewer. Each carries \`meta.attention\` \`{holds, available, lfd, lfd_days_left, demurrage_accruing}\`; the document \`meta.counts\` has a count per kind over all pages, \`meta.total\` the number listed. \`filter[needs]\` (${BOARD_KINDS.join(', ')}) lists one kind only. \`include\` as on GET /v2/containers.`,
        querystring: listQuery,
      },
    },
    async (req, reply) => {
      const query = req.query as Record<string, unknown>;
      const include = parseInclude(query.include, kind);
      const page = parsePage(query, MAX_PAGE_SIZE);
      const needs = boardFilter(query);
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

/** `filter[needs]`: one of the board's kinds; anything else (another filter, another value) is a 400 naming it. */
function boardFilter(query: Record<string, unknown>): BoardKind | undefined {
  const filters = filtersOf(query);
  for (const name of Object.keys(filters)) {
    if (name !== 'needs')
      throw badRequest(`filter[${name}] is not a filter of the board; it takes filter[needs]`, { parameter: `filter[${name}]` });
  }
  const needs = singleValue(filters.needs, 'filter[needs]');
  if (needs === undefined) return undefined;
  if (!(BOARD_KINDS as readonly string[]).includes(needs)) {
    throw badRequest(`filter[needs] must be one of ${BOARD_KINDS.join(', ')}`, { parameter: 'filter[needs]' });
  }
  return needs as BoardKind;
}
