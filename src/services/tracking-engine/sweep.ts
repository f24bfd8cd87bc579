// The sweep: everything due at a world time — tracking-request attempts, then due tracked shipments refreshed in
// batches (claimed in one statement, fetched side by side, committed together), REFRESH_LANES batches at once.
import * as requests from '../../storage/repositories/tracking-requests.js';
import * as repo from '../../storage/repositories/tracking.js';
import { attempt } from './attempt.js';
import { commitRefreshes, type RefreshToCommit } from './commit.js';
import { type EngineContext, LEASE_MS, REFRESH_BATCH, REFRESH_LANES } from './context.js';
import { gatherAll, type RefreshFindings } from './gather.js';
import { recordHealth } from './source-health.js';

/**
 * Runs everything due at `worldNow`: tracking-request attempts and tracked-shipment refreshes, the most overdue
 * first. Returns how many it handled.
 */
export async function runDue(ctx: EngineContext, worldNow: Date, limit: number): Promise<number> {
  let handled = 0;
  const wall = ctx.clocks.wall.now();
  for (const id of await requests.dueTrackingRequests(ctx.db, worldNow, wall, limit)) {
    if (await attempt(ctx, id, worldNow)) handled++;
  }
  return handled + (await refreshDue(ctx, worldNow, limit));
}

/**
 * Refreshes up to `limit` due tracked shipments in batches, REFRESH_LANES at once. Each batch is claimed in one
 * statement (leases, skipping what other workers hold), fetched side by side and committed in one
 * transaction; when that commit fails, each refresh of the batch is committed alone, so one bad item holds
 * back no other. Items that fail are released (due again) and the first failure is thrown at the end.
 */
async function refreshDue(ctx: EngineContext, worldNow: Date, limit: number): Promise<number> {
  let left = limit;
  let handled = 0;
  const failures: unknown[] = [];
  const lane = async () => {
    for (;;) {
      const take = Math.min(REFRESH_BATCH, left);
      if (take <= 0) return;
      left -= take;
      const wall = ctx.clocks.wall.now();
      const claimed = await repo.claimDueTrackedShipments(ctx.db, worldNow, wall, new Date(wall.getTime() + LEASE_MS), take);
      left += take - claimed.length;
      if (claimed.length === 0) return;
      const committed = await refreshClaimed(ctx, claimed, worldNow, failures);
      handled += committed;
    }
  };
  await Promise.all(Array.from({ length: REFRESH_LANES }, lane));
  if (failures.length > 0) throw failures[0];
  return handled;
}

/** Gathers and commits claimed tracked shipments (see refreshDue); returns how many were committed. */
async function refreshClaimed(
  ctx: EngineContext,
  claimed: repo.TrackedShipmentRow[],
  worldNow: Date,
  failures: unknown[],
): Promise<number> {
  const failed = async (tracked: repo.TrackedShipmentRow, err: unknown) => {
    ctx.log?.error({ err, tracked_shipment_id: tracked.id }, 'refresh failed');
    failures.push(err);
    await repo.releaseTrackedShipment(ctx.db, tracked.id, tracked.lease_until);
  };
  let gathered: (RefreshFindings | { failed: unknown })[];
  try {
    gathered = await gatherAll(ctx, claimed, worldNow, {});
  } catch (err) {
    for (const tracked of claimed) await failed(tracked, err);
    return 0;
  }
  const refreshes: RefreshToCommit[] = [];
  for (const [i, result] of gathered.entries()) {
    if ('failed' in result) await failed(claimed[i]!, result.failed);
    else refreshes.push({ tracked: claimed[i]!, findings: result });
  }
  if (refreshes.length === 0) return 0;
  const committed = await commitBatchOrEach(ctx, refreshes, worldNow, failed);
  // The sources answered, whatever became of the commit.
  await recordHealth(
    ctx,
    refreshes.flatMap((r) => r.findings.asked),
  ).catch((err: unknown) => {
    ctx.log?.error({ err }, 'recording source health failed');
    failures.push(err);
  });
  return committed;
}

/** Commits the batch in one transaction; when that fails, each refresh alone. Returns how many were committed. */
async function commitBatchOrEach(
  ctx: EngineContext,
  refreshes: readonly RefreshToCommit[],
  worldNow: Date,
  failed: (tracked: repo.TrackedShipmentRow, err: unknown) => Promise<void>,
): Promise<number> {
  let committed = 0;
  try {
    await ctx.db.transaction((tx) => commitRefreshes(ctx, tx, refreshes, worldNow));
    committed = refreshes.length;
  } catch (err) {
    if (refreshes.length === 1) await failed(refreshes[0]!.tracked, err);
    else {
      for (const refresh of refreshes) {
        try {
          await ctx.db.transaction((tx) => commitRefreshes(ctx, tx, [refresh], worldNow));
          committed++;
        } catch (err) {
          await failed(refresh.tracked, err);
        }
      }
    }
  }
  return committed;
}
