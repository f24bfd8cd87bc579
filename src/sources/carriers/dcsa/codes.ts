// The one DCSA code table: every code we read, in both spellings (2.2 / 3.0-conformance 4-letter codes and
// the 3.0 information-model full words), mapped to one internal code. Parsing never compares raw codes.
import type { Classifier, Milestone } from '../../../domain/milestones.js';

/**
 * Per category: [4-letter code, full word (null where the information model has none), internal code].
 * Codes without a canonical milestone are listed anyway, so "known but not mapped" and "unknown" differ only
 * in this table, never in the parser.
 */
export const DCSA_CODES = {
  classifier: [
    ['ACT', 'ACTUAL', 'actual'],
    ['EST', 'ESTIMATED', 'estimated'],
    ['PLN', 'PLANNED', 'planned'],
  ],
  eventType: [
    ['SHIPMENT', 'SHIPMENT', 'shipment'],
    ['TRANSPORT', 'TRANSPORT', 'transport'],
    ['EQUIPMENT', 'EQUIPMENT', 'equipment'],
    ['IOT', 'IOT', 'iot'],
    ['REEFER', 'REEFER', 'reefer'],
  ],
  transportEvent: [
    ['ARRI', 'ARRIVED', 'arrived'],
    ['DEPA', 'DEPARTED', 'departed'],
    [null, 'APPROACHING', 'approaching'],
  ],
  equipmentEvent: [
    ['LOAD', 'LOADED', 'loaded'],
    ['DISC', 'DISCHARGED', 'discharged'],
    ['GTIN', 'GATED_IN', 'gated_in'],
    ['GTOT', 'GATED_OUT', 'gated_out'],
    ['STUF', 'STUFFED', 'stuffed'],
    ['STRP', 'STRIPPED', 'stripped'],
    ['PICK', 'PICKED_UP', 'picked_up'],
    ['DROP', 'DROPPED_OFF', 'dropped_off'],
    ['INSP', 'INSPECTED', 'inspected'],
    ['RSEA', 'RESEALED', 'resealed'],
    ['RMVD', 'REMOVED', 'removed'],
    ['AVPU', 'AVAILABLE_FOR_PICKUP', 'available_for_pickup'],
    ['AVDO', 'AVAILABLE_FOR_DROP_OFF', 'available_for_drop_off'],
    ['CUSS', 'CUSTOMS_SELECTED_FOR_SCAN', 'customs_selected_for_scan'],
    ['CUSI', 'CUSTOMS_SELECTED_FOR_INSPECTION', 'customs_selected_for_inspection'],
    ['CUSR', 'CUSTOMS_RELEASED', 'customs_released'],
    ['CROS', 'CROSSED', 'crossed'],
  ],
  shipmentEvent: [
    ['RECE', 'RECEIVED', 'received'],
    ['RELS', 'RELEASED', 'released'],
    ['CONF', 'CONFIRMED', 'confirmed'],
    ['ISSU', 'ISSUED', 'issued'],
    ['SURR', 'SURRENDERED', 'surrendered'],
    ['HOLD', 'ON_HOLD', 'on_hold'],
    // Not in the 2.2 enum, but in DCSA's reference codes and 3.0; carriers send it for a cancelled booking.
    ['CANC', 'CANCELLED', 'cancelled'],
  ],
  documentType: [
    ['BKG', 'BOOKING', 'booking'],
    ['TRD', 'TRANSPORT_DOCUMENT', 'transport_document'],
    // 2.2 "Shipment Release Message"; 3.0 replaced it with release and delivery orders.
    ['SRM', null, 'carrier_release'],
    ['CRO', 'CONTAINER_RELEASE_ORDER', 'carrier_release'],
    ['DEO', 'DELIVERY_ORDER', 'carrier_release'],
    // 2.2 "Customs Inspection" and 3.0 "Customs Clearance" both carry the customs status of a shipment.
    ['CUS', null, 'customs'],
    ['CUC', 'CUSTOMS_CLEARANCE', 'customs'],
    ['VGM', 'VERIFIED_GROSS_MASS', 'vgm'],
  ],
  mode: [
    // DCSA's VESSEL is any sea-going ship, "mother vessels and feeder vessels" alike (2.2 `vessel` schema).
    ['VESSEL', 'VESSEL', 'vessel'],
    // Inland water transport (DCSA mode of transport code 8): not sea-going.
    ['BARGE', 'BARGE', 'barge'],
    // Not a DCSA value; some carriers send it, and it says plainly what the leg is.
    ['FEEDER', 'FEEDER', 'feeder'],
    ['RAIL', 'RAIL', 'rail'],
    ['TRUCK', 'TRUCK', 'truck'],
    ['MULTIMODAL', 'MULTIMODAL', 'multimodal'],
  ],
  emptyIndicator: [
    ['EMPTY', 'EMPTY', 'empty'],
    ['LADEN', 'LADEN', 'laden'],
  ],
  // 2.2 transport calls' `facilityTypeCode` and DCSA's facility type list (4 letters); 3.0 `eventLocation`'s
  // `facilityTypeCode` (conformance) or `facilityType` (information model, full words).
  facilityType: [
    // In DCSA's facility type list, not in TNT 2.2's enum nor in 3.0: what a carrier sends for a berth arrival.
    ['BRTH', null, 'berth'],
    ['OFFD', 'OFF_DOCK_STORAGE', 'off_dock'],
    // 2.2: "COYA (Deprecated - use OFFD instead)".
    ['COYA', null, 'off_dock'],
    ['POTE', 'PORT_TERMINAL', 'port_terminal'],
    ['DEPO', 'DEPOT', 'depot'],
    ['INTE', 'INLAND_TERMINAL', 'inland_terminal'],
    ['RAMP', 'RAMP', 'ramp'],
    ['COFS', 'CONTAINER_FREIGHT_STATION', 'container_freight_station'],
    ['CLOC', 'CUSTOMER_LOCATION', 'customer_location'],
    ['BOCR', 'BORDER', 'border'],
    ['BORD', null, 'border'],
    ['WAYP', 'WAYPOINT', 'waypoint'],
    ['PBPL', null, 'pilot_boarding_place'],
    ['ANCH', null, 'anchorage'],
  ],
  // 3.0 `movementType` (conformance) / `transportPhase` (information model) of an equipment event.
  movement: [
    ['EXPORT', 'EXPORT', 'export'],
    ['IMPORT', 'IMPORT', 'import'],
    ['TRANSSHIPMENT', 'TRANSSHIPMENT', 'transshipment'],
  ],
  facilityCodeList: [
    ['SMDG', 'SMDG', 'smdg'],
    ['BIC', 'BIC', 'bic'],
  ],
} as const satisfies Record<string, readonly (readonly [string | null, string | null, string])[]>;

export type CodeCategory = keyof typeof DCSA_CODES;
export type InternalCode<C extends CodeCategory> = (typeof DCSA_CODES)[C][number][2];

const INDEX = new Map<string, string>();
for (const [category, rows] of Object.entries(DCSA_CODES)) {
  for (const [short, word, internal] of rows) {
    if (short) INDEX.set(`${category}:${short}`, internal);
    if (word) INDEX.set(`${category}:${word}`, internal);
  }
}

/** The internal code for a DCSA code in either spelling, or null when the code is unknown. */
export function dcsaCode<C extends CodeCategory>(category: C, code: string | null | undefined): InternalCode<C> | null {
  if (!code) return null;
  return (INDEX.get(`${category}:${code.trim().toUpperCase()}`) as InternalCode<C> | undefined) ?? null;
}

export const CLASSIFIER: Record<InternalCode<'classifier'>, Classifier> = {
  actual: 'actual',
  estimated: 'estimated',
  planned: 'planned',
};

export type WaterOrLand = 'main' | 'feeder' | 'rail';

/** Leg milestones by the kind of leg and the role of the call; `main` is split by port (see parse.ts). */
export const LEG_MILESTONES: Record<WaterOrLand, { loaded: Milestone; departed: Milestone; arrived: Milestone; discharged: Milestone }> = {
  main: { loaded: 'vessel_loaded', departed: 'vessel_departed', arrived: 'vessel_arrived', discharged: 'vessel_discharged' },
  feeder: { loaded: 'feeder_loaded', departed: 'feeder_departed', arrived: 'feeder_arrived', discharged: 'feeder_discharged' },
  rail: { loaded: 'rail_loaded', departed: 'rail_departed', arrived: 'rail_arrived', discharged: 'rail_unloaded' },
};

export const TRANSSHIPMENT_MILESTONES = {
  loaded: 'transshipment_loaded',
  departed: 'transshipment_departed',
  arrived: 'transshipment_arrived',
  discharged: 'transshipment_discharged',
} as const satisfies Record<string, Milestone>;

/** Equipment events that mean the same wherever they happen. */
export const PLACE_FREE_EQUIPMENT_MILESTONES: Partial<Record<InternalCode<'equipmentEvent'>, Milestone>> = {
  available_for_pickup: 'available',
  customs_released: 'customs_release',
  customs_selected_for_scan: 'customs_selected_for_scan',
  customs_selected_for_inspection: 'customs_selected_for_inspection',
};

/** Shipment events: (status, document) pairs that are canonical milestones; every other pair is skipped. */
export const SHIPMENT_MILESTONES: readonly {
  status: InternalCode<'shipmentEvent'>;
  document: InternalCode<'documentType'>;
  milestone: Milestone;
}[] = [
  { status: 'released', document: 'carrier_release', milestone: 'carrier_release' },
  { status: 'released', document: 'customs', milestone: 'customs_release' },
  { status: 'received', document: 'vgm', milestone: 'vgm_received' },
];
