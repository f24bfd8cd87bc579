// GET /v2/containers/{id}/transport_events: newest first by when each happened (transportEventOrder), paged.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { transportEventKind } from '../../../render/kinds.js';

import { listDocument, transportEventResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, idParams, listQuery } from '../../schemas.js';
import { sendPage } from '../handlers.js';

export default function containerTransportEvents(app: App, deps: HttpDeps) {
  const kind = transportEventKind(deps);
  app.get(
    '/v2/containers/:id/transport_events',
    {
      schema: {
        tags: ['containers'],
        summary: "A container's transport events",
        description:
          'Its stored transport events (milestones, estimates, pickup changes), newest first by `timestamp` (pickup changes, whose `timestamp` is the new date, by `observed_at`: when Tidemark saw them); events without either come last, ties newest stored first. The reference API orders by `created_at` instead (docs/extensions.md).',
        params: idParams,
        querystring: listQuery,
        response: {
          200: described(listDocument(transportEventResource), "A page of the container's transport events"),
          ...errorResponses(400, 404, ...API_ERRORS),
        },
      },
    },
    async (req, reply) =>
      sendPage(reply, req, deps.config.publicUrl, {
        kind,
        query: req.query,
        pageSize: 30,
        load: (page) => deps.containers.transportEvents(accountOf(req).id, req.params.id, page),
      }),
  );
}
