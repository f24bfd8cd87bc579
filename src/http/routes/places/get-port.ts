// GET /v2/ports/{id or LOCODE}: reference data, the same for every account (an API key is still needed, as on
// every /v2 route).
import { z } from 'zod';
import type { App, HttpDeps } from '../../context.js';
import { placeKinds } from '../../../render/places.js';
import { portResource, resourceDocument } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, includeQuery } from '../../schemas.js';
import { sendOne } from '../handlers.js';

export default function getPort(app: App, deps: HttpDeps) {
  const kind = placeKinds(deps.places).port;
  app.get(
    '/v2/ports/:id',
    {
      schema: {
        tags: ['places'],
        summary: 'Get a port',
        description:
          'A seaport by its id or its UN/LOCODE (`DEHAM`); `latitude`/`longitude` are strings. `include=terminals` sideloads its terminals.',
        params: z.object({ id: z.string().describe('Port id (UUID) or UN/LOCODE') }),
        querystring: includeQuery,
        response: { 200: described(resourceDocument(portResource), 'The port'), ...errorResponses(400, 404, ...API_ERRORS) },
      },
    },
    async (req, reply) =>
      sendOne(reply, req, deps.config.publicUrl, { kind, include: req.query.include, load: () => deps.places.port(req.params.id) }),
  );
}
