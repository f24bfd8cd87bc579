// GET /v2/shipments/{id}/estimated_events (beyond the reference API): the shipment's ETA history, every
// `shipment.estimated.arrival` as it came, newest first; the same objects webhooks reference.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { estimatedEventKind } from '../../../render/events.js';
import { estimatedEventResource, listDocument } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, idParams, listQuery } from '../../schemas.js';
import { sendPage } from '../handlers.js';

export default function shipmentEstimatedEvents(app: App, deps: HttpDeps) {
  const kind = estimatedEventKind(deps);
  app.get(
    '/v2/shipments/:id/estimated_events',
    {
      schema: {
        tags: ['shipments'],
        summary: "A shipment's arrival estimates (ETA history), newest first",
        description:
          'Each `estimated_event` has `estimated_timestamp` (the ETA then given), `created_at` (when Tidemark learnt it) and its port and vessel.',
        params: idParams,
        querystring: listQuery,
        response: {
          200: described(listDocument(estimatedEventResource), "A page of the shipment's arrival estimates"),
          ...errorResponses(400, 404, ...API_ERRORS),
        },
      },
    },
    async (req, reply) =>
      sendPage(reply, req, deps.config.publicUrl, {
        kind,
        query: req.query,
        pageSize: 30,
        load: (page) => deps.shipments.estimatedEvents(accountOf(req).id, req.params.id, page),
      }),
  );
}
