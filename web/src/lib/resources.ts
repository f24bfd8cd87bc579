// The attributes of the /v2 resources the pages read (the subset they use; the API sends more).
import type { Resource } from './jsonapi';
import type { LfdParty } from './lfd';

export interface ShipmentAttributes {
  bill_of_lading_number: string | null;
  normalized_number: string | null;
  customer_name: string | null;
  shipping_line_scac: string | null;
  shipping_line_name: string | null;
  shipping_line_short_name: string | null;
  port_of_lading_locode: string | null;
  port_of_lading_name: string | null;
  pol_timezone: string | null;
  port_of_discharge_locode: string | null;
  port_of_discharge_name: string | null;
  pod_timezone: string | null;
  pod_vessel_name: string | null;
  pod_vessel_imo: string | null;
  pod_voyage_number: string | null;
  destination_locode: string | null;
  destination_name: string | null;
  destination_timezone: string | null;
  pol_etd_at: string | null;
  pol_atd_at: string | null;
  pod_eta_at: string | null;
  pod_original_eta_at: string | null;
  pod_ata_at: string | null;
  /** Tidemark's own POD ETA from the vessel's AIS position (null when there is nothing to go on, and once arrived). */
  predicted_pod_eta_at: string | null;
  /** Why it differs from `pod_eta_at` (more than 12 h apart), else null. */
  predicted_pod_eta_reason: string | null;
  destination_eta_at: string | null;
  destination_ata_at: string | null;
  line_tracking_stopped_at: string | null;
  line_tracking_stopped_reason: string | null;
  line_tracking_last_succeeded_at: string | null;
  ref_numbers: string[];
  tags: string[];
  created_at: string;
  updated_at: string;
}
export type Shipment = Resource<ShipmentAttributes>;

export interface Hold {
  name: string;
  status: 'hold' | 'pending';
  description: string | null;
}
export interface Fee {
  type: string;
  amount: number;
  currency_code: string;
}

export interface ContainerAttributes {
  number: string;
  ref_numbers: string[];
  current_status: string;
  seal_number: string | null;
  equipment_type: string | null;
  equipment_length: number | null;
  equipment_height: string | null;
  weight_in_lbs: number | null;
  availability_known: boolean;
  available_for_pickup: boolean | null;
  ready_for_pickup: boolean;
  location_at_pod_terminal: string | null;
  pod_arrived_at: string | null;
  pod_discharged_at: string | null;
  pod_full_out_at: string | null;
  pickup_appointment_at: string | null;
  /** The reference's coalesced last free day: the line's if given, else the terminal's, else the rail's (not the earliest). */
  pickup_lfd: string | null;
  /** Tidemark's extra: the last free day to act on, the earliest that applies where the box is picked up (local midnight). */
  pickup_lfd_binding: string | null;
  /** Whose date `pickup_lfd_binding` is. */
  pickup_lfd_binding_party: LfdParty | null;
  /** The zone `pickup_lfd_binding` is a local midnight in (its days are counted in that calendar). */
  pickup_lfd_binding_timezone: string | null;
  pod_timezone: string | null;
  final_destination_full_out_at: string | null;
  final_destination_timezone: string | null;
  empty_terminated_at: string | null;
  empty_terminated_timezone: string | null;
  delivered_at: string | null;
  holds_at_pod_terminal: Hold[];
  fees_at_pod_terminal: Fee[];
  created_at: string;
  updated_at: string;
}
export type Container = Resource<ContainerAttributes>;
