// POST /sandbox/clock/advance: walk the world forward (admin token or the sandbox_control feature).
import { z } from 'zod';
import { validationFailed } from '../../../domain/errors.js';
import type { App, HttpDeps } from '../../context.js';
import { API_ERRORS, described, errorResponses, WRITE_ERRORS } from '../../schemas.js';
import { isoSeconds } from '../../../lib/dates.js';
import type { SandboxService } from '../../../services/sandbox.js';

const HOUR_MS = 3600_000;
const MAX_DAYS = 400;

export default function advanceSandboxClock(app: App, deps: HttpDeps & { sandbox: SandboxService }) {
  app.post(
    '/sandbox/clock/advance',
    {
      config: { auth: 'admin_or_feature', feature: 'sandbox_control' },
      schema: {
        tags: ['sandbox'],
        summary:
          'Walk the world forward (steps of at most 6 hours, refreshing what is due after each); admin token or the sandbox_control feature',
        body: z
          .object({
            hours: z.unknown().optional().describe('hours to advance (> 0)'),
            days: z.unknown().optional().describe(`days to advance (> 0, at most ${MAX_DAYS} in all)`),
          })
          .describe('exactly one of hours or days'),
        // 401/429 for an account's key (the admin token has neither), 403 without sandbox_control; 409 another
        // advance is walking; 500 or 503 an advance that stopped short (how far it got in each error's `meta`).
        response: {
          200: described(z.object({ world_time: z.string(), refreshed: z.number().int() }), 'Advanced (plain JSON)'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 409, 500),
        },
      },
    },
    async (req) => {
      const ms = advanceMs(req.body);
      const result = await deps.sandbox.advance(ms);
      return { world_time: isoSeconds(result.worldTime)!, refreshed: result.refreshed };
    },
  );
}

/** Exactly one of `hours` or `days`, a positive number, at most 400 days in all; else 422 with a pointer. */
export function advanceMs(body: { hours?: unknown; days?: unknown } | undefined): number {
  const given = (['hours', 'days'] as const).filter((k) => body?.[k] !== undefined);
  if (given.length !== 1) {
    const pointer = given.length === 0 ? '/hours' : '/days';
    throw validationFailed([{ title: 'Invalid advance', detail: 'Give exactly one of hours or days', pointer }]);
  }
  const field = given[0]!;
  const value = body![field];
  const ms = typeof value === 'number' && Number.isFinite(value) ? value * (field === 'days' ? 24 * HOUR_MS : HOUR_MS) : Number.NaN;
  if (!(ms > 0)) {
    throw validationFailed([{ title: 'Invalid advance', detail: `${field} must be a number greater than 0`, pointer: `/${field}` }]);
  }
  if (ms > MAX_DAYS * 24 * HOUR_MS) {
    throw validationFailed([{ title: 'Invalid advance', detail: `${field} must be at most ${MAX_DAYS} days`, pointer: `/${field}` }]);
  }
  return ms;
}
