// GET /v2/vessels/{id}/future_positions (the `routing` feature): the vessel's estimated positions to a port,
// from its latest AIS position.
import { z } from 'zod';
import type { App, HttpDeps } from '../../context.js';
import { refuseWithoutRouting } from './routing-gate.js';
import { FUTURE_POSITIONS_DESCRIPTION as shared, params, parseAsk, portQuery, sendVoyage, voyageResponses } from './voyage.js';

export default function futurePositions(app: App, deps: HttpDeps) {
  app.get(
    '/v2/vessels/:id/future_positions',
    {
      schema: {
        tags: ['vessels'],
        summary: "A vessel's estimated positions to a port, from its latest position",
        description: `From the vessel's latest AIS position, starting at that position's time (422 when it has none). ${shared}`,
        params,
        querystring: z.object(portQuery).catchall(z.unknown()),
        response: voyageResponses,
      },
    },
    async (req, reply) => {
      const refused = refuseWithoutRouting(req, reply);
      if (refused) return refused;
      const ask = parseAsk(req.query, false);
      return sendVoyage(reply, req, deps, await deps.vessels.futurePositions(req.params.id, ask));
    },
  );
}
