// GET /readyz: the database answers and is migrated (services/readiness.ts); 503 with the reason otherwise.
import { readiness } from '../../../services/readiness.js';
import type { App, HttpDeps } from '../../context.js';

export default function readyz(app: App, deps: HttpDeps) {
  app.get('/readyz', { schema: { tags: ['system'], summary: 'The database answers and is migrated' } }, async (_req, reply) => {
    const state = await readiness(deps.db);
    return state.status === 'ready' ? state : reply.code(503).send(state);
  });
}
