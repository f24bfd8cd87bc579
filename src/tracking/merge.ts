// Merging what the sources say now into the stored shipment and containers (the state half of detectChanges).
import type { FlapFilter } from './flaps.js';
import type { Normalized } from './normalize.js';
import {
  type ContainerSnapshot,
  compareFees,
  compareHolds,
  deriveShipment,
  type Fee,
  feeId,
  type Hold,
  holdId,
  isPickedUp,
  leftPodYard,
  type ShipmentSnapshot,
  terminalHolds,
} from './snapshot.js';

// Fields the merge treats specially; every other snapshot field is "the latest known value wins".
const TERMINAL_SCALARS = [
  'pod_terminal_available_for_pickup',
  'pickup_lfd_terminal',
  'pickup_appointment_at',
  'location_at_pod_terminal',
  'pod_full_out_chassis_number',
] as const;
const RAIL_SCALARS = ['ind_facility_available_for_pickup', 'pickup_lfd_rail'] as const;
const SPECIAL: ReadonlySet<string> = new Set([
  ...TERMINAL_SCALARS,
  ...RAIL_SCALARS,
  'pickup_lfd_line',
  'holds_at_pod_terminal',
  'fees_at_pod_terminal',
  'ind_facility_holds',
  'ind_facility_fees',
  'rail_move',
  'pod_terminal',
  'pod_terminal_source',
  'pod_terminal_off_dock',
]);

const ORIGINALS = ['pol_original_etd_at', 'pod_original_eta_at', 'destination_original_eta_at'] as const;

/** The shipment as the carrier reports it now, over what was stored; the first estimate stays the original. */
export function mergeShipment(
  prev: ShipmentSnapshot | null,
  next: ShipmentSnapshot | null,
  carrierReported: boolean,
): ShipmentSnapshot | null {
  if (!prev) return next;
  if (!next || !carrierReported) return prev;
  const merged = { ...prev } as Record<string, unknown>;
  for (const [k, v] of Object.entries(next)) merged[k] = v ?? merged[k] ?? null;
  // The first estimate ever seen stays the original.
  for (const k of ORIGINALS) merged[k] = prev[k] ?? next[k];
  return deriveShipment(merged as unknown as ShipmentSnapshot);
}

/**
 * A known container merged with what the sources said now: the latest known value wins, except for the fields a
 * terminal or railroad reports, which follow the flap filter when that source reported on the box.
 */
export function mergeContainer(
  prev: ContainerSnapshot,
  next: ContainerSnapshot,
  reported: Normalized['reported'],
  flaps: FlapFilter,
): ContainerSnapshot {
  const n = next.number;
  const merged = { ...prev } as Record<string, unknown>;
  for (const [k, v] of Object.entries(next)) if (!SPECIAL.has(k)) merged[k] = v ?? merged[k] ?? null;
  merged.rail_move = prev.rail_move || next.rail_move;
  // The terminal's own word on where the box is outranks the line's until the terminal says otherwise.
  const lineOverTerminal = next.pod_terminal_source === 'shipping_line' && prev.pod_terminal_source === 'terminal';
  if (next.pod_terminal && !lineOverTerminal) {
    merged.pod_terminal = next.pod_terminal;
    merged.pod_terminal_source = next.pod_terminal_source;
  }
  const c = merged as unknown as ContainerSnapshot;

  const pickedUp = isPickedUp(c);
  if (reported.terminal.includes(n)) mergeTerminalReport(c, prev, next, flaps, pickedUp);
  else {
    // No terminal report this time: the line's availability word may still fill a gap, never erase; so may its
    // word that the box went to an off-dock yard.
    c.pod_terminal_available_for_pickup = next.pod_terminal_available_for_pickup ?? prev.pod_terminal_available_for_pickup;
    c.pod_terminal_off_dock = prev.pod_terminal_off_dock || next.pod_terminal_off_dock;
  }
  if (reported.lineLfd.includes(n)) c.pickup_lfd_line = flaps.scalar(n, 'pickup_lfd_line', prev.pickup_lfd_line, next.pickup_lfd_line);
  if (reported.rail.includes(n)) mergeRailReport(c, prev, next, flaps, pickedUp);
  // Fees stop growing once the box has left: what was reported up to the full out (or the empty return) stays.
  if (isPickedUp(prev)) {
    c.fees_at_pod_terminal = prev.fees_at_pod_terminal;
    c.ind_facility_fees = prev.ind_facility_fees;
  }
  return c;
}

/** The fields a POD terminal's report on the box sets (`c`: the merge so far, written in place). */
function mergeTerminalReport(
  c: ContainerSnapshot,
  prev: ContainerSnapshot,
  next: ContainerSnapshot,
  flaps: FlapFilter,
  pickedUp: boolean,
): void {
  const n = next.number;
  // An off-dock yard that gives no last free day of its own leaves the marine terminal's binding.
  const keepTerminalLfd = next.pod_terminal_off_dock && next.pickup_lfd_terminal === null;
  // Gone from the yard: no slot to keep while the terminal makes up its mind.
  const slotGone = leftPodYard(c);
  for (const f of TERMINAL_SCALARS) {
    if ((f === 'pickup_lfd_terminal' && keepTerminalLfd) || (f === 'location_at_pod_terminal' && slotGone)) flaps.forget(n, f);
    else (c as unknown as Record<string, unknown>)[f] = flaps.scalar(n, f, prev[f], next[f]);
  }
  if (slotGone) c.location_at_pod_terminal = null;
  c.pod_terminal_off_dock = next.pod_terminal_off_dock;
  c.pod_terminal_available_for_pickup = flaps.availability(
    n,
    'pod_terminal_available_for_pickup',
    prev.pod_terminal_available_for_pickup,
    c.pod_terminal_available_for_pickup,
    pickedUp,
  );
  // Holds missing from a report that says the box is available were released, not lost: no lingering (nor
  // once the box has left: there are no holds on a box that is gone).
  const released = next.pod_terminal_available_for_pickup === true || pickedUp;
  c.holds_at_pod_terminal = flaps.list<Hold>(
    n,
    'holds_at_pod_terminal',
    terminalHolds(prev.holds_at_pod_terminal),
    next.holds_at_pod_terminal,
    holdId,
    compareHolds,
    released,
  );
  c.fees_at_pod_terminal = flaps.list<Fee>(
    n,
    'fees_at_pod_terminal',
    prev.fees_at_pod_terminal,
    next.fees_at_pod_terminal,
    feeId,
    compareFees,
  );
}

/** The fields a railroad's report on the box sets (`c`: the merge so far, written in place). */
function mergeRailReport(
  c: ContainerSnapshot,
  prev: ContainerSnapshot,
  next: ContainerSnapshot,
  flaps: FlapFilter,
  pickedUp: boolean,
): void {
  const n = next.number;
  for (const f of RAIL_SCALARS) (c as unknown as Record<string, unknown>)[f] = flaps.scalar(n, f, prev[f], next[f]);
  c.ind_facility_available_for_pickup = flaps.availability(
    n,
    'ind_facility_available_for_pickup',
    prev.ind_facility_available_for_pickup,
    c.ind_facility_available_for_pickup,
    pickedUp,
  );
  const released = next.ind_facility_available_for_pickup === true || pickedUp;
  c.ind_facility_holds = flaps.list<Hold>(
    n,
    'ind_facility_holds',
    prev.ind_facility_holds,
    next.ind_facility_holds,
    holdId,
    compareHolds,
    released,
  );
  c.ind_facility_fees = flaps.list<Fee>(n, 'ind_facility_fees', prev.ind_facility_fees, next.ind_facility_fees, feeId, compareFees);
}
