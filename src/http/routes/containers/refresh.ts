// PATCH /v2/containers/{id}/refresh: an immediate pull from line, terminal and rail (the `refresh` feature).
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { z } from 'zod';
import { API_ERRORS, described, errorResponses, idParams, WRITE_ERRORS } from '../../schemas.js';

/** The reference's answer to a refresh: plain JSON, the same words whatever was queued. */
const refreshStarted = z.strictObject({ message: z.string().meta({ description: '`Started refresh for Shipping line, Terminal, Rail`' }) });

export default function refreshContainerRoute(app: App, deps: HttpDeps) {
  app.patch(
    '/v2/containers/:id/refresh',
    {
      config: { feature: 'refresh', rateBucket: 'refresh_container' },
      schema: {
        tags: ['containers'],
        summary: 'Refresh a container now',
        description:
          "Queues an immediate pull from the shipping line, the terminal and the railroad for the container's shipment; while one waits, asking again answers the same and queues nothing more. Accounts' refreshes are served in turns. Needs the `refresh` feature; 10 requests a minute. Answers plain JSON.",
        params: idParams,
        // 403 also without the `refresh` feature; 429 from its own bucket (refresh_container).
        response: {
          200: described(refreshStarted, 'The refresh is queued (plain JSON)'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404),
        },
      },
    },
    async (req, reply) => {
      await deps.shipments.refreshContainer(accountOf(req).id, req.params.id);
      return reply.code(200).send({ message: 'Started refresh for Shipping line, Terminal, Rail' });
    },
  );
}
