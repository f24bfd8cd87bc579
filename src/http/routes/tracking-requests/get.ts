// GET /v2/tracking_requests/{id}: one tracking request, its shipment included by default.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { trackingRequestKind } from '../../../render/tracking-request.js';
import { resourceDocument, trackingRequestResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, idParams, includeQuery } from '../../schemas.js';
import { sendOne } from '../handlers.js';
import { withheldInclude } from '../../api-trial-gate.js';

export default function getTrackingRequest(app: App, deps: HttpDeps) {
  const kind = trackingRequestKind(deps);
  app.get(
    '/v2/tracking_requests/:id',
    {
      schema: {
        tags: ['tracking_requests'],
        summary: 'Get a tracking request',
        description:
          'Its shipment (`tracked_object`) is included by default, but not for a free account without an API trial (docs/api.md "Plans and the API trial").',
        params: idParams,
        querystring: includeQuery,
        response: {
          200: described(resourceDocument(trackingRequestResource), 'The tracking request'),
          ...errorResponses(400, 404, ...API_ERRORS),
        },
      },
    },
    async (req, reply) =>
      sendOne(reply, req, deps.config.publicUrl, {
        kind,
        // While an API trial is needed the shipment is not included (http/api-trial-gate.ts).
        include: withheldInclude(req, req.query.include ?? 'tracked_object'),
        load: () => deps.trackingRequests.get(accountOf(req).id, req.params.id),
      }),
  );
}
