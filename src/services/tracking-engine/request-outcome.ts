// Recording the outcome of an attempt at a tracking request: created, failed, awaiting the manifest or asked again
// later, with the request event it calls for (`tracking_request.failed`, `.awaiting_manifest`).
import type { Queryable } from '../../storage/db.js';
import * as requests from '../../storage/repositories/tracking-requests.js';
import type { AttemptDecision } from '../../tracking/schedule.js';
import { recordAccountEvent } from './account-events.js';
import type { EngineContext } from './context.js';

/** Records an attempt's outcome (null decision: created) and the request event it calls for. */
export async function finishAttempt(
  ctx: EngineContext,
  tx: Queryable,
  req: requests.TrackingRequestRecord,
  decision: AttemptDecision | null,
  worldNow: Date,
  scac: string,
  shipmentId: string | null = null,
): Promise<requests.TrackingRequestRecord> {
  const outcome = requestOutcome(req, decision, scac, shipmentId);
  const done = await requests.finishAttempt(tx, req.id, outcome, ctx.clocks.wall.now());
  const event =
    outcome.status === 'failed'
      ? 'tracking_request.failed'
      : outcome.status === 'awaiting_manifest' && req.status !== 'awaiting_manifest'
        ? 'tracking_request.awaiting_manifest'
        : null;
  if (event) {
    await recordAccountEvent(ctx, tx, req.account_id, event, worldNow, {
      tracking_request_id: req.id,
      shipment_id: shipmentId,
      payload: { tracking_request_id: req.id, status: outcome.status, failed_reason: outcome.failed_reason },
    });
  }
  return done;
}

/** The request's new columns for a decision (null: created, following `shipmentId`). */
function requestOutcome(
  req: requests.TrackingRequestRecord,
  decision: AttemptDecision | null,
  scac: string,
  shipmentId: string | null,
): requests.RequestOutcome {
  return decision === null
    ? {
        status: 'created',
        failed_reason: null,
        is_retrying: false,
        retry_count: req.retry_count,
        next_attempt_at: null,
        awaiting_since: req.awaiting_since,
        shipment_id: shipmentId,
        scac,
      }
    : decision.status === 'failed'
      ? {
          status: 'failed',
          failed_reason: decision.failedReason,
          is_retrying: false,
          retry_count: req.retry_count,
          next_attempt_at: null,
          awaiting_since: req.awaiting_since,
          shipment_id: shipmentId,
          scac,
        }
      : decision.status === 'awaiting_manifest'
        ? {
            status: 'awaiting_manifest',
            failed_reason: decision.failedReason,
            // Asked again daily until it is manifested or expires (docs/tracking.md): it is being retried.
            is_retrying: true,
            retry_count: req.retry_count,
            next_attempt_at: decision.nextAttemptAt,
            awaiting_since: decision.awaitingSince,
            shipment_id: null,
            scac,
          }
        : {
            status: 'pending',
            failed_reason: decision.failedReason,
            is_retrying: true,
            retry_count: decision.retryCount,
            next_attempt_at: decision.nextAttemptAt,
            awaiting_since: req.awaiting_since,
            shipment_id: null,
            scac,
          };
}

/** What the retry rules need to know about the request's attempts so far. */
export function attemptState(req: requests.TrackingRequestRecord) {
  return { retryCount: req.retry_count ?? 0, awaitingSince: req.awaiting_since };
}

/** Leaves the request as it is, to be attempted again in a minute (domain time). */
export async function attemptAgainSoon(
  ctx: EngineContext,
  q: Queryable,
  req: requests.TrackingRequestRecord,
  worldNow: Date,
): Promise<void> {
  const next: requests.RequestOutcome = {
    status: req.status,
    failed_reason: req.failed_reason,
    is_retrying: req.is_retrying,
    retry_count: req.retry_count,
    next_attempt_at: new Date(worldNow.getTime() + 60_000),
    awaiting_since: req.awaiting_since,
    shipment_id: req.shipment_id,
    scac: req.scac,
  };
  await requests.finishAttempt(q, req.id, next, ctx.clocks.wall.now());
}
