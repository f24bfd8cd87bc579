// The canonical milestones every source is mapped to: the reference API's raw-event vocabulary plus
// berthing, availability and delivery. Transport events on the wire derive from these.

export const MILESTONES = [
  'empty_out',
  'full_in',
  'positioned_in',
  'positioned_out',
  'vessel_loaded',
  'vessel_departed',
  'vessel_arrived',
  'vessel_berthed',
  'vessel_discharged',
  'transshipment_arrived',
  'transshipment_discharged',
  'transshipment_loaded',
  'transshipment_departed',
  'feeder_arrived',
  'feeder_discharged',
  'feeder_loaded',
  'feeder_departed',
  'rail_loaded',
  'rail_departed',
  'rail_arrived',
  'rail_unloaded',
  'arrived_at_destination',
  'available',
  'not_available',
  'delivered',
  'full_out',
  'empty_in',
  'vgm_received',
  'carrier_release',
  'customs_release',
  // Customs picked the box for a scan (VACIS) or a physical inspection: a hold until a later customs release.
  'customs_selected_for_scan',
  'customs_selected_for_inspection',
] as const;
export type Milestone = (typeof MILESTONES)[number];

/** Whether a fact happened, is expected, or is only planned (DCSA ACT / EST / PLN). */
export const CLASSIFIERS = ['actual', 'estimated', 'planned'] as const;
export type Classifier = (typeof CLASSIFIERS)[number];

export const TRANSPORT_MODES = ['vessel', 'rail', 'truck', 'barge'] as const;
export type TransportMode = (typeof TRANSPORT_MODES)[number];

export const HOLD_NAMES = ['freight', 'customs', 'USDA', 'VACIS', 'TMF', 'other'] as const;
export type HoldName = (typeof HOLD_NAMES)[number];

export const FEE_TYPES = ['demurrage', 'exam', 'extended_dwell_time', 'other', 'total'] as const;
export type FeeType = (typeof FEE_TYPES)[number];
