// On-demand refreshes (`PATCH /v2/containers/{id}/refresh`): queued as rows in `container_refreshes` with one job
// each, served in turns across accounts by the refresh job, one forced refresh for every request of a shipment.
import * as refreshes from '../../storage/repositories/refreshes.js';
import * as repo from '../../storage/repositories/tracking.js';
import { type EngineContext, HELD_RETRY_MS, LEASE_MS, REFRESH_REQUEST_ATTEMPTS, TRACKING_REFRESH_JOB } from './context.js';
import { refreshNow } from './refresh.js';

/**
 * Queues an immediate pull from line, terminal and rail for the shipment of an account's container: a row in
 * `container_refreshes` and, in the same transaction, one refresh job. A container whose refresh waits already
 * (or is being served) gets nothing more: the answer is the same, no second job. Undefined when the account has
 * no such container; a container whose tracking stopped is not refreshed (the answer is the same too).
 */
export async function requestContainerRefresh(
  ctx: EngineContext,
  accountId: string,
  containerId: string,
): Promise<{ trackedShipmentId: string | null } | undefined> {
  const wall = ctx.clocks.wall.now();
  return ctx.db.transaction(async (tx) => {
    const found = await repo.findAccountContainerTracking(tx, accountId, containerId);
    if (!found) return undefined;
    if (found.tracked_shipment_id && !found.line_tracking_stopped_at) {
      const added = await refreshes.requestContainerRefresh(tx, {
        containerId,
        accountId,
        trackedShipmentId: found.tracked_shipment_id,
        requestedAt: wall,
      });
      // Jobs are not tied to rows (each serves the fairest waiting one), so one job per row waiting is enough.
      if (added) await ctx.jobs.enqueue(tx, TRACKING_REFRESH_JOB, {});
    }
    return { trackedShipmentId: found.tracked_shipment_id };
  });
}

/**
 * One refresh job's work (`jobId`: the job's id, the same on pg-boss's retries). Serves the on-demand refresh
 * whose turn it is: the oldest waiting request of the account served longest ago, so that accounts take turns
 * however many requests one of them queued, with every other request for the same tracked shipment (one forced
 * refresh serves them all). The requests are deleted once that refresh has committed; until then the job holds
 * them, and a retry of a job that died holding them takes them back, so a crash loses none. When the shipment is
 * being refreshed by another worker, the requests are given back and a job comes back for them shortly; when
 * the refresh fails, they are given back with a failure counted (given up after REFRESH_REQUEST_ATTEMPTS) and a
 * job comes back for them. What it did: `none` when no request was free.
 */
export async function serveContainerRefresh(
  ctx: EngineContext,
  jobId: string,
): Promise<'refreshed' | 'stopped' | 'held' | 'failed' | 'none'> {
  const wall = ctx.clocks.wall.now();
  const taken = await ctx.db.transaction((tx) => refreshes.takeContainerRefreshes(tx, jobId, wall, new Date(wall.getTime() + LEASE_MS)));
  if (taken.length === 0) return 'none';
  const trackedId = taken[0]!.tracked_shipment_id;
  let outcome: 'refreshed' | 'inactive' | 'held';
  try {
    outcome = await refreshNow(ctx, trackedId, { force: true });
  } catch {
    // refreshNow logged it. Given back, the job that comes back tries again.
    await giveBackFailed(ctx, jobId, wall);
    return 'failed';
  }
  if (outcome === 'held') {
    const until = new Date(wall.getTime() + HELD_RETRY_MS);
    await ctx.db.transaction(async (tx) => {
      await refreshes.releaseContainerRefreshes(tx, jobId, { failed: false, giveUpAfter: REFRESH_REQUEST_ATTEMPTS });
      await ctx.jobs.enqueue(tx, TRACKING_REFRESH_JOB, {}, { startAfter: until });
    });
    return 'held';
  }
  // Refreshed, or its tracking stopped meanwhile (nothing left to refresh): either way the requests are done.
  await refreshes.finishContainerRefreshes(ctx.db, jobId);
  return outcome === 'refreshed' ? 'refreshed' : 'stopped';
}

/** Gives the job's requests back with a failure counted, a job to come back for them, and logs those given up. */
async function giveBackFailed(ctx: EngineContext, jobId: string, wall: Date): Promise<void> {
  const givenUp = await ctx.db.transaction(async (tx) => {
    const { released, givenUp } = await refreshes.releaseContainerRefreshes(tx, jobId, {
      failed: true,
      giveUpAfter: REFRESH_REQUEST_ATTEMPTS,
    });
    if (released > 0) await ctx.jobs.enqueue(tx, TRACKING_REFRESH_JOB, {}, { startAfter: new Date(wall.getTime() + HELD_RETRY_MS) });
    return givenUp;
  });
  for (const r of givenUp) {
    ctx.log?.error(
      { container_id: r.container_id, account_id: r.account_id, tracked_shipment_id: r.tracked_shipment_id, failures: r.failures },
      'on-demand refresh given up after repeated failures',
    );
  }
}
