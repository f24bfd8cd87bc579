// PATCH /v2/shipments/{id}/resume_tracking: track a stopped shipment again, as the reference API does.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { shipmentKind } from '../../../render/kinds.js';
import { selfUrl, sendDocument } from '../../reply.js';

import { resourceDocument, shipmentResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, idParams, WRITE_ERRORS } from '../../schemas.js';

export default function resumeTracking(app: App, deps: HttpDeps) {
  const kind = shipmentKind(deps);
  app.patch(
    '/v2/shipments/:id/resume_tracking',
    {
      schema: {
        tags: ['shipments'],
        summary: 'Resume tracking a shipment',
        description: 'Tracks a stopped shipment again; its sources are asked at once.',
        params: idParams,
        response: {
          200: described(resourceDocument(shipmentResource), 'The shipment, tracked again'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404),
        },
      },
    },
    async (req, reply) => {
      const shipment = await deps.shipments.resumeTracking(accountOf(req).id, req.params.id);
      return sendDocument(reply, 200, { data: kind.render(shipment), links: { self: selfUrl(deps.config.publicUrl, req) } });
    },
  );
}
