import { accountOf, type App, type HttpDeps } from '../../context.js';
import { pageLinks, parseInclude, parsePage, resolveIncluded } from '../../jsonapi.js';
import { sendDocument } from '../../reply.js';
import { shipmentKind } from '../../resources/shipment.js';
import { listQuery } from '../../schemas.js';

export default function listShipmentsRoute(app: App, deps: HttpDeps) {
  const kind = shipmentKind(deps.parties, deps.containers);
  app.get(
    '/v2/shipments',
    { schema: { tags: ['shipments'], summary: 'List shipments, newest first', querystring: listQuery } },
    async (req, reply) => {
      const include = parseInclude(req.query.include, kind);
      const page = parsePage(req.query, 30);
      const { items, total } = await deps.shipments.list(accountOf(req).id, page);
      const included = await resolveIncluded(kind, items, include);
      return sendDocument(reply, 200, {
        data: items.map(kind.render),
        included,
        links: pageLinks(deps.config.publicUrl, req.url, page, total),
        meta: { size: items.length, total },
      });
    },
  );
}
