// GET /sandbox/clock: the sandbox world clock (world time, speed, the advance under way).
import { z } from 'zod';
import type { App, HttpDeps } from '../../context.js';
import { API_ERRORS, described, errorResponses } from '../../schemas.js';
import { isoSeconds } from '../../../lib/dates.js';
import type { SandboxService } from '../../../services/sandbox.js';

const clockState = z.object({
  world_time: z.string(),
  speed: z.number(),
  advancing: z.boolean().describe('an advance is walking the world now'),
  target_at: z.string().nullable().describe('the target of the advance running now, or of the last one when it stopped short'),
  reached_at: z
    .string()
    .nullable()
    .describe('how far that advance got (everything due until then was refreshed); null once an advance reaches its target'),
});

export default function getSandboxClock(app: App, deps: HttpDeps & { sandbox: SandboxService }) {
  app.get(
    '/sandbox/clock',
    {
      config: { auth: 'account' },
      schema: {
        tags: ['sandbox'],
        summary: 'The sandbox world clock: world time and how many times faster than real time it runs (0 = only when advanced)',
        response: { 200: described(clockState, 'The world clock (plain JSON)'), ...errorResponses(400, ...API_ERRORS) },
      },
    },
    async () => {
      const state = await deps.sandbox.readClock();
      return {
        world_time: isoSeconds(state.worldTime)!,
        speed: state.speed,
        advancing: state.advancing,
        target_at: isoSeconds(state.targetAt),
        reached_at: isoSeconds(state.reachedAt),
      };
    },
  );
}
