// When to ask the sources again, what a failed attempt at a tracking request leads to, and when tracking
// stops. Pure: state and domain time in, decisions out.
import type { SourceErrorKind } from '../sources/contract.js';
import type { ContainerSnapshot, ShipmentSnapshot } from './snapshot.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Gaps between the tries of a tracking request whose source fails for a while: 14 tries over about 24 hours
 * (the reference API's "about 14 tries over about 24 h"), closer together at first.
 */
export const RETRY_GAPS_MINUTES = [2, 5, 10, 20, 40, 60, 90, 120, 180, 180, 240, 240, 240] as const;
export const MAX_TRIES = RETRY_GAPS_MINUTES.length + 1;
/** A bill of lading or booking not yet manifested is asked about again daily, for at most this long. */
export const MANIFEST_RECHECK_MS = DAY;
export const MANIFEST_EXPIRY_MS = 7 * DAY;
/** Auto-stop windows (reference: 56 days after arrival; 56 days without updates from the line). */
export const STOP_AFTER_ARRIVAL_MS = 56 * DAY;
export const STOP_WITHOUT_LINE_UPDATES_MS = 56 * DAY;

export type FailedReason =
  | 'not_found'
  | 'invalid_number'
  | 'booking_cancelled'
  | 'data_unavailable'
  | 'duplicate'
  | 'expired'
  | 'retries_exhausted'
  | 'scac_auto_detect_failed'
  | 'plan_limit_reached'
  | 'shipping_line_unreachable'
  | 'unrecognized_response'
  | 'internal_processing_error'
  | 'awaiting_manifest';

/** What a tracking request becomes after an attempt that did not yield a shipment. */
export type AttemptDecision =
  | { status: 'failed'; failedReason: FailedReason }
  | { status: 'awaiting_manifest'; failedReason: 'awaiting_manifest'; nextAttemptAt: Date; awaitingSince: Date }
  | { status: 'pending'; failedReason: FailedReason; isRetrying: true; retryCount: number; nextAttemptAt: Date };

export interface AttemptState {
  /** Tries so far that ended in a temporary failure (0 before the first). */
  retryCount: number;
  /** Domain time the request first heard "not manifested yet"; null before. */
  awaitingSince: Date | null;
}

/** The temporary failed_reason the reference API shows for each kind of source failure. */
function temporaryReason(kind: SourceErrorKind): FailedReason {
  if (kind === 'bad_response') return 'unrecognized_response';
  if (kind === 'auth') return 'internal_processing_error';
  return 'shipping_line_unreachable';
}

/**
 * The outcome of an attempt whose carrier answered with an error of `kind`. `not_found` fails at once
 * (the carrier's "not yet manifested" is its own answer, `awaiting_manifest`); temporary failures retry on
 * the RETRY_GAPS schedule, then fail as `retries_exhausted`; not-yet-manifested numbers are asked about
 * daily and expire after seven days.
 */
export function decideAfterSourceError(
  kind: SourceErrorKind,
  state: AttemptState,
  worldNow: Date,
  retryAfterSeconds?: number,
): AttemptDecision {
  const now = worldNow.getTime();
  switch (kind) {
    case 'not_found':
      return { status: 'failed', failedReason: 'not_found' };
    case 'invalid_number':
      return { status: 'failed', failedReason: 'invalid_number' };
    case 'cancelled':
      return { status: 'failed', failedReason: 'booking_cancelled' };
    case 'awaiting_manifest': {
      const since = state.awaitingSince ?? worldNow;
      if (now - since.getTime() >= MANIFEST_EXPIRY_MS) return { status: 'failed', failedReason: 'expired' };
      return {
        status: 'awaiting_manifest',
        failedReason: 'awaiting_manifest',
        awaitingSince: since,
        nextAttemptAt: new Date(Math.min(now + MANIFEST_RECHECK_MS, since.getTime() + MANIFEST_EXPIRY_MS)),
      };
    }
    default: {
      const gap = RETRY_GAPS_MINUTES[state.retryCount];
      if (gap === undefined) return { status: 'failed', failedReason: 'retries_exhausted' };
      const wait = Math.max(gap * MINUTE, (retryAfterSeconds ?? 0) * 1000);
      return {
        status: 'pending',
        failedReason: temporaryReason(kind),
        isRetrying: true,
        retryCount: state.retryCount + 1,
        nextAttemptAt: new Date(now + wait),
      };
    }
  }
}

/** The phase of a tracked shipment, which sets how often its sources are asked. */
export type Phase = 'booked' | 'on_water' | 'near_arrival' | 'at_terminal' | 'on_rail' | 'picked_up' | 'done';

const ms = (iso: string | null): number | null => (iso ? Date.parse(iso) : null);

/** A container's own phase once it reached the POD; null while the shipment's phase is its phase. */
function containerPhase(c: ContainerSnapshot): Phase | null {
  if (c.empty_terminated_at) return 'done';
  if (c.rail_move) {
    if (c.final_destination_full_out_at) return 'picked_up';
    if (c.pod_rail_loaded_at || c.pod_rail_departed_at || c.ind_rail_unloaded_at) return 'on_rail';
  } else if (c.pod_full_out_at) {
    return 'picked_up';
  }
  if (c.pod_discharged_at || c.pod_arrived_at) return c.rail_move ? 'on_rail' : 'at_terminal';
  return null;
}

const PHASE_ORDER: Phase[] = ['at_terminal', 'on_rail', 'near_arrival', 'on_water', 'picked_up', 'booked', 'done'];

/** The busiest phase of any container (at the terminal beats on the water), or of the shipment itself. */
export function phaseOf(shipment: ShipmentSnapshot | null, containers: readonly ContainerSnapshot[], worldNow: Date): Phase {
  const now = worldNow.getTime();
  const phases = containers.map(containerPhase);
  if (phases.length > 0 && phases.every((p) => p === 'done')) return 'done';
  const eta = ms(shipment?.pod_eta_at ?? null);
  const etd = ms(shipment?.pol_etd_at ?? null);
  const departed = Boolean(shipment?.pol_atd_at) || containers.some((c) => c.pol_vessel_departed_at);
  const shipmentPhase: Phase =
    !departed && etd !== null && etd - now > 7 * DAY
      ? 'booked'
      : eta !== null && !shipment?.pod_ata_at && eta - now <= 3 * DAY
        ? 'near_arrival'
        : 'on_water';
  const all = new Set<Phase>(phases.filter((p) => p !== null));
  // The shipment's own phase speaks for containers that have not reached the POD yet.
  if (phases.length === 0 || phases.includes(null)) all.add(shipmentPhase);
  return PHASE_ORDER.find((p) => all.has(p)) ?? shipmentPhase;
}

/** How often each kind of source is asked in each phase (null: not asked in that phase). */
export const CADENCE: Record<Phase, { line: number; terminal: number | null; rail: number | null }> = {
  booked: { line: 24 * HOUR, terminal: null, rail: null },
  on_water: { line: 12 * HOUR, terminal: null, rail: null },
  near_arrival: { line: 3 * HOUR, terminal: 6 * HOUR, rail: null },
  at_terminal: { line: 6 * HOUR, terminal: HOUR, rail: null },
  on_rail: { line: 6 * HOUR, terminal: 3 * HOUR, rail: 2 * HOUR },
  picked_up: { line: 12 * HOUR, terminal: 12 * HOUR, rail: 12 * HOUR },
  done: { line: 24 * HOUR, terminal: null, rail: null },
};

/** Within this long of a last free day every source is asked hourly (fees and LFD changes matter most then). */
export const NEAR_LFD_MS = 2 * DAY;

export interface NextChecks {
  phase: Phase;
  line: Date;
  terminal: Date | null;
  rail: Date | null;
  /** The earliest of the three: when the tracked shipment is next due. */
  due: Date;
}

/**
 * When to ask each source next. After `consecutiveFailures` failures of the line in a row the line's gap
 * doubles each time (capped at a day), so a sick source is not hammered.
 */
export function nextChecks(
  shipment: ShipmentSnapshot | null,
  containers: readonly ContainerSnapshot[],
  worldNow: Date,
  consecutiveFailures = 0,
): NextChecks {
  const now = worldNow.getTime();
  const phase = phaseOf(shipment, containers, worldNow);
  const cadence = CADENCE[phase];
  const nearLfd = containers.some((c) => {
    const lfd = ms(c.pickup_lfd);
    return lfd !== null && !c.pod_full_out_at && !c.final_destination_full_out_at && Math.abs(lfd - now) <= NEAR_LFD_MS;
  });
  const lineGap = Math.min(cadence.line * 2 ** Math.min(consecutiveFailures, 8), Math.max(cadence.line, DAY));
  const terminalGap = cadence.terminal === null ? null : nearLfd ? Math.min(cadence.terminal, HOUR) : cadence.terminal;
  const railGap = cadence.rail === null ? null : nearLfd ? Math.min(cadence.rail, HOUR) : cadence.rail;
  const line = new Date(now + lineGap);
  const terminal = terminalGap === null ? null : new Date(now + terminalGap);
  const rail = railGap === null ? null : new Date(now + railGap);
  const due = new Date(Math.min(line.getTime(), terminal?.getTime() ?? Infinity, rail?.getTime() ?? Infinity));
  return { phase, line, terminal, rail, due };
}

export type StopReason = 'all_containers_terminated' | 'past_arrival_window' | 'no_updates_at_line' | 'booking_cancelled';

/**
 * Whether tracking stops by itself: every container returned empty; 56 days after arrival (at the inland
 * destination when there is one, else at the POD); 56 days without an update from the line.
 */
export function autoStopReason(
  shipment: ShipmentSnapshot | null,
  containers: readonly ContainerSnapshot[],
  lineLastChangedAt: Date | null,
  worldNow: Date,
): StopReason | null {
  const now = worldNow.getTime();
  if (containers.length > 0 && containers.every((c) => c.empty_terminated_at)) return 'all_containers_terminated';
  const arrived = ms(shipment?.destination_ata_at ?? null) ?? ms(shipment?.pod_ata_at ?? null);
  if (arrived !== null && now - arrived > STOP_AFTER_ARRIVAL_MS) return 'past_arrival_window';
  if (lineLastChangedAt && now - lineLastChangedAt.getTime() > STOP_WITHOUT_LINE_UPDATES_MS) return 'no_updates_at_line';
  return null;
}
