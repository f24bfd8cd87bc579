// Stop and resume tracking a shipment (all its containers), as the reference API does.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { shipmentKind } from '../../../render/shipment.js';
import { idParams as params } from '../../schemas.js';

export default function shipmentTrackingRoutes(app: App, deps: HttpDeps) {
  const kind = shipmentKind(deps);
  app.patch(
    '/v2/shipments/:id/stop_tracking',
    {
      schema: {
        tags: ['shipments'],
        summary: 'Stop tracking a shipment',
        description:
          'Stops refreshing the shipment and all its containers (reason `cancelled_by_user`); its tracking requests become `tracking_stopped`.',
        params,
      },
    },
    async (req, reply) => {
      const shipment = await deps.shipments.stopTracking(accountOf(req).id, req.params.id);
      return sendDocument(reply, 200, { data: kind.render(shipment), links: { self: selfUrl(deps.config.publicUrl, req) } });
    },
  );
  app.patch(
    '/v2/shipments/:id/resume_tracking',
    {
      schema: {
        tags: ['shipments'],
        summary: 'Resume tracking a shipment',
        description: 'Tracks a stopped shipment again; its sources are asked at once.',
        params,
      },
    },
    async (req, reply) => {
      const shipment = await deps.shipments.resumeTracking(accountOf(req).id, req.params.id);
      return sendDocument(reply, 200, { data: kind.render(shipment), links: { self: selfUrl(deps.config.publicUrl, req) } });
    },
  );
}
