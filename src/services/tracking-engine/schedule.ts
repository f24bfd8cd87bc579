// A refresh's new schedule for its tracked shipment: when each source is asked next (src/tracking/schedule.ts
// by phase, the line's failures backing off, a source's Retry-After), what it last said, and whether it stops.
import type * as repo from '../../storage/repositories/tracking.js';
import { autoStopReason, nextChecks, type StopReason } from '../../tracking/schedule.js';
import type { StoredState } from '../../tracking/state.js';
import type { RefreshFindings } from './gather.js';

/** The row's new columns, with the state as the engine's type (storage keeps json columns `unknown`). */
export type ScheduledUpdate = Omit<repo.TrackedShipmentUpdate, 'state'> & { state: StoredState | null };

/**
 * A refresh's new schedule and state for its tracked shipment, and the auto-stop reason if it stops.
 * `keepSchedule`: nothing was asked (an AIS-only update), so the terminal and rail checks stay as they are.
 */
export function scheduleAfterRefresh(
  tracked: repo.TrackedShipmentRow,
  findings: RefreshFindings,
  keepSchedule: boolean,
  worldNow: Date,
): { update: ScheduledUpdate; stop: StopReason | null } {
  const failures = findings.carrierError ? tracked.line_consecutive_failures + 1 : findings.carrier ? 0 : tracked.line_consecutive_failures;
  const state = findings.state;
  const checks = nextChecks(state?.shipment ?? null, state?.containers ?? [], worldNow, failures);
  const lineAsked = findings.carrier !== null || findings.carrierError !== null;
  const lineChanged = findings.carrier !== null && findings.carrier.payloadSha256 !== tracked.line_last_payload_sha256;
  const retryAfterMs = (findings.carrierError?.details.retryAfterSeconds ?? 0) * 1000;
  const lineNext =
    lineAsked || tracked.line_next_check_at === null
      ? new Date(Math.max(checks.line.getTime(), worldNow.getTime() + retryAfterMs))
      : tracked.line_next_check_at;
  // Nothing was asked (an AIS-only update): a due check stays due.
  const keepOrNew = (asked: boolean, old: Date | null, fresh: Date | null) =>
    keepSchedule ? old : fresh === null ? null : asked || old === null || old.getTime() <= worldNow.getTime() ? fresh : old;
  const terminalNext = keepOrNew(findings.terminalAsked, tracked.terminal_next_check_at, checks.terminal);
  const railNext = keepOrNew(findings.railAsked, tracked.rail_next_check_at, checks.rail);
  const lineLastChangedAt = lineChanged ? worldNow : (tracked.line_last_changed_at ?? (findings.carrier ? worldNow : null));

  let stop: StopReason | null = null;
  if (findings.carrierError?.kind === 'cancelled' && state?.shipment) stop = 'booking_cancelled';
  else if (state?.shipment) stop = autoStopReason(state.shipment, state.containers, lineLastChangedAt, worldNow);

  const update: ScheduledUpdate = {
    state,
    rail_scac: findings.railScac,
    active: stop === null,
    stopped_reason: stop,
    next_check_at: stop
      ? null
      : new Date(Math.min(lineNext.getTime(), terminalNext?.getTime() ?? Infinity, railNext?.getTime() ?? Infinity)),
    line_next_check_at: lineNext,
    terminal_next_check_at: terminalNext,
    rail_next_check_at: railNext,
    line_last_payload_sha256: findings.carrier?.payloadSha256 ?? tracked.line_last_payload_sha256,
    line_last_attempted_at: lineAsked ? worldNow : tracked.line_last_attempted_at,
    line_last_succeeded_at: findings.carrier ? worldNow : tracked.line_last_succeeded_at,
    line_last_changed_at: lineLastChangedAt,
    line_consecutive_failures: failures,
    line_last_error: findings.carrierError
      ? `${findings.carrierError.kind}: ${findings.carrierError.message}`
      : findings.carrier
        ? null
        : tracked.line_last_error,
    terminal_checked_at: findings.terminalAsked ? worldNow : tracked.terminal_checked_at,
    rail_checked_at: findings.railAsked ? worldNow : tracked.rail_checked_at,
  };
  return { update, stop };
}
