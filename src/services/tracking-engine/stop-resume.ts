// Stopping and resuming an account's tracking: by the user (stop_tracking / resume_tracking) or, for every
// follower, when a refresh finds the journey over (auto-stop). Its requests become `tracking_stopped` with the event.
import { readStoredState } from '../../tracking/stored.js';
import * as requests from '../../storage/repositories/tracking-requests.js';
import { findAccountById } from '../../storage/repositories/accounts.js';
import type { Queryable } from '../../storage/db.js';
import * as repo from '../../storage/repositories/tracking.js';
import { recordAccountEvent } from './account-events.js';
import { writeAccountShipments } from './account-shipments.js';
import type { EngineContext } from './context.js';

/**
 * Stops tracking an account's shipment at the user's request (`cancelled_by_user`); its requests become
 * `tracking_stopped`. Undefined when the account has no such shipment; a stopped one stays as it is.
 */
export async function stopTracking(ctx: EngineContext, accountId: string, shipmentId: string): Promise<{ id: string } | undefined> {
  const worldNow = ctx.clocks.world.now();
  return ctx.db.transaction(async (tx) => {
    const shipment = await repo.findAccountShipment(tx, accountId, shipmentId);
    if (!shipment) return undefined;
    if (!shipment.line_tracking_stopped_at) await stopAccountShipment(ctx, tx, shipment, 'cancelled_by_user', worldNow, true);
    return { id: shipment.id };
  });
}

/** Resumes a stopped shipment: its requests are `created` again and its sources are asked at once. */
export async function resumeTracking(ctx: EngineContext, accountId: string, shipmentId: string): Promise<{ id: string } | undefined> {
  const worldNow = ctx.clocks.world.now();
  const wall = ctx.clocks.wall.now();
  return ctx.db.transaction(async (tx) => {
    const shipment = await repo.findAccountShipment(tx, accountId, shipmentId);
    if (!shipment) return undefined;
    if (shipment.line_tracking_stopped_at) {
      await repo.resumeShipment(tx, shipment.id, worldNow, wall);
      await requests.setStatusForShipment(tx, shipment.id, 'tracking_stopped', 'created', wall);
      if (shipment.tracked_shipment_id) {
        await repo.reactivateTrackedShipment(tx, shipment.tracked_shipment_id, worldNow, wall);
        // Catch up silently on what changed while it was stopped; the next refresh announces what is new. Read
        // after the update above, which holds the row's lock: a refresh has committed, or projects onto this
        // shipment too once this commits.
        const tracked = await repo.findTrackedShipment(tx, shipment.tracked_shipment_id);
        const state = readStoredState(tracked?.state);
        if (tracked && state?.shipment) {
          const account = await findAccountById(tx, accountId);
          await writeAccountShipments(
            ctx,
            tx,
            [{ shipment: { ...shipment, features: account?.features ?? [] }, state, events: [], tracked, previous: null }],
            worldNow,
          );
        }
      }
    }
    return { id: shipment.id };
  });
}

/** Stops one account's shipment: its requests become `tracking_stopped`, with the event. */
export async function stopAccountShipment(
  ctx: EngineContext,
  tx: Queryable,
  shipment: { id: string; account_id: string },
  reason: string,
  worldNow: Date,
  byUser: boolean,
): Promise<void> {
  const wall = ctx.clocks.wall.now();
  await repo.stopShipment(tx, shipment.id, reason, worldNow, byUser, wall);
  for (const r of await requests.setStatusForShipment(tx, shipment.id, 'created', 'tracking_stopped', wall)) {
    await recordAccountEvent(ctx, tx, shipment.account_id, 'tracking_request.tracking_stopped', worldNow, {
      tracking_request_id: r.id,
      shipment_id: shipment.id,
      payload: { tracking_request_id: r.id, shipment_id: shipment.id, reason },
    });
  }
}
