// GET /v2/ports/{id or LOCODE}, /v2/metro_areas/{id or LOCODE} and /v2/terminals/{id}: reference data,
// the same for every account (an API key is still needed, as on every /v2 route).
import { z } from 'zod';
import type { App, HttpDeps } from '../../context.js';
import { parseInclude, resolveIncluded } from '../../../render/jsonapi.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { placeKinds } from '../../../render/places.js';
import { includeQuery } from '../../schemas.js';

export default function placeRoutes(app: App, deps: HttpDeps) {
  const kinds = placeKinds(deps.places);
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
      },
    },
    async (req, reply) => {
      const include = parseInclude(req.query.include, kinds.port);
      const port = deps.places.port(req.params.id);
      const included = await resolveIncluded(kinds.port, [port], include);
      return sendDocument(reply, 200, { data: kinds.port.render(port), included, links: { self: selfUrl(deps.config.publicUrl, req) } });
    },
  );
  app.get(
    '/v2/metro_areas/:id',
    {
      schema: {
        tags: ['places'],
        summary: 'Get a metro area',
        description: 'An inland rail destination by its id or its UN/LOCODE (`USCHI`); `latitude`/`longitude` are strings.',
        params: z.object({ id: z.string().describe('Metro area id (UUID) or UN/LOCODE') }),
      },
    },
    async (req, reply) => {
      const metro = deps.places.metroArea(req.params.id);
      return sendDocument(reply, 200, { data: kinds.metroArea.render(metro), links: { self: selfUrl(deps.config.publicUrl, req) } });
    },
  );
  app.get(
    '/v2/terminals/:id',
    {
      schema: {
        tags: ['places'],
        summary: 'Get a terminal',
        description:
          "An ocean terminal by its id (UUID only). `provided_data` says which fields Tidemark's source for the terminal fills (null when none answers for it). `include=port` sideloads its port.",
        params: z.object({ id: z.string().describe('Terminal id (UUID)') }),
        querystring: includeQuery,
      },
    },
    async (req, reply) => {
      const include = parseInclude(req.query.include, kinds.terminal);
      const terminal = deps.places.terminal(req.params.id);
      const included = await resolveIncluded(kinds.terminal, [terminal], include);
      return sendDocument(reply, 200, {
        data: kinds.terminal.render(terminal),
        included,
        links: { self: selfUrl(deps.config.publicUrl, req) },
      });
    },
  );
}
