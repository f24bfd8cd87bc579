import { accountOf, type App, type HttpDeps } from '../../context.js';
import { parseInclude, resolveIncluded } from '../../../render/jsonapi.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { trackingRequestKind } from '../../../render/tracking-request.js';
import { includeQuery } from '../../schemas.js';

export default function getTrackingRequest(app: App, deps: HttpDeps) {
  const kind = trackingRequestKind(deps);
  app.get(
    '/v2/tracking_requests/:id',
    {
      schema: {
        tags: ['tracking_requests'],
        summary: 'Get a tracking request',
        description: 'Its shipment (`tracked_object`) is included by default.',
        querystring: includeQuery,
      },
    },
    async (req, reply) => {
      const { id } = req.params as { id: string };
      const include = parseInclude(req.query.include ?? 'tracked_object', kind);
      const record = await deps.trackingRequests.get(accountOf(req).id, id);
      const included = await resolveIncluded(kind, [record], include);
      return sendDocument(reply, 200, { data: kind.render(record), included, links: { self: selfUrl(deps.config.publicUrl, req) } });
    },
  );
}
