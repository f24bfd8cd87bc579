// tracking.refresh: on-demand refreshes (PATCH /v2/containers/{id}/refresh, decision 0011). Each job serves the
// waiting request whose turn it is (accounts take turns), and a retry after a crash takes back what the job held
// (TrackingEngine.serveContainerRefresh). A job queued before the requests were kept in their own table names its
// tracked shipment, refreshed as it was then.
import { z } from 'zod';
import { TRACKING_REFRESH_JOB } from '../services/tracking-engine.js';
import type { JobDefinition } from './queue.js';

export function refreshJob(engine: {
  refresh(trackedShipmentId: string, opts: { force: boolean }): Promise<unknown>;
  serveContainerRefresh(jobId: string): Promise<unknown>;
}): JobDefinition<{ trackedShipmentId?: string | undefined }> {
  return {
    name: TRACKING_REFRESH_JOB,
    schema: z.object({ trackedShipmentId: z.uuid().optional() }).strict(),
    async handler(data, ctx) {
      if (data.trackedShipmentId) await engine.refresh(data.trackedShipmentId, { force: true });
      else await engine.serveContainerRefresh(ctx.jobId);
    },
  };
}
