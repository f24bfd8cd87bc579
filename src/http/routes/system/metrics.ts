// GET /metrics: Prometheus metrics.
import { z } from 'zod';
import type { App, HttpDeps } from '../../context.js';
import { described, errorResponses } from '../../schemas.js';

export default function metrics(app: App, deps: HttpDeps) {
  app.get(
    '/metrics',
    {
      schema: {
        tags: ['system'],
        summary: 'Prometheus metrics',
        // The 200 is the Prometheus text format; the JSON:API errors keep their own media type (app.ts).
        produces: ['text/plain'],
        response: {
          200: described(z.string(), 'The Prometheus text exposition format (`text/plain; version=0.0.4`)'),
          // Open (no key, no rate limit): its errors are every route's, text PostgreSQL cannot store in the query (400,
          // http/text-guard.ts) and the 503 of a server shutting down.
          ...errorResponses(400, 503),
        },
      },
    },
    async (_req, reply) => {
      return reply.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
    },
  );
}
