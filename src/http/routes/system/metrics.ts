// GET /metrics: Prometheus metrics.
import type { App, HttpDeps } from '../../context.js';

export default function metrics(app: App, deps: HttpDeps) {
  app.get('/metrics', { schema: { tags: ['system'], summary: 'Prometheus metrics' } }, async (_req, reply) => {
    return reply.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  });
}
