import { accountOf, type App, type HttpDeps } from '../../context.js';
import { parseInclude, resolveIncluded } from '../../jsonapi.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { shipmentKind } from '../../resources/shipment.js';
import { includeQuery } from '../../schemas.js';

export default function getShipment(app: App, deps: HttpDeps) {
  const kind = shipmentKind(deps.parties, deps.containers);
  app.get(
    '/v2/shipments/:id',
    {
      schema: {
        tags: ['shipments'],
        summary: 'Get a shipment',
        description: '`include=containers` sideloads its containers; `customer` its customer party.',
        querystring: includeQuery,
      },
    },
    async (req, reply) => {
      const { id } = req.params as { id: string };
      const include = parseInclude(req.query.include, kind);
      const shipment = await deps.shipments.get(accountOf(req).id, id);
      const included = await resolveIncluded(kind, [shipment], include);
      return sendDocument(reply, 200, { data: kind.render(shipment), included, links: { self: selfUrl(deps.config.publicUrl, req) } });
    },
  );
}
