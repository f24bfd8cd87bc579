import { z } from 'zod';
import type { App, HttpDeps } from '../../context.js';
import { API_ERRORS, described, errorResponses } from '../../schemas.js';
import type { SandboxService } from '../../../services/sandbox.js';

const example = z.object({
  scenario: z.string(),
  scac: z.string().nullable(),
  request_type: z.enum(['bill_of_lading', 'booking_number', 'container']),
  request_number: z.string(),
  expected_outcome: z.string(),
  description: z.string(),
});

export default function sandboxExamples(app: App, deps: HttpDeps & { sandbox: SandboxService }) {
  app.get(
    '/sandbox/examples',
    {
      config: { auth: 'account' },
      schema: {
        tags: ['sandbox'],
        summary: 'Documented sandbox numbers: one per scenario, with the outcome a tracking request for it reaches',
        response: {
          200: described(z.object({ data: z.array(example) }), 'One number per scenario (plain JSON)'),
          // 400: text PostgreSQL cannot store in the query (http/text-guard.ts, every route).
          ...errorResponses(400, ...API_ERRORS),
        },
      },
    },
    async () => ({ data: [...deps.sandbox.examples()] }),
  );
}
