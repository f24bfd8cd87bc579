// The attributes of the /v2 resources the operations pages read beyond lib/resources.ts (api-wire-notes §4),
// and the words for transport event names.
import type { Resource } from './jsonapi';
import { humanize } from './labels';
import type { ContainerAttributes, ShipmentAttributes } from './resources';

export interface ShipmentDetail extends ShipmentAttributes {
  pol_original_etd_at?: string | null;
  destination_original_eta_at?: string | null;
  line_tracking_next_attempt_at?: string | null;
}

export interface ImportDeadlines {
  pickup_lfd_line: string | null;
  pickup_lfd_terminal: string | null;
  pickup_lfd_rail: string | null;
}

export interface ContainerDetail extends ContainerAttributes {
  import_deadlines?: ImportDeadlines | null;
  terminal_checked_at?: string | null;
  pod_full_out_chassis_number?: string | null;
  pod_rail_carrier_scac?: string | null;
  ind_rail_carrier_scac?: string | null;
  pod_rail_loaded_at?: string | null;
  pod_rail_departed_at?: string | null;
  ind_eta_at?: string | null;
  ind_ata_at?: string | null;
  ind_rail_unloaded_at?: string | null;
  empty_out_at?: string | null;
  pol_full_in_at?: string | null;
  pol_vessel_loaded_at?: string | null;
  pol_vessel_departed_at?: string | null;
}
export type ContainerResource = Resource<ContainerDetail>;

export interface TransportEventAttributes {
  event: string;
  voyage_number: string | null;
  timestamp: string | null;
  timezone: string | null;
  location_locode: string | null;
  data_source: string | null;
  value: string | null;
  invalidated_at: string | null;
  created_at: string;
  /** Tidemark's extra: when it first saw the event or this version of it (domain time); null on old records. */
  observed_at: string | null;
}
export type TransportEvent = Resource<TransportEventAttributes>;

export interface RawEventAttributes {
  event: string | null;
  original_event: string | null;
  timestamp: string | null;
  estimated: boolean;
  actual_on: string | null;
  estimated_on: string | null;
  timezone: string | null;
  created_at: string;
  location_name: string | null;
  location_locode: string | null;
  vessel_name: string | null;
  vessel_imo: string | null;
  voyage_number: string | null;
  data_source: string | null;
  data_provider_code?: string | null;
  index: number | null;
  invalidated_at: string | null;
}
export type RawEvent = Resource<RawEventAttributes>;

export interface EstimatedEventAttributes {
  event: string;
  estimated_timestamp: string;
  created_at: string;
  location_locode: string | null;
  timezone: string | null;
  voyage_number: string | null;
  data_source: string | null;
}

/** A port or a metro area (inland rail hub). */
export interface PlaceAttributes {
  name: string;
  code: string;
  time_zone: string | null;
  latitude: string | null;
  longitude: string | null;
  country_code: string | null;
  state_abbr: string | null;
}

export interface TerminalAttributes {
  name: string;
  nickname: string | null;
  firms_code: string | null;
  city: string | null;
  state_abbr: string | null;
}

export interface VesselPosition {
  latitude: number;
  longitude: number;
  heading: number | null;
  timestamp: string;
  estimated: boolean;
}

export interface VesselAttributes {
  name: string | null;
  imo: string | null;
  latitude: number | null;
  longitude: number | null;
  nautical_speed_knots: number | null;
  navigational_heading_degrees: number | null;
  position_timestamp: string | null;
  positions?: VesselPosition[];
}

export type TrackingRequestStatus = 'pending' | 'awaiting_manifest' | 'created' | 'failed' | 'tracking_stopped';

export interface TrackingRequestAttributes {
  request_number: string;
  request_type: 'bill_of_lading' | 'booking_number' | 'container';
  scac: string | null;
  status: TrackingRequestStatus;
  failed_reason: string | null;
  is_retrying: boolean;
  retry_count: number | null;
  created_at: string;
}

export interface ShippingLineAttributes {
  scac: string;
  name: string;
  short_name: string | null;
  bill_of_lading_tracking_support: boolean;
  booking_number_tracking_support: boolean;
  container_number_tracking_support: boolean;
}

/** `meta.attention` of a board row (GET /v2/containers/board). */
export interface BoardAttention {
  holds: string[];
  available: boolean;
  lfd: 'today' | 'tomorrow' | 'passed' | 'later' | null;
  lfd_days_left: number | null;
  demurrage_accruing: boolean;
}

export const REQUEST_TYPES = [
  { value: 'bill_of_lading', label: 'Bill of lading' },
  { value: 'booking_number', label: 'Booking number' },
  { value: 'container', label: 'Container number' },
] as const;

/** Every `current_status` value, in the order a box lives them. */
export const CONTAINER_STATUSES = [
  'new',
  'on_ship',
  'not_available',
  'available',
  'grounded',
  'awaiting_inland_transfer',
  'on_rail',
  'off_dock',
  'picked_up',
  'delivered',
  'dropped',
  'loaded',
  'empty_returned',
] as const;

const EVENT_WORDS: Record<string, string> = {
  empty_out: 'Empty released to shipper',
  full_in: 'Full container received',
  vessel_loaded: 'Loaded on vessel',
  vessel_departed: 'Vessel departed',
  vessel_arrived: 'Vessel arrived',
  vessel_berthed: 'Vessel berthed',
  vessel_discharged: 'Discharged from vessel',
  transshipment_arrived: 'Arrived at transshipment port',
  transshipment_discharged: 'Discharged for transshipment',
  transshipment_loaded: 'Loaded for transshipment',
  transshipment_departed: 'Departed transshipment port',
  feeder_arrived: 'Feeder vessel arrived',
  feeder_discharged: 'Discharged from feeder',
  feeder_loaded: 'Loaded on feeder',
  feeder_departed: 'Feeder vessel departed',
  rail_loaded: 'Loaded on rail',
  rail_departed: 'Rail departed',
  rail_arrived: 'Rail arrived',
  rail_unloaded: 'Unloaded from rail',
  arrived_at_inland_destination: 'Arrived at inland destination',
  available: 'Available for pickup',
  not_available: 'Not available for pickup',
  full_out: 'Picked up (full out)',
  empty_in: 'Empty returned',
  delivered: 'Delivered',
};

const CHANGE_WORDS: Record<string, string> = {
  'container.pickup_lfd.changed': 'First-given last free day set (the line’s, else the terminal’s, else the rail’s)',
  'container.pickup_lfd_line.changed': 'Line’s last free day set',
  'container.pickup_lfd_terminal.changed': 'Terminal’s last free day set',
  'container.pickup_lfd_rail.changed': 'Rail last free day set',
  'container.pickup_appointment.changed': 'Pickup appointment set',
};

export interface EventInfo {
  /** What happened, in words. */
  label: string;
  /** A forecast (`container.transport.estimated.*`), not a fact. */
  estimated: boolean;
  /** The short code after `container.transport.` (`vessel_arrived`), or null for a change event. */
  code: string | null;
}

/** Words for a transport event name (`container.transport.vessel_arrived` → Vessel arrived). */
export function eventInfo(name: string): EventInfo {
  if (CHANGE_WORDS[name]) return { label: CHANGE_WORDS[name]!, estimated: false, code: null };
  const m = /^container\.transport\.(estimated\.)?(.+)$/.exec(name);
  if (!m) return { label: humanize(name.replace(/^container\./, '')), estimated: false, code: null };
  const code = m[2]!;
  const words = EVENT_WORDS[code] ?? humanize(code);
  return { label: m[1] ? `${words} (estimated)` : words, estimated: !!m[1], code };
}

/** Milestones are the transport events (facts and forecasts); LFD and appointment changes are not. */
export const isMilestone = (e: TransportEvent) => e.attributes.event.startsWith('container.transport.');

/**
 * Milestones oldest first. The API lists a container's transport events in its one order (docs/api.md: newest
 * first by `timestamp`, those without one last); this is that order reversed, the ones without a time still last.
 * The page never sorts events by itself, so it cannot disagree with the API, the MCP tools or the webhooks.
 */
export function milestonesOldestFirst(events: TransportEvent[]): TransportEvent[] {
  const timed = events.filter((e) => e.attributes.timestamp !== null);
  return [...timed.reverse(), ...events.filter((e) => e.attributes.timestamp === null)];
}

const SOURCE_WORDS: Record<string, string> = {
  shipping_line: 'Shipping line',
  terminal: 'Terminal',
  rail: 'Railroad',
  ais: 'AIS',
  user: 'You',
};
export const sourceLabel = (s: string | null | undefined) => (s ? (SOURCE_WORDS[s] ?? humanize(s)) : '—');

const HOLD_WORDS: Record<string, string> = { customs: 'customs', freight: 'freight', USDA: 'USDA', VACIS: 'VACIS exam', TMF: 'TMF', other: 'other' };
/** `customs` → customs, `VACIS` → VACIS exam (lower case words for sentences; capitalise at the start). */
export const holdWord = (name: string) => HOLD_WORDS[name] ?? name.replace(/_/g, ' ');
export const holdLabel = (name: string) => {
  const w = holdWord(name);
  return w[0]!.toUpperCase() + w.slice(1);
};

/** A list in words: `a`, `a and b`, `a, b and c`. */
export function listWords(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The number of a place as "Name (LOCODE)". */
export function placeName(place: PlaceAttributes | undefined, locode: string | null | undefined, fallbackName?: string | null): string {
  const name = place?.name ?? fallbackName ?? null;
  if (name && locode) return `${name} (${locode})`;
  return name || locode || 'Unknown place';
}
