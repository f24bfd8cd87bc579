import { pendingMigrations } from '../../../storage/migrate.js';
import type { App, HttpDeps } from '../../context.js';

export default function health(app: App, deps: HttpDeps) {
  app.get('/healthz', { schema: { tags: ['system'], summary: 'The process is up' } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { tags: ['system'], summary: 'The database answers and is migrated' } }, async (_req, reply) => {
    try {
      await deps.db.query('SELECT 1');
      const pending = await pendingMigrations(deps.db);
      if (pending.length) return reply.code(503).send({ status: 'migrating', pending_migrations: pending });
      return { status: 'ready', database: deps.db.kind };
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: deps.db.kind });
    }
  });

  app.get('/metrics', { schema: { tags: ['system'], summary: 'Prometheus metrics' } }, async (_req, reply) => {
    return reply.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  });
}
