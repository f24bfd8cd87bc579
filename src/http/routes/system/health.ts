import { readiness } from '../../../services/readiness.js';
import type { App, HttpDeps } from '../../context.js';

export default function health(app: App, deps: HttpDeps) {
  app.get('/healthz', { schema: { tags: ['system'], summary: 'The process is up' } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { tags: ['system'], summary: 'The database answers and is migrated' } }, async (_req, reply) => {
    const state = await readiness(deps.db);
    return state.status === 'ready' ? state : reply.code(503).send(state);
  });

  app.get('/metrics', { schema: { tags: ['system'], summary: 'Prometheus metrics' } }, async (_req, reply) => {
    return reply.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  });
}
