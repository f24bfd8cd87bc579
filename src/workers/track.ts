// tracking.attempt: one attempt of a tracking request, enqueued with the request in its transaction
// (TrackingRequestService.create). Failures of the source are the engine's to schedule (retry_at, domain time);
// a failure of Tidemark's own (the database gone) fails the job, and pg-boss retries it.
import { z } from 'zod';
import { TRACKING_ATTEMPT_JOB } from '../services/tracking-requests.js';
import type { JobDefinition } from './queue.js';

export function trackJob(engine: { attempt(trackingRequestId: string): Promise<unknown> }): JobDefinition<{ trackingRequestId: string }> {
  return {
    name: TRACKING_ATTEMPT_JOB,
    schema: z.object({ trackingRequestId: z.uuid() }).strict(),
    retryLimit: 5,
    async handler(data) {
      await engine.attempt(data.trackingRequestId);
    },
  };
}
