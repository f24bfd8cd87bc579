// Shipments, containers, their events and tracking requests, as the reference's wire notes describe them
// (api-wire-notes.md §3 value sets, §4.1–4.8). Every attribute the notes list is a required member (the
// reference always sends it); its value may be null unless the notes mark it required (*).
import { z } from 'zod';
import {
  nullableString,
  nullableTimestamp,
  relativeSelf,
  resource,
  stringList,
  timestamp,
  timezone,
  toMany,
  toOne,
  toOneRequired,
} from './common.js';

export const CONTAINER_STATUSES = [
  'new',
  'on_ship',
  'available',
  'not_available',
  'grounded',
  'on_rail',
  'picked_up',
  'off_dock',
  'delivered',
  'dropped',
  'loaded',
  'empty_returned',
  'awaiting_inland_transfer',
] as const;

export const STOPPED_REASONS = [
  'all_containers_terminated',
  'past_arrival_window',
  'past_full_out_window',
  'no_updates_at_line',
  'cancelled_by_user',
  'booking_cancelled',
] as const;

/** The 43 webhook event names of §5.3, in the reference's order. */
export const EVENT_NAMES = [
  ...[
    'vessel_arrived',
    'estimated.vessel_arrived',
    'vessel_discharged',
    'vessel_loaded',
    'vessel_departed',
    'estimated.vessel_departed',
    'rail_departed',
    'rail_arrived',
    'rail_loaded',
    'rail_unloaded',
    'transshipment_arrived',
    'transshipment_discharged',
    'transshipment_loaded',
    'transshipment_departed',
    'feeder_arrived',
    'feeder_discharged',
    'feeder_loaded',
    'feeder_departed',
    'empty_out',
    'full_in',
    'full_out',
    'empty_in',
    'vessel_berthed',
  ].map((e) => `container.transport.${e}`),
  'shipment.estimated.arrival',
  'tracking_request.succeeded',
  'tracking_request.failed',
  'tracking_request.awaiting_manifest',
  'tracking_request.tracking_stopped',
  'container.created',
  'container.updated',
  'container.pod_terminal_changed',
  'container.transport.arrived_at_inland_destination',
  'container.transport.estimated.arrived_at_inland_destination',
  'container.pickup_lfd.changed',
  'container.pickup_lfd_line.changed',
  'container.pickup_lfd_terminal.changed',
  'container.pickup_lfd_rail.changed',
  'container.pickup_appointment.changed',
  'container.transport.available',
  'container.transport.not_available',
  'container.transport.delivered',
  'document.extracted',
  'document.extraction_failed',
] as const;

/** A transport event's `event`: the container-level names (`container.transport.*`, `container.pickup_*`), §4.4. */
export const TRANSPORT_EVENT_NAMES = EVENT_NAMES.filter((e) => e.startsWith('container.transport.') || e.startsWith('container.pickup_'));

// ---------- shipment (§4.1) ----------

export const shipment = resource(
  'shipment',
  {
    bill_of_lading_number: z.string(),
    normalized_number: nullableString,
    ref_numbers: stringList,
    tags: stringList,
    created_at: nullableTimestamp,
    customer_name: nullableString,
    shipping_line_scac: nullableString,
    shipping_line_name: nullableString,
    shipping_line_short_name: nullableString,
    port_of_lading_locode: nullableString,
    port_of_lading_name: nullableString,
    pol_etd_at: nullableTimestamp,
    pol_atd_at: nullableTimestamp,
    pol_timezone: timezone,
    pol_original_etd_at: nullableTimestamp,
    port_of_discharge_locode: nullableString,
    port_of_discharge_name: nullableString,
    pod_vessel_name: nullableString,
    // A string, not a number (§1.4).
    pod_vessel_imo: nullableString,
    pod_voyage_number: nullableString,
    pod_eta_at: nullableTimestamp,
    pod_original_eta_at: nullableTimestamp,
    pod_ata_at: nullableTimestamp,
    pod_timezone: timezone,
    destination_locode: nullableString,
    destination_name: nullableString,
    destination_eta_at: nullableTimestamp,
    destination_ata_at: nullableTimestamp,
    destination_timezone: timezone,
    destination_original_eta_at: nullableTimestamp,
    line_tracking_last_attempted_at: nullableTimestamp,
    line_tracking_last_succeeded_at: nullableTimestamp,
    line_tracking_stopped_at: nullableTimestamp,
    line_tracking_stopped_reason: z.enum(STOPPED_REASONS).nullable(),
  },
  {
    port_of_lading: toOne('port'),
    port_of_discharge: toOne('port'),
    pod_terminal: toOne('terminal'),
    destination: toOne('port', 'metro_area'),
    destination_terminal: toOne('terminal', 'rail_terminal'),
    line_tracking_stopped_by_user: toOne('user'),
    containers: toMany('container'),
  },
  { links: relativeSelf('shipments') },
);

// ---------- container (§4.2) ----------

const hold = z.looseObject({
  name: z.enum(['freight', 'customs', 'USDA', 'VACIS', 'TMF', 'other']),
  status: z.enum(['hold', 'pending']),
  description: z.string().nullable().optional(),
});
const fee = z.looseObject({
  type: z.enum(['demurrage', 'exam', 'extended_dwell_time', 'other', 'total']),
  amount: z.number(),
  currency_code: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .nullable()
    .optional(),
});

export const container = resource(
  'container',
  {
    number: nullableString,
    ref_numbers: stringList,
    seal_number: nullableString,
    created_at: nullableTimestamp,
    equipment_type: z.enum(['dry', 'reefer', 'open top', 'flat rack', 'bulk', 'tank']).nullable(),
    equipment_length: z.union([z.literal(10), z.literal(20), z.literal(40), z.literal(45)]).nullable(),
    // The reference emits the underscore (§3), not the product spec's `high cube`.
    equipment_height: z.enum(['standard', 'high_cube']).nullable(),
    weight_in_lbs: z.number().nullable(),
    current_status: z.enum(CONTAINER_STATUSES).nullable(),
    availability_known: z.boolean().nullable(),
    available_for_pickup: z.boolean().nullable(),
    terminal_checked_at: nullableTimestamp,
    location_at_pod_terminal: nullableString,
    pod_full_out_chassis_number: nullableString,
    pod_arrived_at: nullableTimestamp,
    pod_discharged_at: nullableTimestamp,
    pod_full_out_at: nullableTimestamp,
    pickup_appointment_at: nullableTimestamp,
    holds_at_pod_terminal: z.array(hold).nullable(),
    fees_at_pod_terminal: z.array(fee).nullable(),
    pod_timezone: timezone,
    pod_last_tracking_request_at: nullableTimestamp,
    shipment_last_tracking_request_at: nullableTimestamp,
    pickup_lfd: nullableTimestamp,
    import_deadlines: z
      .looseObject({ pickup_lfd_line: nullableTimestamp, pickup_lfd_terminal: nullableTimestamp, pickup_lfd_rail: nullableTimestamp })
      .nullable(),
    // `*_on` fields are full timestamps (§1.4).
    ind_facility_lfd_on: nullableTimestamp,
    pod_rail_carrier_scac: nullableString,
    ind_rail_carrier_scac: nullableString,
    pod_rail_loaded_at: nullableTimestamp,
    pod_rail_departed_at: nullableTimestamp,
    ind_eta_at: nullableTimestamp,
    ind_ata_at: nullableTimestamp,
    ind_rail_unloaded_at: nullableTimestamp,
    final_destination_full_out_at: nullableTimestamp,
    final_destination_timezone: timezone,
    empty_terminated_at: nullableTimestamp,
    empty_terminated_timezone: timezone,
    // Extra (in real responses, not in the published schema).
    delivered_at: nullableTimestamp,
    empty_out_at: nullableTimestamp,
    pol_full_in_at: nullableTimestamp,
    pol_vessel_loaded_at: nullableTimestamp,
    pol_vessel_departed_at: nullableTimestamp,
    rail_last_tracking_request_at: nullableTimestamp,
    ind_facility_holds: z.array(hold).nullable(),
    ind_facility_fees: z.array(fee).nullable(),
    ssl_lfd: nullableTimestamp,
  },
  {
    shipment: toOne('shipment'),
    pickup_facility: toOne('terminal', 'rail_terminal'),
    pod_terminal: toOne('terminal'),
    // Full id arrays even when not included (§1.5).
    transport_events: toMany('transport_event'),
    raw_events: toMany('raw_event'),
  },
);

// ---------- transport_event (§4.4), raw_event (§4.8), estimated_event (§4.5) ----------

/**
 * `data_source` of a transport event: the reference's four, and `user` (a delivery marked by hand), a value
 * docs/extensions.md lists as Tidemark's.
 */
const TRANSPORT_DATA_SOURCES = ['shipping_line', 'terminal', 'ais', 'rail', 'user'] as const;

export const transportEvent = resource(
  'transport_event',
  {
    event: z.enum(TRANSPORT_EVENT_NAMES as [string, ...string[]]).nullable(),
    voyage_number: nullableString,
    timestamp: nullableTimestamp,
    timezone,
    location_locode: nullableString,
    created_at: nullableTimestamp,
    data_source: z.enum(TRANSPORT_DATA_SOURCES).nullable(),
    invalidated_at: nullableTimestamp,
    value: nullableString,
  },
  {
    shipment: toOne('shipment'),
    container: toOne('container'),
    vessel: toOne('vessel'),
    location: toOne('port', 'metro_area'),
    terminal: toOne('terminal', 'rail_terminal'),
    source_event: toOne('raw_event'),
    previous_version: toOne('transport_event'),
  },
);

const RAW_EVENT_NAMES = [
  'empty_out',
  'full_in',
  'positioned_in',
  'positioned_out',
  'vessel_loaded',
  'vessel_departed',
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
  'vessel_arrived',
  'vessel_discharged',
  'arrived_at_destination',
  'delivered',
  'full_out',
  'empty_in',
  'vgm_received',
  'carrier_release',
  'customs_release',
  'available',
] as const;

export const rawEvent = resource(
  'raw_event',
  {
    event: z.enum(RAW_EVENT_NAMES).nullable(),
    original_event: nullableString,
    timestamp: nullableTimestamp,
    estimated: z.boolean().nullable(),
    actual_on: nullableTimestamp,
    estimated_on: nullableTimestamp,
    actual_at: nullableTimestamp,
    estimated_at: nullableTimestamp,
    timezone,
    created_at: nullableTimestamp,
    location_name: nullableString,
    location_locode: nullableString,
    vessel_name: nullableString,
    vessel_imo: nullableString,
    index: z.number().int().nullable(),
    voyage_number: nullableString,
    // Extra.
    will_occur_at: nullableTimestamp,
    invalidated_at: nullableTimestamp,
    data_source: nullableString,
    data_provider_name: nullableString,
    data_provider_code: nullableString,
  },
  {
    location: toOne('port', 'metro_area'),
    vessel: toOne('vessel'),
    container: toOne('container'),
    terminal: toOne('terminal', 'rail_terminal'),
  },
);

export const estimatedEvent = resource(
  'estimated_event',
  {
    created_at: timestamp,
    estimated_timestamp: timestamp,
    event: z.literal('shipment.estimated.arrival'),
    location_locode: nullableString,
    timezone,
    voyage_number: nullableString,
    data_source: z.enum(['shipping_line', 'terminal']).nullable(),
  },
  { shipment: toOneRequired('shipment'), port: toOne('port'), vessel: toOne('vessel') },
);

// ---------- tracking_request (§4.3) ----------

export const REQUEST_TYPES = ['bill_of_lading', 'booking_number', 'container'] as const;
export const REQUEST_STATUSES = ['pending', 'awaiting_manifest', 'created', 'failed', 'tracking_stopped'] as const;
/** §3, and `plan_limit_reached` (the free plan's cap), which docs/extensions.md lists as Tidemark's. */
const FAILED_REASONS = [
  'booking_cancelled',
  'duplicate',
  'expired',
  'internal_processing_error',
  'invalid_number',
  'not_found',
  'retries_exhausted',
  'shipping_line_unreachable',
  'unrecognized_response',
  'data_unavailable',
  'scac_auto_detect_failed',
  'awaiting_manifest',
  'plan_limit_reached',
] as const;

export const trackingRequest = resource(
  'tracking_request',
  {
    request_number: z.string(),
    request_type: z.enum(REQUEST_TYPES),
    // A string, possibly empty.
    scac: z.string(),
    ref_numbers: stringList,
    // The schema names it `tags`; the wire says `shipment_tags` (§4.3).
    shipment_tags: stringList,
    status: z.enum(REQUEST_STATUSES),
    failed_reason: z.enum(FAILED_REASONS).nullable(),
    is_retrying: z.boolean().nullable(),
    retry_count: z.number().int().nullable(),
    created_at: timestamp,
    updated_at: nullableTimestamp,
  },
  { tracked_object: toOne('shipment'), customer: toOne('party'), user: toOne('user') },
  { links: relativeSelf('tracking_requests') },
);
