// GET /v2/vessels/{id}/future_positions_with_coordinates (the `routing` feature): the vessel's estimated positions
// to a port, from given coordinates.
import { z } from 'zod';
import type { App, HttpDeps } from '../../context.js';
import { refuseWithoutRouting } from './routing-gate.js';
import { FUTURE_POSITIONS_DESCRIPTION as shared, param, params, parseAsk, portQuery, sendVoyage, voyageResponses } from './voyage.js';

export default function futurePositionsWithCoordinates(app: App, deps: HttpDeps) {
  app.get(
    '/v2/vessels/:id/future_positions_with_coordinates',
    {
      schema: {
        tags: ['vessels'],
        summary: "A vessel's estimated positions to a port, from given coordinates",
        description: `From \`latitude\`/\`longitude\` (decimal degrees), starting now (domain time). ${shared}`,
        params,
        querystring: z
          .object({
            ...portQuery,
            latitude: param('Required. Starting latitude in decimal degrees, -90 to 90'),
            longitude: param('Required. Starting longitude in decimal degrees, -180 to 180'),
          })
          .catchall(z.unknown()),
        response: voyageResponses,
      },
    },
    async (req, reply) => {
      const refused = refuseWithoutRouting(req, reply);
      if (refused) return refused;
      const ask = parseAsk(req.query, true);
      return sendVoyage(reply, req, deps, await deps.vessels.futurePositions(req.params.id, ask));
    },
  );
}
