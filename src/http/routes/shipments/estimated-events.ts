// GET /v2/shipments/{id}/estimated_events (beyond the reference API): the shipment's ETA history, every
// `shipment.estimated.arrival` as it came, newest first; the same objects webhooks reference.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { parseInclude } from '../../../render/jsonapi.js';
import { parsePage } from '../../jsonapi.js';
import { sendList } from '../../reply.js';
import { estimatedEventKind } from '../../../render/events.js';
import { listQuery } from '../../schemas.js';

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
        querystring: listQuery,
      },
    },
    async (req, reply) => {
      const { id } = req.params as { id: string };
      const query = req.query as Record<string, unknown>;
      const include = parseInclude(query.include, kind);
      const page = parsePage(query, 30);
      const { items, total } = await deps.shipments.estimatedEvents(accountOf(req).id, id, page);
      return sendList(reply, req, deps.config.publicUrl, { kind, items, total, page, include });
    },
  );
}
