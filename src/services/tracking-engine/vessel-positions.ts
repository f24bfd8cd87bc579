// Applying new AIS positions of vessels to the shipments they carry, without asking any source: the AIS-only
// refresh (its port calls become transport events, merged with the line's; schedules are left as they are).
import { readStoredState } from '../../tracking/stored.js';
import * as repo from '../../storage/repositories/tracking.js';
import { detectChanges, } from '../../tracking/changes.js';
import { normalize } from '../../tracking/normalize.js';
import { aisTrackInputs } from './ais-track.js';
import { commitRefreshes } from './commit.js';
import { ALL_FEATURES, type EngineContext, leaseUntil } from './context.js';
import type { RefreshFindings } from './gather.js';

/**
 * Applies new AIS positions of these vessels (IMO numbers) to the actively tracked shipments they carry to
 * their POD, without asking any source: AIS port calls become transport events (`data_source: ais`) and
 * their webhooks, merged with the line's by the engine's precedence rules. Schedules are left as they are.
 * Shipments another worker holds are skipped (its refresh reads the same positions). Returns how many changed.
 */
export async function applyVesselPositions(ctx: EngineContext, imos: readonly string[], worldNow: Date): Promise<number> {
  if (imos.length === 0) return 0;
  let changed = 0;
  for (const id of await repo.trackedShipmentsOnVessels(ctx.db, imos)) {
    const wall = ctx.clocks.wall.now();
    const tracked = await repo.claimTrackedShipment(ctx.db, id, wall, leaseUntil(wall), { activeOnly: true });
    if (!tracked) continue;
    try {
      if (await applyToClaimed(ctx, tracked, worldNow)) changed++;
    } catch (err) {
      ctx.log?.error({ err, tracked_shipment_id: id }, 'applying AIS positions failed');
      await repo.releaseTrackedShipment(ctx.db, id, tracked.lease_until);
    }
  }
  return changed;
}

/** The AIS-only refresh of one claimed tracked shipment; false (and released) when the track changes nothing. */
async function applyToClaimed(ctx: EngineContext, tracked: repo.TrackedShipmentRow, worldNow: Date): Promise<boolean> {
  const id = tracked.id;
  const previous = readStoredState(tracked.state);
  const [ais] = await aisTrackInputs(ctx.db, [previous?.shipment ? previous : null], worldNow);
  if (!previous || !ais) {
    await repo.releaseTrackedShipment(ctx.db, id, tracked.lease_until);
    return false;
  }
  const { events, state } = detectChanges(previous, normalize({ carrier: null, terminals: [], rail: [], ais }, { worldNow }), {
    worldNow,
    accountFeatures: ALL_FEATURES,
  });
  if (JSON.stringify(state) === JSON.stringify(previous)) {
    await repo.releaseTrackedShipment(ctx.db, id, tracked.lease_until);
    return false;
  }
  const findings: RefreshFindings = {
    observations: [],
    asked: [],
    carrier: null,
    carrierError: null,
    terminalAsked: false,
    railAsked: false,
    railScac: tracked.rail_scac,
    state,
    events,
  };
  await ctx.db.transaction((tx) => commitRefreshes(ctx, tx, [{ tracked, findings, keepSchedule: true }], worldNow));
  return true;
}
