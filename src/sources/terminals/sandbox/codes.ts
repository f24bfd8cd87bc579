// The sandbox terminal and rail APIs' code lists: event types (one per canonical milestone, in the upper-snake
// words operators use), hold types and fee types, with the mapping both ways. The faces render from this
// table and the parsers read with it, so the two cannot drift apart.
import { FEE_TYPES, type FeeType, HOLD_NAMES, type HoldName, MILESTONES, type Milestone } from '../../../domain/milestones.js';

export const EVENT_TYPE: Record<Milestone, string> = {
  empty_out: 'GATE_OUT_EMPTY',
  full_in: 'GATE_IN_FULL',
  positioned_in: 'POSITIONED_IN',
  positioned_out: 'POSITIONED_OUT',
  vessel_loaded: 'LOADED_ON_VESSEL',
  vessel_departed: 'VESSEL_DEPARTED',
  vessel_arrived: 'VESSEL_ARRIVED',
  vessel_berthed: 'VESSEL_BERTHED',
  vessel_discharged: 'DISCHARGED_FROM_VESSEL',
  transshipment_arrived: 'TRANSSHIPMENT_ARRIVED',
  transshipment_discharged: 'TRANSSHIPMENT_DISCHARGED',
  transshipment_loaded: 'TRANSSHIPMENT_LOADED',
  transshipment_departed: 'TRANSSHIPMENT_DEPARTED',
  feeder_arrived: 'FEEDER_ARRIVED',
  feeder_discharged: 'FEEDER_DISCHARGED',
  feeder_loaded: 'FEEDER_LOADED',
  feeder_departed: 'FEEDER_DEPARTED',
  rail_loaded: 'LOADED_ON_RAIL',
  rail_departed: 'RAIL_DEPARTED',
  rail_arrived: 'RAIL_ARRIVED',
  rail_unloaded: 'UNLOADED_FROM_RAIL',
  arrived_at_destination: 'ARRIVED_AT_DESTINATION',
  available: 'AVAILABLE_FOR_PICKUP',
  not_available: 'NOT_AVAILABLE',
  delivered: 'DELIVERED',
  full_out: 'GATE_OUT_FULL',
  empty_in: 'GATE_IN_EMPTY',
  vgm_received: 'VGM_RECEIVED',
  carrier_release: 'LINE_RELEASE',
  customs_release: 'CUSTOMS_RELEASE',
  customs_selected_for_scan: 'CUSTOMS_SELECTED_FOR_SCAN',
  customs_selected_for_inspection: 'CUSTOMS_SELECTED_FOR_INSPECTION',
};

const MILESTONE_OF = new Map(MILESTONES.map((m) => [EVENT_TYPE[m], m]));

/** The milestone of an event type (case-insensitive), or null for a type this table does not know. */
export function milestoneOf(eventType: string): Milestone | null {
  return MILESTONE_OF.get(eventType.trim().toUpperCase()) ?? null;
}

/** Hold and fee types on the wire are the canonical names in lower case (`usda`, `extended_dwell_time`). */
export function holdNameOf(type: string): HoldName | null {
  return HOLD_NAMES.find((h) => h.toLowerCase() === type.trim().toLowerCase()) ?? null;
}

export function holdType(name: HoldName): string {
  return name.toLowerCase();
}

export function feeTypeOf(type: string): FeeType | null {
  return FEE_TYPES.find((f) => f === type.trim().toLowerCase()) ?? null;
}
