// Committing refreshes (one, or a batch together) in the caller's transaction: raw observations, the tracked
// shipments' new state and schedule, the vessels they name, every following account's projection and events,
// and auto-stops. A few multi-row statements whatever the number of refreshes.
import { readStoredState } from '../../tracking/stored.js';
import { newId } from '../../lib/ids.js';
import type { Queryable } from '../../storage/db.js';
import * as repo from '../../storage/repositories/tracking.js';
import { findVesselsByImos, rememberVessels } from '../../storage/repositories/vessels.js';
import type { StopReason } from '../../tracking/schedule.js';
import { vesselsNamedIn } from '../vessels.js';
import { type AccountShipmentWrite, writeAccountShipments } from './account-shipments.js';
import type { EngineContext } from './context.js';
import type { RefreshFindings } from './gather.js';
import { type ScheduledUpdate, scheduleAfterRefresh } from './schedule.js';
import { stopAccountShipment } from './stop-resume.js';

/** One tracked shipment's refresh, ready to commit (was the engine's `Unit`). */
export interface RefreshToCommit {
  tracked: repo.TrackedShipmentRow;
  findings: RefreshFindings;
  /** A new request's first fetch: nobody follows the tracked shipment yet, which must not deactivate it. */
  firstFetchForRequest?: boolean;
  /** An AIS-only update: nothing was asked, so the schedule stays as it is. */
  keepSchedule?: boolean;
}

/** A refresh with its tracked shipment's new columns and its auto-stop reason. */
type PlannedRefresh = RefreshToCommit & { update: ScheduledUpdate; stop: StopReason | null };

/**
 * Writes refreshes (one, or a batch committed together): observations, state, schedule, every account's
 * projection and events, auto-stop. A few multi-row statements whatever the number of refreshes. The
 * sources' health is the caller's to record once this has committed (source-health.ts).
 */
export async function commitRefreshes(
  ctx: EngineContext,
  tx: Queryable,
  refreshes: readonly RefreshToCommit[],
  worldNow: Date,
): Promise<void> {
  const wall = ctx.clocks.wall.now();
  await keepObservations(tx, refreshes);
  const planned: PlannedRefresh[] = refreshes.map((r) => ({
    ...r,
    ...scheduleAfterRefresh(r.tracked, r.findings, r.keepSchedule ?? false, worldNow),
  }));
  const saved = new Set(
    await repo.saveTrackedShipments(
      tx,
      planned.map((p) => ({ id: p.tracked.id, lease_until: p.tracked.lease_until, ...p.update })),
      wall,
    ),
  );
  const lost = planned.filter((p) => !saved.has(p.tracked.id)).map((p) => p.tracked.id);
  if (lost.length > 0) throw new Error(`the lease on tracked shipment ${lost.join(', ')} ran out and another worker took it over`);
  await rememberNamedVessels(tx, planned, wall);

  // The rows are written before the followers are read, and must be: an attempt reusing a tracked shipment's
  // state (attempt.ts) holds a share lock on its row until its new shipment is committed, so that shipment is either
  // among the followers read here or reads the state written here.
  const followed = planned.flatMap((p) => (p.update.state?.shipment ? [{ ...p, state: p.update.state }] : []));
  const linked = await repo.activeLinkedShipmentsOf(
    tx,
    followed.map((p) => p.tracked.id),
  );
  const writes: AccountShipmentWrite[] = [];
  for (const p of followed) {
    const after = { ...p.tracked, ...p.update };
    for (const shipment of linked) {
      if (shipment.tracked_shipment_id !== p.tracked.id) continue;
      writes.push({
        shipment,
        state: p.state,
        events: p.findings.events,
        tracked: after,
        previous: readStoredState(p.tracked.state),
      });
    }
  }
  await writeAccountShipments(ctx, tx, writes, worldNow);
  for (const p of followed) {
    const mine = linked.filter((s) => s.tracked_shipment_id === p.tracked.id);
    if (p.stop) for (const shipment of mine) await stopAccountShipment(ctx, tx, shipment, p.stop, worldNow, false);
    // Nobody follows it any more (every account stopped): stop asking; a new request or a resume restarts it.
    if (mine.length === 0 && p.update.active && !p.firstFetchForRequest) await repo.deactivateTrackedShipment(tx, p.tracked.id, wall);
  }
}

/** Every answer the refreshes got, raw, with what was parsed from it. */
async function keepObservations(tx: Queryable, refreshes: readonly RefreshToCommit[]): Promise<void> {
  await repo.keepRawObservations(
    tx,
    refreshes.flatMap(({ tracked, findings }) =>
      findings.observations.map((o) => ({
        id: newId(),
        tracked_shipment_id: tracked.id,
        source_id: o.sourceId,
        target: o.target,
        payload: o.payload,
        payload_sha256: o.payloadSha256,
        facts: o.facts,
        fetched_at: o.fetchedAt,
      })),
    ),
  );
}

/**
 * Vessels are reference data: every vessel the carriers name gets its row (the AIS sweep locates them), and a
 * name they give replaces the stored one. Only rows that change are written: vessel rows are shared by every
 * refresh, and a written row stays locked until the commit.
 */
async function rememberNamedVessels(tx: Queryable, planned: readonly { update: ScheduledUpdate }[], wall: Date): Promise<void> {
  const named = new Map<string, { id: string; imo: string; name: string | null }>();
  for (const { update } of planned) {
    if (!update.state) continue;
    for (const v of vesselsNamedIn(update.state)) {
      const seen = named.get(v.imo);
      named.set(v.imo, seen && v.name === null ? seen : v);
    }
  }
  if (named.size === 0) return;
  const stored = new Map((await findVesselsByImos(tx, [...named.keys()])).map((v) => [v.imo, v.name]));
  const changed = [...named.values()]
    .filter((v) => !stored.has(v.imo) || (v.name !== null && stored.get(v.imo) !== v.name))
    .sort((a, b) => (a.imo < b.imo ? -1 : 1));
  await rememberVessels(tx, changed, wall);
}
