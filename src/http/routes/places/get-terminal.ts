// GET /v2/terminals/{id}: an ocean terminal (reference data, global).
import { z } from 'zod';
import type { App, HttpDeps } from '../../context.js';
import { placeKinds } from '../../../render/places.js';
import { resourceDocument, terminalResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, includeQuery } from '../../schemas.js';
import { sendOne } from '../handlers.js';

export default function getTerminal(app: App, deps: HttpDeps) {
  const kind = placeKinds(deps.places).terminal;
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
        response: { 200: described(resourceDocument(terminalResource), 'The terminal'), ...errorResponses(400, 404, ...API_ERRORS) },
      },
    },
    async (req, reply) =>
      sendOne(reply, req, deps.config.publicUrl, { kind, include: req.query.include, load: () => deps.places.terminal(req.params.id) }),
  );
}
