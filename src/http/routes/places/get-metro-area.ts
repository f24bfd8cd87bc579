// GET /v2/metro_areas/{id or LOCODE}: an inland rail destination (reference data, global).
import { z } from 'zod';
import type { App, HttpDeps } from '../../context.js';
import { placeKinds } from '../../../render/places.js';
import { metroAreaResource, resourceDocument } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses } from '../../schemas.js';
import { sendOne } from '../handlers.js';

export default function getMetroArea(app: App, deps: HttpDeps) {
  const kind = placeKinds(deps.places).metroArea;
  app.get(
    '/v2/metro_areas/:id',
    {
      schema: {
        tags: ['places'],
        summary: 'Get a metro area',
        description: 'An inland rail destination by its id or its UN/LOCODE (`USCHI`); `latitude`/`longitude` are strings.',
        params: z.object({ id: z.string().describe('Metro area id (UUID) or UN/LOCODE') }),
        // 400: a query parameter with text that cannot be stored (http/text-guard.ts), on every route, parameters or not.
        response: { 200: described(resourceDocument(metroAreaResource), 'The metro area'), ...errorResponses(400, 404, ...API_ERRORS) },
      },
    },
    async (req, reply) =>
      sendOne(reply, req, deps.config.publicUrl, { kind, include: null, load: () => deps.places.metroArea(req.params.id) }),
  );
}
