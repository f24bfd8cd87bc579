// Refreshing one tracked shipment now (a forced or on-demand refresh): claim it, gather, commit, record health.
import * as repo from '../../storage/repositories/tracking.js';
import { commitRefreshes } from './commit.js';
import { type EngineContext, leaseUntil } from './context.js';
import { gather } from './gather.js';
import { recordHealth } from './source-health.js';

/** What a refresh did: `held` by another worker, or `inactive` (stopped, or gone). */
export type RefreshResult = 'refreshed' | 'held' | 'inactive';

/**
 * Refreshes a tracked shipment now: asks the sources that are due (all of them with `force`), commits the
 * changes for every account following it. A failure is logged, the lease released, and thrown.
 */
export async function refreshNow(
  ctx: EngineContext,
  trackedId: string,
  opts: { worldNow?: Date; force?: boolean },
): Promise<RefreshResult> {
  const worldNow = opts.worldNow ?? ctx.clocks.world.now();
  const wall = ctx.clocks.wall.now();
  const tracked = await repo.claimTrackedShipment(ctx.db, trackedId, wall, leaseUntil(wall), { activeOnly: true });
  if (!tracked) return (await repo.findTrackedShipment(ctx.db, trackedId))?.active ? 'held' : 'inactive';
  try {
    const findings = await gather(ctx, tracked, worldNow, { forceLine: opts.force ?? false, forceYard: opts.force ?? false });
    await ctx.db.transaction((tx) => commitRefreshes(ctx, tx, [{ tracked, findings }], worldNow));
    await recordHealth(ctx, findings.asked);
  } catch (err) {
    ctx.log?.error({ err, tracked_shipment_id: trackedId }, 'refresh failed');
    await repo.releaseTrackedShipment(ctx.db, trackedId, tracked.lease_until);
    throw err;
  }
  return 'refreshed';
}
