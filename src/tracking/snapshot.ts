// The canonical state the engine stores and the API serves: one shipment, its containers, their transport and
// estimated events. Field names are the wire attribute names (api-wire-notes §4); instants are `IsoInstant`s.
// Fields marked "internal" are not on the wire: they are what the wire fields are derived from.
import type { PickupChangeEventName, TransportEventName } from '../domain/events.js';
import { type Classifier, FEE_TYPES, type FeeType, HOLD_NAMES, type HoldName, type Milestone } from '../domain/milestones.js';
import { APPLICABLE_PARTIES, bindingLfd, type LfdParty, type PickupPlace } from '../domain/lfd.js';
import { type EquipmentHeight, type EquipmentLength, type EquipmentType, equipmentOf } from './equipment.js';
import type { FacilityRef } from './places.js';
import type { IsoInstant } from './time.js';

export type { FacilityRef } from './places.js';
export type { IsoInstant } from './time.js';

import type { ContainerStatus } from '../domain/container-statuses.js';

export { CONTAINER_STATUSES, type ContainerStatus } from '../domain/container-statuses.js';

export { type EquipmentHeight, type EquipmentLength, type EquipmentType, equipmentOf } from './equipment.js';

export type DataSource = 'shipping_line' | 'terminal' | 'rail' | 'ais';

/** A hold at a terminal. A cleared hold is absent: there is no released state. */
export interface Hold {
  name: HoldName;
  status: 'hold' | 'pending';
  description: string | null;
}

/** A fee line as the terminal gives it. A `total` line is kept as given and never summed with the others. */
export interface Fee {
  type: FeeType;
  amount: number;
  currency_code: string;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The stable order holds are kept in, so that a source listing them differently changes nothing. */
export function compareHolds(a: Hold, b: Hold): number {
  return HOLD_NAMES.indexOf(a.name) - HOLD_NAMES.indexOf(b.name) || cmp(a.description ?? '', b.description ?? '');
}

/** The stable order fee lines are kept in. */
export function compareFees(a: Fee, b: Fee): number {
  return FEE_TYPES.indexOf(a.type) - FEE_TYPES.indexOf(b.type) || cmp(a.currency_code, b.currency_code) || a.amount - b.amount;
}

/** What tells two holds apart: their name, and the description for `other` holds. */
export function holdId(h: Hold): string {
  return `${h.name}|${h.description ?? ''}`;
}

/** What tells two fee lines apart: their type and currency. */
export function feeId(f: Fee): string {
  return `${f.type}|${f.currency_code}`;
}

export interface ShipmentSnapshot {
  bill_of_lading_number: string | null;
  booking_number: string | null;
  shipping_line_scac: string | null;
  shipping_line_name: string | null;
  shipping_line_short_name: string | null;

  port_of_lading_locode: string | null;
  port_of_lading_name: string | null;
  pol_terminal: FacilityRef | null;
  pol_etd_at: IsoInstant | null;
  pol_atd_at: IsoInstant | null;
  /** The first departure estimate ever seen; kept across refreshes. */
  pol_original_etd_at: IsoInstant | null;
  pol_timezone: string | null;

  port_of_discharge_locode: string | null;
  port_of_discharge_name: string | null;
  pod_terminal: FacilityRef | null;
  pod_vessel_name: string | null;
  pod_vessel_imo: string | null;
  pod_voyage_number: string | null;
  /** Null once the vessel has arrived (`pod_ata_at` set). */
  pod_eta_at: IsoInstant | null;
  /** The first arrival estimate ever seen; kept across refreshes. */
  pod_original_eta_at: IsoInstant | null;
  pod_ata_at: IsoInstant | null;
  pod_timezone: string | null;

  destination_locode: string | null;
  destination_name: string | null;
  /** Whether `destination_locode` is a seaport or an inland rail hub (the `destination` relationship's type). */
  destination_location_type: 'port' | 'metro_area' | null;
  destination_terminal: FacilityRef | null;
  /** The shipping line's inland ETA/ATA; the railroad's are the containers' `ind_eta_at`/`ind_ata_at`. */
  destination_eta_at: IsoInstant | null;
  destination_ata_at: IsoInstant | null;
  destination_original_eta_at: IsoInstant | null;
  destination_timezone: string | null;
}

export interface ContainerSnapshot {
  number: string;
  seal_number: string | null;
  /** Internal: the ISO 6346 size-type code the equipment fields come from. */
  iso_size_type: string | null;
  equipment_type: EquipmentType | null;
  equipment_length: EquipmentLength | null;
  equipment_height: EquipmentHeight | null;
  weight_in_lbs: number | null;
  /** Internal: the carrier gave the shipment's average weight as each container's. */
  weight_is_shipment_average: boolean;

  current_status: ContainerStatus;
  /** Whether the facility the container is picked up from has said whether it is available. */
  availability_known: boolean;
  /** The pickup facility's answer: the POD terminal's, or the inland rail terminal's once the box is there. */
  available_for_pickup: boolean | null;
  /** Extra: `available_for_pickup` is true and no hold there has status `hold`. */
  ready_for_pickup: boolean;
  location_at_pod_terminal: string | null;
  pod_full_out_chassis_number: string | null;
  pod_terminal: FacilityRef | null;
  /** Internal: who said where the box is, the terminal itself or the line; the terminal's word wins. */
  pod_terminal_source: 'terminal' | 'shipping_line' | null;
  /** The inland pickup facility (rail terminal) of rail moves. */
  pickup_facility: FacilityRef | null;
  /** Internal: true when the container leaves the POD by rail (a rail milestone or railroad report says so). */
  rail_move: boolean;
  /**
   * Internal: the bill of lading's destination is an inland rail hub, not the POD: the box is bound inland by rail
   * before any rail leg is reported (null: no carrier answer has said). A full out at the POD says otherwise.
   */
  bound_inland: boolean | null;

  pod_arrived_at: IsoInstant | null;
  pod_discharged_at: IsoInstant | null;
  /** Null for rail moves: their full out is `final_destination_full_out_at`. */
  pod_full_out_at: IsoInstant | null;
  pickup_appointment_at: IsoInstant | null;
  holds_at_pod_terminal: Hold[] | null;
  fees_at_pod_terminal: Fee[] | null;
  /** Internal: the POD terminal's own availability answer. */
  pod_terminal_available_for_pickup: boolean | null;
  /** Internal: the facility the terminal source reports the box at is an off-dock yard, not the marine terminal. */
  pod_terminal_off_dock: boolean;
  /**
   * Internal: holds a source's customs selection implies (selected for scan: `VACIS`; for inspection: `customs`)
   * until a later customs release; shown among `holds_at_pod_terminal` unless the terminal names the same hold.
   */
  customs_selection_holds: Hold[] | null;
  /** Internal: when the box was first known to be on a vessel (any water leg loaded or departed). */
  on_board_at: IsoInstant | null;
  /** Internal: when the box was first known to be at the POD terminal (discharged); kept once known. */
  pod_grounded_at: IsoInstant | null;
  /** Internal: when a rail move was first known to be at its inland pickup place; kept once known. */
  inland_at: IsoInstant | null;
  pod_timezone: string | null;

  /** First non-null of line, terminal, rail: in that order, not the earliest (the reference's coalescing). */
  pickup_lfd: IsoInstant | null;
  /**
   * Extra: the last free day that binds at the box's current pickup place, the earliest of the applicable ones
   * compared as local dates (POD terminal and off-dock: terminal and line; inland rail: rail and line).
   */
  pickup_lfd_binding: IsoInstant | null;
  /** Extra: whose date `pickup_lfd_binding` is. */
  pickup_lfd_binding_party: LfdParty | null;
  /** Extra: the zone `pickup_lfd_binding` is a local midnight in. */
  pickup_lfd_binding_timezone: string | null;
  pickup_lfd_line: IsoInstant | null;
  pickup_lfd_terminal: IsoInstant | null;
  pickup_lfd_rail: IsoInstant | null;
  /** Deprecated mirror of `pickup_lfd_rail`. */
  ind_facility_lfd_on: IsoInstant | null;
  /** Extra: mirror of `pickup_lfd_line`. */
  ssl_lfd: IsoInstant | null;

  pod_rail_carrier_scac: string | null;
  ind_rail_carrier_scac: string | null;
  pod_rail_loaded_at: IsoInstant | null;
  pod_rail_departed_at: IsoInstant | null;
  /** The railroad's ETA/ATA at the inland destination (never the shipping line's). */
  ind_eta_at: IsoInstant | null;
  ind_ata_at: IsoInstant | null;
  ind_rail_unloaded_at: IsoInstant | null;
  ind_facility_holds: Hold[] | null;
  ind_facility_fees: Fee[] | null;
  /** Internal: the inland rail terminal's availability answer. */
  ind_facility_available_for_pickup: boolean | null;
  final_destination_full_out_at: IsoInstant | null;
  final_destination_timezone: string | null;

  empty_terminated_at: IsoInstant | null;
  empty_terminated_timezone: string | null;

  delivered_at: IsoInstant | null;
  empty_out_at: IsoInstant | null;
  pol_full_in_at: IsoInstant | null;
  pol_vessel_loaded_at: IsoInstant | null;
  pol_vessel_departed_at: IsoInstant | null;
}

// ---------------------------------------------------------------------------------------------------------
// Transport events as stored

export {
  PICKUP_CHANGE_EVENT_NAMES,
  type PickupChangeEventName,
  TRANSPORT_EVENT_NAMES,
  type TransportEventName,
  transportEventName,
} from './event-names.js';

/** A container's transport event as stored and served (`transport_event`, api-wire-notes §4.4). */
export interface TransportEventRecord {
  /** Stable dedup key: milestone, container, location, vessel/voyage (pickup changes: event and value). */
  key: string;
  event: TransportEventName | PickupChangeEventName;
  /** The canonical milestone behind it; null for pickup changes and derived availability events. */
  milestone: Milestone | null;
  classifier: Classifier;
  container_number: string;
  timestamp: IsoInstant | null;
  timezone: string | null;
  location_locode: string | null;
  location_type: 'port' | 'metro_area' | null;
  terminal: FacilityRef | null;
  vessel_name: string | null;
  vessel_imo: string | null;
  voyage_number: string | null;
  rail_carrier_scac: string | null;
  data_source: DataSource;
  /** New LFD or appointment on `container.pickup_*` events; else null. */
  value: IsoInstant | null;
  /** Provenance: the observation's source id and the source's own event id and words. */
  source_id: string | null;
  source_event_id: string | null;
  source_code: string | null;
  reported_at: IsoInstant | null;
  /**
   * Extra (domain time): when Tidemark first saw this occurrence, or this version of it (an estimate that moved,
   * an estimate that became actual, a pickup change). For actual events it is never before `timestamp`. Null on
   * records stored before it existed and not backfilled.
   */
  observed_at: IsoInstant | null;
  /** Internal, estimates only: the estimate last announced; smaller moves from it are stored without a webhook. */
  announced_timestamp?: IsoInstant | null;
}

/** `shipment.estimated.arrival` (api-wire-notes §4.5). */
export interface EstimatedEventRecord {
  key: string;
  event: 'shipment.estimated.arrival';
  estimated_timestamp: IsoInstant;
  location_locode: string | null;
  timezone: string | null;
  voyage_number: string | null;
  vessel_name: string | null;
  vessel_imo: string | null;
  data_source: 'shipping_line' | 'terminal';
  reported_at: IsoInstant | null;
}

// ---------------------------------------------------------------------------------------------------------
// Derived fields: recomputed from the stored ones after every normalization and merge

/** Whether the box has left its pickup place full (or been returned empty): the pickup place has no more say. */
export function isPickedUp(
  c: Pick<ContainerSnapshot, 'pod_full_out_at' | 'final_destination_full_out_at' | 'empty_terminated_at'>,
): boolean {
  return Boolean(c.pod_full_out_at || c.final_destination_full_out_at || c.empty_terminated_at);
}

/**
 * Whether the box goes on from the POD by rail: a rail leg is reported, or the bill of lading's destination is an
 * inland rail hub and the box has not been picked up at the POD instead.
 */
export function goesByRail(c: Pick<ContainerSnapshot, 'rail_move' | 'bound_inland' | 'pod_full_out_at'>): boolean {
  return c.rail_move || (c.bound_inland === true && c.pod_full_out_at === null);
}

/** Whether a shipment's destination is an inland rail hub other than its POD (its boxes are bound inland by rail). */
export function inlandDestination(shipment: ShipmentSnapshot | null): boolean {
  return (
    shipment?.destination_location_type === 'metro_area' &&
    shipment.destination_locode !== null &&
    shipment.destination_locode !== shipment.port_of_discharge_locode
  );
}

/** Whether the box has left the POD terminal's yard (picked up, or gone on by rail): it has no yard slot there. */
export function leftPodYard(c: ContainerSnapshot): boolean {
  return isPickedUp(c) || (goesByRail(c) && Boolean(c.pod_rail_departed_at || c.inland_at));
}

/**
 * Whether a rail move is at its inland pickup place: unloaded there, arrived there (the railroad's or the line's
 * word), picked up from there, or said available there (a ramp only offers a box it holds). A railroad's "not
 * available" while the box is still on the way does not put it there.
 */
export function isInland(c: ContainerSnapshot, shipment: ShipmentSnapshot | null): boolean {
  if (!goesByRail(c)) return false;
  return inlandSince(c, shipment, null) !== null;
}

function inlandSince(c: ContainerSnapshot, shipment: ShipmentSnapshot | null, at: IsoInstant | null): IsoInstant | null {
  if (!goesByRail(c)) return null;
  const railStarted = c.pod_rail_loaded_at ?? c.pod_rail_departed_at;
  // The line's inland arrival counts once the rail leg is known to have begun (else it may be an old plan).
  const lineArrived = railStarted ? (shipment?.destination_ata_at ?? null) : null;
  const offered = c.ind_facility_available_for_pickup === true ? at : null;
  return c.inland_at ?? c.ind_rail_unloaded_at ?? c.ind_ata_at ?? lineArrived ?? c.final_destination_full_out_at ?? offered;
}

/**
 * When the box was first at the POD terminal: its discharge there; else (no source reports the discharge) the
 * terminal offering it for pickup (a terminal offers only a box it holds: dated at the vessel's arrival when known),
 * or giving it a yard slot after the vessel's arrival; else the first later move that needs it there (rail loaded
 * at the port, the full out). A terminal's "not available" for a box still at sea is no position.
 */
function groundedSince(c: ContainerSnapshot, shipment: ShipmentSnapshot | null, at: IsoInstant | null): IsoInstant | null {
  const arrived = c.pod_arrived_at ?? shipment?.pod_ata_at ?? null;
  const offered = c.pod_terminal_available_for_pickup === true ? (arrived ?? at) : null;
  const slotted = arrived !== null && c.location_at_pod_terminal !== null ? arrived : null;
  const later = c.pod_rail_loaded_at ?? c.pod_rail_departed_at ?? (c.rail_move ? null : c.pod_full_out_at);
  return c.pod_grounded_at ?? c.pod_discharged_at ?? offered ?? slotted ?? later;
}

/** The descriptions that mark a hold as implied by a customs selection (not reported by the terminal itself). */
export const CUSTOMS_SELECTION_HOLDS = {
  scan: { name: 'VACIS', status: 'hold', description: 'Selected for scan by customs' },
  inspection: { name: 'customs', status: 'hold', description: 'Selected for inspection by customs' },
} as const satisfies Record<string, Hold>;

const SELECTION_DESCRIPTIONS: ReadonlySet<string> = new Set(Object.values(CUSTOMS_SELECTION_HOLDS).map((h) => h.description));

/** The terminal's own holds: a list without the holds a customs selection implied. */
export function terminalHolds(holds: readonly Hold[] | null): Hold[] | null {
  return holds === null ? null : holds.filter((h) => !SELECTION_DESCRIPTIONS.has(h.description ?? ''));
}

/** The terminal's holds plus the customs selection holds it does not name itself. */
function withSelectionHolds(holds: readonly Hold[] | null, selection: readonly Hold[] | null): Hold[] | null {
  const own = terminalHolds(holds);
  const extra = (selection ?? []).filter((h) => !(own ?? []).some((o) => o.name === h.name));
  if (extra.length === 0) return own;
  return [...(own ?? []), ...extra].sort(compareHolds);
}

/** A container is ready for pickup when its pickup facility says available and no hold there has status `hold`. */
export function readyForPickup(available: boolean | null, holds: readonly Hold[] | null): boolean {
  return available === true && !(holds ?? []).some((h) => h.status === 'hold');
}

function availabilityStatus(available: boolean | null): ContainerStatus {
  return available === true ? 'available' : available === false ? 'not_available' : 'grounded';
}

/**
 * `current_status`: where the box physically is (docs/tracking.md, "Container status"). Every input is a fact
 * that, once known, stays known (dates, and the `*_grounded_at`/`inland_at` marks kept by the merge), so the status
 * never moves backward without a later physical event. `delivered` is only set by hand; `dropped` and `loaded`
 * (drayage states) are never derived.
 */
export function deriveStatus(c: ContainerSnapshot, shipment: ShipmentSnapshot | null): ContainerStatus {
  if (c.empty_terminated_at) return 'empty_returned';
  if (c.pod_full_out_at || c.final_destination_full_out_at) return 'picked_up';
  const grounded = groundedSince(c, shipment, null) !== null;
  if (goesByRail(c)) {
    if (inlandSince(c, shipment, null) !== null) {
      const available = c.ind_facility_available_for_pickup;
      // Arrived at the ramp but neither unloaded nor given an availability yet: still on its rail car.
      if (c.ind_rail_unloaded_at === null && available === null) return 'on_rail';
      return availabilityStatus(available);
    }
    if (c.pod_rail_loaded_at || c.pod_rail_departed_at) return 'on_rail';
    if (grounded) return 'awaiting_inland_transfer';
  } else if (grounded) {
    if (c.pod_terminal_off_dock) return 'off_dock';
    return availabilityStatus(c.pod_terminal_available_for_pickup);
  }
  if (c.on_board_at || c.pod_arrived_at || c.pol_vessel_loaded_at || c.pol_vessel_departed_at) return 'on_ship';
  return 'new';
}

/** The pickup place whose last free days apply now (or will, for a box still on its way). */
export function pickupPlaceOf(
  c: Pick<ContainerSnapshot, 'rail_move' | 'bound_inland' | 'pod_full_out_at' | 'pod_terminal_off_dock'>,
): PickupPlace {
  if (goesByRail(c)) return 'inland_rail';
  return c.pod_terminal_off_dock ? 'off_dock' : 'pod_terminal';
}

/**
 * Recomputes every derived field of a container (status, availability, readiness, the last free days).
 * `at` (domain time) dates a position fact that has no time of its own (an inland ramp that offers the box).
 */
export function deriveContainer(c: ContainerSnapshot, shipment: ShipmentSnapshot | null, at: IsoInstant | null = null): ContainerSnapshot {
  const pod_full_out_at = c.rail_move ? null : c.pod_full_out_at;
  const holds_at_pod_terminal = withSelectionHolds(c.holds_at_pod_terminal, c.customs_selection_holds);
  const base: ContainerSnapshot = { ...c, ...equipmentOf(c.iso_size_type), pod_full_out_at, holds_at_pod_terminal };
  const pod_grounded_at = groundedSince(base, shipment, at);
  const inland_at = inlandSince(base, shipment, at);
  const positioned: ContainerSnapshot = { ...base, pod_grounded_at, inland_at };
  const pickedUp = isPickedUp(positioned);
  // Availability belongs to the pickup place and counts only while the box is there.
  const rail = goesByRail(base);
  const atPickupPlace = rail ? inland_at !== null : pod_grounded_at !== null;
  const available = pickedUp
    ? false
    : atPickupPlace
      ? rail
        ? c.ind_facility_available_for_pickup
        : c.pod_terminal_available_for_pickup
      : null;
  const holdsThere = rail ? c.ind_facility_holds : holds_at_pod_terminal;
  const zones: Record<LfdParty, string | null> = {
    line: c.pod_timezone,
    terminal: c.pod_timezone,
    rail: c.final_destination_timezone ?? c.pod_timezone,
  };
  const dates: Record<LfdParty, IsoInstant | null> = { line: c.pickup_lfd_line, terminal: c.pickup_lfd_terminal, rail: c.pickup_lfd_rail };
  const binding = bindingLfd(
    APPLICABLE_PARTIES[pickupPlaceOf(c)].map((party) => ({ party, timestamp: dates[party], timezone: zones[party] })),
  );
  const out: ContainerSnapshot = {
    ...positioned,
    pickup_lfd: c.pickup_lfd_line ?? c.pickup_lfd_terminal ?? c.pickup_lfd_rail,
    pickup_lfd_binding: binding?.timestamp ?? null,
    pickup_lfd_binding_party: binding?.party ?? null,
    pickup_lfd_binding_timezone: binding?.timezone ?? null,
    ind_facility_lfd_on: c.pickup_lfd_rail,
    ssl_lfd: c.pickup_lfd_line,
    available_for_pickup: available,
    availability_known: available !== null,
    ready_for_pickup: readyForPickup(available, holdsThere),
  };
  // Gone from the yard (picked up, or a rail move that left the port): no slot there any more.
  if (leftPodYard(out)) out.location_at_pod_terminal = null;
  if (pickedUp) {
    // Gone from the pickup place: no holds there; fees stay as last reported (the merge freezes them).
    out.holds_at_pod_terminal = [];
    if (rail) out.ind_facility_holds = [];
  }
  out.current_status = deriveStatus(out, shipment);
  return out;
}

/** Recomputes the derived shipment fields: no POD ETA once the vessel has arrived. */
export function deriveShipment(s: ShipmentSnapshot): ShipmentSnapshot {
  return s.pod_ata_at ? { ...s, pod_eta_at: null } : s;
}

/** An empty container snapshot: every attribute unknown. */
export function emptyContainer(number: string): ContainerSnapshot {
  return {
    number,
    seal_number: null,
    iso_size_type: null,
    equipment_type: null,
    equipment_length: null,
    equipment_height: null,
    weight_in_lbs: null,
    weight_is_shipment_average: false,
    current_status: 'new',
    availability_known: false,
    available_for_pickup: null,
    ready_for_pickup: false,
    location_at_pod_terminal: null,
    pod_full_out_chassis_number: null,
    pod_terminal: null,
    pod_terminal_source: null,
    pickup_facility: null,
    rail_move: false,
    bound_inland: null,
    pod_arrived_at: null,
    pod_discharged_at: null,
    pod_full_out_at: null,
    pickup_appointment_at: null,
    holds_at_pod_terminal: null,
    fees_at_pod_terminal: null,
    pod_terminal_available_for_pickup: null,
    pod_terminal_off_dock: false,
    customs_selection_holds: null,
    on_board_at: null,
    pod_grounded_at: null,
    inland_at: null,
    pod_timezone: null,
    pickup_lfd: null,
    pickup_lfd_binding: null,
    pickup_lfd_binding_party: null,
    pickup_lfd_binding_timezone: null,
    pickup_lfd_line: null,
    pickup_lfd_terminal: null,
    pickup_lfd_rail: null,
    ind_facility_lfd_on: null,
    ssl_lfd: null,
    pod_rail_carrier_scac: null,
    ind_rail_carrier_scac: null,
    pod_rail_loaded_at: null,
    pod_rail_departed_at: null,
    ind_eta_at: null,
    ind_ata_at: null,
    ind_rail_unloaded_at: null,
    ind_facility_holds: null,
    ind_facility_fees: null,
    ind_facility_available_for_pickup: null,
    final_destination_full_out_at: null,
    final_destination_timezone: null,
    empty_terminated_at: null,
    empty_terminated_timezone: null,
    delivered_at: null,
    empty_out_at: null,
    pol_full_in_at: null,
    pol_vessel_loaded_at: null,
    pol_vessel_departed_at: null,
  };
}

/** An empty shipment snapshot: every attribute unknown. */
export function emptyShipment(): ShipmentSnapshot {
  return {
    bill_of_lading_number: null,
    booking_number: null,
    shipping_line_scac: null,
    shipping_line_name: null,
    shipping_line_short_name: null,
    port_of_lading_locode: null,
    port_of_lading_name: null,
    pol_terminal: null,
    pol_etd_at: null,
    pol_atd_at: null,
    pol_original_etd_at: null,
    pol_timezone: null,
    port_of_discharge_locode: null,
    port_of_discharge_name: null,
    pod_terminal: null,
    pod_vessel_name: null,
    pod_vessel_imo: null,
    pod_voyage_number: null,
    pod_eta_at: null,
    pod_original_eta_at: null,
    pod_ata_at: null,
    pod_timezone: null,
    destination_locode: null,
    destination_name: null,
    destination_location_type: null,
    destination_terminal: null,
    destination_eta_at: null,
    destination_ata_at: null,
    destination_original_eta_at: null,
    destination_timezone: null,
  };
}
