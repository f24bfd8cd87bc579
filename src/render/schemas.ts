// The wire shape of every resource the API serves, in zod: the one source the route response schemas,
// /v2/openapi.json (named components) and the web app's API types are made from. Exact on purpose: a renderer
// that emits an attribute a schema lacks (or a null where it says never) fails src/render/schemas.test.ts and
// the response checks of the route suites. Imports zod and pure domain vocabulary only, so the web build can
// import it (type-only imports of engine types are erased).
import { z } from 'zod';
import type { LfdParty } from '../domain/lfd.js';
import { EVENT_NAMES, type EventName, PICKUP_CHANGE_EVENT_NAMES, TRANSPORT_EVENT_NAMES } from '../domain/events.js';
import { FEE_TYPES, HOLD_NAMES } from '../domain/milestones.js';
import type { EquipmentHeight, EquipmentLength, EquipmentType } from '../tracking/equipment.js';
import type { FailedReason, StopReason } from '../tracking/schedule.js';
import type { ContainerStatus } from '../tracking/snapshot.js';

// ---------- value sets (api-wire-notes §3), each checked against the engine's type ----------

/** `A` and `B` are the same union of literals (fails typecheck otherwise). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <_T extends true>() => {};

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
same<Same<(typeof CONTAINER_STATUSES)[number], ContainerStatus>>();

const EQUIPMENT_TYPES = ['dry', 'reefer', 'open top', 'flat rack', 'bulk', 'tank'] as const;
same<Same<(typeof EQUIPMENT_TYPES)[number], EquipmentType>>();
const EQUIPMENT_LENGTHS = [10, 20, 40, 45] as const;
same<Same<(typeof EQUIPMENT_LENGTHS)[number], EquipmentLength>>();
const EQUIPMENT_HEIGHTS = ['standard', 'high_cube'] as const;
same<Same<(typeof EQUIPMENT_HEIGHTS)[number], EquipmentHeight>>();
const LFD_PARTIES = ['line', 'terminal', 'rail'] as const;
same<Same<(typeof LFD_PARTIES)[number], LfdParty>>();

export const REQUEST_TYPES = ['bill_of_lading', 'booking_number', 'container'] as const;
export const TRACKING_REQUEST_STATUSES = ['pending', 'awaiting_manifest', 'created', 'failed', 'tracking_stopped'] as const;
export const FAILED_REASONS = [
  'not_found',
  'invalid_number',
  'booking_cancelled',
  'data_unavailable',
  'duplicate',
  'expired',
  'retries_exhausted',
  'scac_auto_detect_failed',
  'plan_limit_reached',
  'shipping_line_unreachable',
  'unrecognized_response',
  'internal_processing_error',
  'awaiting_manifest',
] as const;
same<Same<(typeof FAILED_REASONS)[number], FailedReason>>();
/** The engine's auto-stop reasons, the user's stop, and the reference's `past_full_out_window` (never set here). */
export const STOPPED_REASONS = [
  'all_containers_terminated',
  'past_arrival_window',
  'past_full_out_window',
  'no_updates_at_line',
  'cancelled_by_user',
  'booking_cancelled',
] as const;
same<Same<Exclude<(typeof STOPPED_REASONS)[number], 'past_full_out_window' | 'cancelled_by_user'>, StopReason>>();
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

const CONTAINER_EVENT_NAMES = [...TRANSPORT_EVENT_NAMES, ...PICKUP_CHANGE_EVENT_NAMES] as [EventName, ...EventName[]];

// ---------- building blocks ----------

const ext = (what: string) => `Tidemark extension (docs/extensions.md): ${what}`;

/** An instant as the API writes it: ISO 8601 UTC, second precision, `Z` (`isoSeconds`). */
export const instant = z.iso
  .datetime({ precision: 0 })
  .meta({ id: 'Timestamp', description: 'ISO 8601 UTC with second precision and `Z`: `2026-02-25T15:03:44Z`.' });
const at = (description?: string) => (description ? instant.nullable().meta({ description }) : instant.nullable());
const text = (description?: string) => (description ? z.string().nullable().meta({ description }) : z.string().nullable());
const strings = z.array(z.string());

/** A resource identifier `{id, type}` of one of `types`. */
export function refTo<const T extends [string, ...string[]]>(...types: T) {
  return z.strictObject({ id: z.string(), type: z.enum(types) });
}
/** A to-one relationship: always present, `{data: null}` when empty (api-wire-notes §1.5). */
export const toOne = <const T extends [string, ...string[]]>(...types: T) => z.strictObject({ data: refTo(...types).nullable() });
/** A to-many relationship: always present, `{data: []}` when empty. */
export const toMany = <const T extends [string, ...string[]]>(...types: T) => z.strictObject({ data: z.array(refTo(...types)) });

interface ResourceOptions<A, R> {
  /** The component's name in the OpenAPI document. */
  id: string;
  description: string;
  attributes: A;
  relationships: R;
}

/** A resource object of `type` without resource `links` (the reference's containers, places and events carry none). */
function resource<const T extends string, A extends z.ZodObject, R extends z.ZodObject>(type: T, opts: ResourceOptions<A, R>) {
  return z
    .strictObject({ id: z.string(), type: z.literal(type), attributes: opts.attributes, relationships: opts.relationships })
    .meta({ id: opts.id, description: opts.description });
}

/** A resource object that always carries its relative `links.self` (shipment, tracking_request, party …). */
function linkedResource<const T extends string, A extends z.ZodObject, R extends z.ZodObject>(type: T, opts: ResourceOptions<A, R>) {
  return z
    .strictObject({
      id: z.string(),
      type: z.literal(type),
      attributes: opts.attributes,
      relationships: opts.relationships,
      links: z.strictObject({ self: z.string().meta({ description: 'Relative: `/v2/<type>s/<id>`' }) }),
    })
    .meta({ id: opts.id, description: opts.description });
}

const hold = z
  .strictObject({ name: z.enum(HOLD_NAMES), status: z.enum(['hold', 'pending']), description: z.string().nullable() })
  .meta({ id: 'Hold', description: 'A hold at a terminal; a cleared hold is absent (there is no released state).' });
const fee = z
  .strictObject({ type: z.enum(FEE_TYPES), amount: z.number(), currency_code: z.string() })
  .meta({ id: 'Fee', description: 'A fee line as the terminal gives it; a `total` line is never summed with the others.' });
const providedData = z
  .record(z.string(), z.union([z.boolean(), z.string()]))
  .nullable()
  .meta({ description: 'Per field, whether the source fills it (`true`/`false`), with `<field>_notes` where partial; null when unknown.' });

// ---------- shipment ----------

export const shipmentAttributes = z.strictObject({
  bill_of_lading_number: text(),
  normalized_number: text('The number as queried at the carrier.'),
  customer_name: text(),
  ref_numbers: strings,
  tags: strings,
  shipping_line_scac: text(),
  shipping_line_name: text(),
  shipping_line_short_name: text(),
  port_of_lading_locode: text(),
  port_of_lading_name: text(),
  pol_etd_at: at('Local time at the POL, as if UTC when `pol_timezone` is null.'),
  pol_atd_at: at(),
  pol_original_etd_at: at('The first departure estimate seen.'),
  pol_timezone: text(),
  port_of_discharge_locode: text(),
  port_of_discharge_name: text(),
  pod_vessel_name: text(),
  pod_vessel_imo: text(),
  pod_voyage_number: text(),
  pod_eta_at: at('Null once the vessel has arrived.'),
  pod_original_eta_at: at(),
  pod_ata_at: at(),
  pod_timezone: text(),
  destination_locode: text(),
  destination_name: text(),
  destination_eta_at: at(),
  destination_ata_at: at(),
  destination_original_eta_at: at(),
  destination_timezone: text(),
  line_tracking_last_attempted_at: at(),
  line_tracking_last_succeeded_at: at(),
  line_tracking_stopped_at: at(),
  line_tracking_stopped_reason: z.enum(STOPPED_REASONS).nullable(),
  line_tracking_next_attempt_at: at(ext('when the shipping line will next be asked (domain time).')),
  predicted_pod_eta_at: at(ext("Tidemark's own POD arrival estimate from the vessel's AIS position, until it has arrived.")),
  predicted_pod_eta_reason: text(ext("why the prediction differs from the carrier's ETA, in a sentence.")),
  created_at: at(),
  updated_at: at(),
});

export const shipmentResource = linkedResource('shipment', {
  id: 'Shipment',
  description: 'A shipment (bill of lading or booking) and its voyage (api-wire-notes §4.1).',
  attributes: shipmentAttributes,
  relationships: z.strictObject({
    port_of_lading: toOne('port'),
    port_of_discharge: toOne('port'),
    pod_terminal: toOne('terminal', 'rail_terminal'),
    destination: toOne('port', 'metro_area'),
    destination_terminal: toOne('terminal', 'rail_terminal'),
    line_tracking_stopped_by_user: toOne('user'),
    containers: toMany('container'),
    customer: toOne('party'),
    party_roles: toMany('party_role')
      .optional()
      .meta({ description: 'Present when the request asked for it (`with_party_roles=true` or `include=party_roles`).' }),
  }),
});

// ---------- container ----------

export const containerAttributes = z.strictObject({
  number: z.string(),
  ref_numbers: strings,
  seal_number: text(),
  equipment_type: z.enum(EQUIPMENT_TYPES).nullable(),
  equipment_length: z.union(EQUIPMENT_LENGTHS.map((n) => z.literal(n))).nullable(),
  equipment_height: z.enum(EQUIPMENT_HEIGHTS).nullable(),
  weight_in_lbs: z.number().nullable(),
  current_status: z.enum(CONTAINER_STATUSES),
  availability_known: z.boolean(),
  available_for_pickup: z.boolean().nullable(),
  ready_for_pickup: z.boolean().meta({ description: ext('`available_for_pickup` is true and no hold there has status `hold`.') }),
  bound_inland: z.boolean().nullable().optional().meta({
    description:
      "Whether the bill of lading's destination is an inland rail hub (null: not said yet). An engine field that reaches the wire.",
  }),
  location_at_pod_terminal: text(),
  pod_full_out_chassis_number: text(),
  pod_arrived_at: at(),
  pod_discharged_at: at(),
  pod_full_out_at: at('Null for rail moves: theirs is `final_destination_full_out_at`.'),
  pickup_appointment_at: at(),
  holds_at_pod_terminal: z.array(hold),
  fees_at_pod_terminal: z.array(fee),
  pod_timezone: text(),
  pickup_lfd: at('First non-null of line, terminal, rail (in that order, not the earliest).'),
  // Optional: a container not refreshed since these were added, and the webhook samples' containers, lack them.
  pickup_lfd_binding: at(ext("the last free day that binds at the box's current pickup place (a local midnight).")).optional(),
  pickup_lfd_binding_party: z
    .enum(LFD_PARTIES)
    .nullable()
    .optional()
    .meta({ description: ext('whose date `pickup_lfd_binding` is.') }),
  pickup_lfd_binding_timezone: text(ext('the zone `pickup_lfd_binding` is a local midnight in.')).optional(),
  pickup_lfd_line: at(),
  pickup_lfd_terminal: at(),
  pickup_lfd_rail: at(),
  import_deadlines: z.strictObject({ pickup_lfd_line: at(), pickup_lfd_terminal: at(), pickup_lfd_rail: at() }),
  ind_facility_lfd_on: at('Deprecated mirror of `pickup_lfd_rail`.'),
  ssl_lfd: at('Mirror of `pickup_lfd_line`.'),
  pod_rail_carrier_scac: text(),
  ind_rail_carrier_scac: text(),
  pod_rail_loaded_at: at(),
  pod_rail_departed_at: at(),
  ind_eta_at: at(),
  ind_ata_at: at(),
  ind_rail_unloaded_at: at(),
  ind_facility_holds: z.array(hold).nullable(),
  ind_facility_fees: z.array(fee).nullable(),
  final_destination_full_out_at: at(),
  final_destination_timezone: text(),
  empty_terminated_at: at(),
  empty_terminated_timezone: text(),
  delivered_at: at(),
  empty_out_at: at(),
  pol_full_in_at: at(),
  pol_vessel_loaded_at: at(),
  pol_vessel_departed_at: at(),
  terminal_checked_at: at(),
  pod_last_tracking_request_at: at(),
  shipment_last_tracking_request_at: at(),
  rail_last_tracking_request_at: at(),
  terminal_next_check_at: at(ext('when the terminal will next be asked (domain time).')),
  rail_checked_at: at(ext('when the railroad was last asked (domain time).')),
  rail_next_check_at: at(ext('when the railroad will next be asked (domain time).')),
  created_at: at(),
  updated_at: at(),
});

export const containerResource = resource('container', {
  id: 'Container',
  description: 'A container (api-wire-notes §4.2).',
  attributes: containerAttributes,
  relationships: z.strictObject({
    shipment: toOne('shipment'),
    pickup_facility: toOne('terminal', 'rail_terminal'),
    pod_terminal: toOne('terminal', 'rail_terminal'),
    transport_events: toMany('transport_event'),
    raw_events: toMany('raw_event'),
  }),
});

/** What a container of the board needs (tracking/attention.ts), its resource-level `meta.attention`. */
export const attention = z
  .strictObject({
    holds: strings.meta({ description: 'The names of the holds that block pickup (status `hold`).' }),
    available: z.boolean(),
    lfd_days_left: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Whole days to the binding last free day, in its own calendar (negative once passed).' }),
    lfd: z.enum(['passed', 'today', 'tomorrow', 'later']).nullable(),
    demurrage_accruing: z.boolean(),
  })
  .meta({ id: 'Attention', description: ext('what a container on the board needs today.') });

/** A container of `GET /v2/containers/board`: the container with `meta.attention`. */
export const boardContainerResource = containerResource
  .extend({ meta: z.strictObject({ attention }) })
  .meta({ id: 'BoardContainer', description: ext('a container that needs action, with what it needs.') });

/** `meta` of the board: the page's size, the number listed, and a count per kind over all pages. */
export const boardMeta = z.strictObject({
  size: z.number().int(),
  total: z.number().int(),
  counts: z.record(z.string(), z.number().int()).meta({
    description: 'Per kind (`needs_action`, `on_hold`, `available`, `lfd_today`, `lfd_tomorrow`, `lfd_passed`, `demurrage_accruing`).',
  }),
});

// ---------- events ----------

export const transportEventAttributes = z.strictObject({
  event: z.enum(CONTAINER_EVENT_NAMES),
  voyage_number: text(),
  timestamp: at(),
  timezone: text(),
  location_locode: text(),
  data_source: z
    .enum(['shipping_line', 'terminal', 'rail', 'ais', 'user'])
    .meta({ description: '`ais` and `user` are Tidemark extensions (docs/extensions.md).' }),
  value: at('The new date on `container.pickup_*` events, else null.'),
  invalidated_at: at(),
  created_at: at(),
  observed_at: at(ext('when Tidemark first saw the occurrence or this version of it (domain time).')),
});

export const transportEventResource = resource('transport_event', {
  id: 'TransportEvent',
  description: 'A container transport event (api-wire-notes §4.4).',
  attributes: transportEventAttributes,
  relationships: z.strictObject({
    shipment: toOne('shipment'),
    container: toOne('container'),
    vessel: toOne('vessel'),
    location: toOne('port', 'metro_area'),
    terminal: toOne('terminal', 'rail_terminal'),
    source_event: toOne('raw_event'),
    previous_version: toOne('transport_event'),
  }),
});

const eventDataSource = z.enum(['shipping_line', 'terminal', 'rail', 'ais']);

export const estimatedEventAttributes = z.strictObject({
  created_at: at(),
  estimated_timestamp: instant,
  event: z.literal('shipment.estimated.arrival'),
  location_locode: text(),
  timezone: text(),
  voyage_number: text(),
  data_source: eventDataSource,
});

export const estimatedEventResource = resource('estimated_event', {
  id: 'EstimatedEvent',
  description: 'An estimate of the arrival at the POD (api-wire-notes §4.5).',
  attributes: estimatedEventAttributes,
  relationships: z.strictObject({ shipment: toOne('shipment'), port: toOne('port'), vessel: toOne('vessel') }),
});

export const containerUpdatedEventAttributes = z.strictObject({
  changeset: z
    .record(z.string(), z.tuple([z.unknown(), z.unknown()]))
    .meta({ description: '`{field: [old, new]}` of the terminal data that changed.' }),
  timestamp: at(),
  timezone: text(),
  data_source: eventDataSource.nullable(),
});

export const containerUpdatedEventResource = resource('container_updated_event', {
  id: 'ContainerUpdatedEvent',
  description: 'A change of terminal data of a container (api-wire-notes §4.6).',
  attributes: containerUpdatedEventAttributes,
  relationships: z.strictObject({
    container: toOne('container'),
    terminal: toOne('terminal', 'rail_terminal'),
    shipment: toOne('shipment'),
  }),
});

export const containerCreatedEventAttributes = z.strictObject({ timestamp: at(), timezone: text() });

export const containerCreatedEventResource = resource('container_created_event', {
  id: 'ContainerCreatedEvent',
  description: 'A container added to a shipment (api-wire-notes §4.7).',
  attributes: containerCreatedEventAttributes,
  relationships: z.strictObject({ container: toOne('container'), shipment: toOne('shipment') }),
});

export const containerPodTerminalChangedEventAttributes = z.strictObject({
  data_source: z.enum(['shipping_line', 'terminal', 'pierpass', 'rail', 'ais']).nullable(),
  timestamp: at(),
});

export const containerPodTerminalChangedEventResource = resource('container_pod_terminal_changed_event', {
  id: 'ContainerPodTerminalChangedEvent',
  description: 'A new POD terminal for a container; `terminal` is the new one (api-wire-notes §4.7).',
  attributes: containerPodTerminalChangedEventAttributes,
  relationships: z.strictObject({
    container: toOne('container'),
    shipment: toOne('shipment'),
    terminal: toOne('terminal', 'rail_terminal'),
  }),
});

export const rawEventAttributes = z.strictObject({
  event: text('The normalized milestone (api-wire-notes §3), null when the carrier text maps to none.'),
  original_event: z.string().meta({ description: "The source's own words." }),
  timestamp: at(),
  estimated: z.boolean(),
  actual_at: at(),
  estimated_at: at(),
  actual_on: z.iso.date().nullable(),
  estimated_on: z.iso.date().nullable(),
  timezone: text(),
  created_at: at(),
  location_name: text(),
  location_locode: text(),
  vessel_name: text(),
  vessel_imo: text(),
  voyage_number: text(),
  index: z.number().int(),
  data_source: z.enum(['shipping_line', 'terminal', 'rail']),
  data_provider_code: text(),
  will_occur_at: at(),
  invalidated_at: at(),
});

export const rawEventResource = resource('raw_event', {
  id: 'RawEvent',
  description: 'A fact as a source gave it, in journey order (api-wire-notes §4.8).',
  attributes: rawEventAttributes,
  relationships: z.strictObject({
    location: toOne('port', 'metro_area'),
    vessel: toOne('vessel'),
    container: toOne('container'),
    terminal: toOne('terminal', 'rail_terminal'),
  }),
});

// ---------- tracking requests, parties, search ----------

export const trackingRequestAttributes = z.strictObject({
  request_number: z.string(),
  request_type: z.enum(REQUEST_TYPES),
  scac: z.string(),
  ref_numbers: strings,
  shipment_tags: strings,
  status: z.enum(TRACKING_REQUEST_STATUSES),
  failed_reason: z
    .enum(FAILED_REASONS)
    .nullable()
    .meta({ description: '`plan_limit_reached` is a Tidemark extension (docs/extensions.md).' }),
  is_retrying: z.boolean(),
  retry_count: z.number().int().nullable(),
  created_at: at(),
  updated_at: at(),
});

export const trackingRequestResource = linkedResource('tracking_request', {
  id: 'TrackingRequest',
  description: 'A request to track a number (api-wire-notes §4.3); `tracked_object` is the shipment once created.',
  attributes: trackingRequestAttributes,
  relationships: z.strictObject({ tracked_object: toOne('shipment'), customer: toOne('party'), user: toOne('user') }),
});

export const partyAttributes = z.strictObject({ company_name: z.string(), created_at: at(), updated_at: at() });

export const partyResource = linkedResource('party', {
  id: 'Party',
  description: 'A party (customer) of the account.',
  attributes: partyAttributes,
  relationships: z.strictObject({}),
});

export const partyRoleAttributes = z.strictObject({
  role: z.string().meta({ description: 'shipper, consignee, customer, notify party, or a name of your own' }),
  created_at: at(),
  updated_at: at(),
});

export const partyRoleResource = linkedResource('party_role', {
  id: 'PartyRole',
  description: ext("a party's role on a shipment or a container."),
  attributes: partyRoleAttributes,
  relationships: z.strictObject({ party: toOne('party'), shipment: toOne('shipment'), container: toOne('container') }),
});

export const searchResultAttributes = z.strictObject({
  entity_type: z.enum(['shipment', 'cargo', 'tracking_request']).meta({ description: '`cargo` is a container.' }),
  number: z.string(),
  shipment_id: text(),
  scac: text(),
  port_of_lading_name: text(),
  port_of_discharge_name: text(),
  containers_count: z.number().int().nullable(),
  tracking_stopped: z.boolean(),
  tracking_stopped_reason: z.enum(STOPPED_REASONS).nullable(),
  status: text("The shipment's (`created`, `tracking_stopped`), container's `current_status` or request's status."),
  failed_reason: z.enum(FAILED_REASONS).nullable(),
  ref_numbers: strings,
  created_at: at(),
  updated_at: at(),
});

export const searchResultResource = resource('search_result', {
  id: 'SearchResult',
  description: 'A shipment, container or tracking request found by `GET /v2/search` (api-wire-notes §4.13).',
  attributes: searchResultAttributes,
  relationships: z.strictObject({ shipment: toOne('shipment') }),
});

// ---------- reference data ----------

export const shippingLineAttributes = z.strictObject({
  scac: z.string(),
  name: z.string(),
  short_name: z.string(),
  alternative_scacs: strings,
  bill_of_lading_tracking_support: z.boolean(),
  booking_number_tracking_support: z.boolean(),
  container_number_tracking_support: z.boolean(),
  bol_prefix: text(),
  provided_data: providedData,
  tracking_url: text(`A template with \`\${BLNUM}\`; null for a carrier served by a configured real endpoint.`),
  contact_url: text(),
});

export const shippingLineResource = resource('shipping_line', {
  id: 'ShippingLine',
  description: 'A carrier (api-wire-notes §4.12).',
  attributes: shippingLineAttributes,
  relationships: z.strictObject({}),
});

const coordinate = z.string().nullable().meta({ description: 'Decimal degrees as a string (the reference does so).' });

export const portAttributes = z.strictObject({
  id: z.string(),
  name: z.string(),
  code: z.string().meta({ description: 'UN/LOCODE' }),
  state_abbr: text(),
  city: text('Always null: the reference table has no city for a port.'),
  country_code: z.string(),
  time_zone: z.string(),
  latitude: coordinate,
  longitude: coordinate,
});

export const portResource = resource('port', {
  id: 'Port',
  description: 'A seaport (api-wire-notes §4.9).',
  attributes: portAttributes,
  relationships: z.strictObject({ terminals: toMany('terminal') }),
});

export const metroAreaAttributes = z.strictObject({
  name: z.string(),
  code: z.string(),
  state_abbr: z.string(),
  country_code: z.string(),
  time_zone: z.string(),
  latitude: coordinate,
  longitude: coordinate,
});

export const metroAreaResource = resource('metro_area', {
  id: 'MetroArea',
  description: 'An inland rail hub (api-wire-notes §4.9).',
  attributes: metroAreaAttributes,
  relationships: z.strictObject({}),
});

export const terminalAttributes = z.strictObject({
  id: z.string(),
  name: z.string(),
  nickname: z.string(),
  firms_code: text(),
  smdg_code: text(),
  bic_facility_code: text('Always null: no BIC facility codes in the terminal table.'),
  street: text('Always null: no street addresses in the terminal table.'),
  city: z.string(),
  state: text(),
  state_abbr: z.string(),
  zip: text('Always null.'),
  country: z.string(),
  facility_type: z.literal('ocean_terminal'),
  provided_data: providedData,
});

export const terminalResource = resource('terminal', {
  id: 'Terminal',
  description: 'A marine terminal (api-wire-notes §4.10).',
  attributes: terminalAttributes,
  relationships: z.strictObject({ port: toOne('port') }),
});

export const railTerminalAttributes = z.strictObject({
  name: z.string(),
  nickname: text('Always null.'),
  firms_code: text(),
  city: text('Always null: where a source-named rail terminal is, is not known.'),
});

export const railTerminalResource = resource('rail_terminal', {
  id: 'RailTerminal',
  description: 'A rail terminal as a source named it (api-wire-notes §4.10).',
  attributes: railTerminalAttributes,
  relationships: z.strictObject({ port: toOne('port'), metro_area: toOne('metro_area') }),
});

export const vesselPosition = z
  .strictObject({
    latitude: z.number(),
    longitude: z.number(),
    heading: z.number().nullable(),
    timestamp: at(),
    estimated: z.boolean(),
  })
  .meta({ id: 'VesselPosition' });

export const vesselAttributes = z.strictObject({
  name: text(),
  imo: z.string(),
  mmsi: text(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  nautical_speed_knots: z.number().nullable(),
  navigational_heading_degrees: z.number().nullable(),
  position_timestamp: at(),
  positions: z
    .array(vesselPosition)
    .optional()
    .meta({ description: 'Only when positions were asked for, and on the future-position endpoints.' }),
});

export const vesselResource = resource('vessel', {
  id: 'Vessel',
  description: 'A vessel and its last AIS position (api-wire-notes §4.11).',
  attributes: vesselAttributes,
  relationships: z.strictObject({}),
});

// ---------- webhooks ----------

export const webhookAttributes = z.strictObject({
  url: z.string(),
  active: z.boolean(),
  events: z.array(z.enum(EVENT_NAMES)),
  secret: z.string(),
  headers: z.array(z.strictObject({ name: z.string(), value: z.string() })),
  created_at: at(),
  updated_at: at(ext('when the webhook was last changed.')),
  deactivated_at: at(ext('when Tidemark switched it off after its deliveries kept failing.')),
  deactivated_reason: text(ext('why Tidemark switched it off.')),
});

export const webhookResource = resource('webhook', {
  id: 'Webhook',
  description: 'A webhook endpoint (api-wire-notes §4.13).',
  attributes: webhookAttributes,
  relationships: z.strictObject({}),
});

export const webhookNotificationAttributes = z.strictObject({
  id: z.string(),
  event: z.enum(EVENT_NAMES),
  delivery_status: z.enum(DELIVERY_STATUSES),
  created_at: at(),
  version: z.string().optional().meta({ description: 'Document events only: the version of their document schema.' }),
});

export const webhookNotificationResource = resource('webhook_notification', {
  id: 'WebhookNotification',
  description: 'A notification of an event to a webhook (api-wire-notes §4.13).',
  attributes: webhookNotificationAttributes,
  relationships: z.strictObject({
    webhook: toOne('webhook'),
    reference_object: toOne(
      'tracking_request',
      'transport_event',
      'estimated_event',
      'container_updated_event',
      'container_created_event',
      'container_pod_terminal_changed_event',
    )
      .optional()
      .meta({ description: 'Every event but the document events.' }),
    document: toOne('document').optional().meta({ description: 'Document events only.' }),
    webhook_notification_logs: toMany('webhook_notification_log'),
  }),
});

export const webhookNotificationLogAttributes = z.strictObject({
  attempt: z.number().int(),
  started_at: at(),
  duration_ms: z.number().int().nullable(),
  status_code: z.number().int().nullable(),
  error: text(),
  response_body: text('The first 2 KB.'),
});

export const webhookNotificationLogResource = resource('webhook_notification_log', {
  id: 'WebhookNotificationLog',
  description: ext('one delivery attempt of a notification.'),
  attributes: webhookNotificationLogAttributes,
  relationships: z.strictObject({ webhook_notification: toOne('webhook_notification') }),
});

// ---------- document events' samples (Tidemark processes no documents: only the samples show them) ----------

export const documentResource = linkedResource('document', {
  id: 'Document',
  description: 'A document of the document events; only in `GET /v2/webhook_notifications/examples`.',
  attributes: z.strictObject({
    name: z.string(),
    document_type: text(),
    document_type_manual: text(),
    classification_notes: text(),
    source: z.enum(['upload', 'api', 'email', 'split_document']),
    file_name: text(),
    file_content_type: text(),
    file_size_bytes: z.number().int().nullable(),
    created_at: at(),
    updated_at: at(),
  }),
  relationships: z.strictObject({
    email_submission: toOne('email_submission'),
    last_document_representation: toOne('document_representation'),
  }),
});

export const emailSubmissionResource = resource('email_submission', {
  id: 'EmailSubmission',
  description: 'The e-mail a sample document came in; only in the document events’ samples.',
  attributes: z.strictObject({
    from: z.string(),
    subject: z.string(),
    attachments_count: z.number().int(),
    received_at: at(),
    created_at: at(),
  }),
  relationships: z.strictObject({ documents: toMany('document') }),
});

export const documentRepresentationResource = resource('document_representation', {
  id: 'DocumentRepresentation',
  description: 'The extraction of a sample document; only in the document events’ samples.',
  attributes: z.strictObject({
    status: z.enum(['extracted', 'failed']),
    schema_id: z.string(),
    extracted_data: z.record(z.string(), z.unknown()).nullable(),
    error: text(),
    created_at: at(),
    updated_at: at(),
  }),
  relationships: z.strictObject({ document: toOne('document') }),
});

// ---------- route-local resources ----------

export const apiKeyAttributes = z.strictObject({
  name: text(),
  masked: z.string(),
  created_at: at(),
  last_used_at: at(),
  key: z.string().optional().meta({ description: 'The full key: in the response that creates it, and never again.' }),
});

export const apiKeyResource = linkedResource('api_key', {
  id: 'ApiKey',
  description: ext("one of the account's API keys, masked."),
  attributes: apiKeyAttributes,
  relationships: z.strictObject({}),
});

// ---------- all of them ----------

/** Every resource schema by its JSON:API `type`. */
export const RESOURCE_SCHEMAS = {
  shipment: shipmentResource,
  container: containerResource,
  transport_event: transportEventResource,
  estimated_event: estimatedEventResource,
  container_updated_event: containerUpdatedEventResource,
  container_created_event: containerCreatedEventResource,
  container_pod_terminal_changed_event: containerPodTerminalChangedEventResource,
  raw_event: rawEventResource,
  tracking_request: trackingRequestResource,
  party: partyResource,
  party_role: partyRoleResource,
  search_result: searchResultResource,
  shipping_line: shippingLineResource,
  port: portResource,
  metro_area: metroAreaResource,
  terminal: terminalResource,
  rail_terminal: railTerminalResource,
  vessel: vesselResource,
  webhook: webhookResource,
  webhook_notification: webhookNotificationResource,
  webhook_notification_log: webhookNotificationLogResource,
  document: documentResource,
  email_submission: emailSubmissionResource,
  document_representation: documentRepresentationResource,
  api_key: apiKeyResource,
} as const;

export type ResourceType = keyof typeof RESOURCE_SCHEMAS;
/** The wire object of a resource type, e.g. `Resource<'container'>['attributes']['current_status']`. */
export type Resource<T extends ResourceType> = z.infer<(typeof RESOURCE_SCHEMAS)[T]>;
export type Attributes<T extends ResourceType> = Resource<T>['attributes'];

type AnyResource = (typeof RESOURCE_SCHEMAS)[ResourceType];
const ALL_RESOURCES = Object.values(RESOURCE_SCHEMAS) as [AnyResource, ...AnyResource[]];
/** Any resource of `included` (a union on `type`). */
export const includedResource = z
  .discriminatedUnion('type', ALL_RESOURCES)
  .meta({ id: 'IncludedResource', description: 'A sideloaded resource: any resource type, told apart by `type`.' });

// ---------- documents ----------

/** The JSON:API documents of the helpers below, and schemas derived from them (`.meta`, `.describe`). */
const jsonApiDocuments = new WeakSet<object>();
const markJsonApi = <S extends z.ZodType>(schema: S): S => {
  jsonApiDocuments.add(schema);
  return schema;
};

/** Whether a response schema is a JSON:API document (sent as `application/vnd.api+json`), itself or what it derives from. */
export function isJsonApiDocument(schema: unknown): boolean {
  for (let s = schema as { _zod?: { parent?: unknown } } | undefined; s; s = s._zod?.parent as typeof s) {
    if (jsonApiDocuments.has(s)) return true;
  }
  return false;
}

/** A links object: every value an absolute URL string; a link that does not apply is omitted, never null. */
export const pageLinks = z
  .strictObject({
    self: z.string(),
    current: z.string().optional(),
    first: z.string().optional(),
    prev: z.string().optional(),
    next: z.string().optional(),
    last: z.string().optional(),
  })
  .meta({ id: 'PageLinks', description: 'Absolute URLs; links that do not apply are omitted, never null (api-wire-notes §1.7).' });

export const pagination = z.strictObject({
  current: z.number().int(),
  next: z.number().int().optional(),
  last: z.number().int().optional(),
  records: z.number().int(),
});

/** `meta` of the lists: `{size, total}`, `{total}`, or with `pagination` (api-wire-notes §1.7 table). */
export const listMeta = z
  .strictObject({
    size: z.number().int().optional(),
    total: z.number().int().optional(),
    pagination: pagination.optional(),
  })
  .meta({ id: 'ListMeta' });

const selfLink = z.strictObject({ self: z.string().meta({ description: 'Absolute: the request URL as sent.' }) });

/** `{data: <resource>, included?, links: {self}}`; `meta` when given. */
export function resourceDocument<R extends z.ZodType, M extends z.ZodType = z.ZodNever>(data: R, opts: { meta?: M } = {}) {
  const schema = z.strictObject({
    data,
    included: z.array(includedResource).optional(),
    links: selfLink.optional(),
    ...(opts.meta ? { meta: opts.meta } : {}),
  } as { data: R; included: z.ZodOptional<z.ZodArray<typeof includedResource>>; links: z.ZodOptional<typeof selfLink>; meta: M });
  return markJsonApi(schema);
}

/** `{data: [<resource>], included?, links, meta?}` of a list; `meta` defaults to the lists' `ListMeta`. */
export function listDocument<R extends z.ZodType, M extends z.ZodType = z.ZodOptional<typeof listMeta>>(data: R, opts: { meta?: M } = {}) {
  return markJsonApi(
    z.strictObject({
      data: z.array(data),
      included: z.array(includedResource).optional(),
      links: pageLinks,
      meta: (opts.meta ?? listMeta.optional()) as M,
    }),
  );
}

/** The webhook delivery document (and `GET /v2/webhook_notifications/{id}`'s with `meta`). */
export const notificationDocument = markJsonApi(
  z.strictObject({
    data: webhookNotificationResource,
    included: z.array(includedResource).optional().meta({ description: 'Absent for the minimal events (api-wire-notes §5.4).' }),
    links: z.strictObject({ self: z.string() }),
    meta: z
      .strictObject({ sequence: z.number().int(), occurred_at: at() })
      .optional()
      .meta({ description: ext('receivers order a container’s notifications by `sequence`.') }),
  }),
).meta({ id: 'WebhookNotificationDocument' });

// ---------- errors ----------

export const errorObject = z
  .strictObject({
    status: z.string().meta({ description: 'The HTTP status, as a string.' }),
    title: z.string(),
    detail: z.string().nullable().optional(),
    source: z
      .union([z.strictObject({ pointer: z.string() }), z.strictObject({ parameter: z.string() })])
      .nullable()
      .optional(),
    code: z.string().optional(),
    meta: z.record(z.string(), z.unknown()).optional().meta({ description: 'Always has `request_id` (Tidemark extension).' }),
  })
  .meta({ id: 'Error', description: 'A JSON:API error object.' });

export const errorDocument = markJsonApi(z.strictObject({ errors: z.array(errorObject) })).meta({
  id: 'ErrorDocument',
  description: 'JSON:API errors',
});

/**
 * The shipments list's 422 on invalid filters: the reference's top-level `error` list beside JSON:API `errors`
 * (api-wire-notes §6).
 */
export const shipmentFilterErrorDocument = markJsonApi(
  z.strictObject({
    error: z.array(z.strictObject({ title: z.string(), detail: z.string().nullable().optional() })),
    errors: z.array(errorObject),
  }),
).meta({ id: 'ShipmentFilterErrorDocument', description: 'Invalid filter values: the reference’s `error` list and JSON:API `errors`' });
