// maintenance.prune_rate_limits: deletes what can no longer count (rate-limit windows, spent OAuth grants and
// tokens, used or lapsed sign-in links). Sent once a minute by the schedule (workers/jobs.ts), one in all workers.
import { z } from 'zod';
import type { JobDefinition } from './queue.js';

export const MAINTENANCE_PRUNE_JOB = 'maintenance.prune_rate_limits';

/** Something that deletes its own rows past their use; each says how many it deleted. */
export interface Prunable {
  prune(): Promise<number>;
}

export function maintenanceJob(stores: { rateLimits: Prunable; oauth: Prunable; users: Prunable }): JobDefinition<Record<string, never>> {
  return {
    name: MAINTENANCE_PRUNE_JOB,
    schema: z.object({}).strict() as z.ZodType<Record<string, never>>,
    retryLimit: 3,
    async handler() {
      await stores.rateLimits.prune();
      await stores.oauth.prune();
      await stores.users.prune();
    },
  };
}
