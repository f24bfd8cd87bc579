// An attempt at a tracking request: pick the carrier, find (or make) the shared tracked shipment, reuse what another
// account's tracking fetched a moment ago or fetch now, and start the account following it — its shipment, its
// baseline (containers created, history stored, nothing else announced), the custom-field values staged with the
// request and `tracking_request.succeeded`.
import { readStoredState } from '../../tracking/stored.js';
import type { Account } from '../../domain/account.js';
import { newId } from '../../lib/ids.js';
import type { Queryable } from '../../storage/db.js';
import { findAccountById } from '../../storage/repositories/accounts.js';
import * as requests from '../../storage/repositories/tracking-requests.js';
import * as repo from '../../storage/repositories/tracking.js';
import type { DomainEvent, StoredState } from '../../tracking/changes.js';
import { inferNumber } from '../../tracking/infer-number.js';
import { decideAfterSourceError } from '../../tracking/schedule.js';
import type { ShipmentSnapshot } from '../../tracking/snapshot.js';
import { isoSeconds } from '../../lib/dates.js';
import { FREE_PLAN_CONTAINER_CAP } from '../tracking-requests.js';
import { recordAccountEvent } from './account-events.js';
import { shipmentColumns, writeAccountShipments } from './account-shipments.js';
import { commitRefreshes } from './commit.js';
import { type EngineContext, FRESH_ENOUGH_MS, leaseUntil } from './context.js';
import { gather, type RefreshFindings } from './gather.js';
import { applyInitialCustomFields } from './initial-custom-fields.js';
import { attemptAgainSoon, attemptState, finishAttempt } from './request-outcome.js';
import { recordHealth } from './source-health.js';
import { stopAccountShipment } from './stop-resume.js';

/** A claimed request on its way to its transaction, with the tracked shipment it asks for. */
interface RequestAttempt {
  req: requests.TrackingRequestRecord;
  account: Account;
  scac: string;
  tracked: repo.TrackedShipmentRow;
  /** The tracked shipment as this attempt claimed it to fetch; undefined when it reuses what is stored. */
  claimed: repo.TrackedShipmentRow | undefined;
  /** What this attempt's fetch found; null when it reuses what is stored. */
  findings: RefreshFindings | null;
}

/** One attempt at a tracking request, when one is due and nobody else holds it; false otherwise. */
export async function attempt(ctx: EngineContext, trackingRequestId: string, worldNow: Date): Promise<boolean> {
  const wall = ctx.clocks.wall.now();
  const req = await requests.claimTrackingRequest(ctx.db, trackingRequestId, wall, leaseUntil(wall));
  if (!req) return false;
  try {
    await attemptClaimed(ctx, req, worldNow);
  } catch (err) {
    ctx.log?.error({ err, tracking_request_id: req.id }, 'tracking request attempt failed');
    // An error of ours, not the source's: count it as a temporary failure so the request is not stuck.
    await ctx.db.transaction((tx) =>
      finishAttempt(ctx, tx, req, decideAfterSourceError('unavailable', attemptState(req), worldNow), worldNow, req.scac),
    );
  }
  return true;
}

async function attemptClaimed(ctx: EngineContext, req: requests.TrackingRequestRecord, worldNow: Date): Promise<void> {
  const account = await findAccountById(ctx.db, req.account_id);
  if (!account) return;
  const scac = req.scac || detectScac(ctx, account, req.request_number);
  if (!scac) {
    await ctx.db.transaction((tx) =>
      finishAttempt(ctx, tx, req, { status: 'failed', failedReason: 'scac_auto_detect_failed' }, worldNow, ''),
    );
    return;
  }
  const source = ctx.registry().carrier(scac);
  if (!source) {
    const decision = decideAfterSourceError('unavailable', attemptState(req), worldNow);
    await ctx.db.transaction((tx) => finishAttempt(ctx, tx, req, decision, worldNow, scac));
    return;
  }
  const tracked = await repo.ensureTrackedShipment(
    ctx.db,
    { id: newId(), scac, numberType: req.request_type, number: req.request_number },
    ctx.clocks.wall.now(),
  );
  const duplicate = await repo.findAccountShipmentFor(ctx.db, req.account_id, tracked.id, req.request_type, req.request_number, scac);
  if (duplicate) {
    await ctx.db.transaction((tx) =>
      finishAttempt(ctx, tx, req, { status: 'failed', failedReason: 'duplicate' }, worldNow, scac, duplicate.id),
    );
    return;
  }

  // Reuse what another account's tracking fetched a moment ago; else fetch now (and refresh for everyone).
  const fresh = freshEnough(tracked, worldNow);
  let findings: RefreshFindings | null = null;
  let claimed: repo.TrackedShipmentRow | undefined;
  if (!fresh) {
    const wall = ctx.clocks.wall.now();
    claimed = await repo.claimTrackedShipment(ctx.db, tracked.id, wall, leaseUntil(wall), { activeOnly: false });
    if (!claimed) {
      // Another worker is refreshing it right now.
      await attemptAgainSoon(ctx, ctx.db, req, worldNow);
      return;
    }
    findings = await gather(ctx, claimed, worldNow, { forceLine: true });
  }

  await ctx.db.transaction((tx) => followInTransaction(ctx, tx, { req, account, scac, tracked, claimed, findings }, worldNow));
  if (findings) await recordHealth(ctx, findings.asked);
}

/** The attempt's transaction: its fetch committed (if any), then the account follows the tracked shipment or fails. */
async function followInTransaction(ctx: EngineContext, tx: Queryable, a: RequestAttempt, worldNow: Date): Promise<void> {
  const { req, account, scac, tracked, claimed, findings } = a;
  if (claimed && findings) {
    await commitRefreshes(ctx, tx, [{ tracked: claimed, findings, firstFetchForRequest: true }], worldNow);
    if (findings.carrierError) {
      const err = findings.carrierError;
      await finishAttempt(
        ctx,
        tx,
        req,
        decideAfterSourceError(err.kind, attemptState(req), worldNow, err.details.retryAfterSeconds),
        worldNow,
        scac,
      );
      return;
    }
  }
  // Reusing: `tracked` was read before this transaction, and a refresh committing since projects onto every
  // follower but this new one. Under a share lock, either that refresh has committed (its state is read here)
  // or it waits to write the row until this shipment is committed; this relies on commitRefreshes writing the
  // row before it reads the followers. Claimed: this transaction has just written the row itself.
  const current = (await repo.lockTrackedShipment(tx, tracked.id)) ?? tracked;
  if (!claimed && !freshEnough(current, worldNow)) {
    // A refresh stopped it meanwhile (nobody followed it, or it ended), so none would reach this shipment:
    // the next attempt fetches.
    await attemptAgainSoon(ctx, tx, req, worldNow);
    return;
  }
  const state = findings ? findings.state : readStoredState(current.state);
  if (!state?.shipment) {
    await finishAttempt(ctx, tx, req, { status: 'failed', failedReason: 'data_unavailable' }, worldNow, scac);
    return;
  }
  if (account.plan === 'free') {
    const active = await requests.countActiveContainers(tx, account.id);
    if (active + state.containers.length > FREE_PLAN_CONTAINER_CAP) {
      await finishAttempt(ctx, tx, req, { status: 'failed', failedReason: 'plan_limit_reached' }, worldNow, scac);
      return;
    }
  }
  await startFollowing(ctx, tx, a, current, state, state.shipment, worldNow);
}

/** The account's new shipment, its baseline, the request's success, and a stop when the journey is already over. */
async function startFollowing(
  ctx: EngineContext,
  tx: Queryable,
  { req, account, scac, tracked }: RequestAttempt,
  current: repo.TrackedShipmentRow,
  state: StoredState,
  shipment: ShipmentSnapshot,
  worldNow: Date,
): Promise<void> {
  const shipmentId = newId();
  await repo.insertTrackedAccountShipment(
    tx,
    {
      id: shipmentId,
      account_id: account.id,
      tracked_shipment_id: tracked.id,
      customer_id: req.customer_id,
      request_number: req.request_number,
      ref_numbers: req.ref_numbers,
      tags: req.shipment_tags,
      created_at: ctx.clocks.wall.now(),
    },
    shipmentColumns(shipment, current, req.request_number),
  );
  // The first snapshot is the account's baseline: its containers are created, history is stored, and
  // nothing else is announced.
  const baseline: DomainEvent[] = state.containers.map((c) => ({
    type: 'container.created',
    container_number: c.number,
    timestamp: isoSeconds(worldNow.getTime()),
    timezone: null,
  }));
  await writeAccountShipments(
    ctx,
    tx,
    [
      {
        shipment: { id: shipmentId, account_id: account.id, features: account.features },
        state,
        events: baseline,
        tracked: current,
        previous: null,
      },
    ],
    worldNow,
  );
  // The shipment and its containers exist now: the values staged with the request go on them, in this transaction.
  await applyInitialCustomFields(ctx, tx, req, shipmentId);
  const done = await finishAttempt(ctx, tx, req, null, worldNow, scac, shipmentId);
  await recordAccountEvent(ctx, tx, account.id, 'tracking_request.succeeded', worldNow, {
    tracking_request_id: done.id,
    shipment_id: shipmentId,
    payload: { tracking_request_id: done.id, shipment_id: shipmentId },
  });
  // A journey already over (this attempt's fetch found it so): stopped like every other follower, else it
  // would wait for refreshes of a tracked shipment that no longer gets any.
  if (!current.active && current.stopped_reason) {
    await stopAccountShipment(ctx, tx, { id: shipmentId, account_id: account.id }, current.stopped_reason, worldNow, false);
  }
}

/** Whether a new account's attempt may reuse what the tracked shipment holds instead of fetching. */
function freshEnough(tracked: repo.TrackedShipmentRow, worldNow: Date): boolean {
  return (
    tracked.state !== null &&
    tracked.active &&
    tracked.line_last_succeeded_at !== null &&
    worldNow.getTime() - tracked.line_last_succeeded_at.getTime() < FRESH_ENOUGH_MS
  );
}

/** The carrier auto-detection picks for a number (bill of lading prefix, container owner prefix), if any. */
function detectScac(ctx: EngineContext, account: Account, number: string): string | null {
  const visible = new Set(ctx.shippingLines.list(account).map((c) => c.scac));
  const inference = inferNumber(number, { isVisible: (scac) => visible.has(scac) });
  if (!inference || inference.shippingLine.decision === 'no_prediction') return null;
  return inference.shippingLine.selected?.scac ?? null;
}
