// GET /healthz: the process is up.
import { z } from 'zod';
import type { App, HttpDeps } from '../../context.js';
import { described, errorResponses } from '../../schemas.js';

export default function healthz(app: App, _deps: HttpDeps) {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['system'],
        summary: 'The process is up',
        // Open (no key, no rate limit): its errors are every route's, text PostgreSQL cannot store in the query (400,
        // http/text-guard.ts) and the 503 of a server shutting down.
        response: { 200: described(z.strictObject({ status: z.literal('ok') }), 'Up'), ...errorResponses(400, 503) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
}
