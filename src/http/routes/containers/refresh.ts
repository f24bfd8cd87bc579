// PATCH /v2/containers/{id}/refresh: an immediate pull from line, terminal and rail (the `refresh` feature).
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { idParams } from '../../schemas.js';

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
      },
    },
    async (req, reply) => {
      await deps.shipments.refreshContainer(accountOf(req).id, req.params.id);
      return reply.code(200).send({ message: 'Started refresh for Shipping line, Terminal, Rail' });
    },
  );
}
