// GET /readyz: the database answers and is migrated (services/readiness.ts); 503 with the reason otherwise.
import { z } from 'zod';
import { errorDocument } from '../../../render/schemas.js';
import { readiness } from '../../../services/readiness.js';
import type { App, HttpDeps } from '../../context.js';
import { described, errorResponses } from '../../schemas.js';

const database = z.enum(['pglite', 'postgres']).meta({ description: 'The database this process uses' });

/** services/readiness.ts `Readiness`, each of its three states (plain JSON). */
const ready = z.strictObject({ status: z.literal('ready'), database });
const migrating = z.strictObject({
  status: z.literal('migrating'),
  pending_migrations: z.array(z.number().int()).meta({ description: 'The versions of the migrations not run yet' }),
});
const unavailable = z.strictObject({ status: z.literal('unavailable'), database });

export default function readyz(app: App, deps: HttpDeps) {
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['system'],
        summary: 'The database answers and is migrated',
        response: {
          200: described(ready, 'Ready to serve'),
          // Open (no key, no rate limit). Not ready says why in its own plain JSON; a server shutting down answers
          // the JSON:API error document every route gives then, as any route does to text PostgreSQL cannot store
          // in the query (400, http/text-guard.ts).
          ...errorResponses(400),
          503: described(
            z.union([migrating, unavailable, errorDocument]),
            'Not ready: migrations are pending or the database does not answer (plain JSON); or the server is shutting down (JSON:API errors)',
          ),
        },
      },
    },
    async (_req, reply) => {
      const state = await readiness(deps.db);
      return state.status === 'ready' ? state : reply.code(503).send(state);
    },
  );
}
