// The attributes of the /v2 resources the operations pages read beyond lib/resources.ts, derived from the server's
// response schemas (type-only imports, erased from the bundle), and the words for transport event names.
import type {
  Attributes,
  BoardAttention as WireBoardAttention,
  VesselPosition as WireVesselPosition,
} from '../../../src/render/schemas.js';
import type { Resource } from './jsonapi';
import { humanize } from './labels';
import type { Container, ContainerAttributes, ContainerStatus } from './resources';

export type { ContainerAttributes, ShipmentAttributes } from './resources';

/** The container's own dates of each party's last free day (`import_deadlines`). */
export type ImportDeadlines = ContainerAttributes['import_deadlines'];
export type ContainerResource = Container;

export type TransportEventAttributes = Attributes<'transport_event'>;
export type TransportEvent = Resource<TransportEventAttributes>;

export type RawEventAttributes = Attributes<'raw_event'>;
export type RawEvent = Resource<RawEventAttributes>;

export type EstimatedEventAttributes = Attributes<'estimated_event'>;

/** A port or a metro area (inland rail hub): what a `location` relationship points at. */
export type PlaceAttributes = Attributes<'port'> | Attributes<'metro_area'>;

/** A marine terminal or a rail terminal: what a `terminal`, `pod_terminal` or `pickup_facility` points at. */
export type TerminalAttributes = Attributes<'terminal'> | Attributes<'rail_terminal'>;

export type VesselPosition = WireVesselPosition;
export type VesselAttributes = Attributes<'vessel'>;

export type TrackingRequestAttributes = Attributes<'tracking_request'>;
export type TrackingRequestStatus = TrackingRequestAttributes['status'];

export type ShippingLineAttributes = Attributes<'shipping_line'>;

/** `meta.attention` of a board row (GET /v2/containers/board). */
export type BoardAttention = WireBoardAttention;

/** `A` and `B` are the same union (fails typecheck otherwise): a list of values below is the API's whole set. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <_T extends true>() => {};

/** The request types, with their words, in the form's order. */
export const REQUEST_TYPES = [
  { value: 'bill_of_lading', label: 'Bill of lading' },
  { value: 'booking_number', label: 'Booking number' },
  { value: 'container', label: 'Container number' },
] as const satisfies readonly { value: TrackingRequestAttributes['request_type']; label: string }[];
same<Same<(typeof REQUEST_TYPES)[number]['value'], TrackingRequestAttributes['request_type']>>();

/**
 * Every `current_status` value, in the order a box lives them (the schema's set, in display order: checked at
 * compile time to be exactly the set the API sends, which the bundle cannot import without zod).
 */
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
] as const satisfies readonly ContainerStatus[];
same<Same<(typeof CONTAINER_STATUSES)[number], ContainerStatus>>();

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

const HOLD_WORDS: Record<string, string> = {
  customs: 'customs',
  freight: 'freight',
  USDA: 'USDA',
  VACIS: 'VACIS exam',
  TMF: 'TMF',
  other: 'other',
};
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
