// tracking.sweep: attempts and refreshes that fell due as domain time passed (their due times live in our own
// columns, next_check_at and retry_at, compared with the world clock), then the vessels' AIS positions and
// predicted arrivals. Sent every few seconds by the schedule (workers/jobs.ts), at most once per slot in all workers.
import { z } from 'zod';
import type { JobDefinition } from './queue.js';

export const TRACKING_SWEEP_JOB = 'tracking.sweep';

export function trackingSweepJob(
  engine: { runDue(): Promise<unknown> },
  vessels: { gatherPositions(): Promise<unknown>; predictArrivals(): Promise<unknown> },
): JobDefinition<Record<string, never>> {
  return {
    name: TRACKING_SWEEP_JOB,
    schema: z.object({}).strict() as z.ZodType<Record<string, never>>,
    retryLimit: 1,
    async handler() {
      await engine.runDue();
      await vessels.gatherPositions();
      await vessels.predictArrivals();
    },
  };
}
