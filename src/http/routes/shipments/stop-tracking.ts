// PATCH /v2/shipments/{id}/stop_tracking: stop tracking a shipment (all its containers), as the reference API does.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { shipmentKind } from '../../../render/kinds.js';
import { selfUrl, sendDocument } from '../../reply.js';

import { resourceDocument, shipmentResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, idParams, WRITE_ERRORS } from '../../schemas.js';

export default function stopTracking(app: App, deps: HttpDeps) {
  const kind = shipmentKind(deps);
  app.patch(
    '/v2/shipments/:id/stop_tracking',
    {
      schema: {
        tags: ['shipments'],
        summary: 'Stop tracking a shipment',
        description:
          'Stops refreshing the shipment and all its containers (reason `cancelled_by_user`); its tracking requests become `tracking_stopped`.',
        params: idParams,
        response: {
          200: described(resourceDocument(shipmentResource), 'The shipment, no longer tracked'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404),
        },
      },
    },
    async (req, reply) => {
      const shipment = await deps.shipments.stopTracking(accountOf(req).id, req.params.id);
      return sendDocument(reply, 200, { data: kind.render(shipment), links: { self: selfUrl(deps.config.publicUrl, req) } });
    },
  );
}
