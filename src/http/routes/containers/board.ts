// GET /v2/containers/board (beyond the reference API): the containers that need action today, most urgent
// first, each with what it needs in `meta.attention`, and the counts per kind of action in the document meta.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { parseInclude, resolveIncluded } from '../../jsonapi.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { containerKind } from '../../resources/container.js';
import { includeQuery } from '../../schemas.js';

export default function containerBoard(app: App, deps: HttpDeps) {
  const kind = containerKind(deps);
  app.get(
    '/v2/containers/board',
    {
      schema: {
        tags: ['containers'],
        summary: 'The containers that need action today',
        description:
          'Containers on hold, available, whose last free day is today, tomorrow or passed (counted in the pickup place’s own calendar, at the world time), or accruing demurrage; most urgent first. Each carries `meta.attention` `{holds, available, lfd, lfd_days_left, demurrage_accruing}`; the document `meta.counts` has a count per kind. `include` as on GET /v2/containers.',
        querystring: includeQuery,
      },
    },
    async (req, reply) => {
      const include = parseInclude(req.query.include, kind);
      const { items, counts } = await deps.containers.board(accountOf(req).id);
      const included = await resolveIncluded(kind, items, include);
      return sendDocument(reply, 200, {
        data: items.map((c) => {
          const { needs_action: _always, ...attention } = c.attention;
          return { ...kind.render(c), meta: { attention } };
        }),
        included,
        links: { self: selfUrl(deps.config.publicUrl, req) },
        meta: { counts },
      });
    },
  );
}
