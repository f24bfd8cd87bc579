// Reference data and the small resources (api-wire-notes.md §1.3–1.4, §4.9–4.13): shipping lines, ports, metro
// areas, terminals, rail terminals, vessels, parties, accounts and search results.
import { z } from 'zod';
import { EVENT_NAMES } from './tracking.js';
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
  uuid,
} from './common.js';

/** Port and metro-area coordinates are strings on the wire (`"53.530404621"`, §1.4). */
const coordinateString = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/, 'a decimal number written as a string')
  .nullable();

export const shippingLine = resource(
  'shipping_line',
  {
    scac: z.string(),
    name: z.string(),
    alternative_scacs: z.array(z.string()),
    short_name: z.string(),
    bill_of_lading_tracking_support: z.boolean(),
    booking_number_tracking_support: z.boolean(),
    container_number_tracking_support: z.boolean(),
    // Extra; read by the reference MCP server.
    bol_prefix: nullableString.optional(),
  },
  {},
);

export const port = resource(
  'port',
  {
    // `attributes.id` repeats the id (§1.3).
    id: uuid,
    name: nullableString,
    code: nullableString,
    state_abbr: nullableString,
    city: nullableString,
    country_code: nullableString,
    time_zone: timezone,
    latitude: coordinateString,
    longitude: coordinateString,
  },
  { terminals: toMany('terminal') },
);

export const metroArea = resource(
  'metro_area',
  {
    name: nullableString,
    code: nullableString,
    state_abbr: nullableString,
    country_code: nullableString,
    time_zone: timezone,
    latitude: coordinateString,
    longitude: coordinateString,
  },
  {},
);

export const terminal = resource(
  'terminal',
  {
    id: uuid,
    name: z.string(),
    nickname: nullableString,
    firms_code: nullableString,
    smdg_code: nullableString,
    bic_facility_code: nullableString,
    street: nullableString,
    city: nullableString,
    state: nullableString,
    state_abbr: nullableString,
    zip: nullableString,
    country: nullableString,
    // Extra.
    facility_type: z.literal('ocean_terminal').nullable(),
    provided_data: z.record(z.string(), z.union([z.boolean(), z.string()])).nullable(),
  },
  { port: toOneRequired('port') },
);

export const railTerminal = resource(
  'rail_terminal',
  { name: z.string(), nickname: nullableString, firms_code: nullableString, city: nullableString },
  { port: toOne('port'), metro_area: toOne('metro_area') },
);

const position = z.looseObject({
  latitude: z.number(),
  longitude: z.number(),
  heading: z.number().nullable(),
  timestamp,
  estimated: z.boolean(),
});

export const vessel = resource(
  'vessel',
  {
    name: nullableString,
    // Strings, not numbers (§1.4); lat/long and positions are numbers.
    imo: nullableString,
    mmsi: nullableString,
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    nautical_speed_knots: z.number().nullable(),
    navigational_heading_degrees: z.number().nullable(),
    position_timestamp: nullableTimestamp,
    // Only when positions are asked for, or on the future-position endpoints.
    positions: z.array(position).optional(),
  },
  {},
);

/** A vessel answered by the future-position endpoints: positions present, every one estimated (§2.6). */
export const vesselWithFuturePositions = vessel.extend({
  attributes: vessel.shape.attributes.extend({ positions: z.array(position.extend({ estimated: z.literal(true) })) }),
});

export const party = resource('party', { company_name: z.string() }, {}, { links: relativeSelf('parties') });

export const account = resource('account', { company_name: z.string() }, {});

export const searchResult = resource(
  'search_result',
  {
    entity_type: z.enum(['shipment', 'cargo', 'tracking_request']),
    number: nullableString,
    shipment_id: uuid.nullable(),
    scac: nullableString,
    port_of_lading_name: nullableString,
    port_of_discharge_name: nullableString,
    containers_count: z.number().int().nullable(),
    tracking_stopped: z.boolean().nullable(),
    tracking_stopped_reason: nullableString,
    status: nullableString,
    failed_reason: nullableString,
    ref_numbers: stringList,
    created_at: nullableTimestamp,
    updated_at: nullableTimestamp,
  },
  {},
);

// ---------- webhooks (§4.13, §2.4–2.5) ----------

export const webhook = resource(
  'webhook',
  {
    url: z.string().url(),
    active: z.boolean(),
    events: z.array(z.enum(EVENT_NAMES)),
    secret: z.string().min(1),
    headers: z.array(z.looseObject({ name: z.string(), value: z.string() })).nullable(),
    created_at: nullableTimestamp,
  },
  {},
);

export const webhookNotification = resource(
  'webhook_notification',
  {
    id: uuid,
    event: z.enum(EVENT_NAMES),
    delivery_status: z.enum(['pending', 'succeeded', 'failed']),
    created_at: timestamp,
  },
  {
    webhook: toOneRequired('webhook'),
    reference_object: toOne(
      'tracking_request',
      'estimated_event',
      'transport_event',
      'container_updated_event',
      'container_created_event',
      'container_pod_terminal_changed_event',
    ),
    // Always [] at the reference; Tidemark fills it with the delivery attempts (docs/extensions.md).
    webhook_notification_logs: toMany('webhook_notification_log'),
  },
).refine((n) => n.attributes.id === n.id, { message: 'attributes.id repeats the id', path: ['attributes', 'id'] });

/** GET /webhooks/events: categories with slug ids (§1.3, §2.4). */
export const webhookEventCategories = z.looseObject({
  data: z
    .array(
      z.looseObject({
        id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'a slug'),
        type: z.literal('webhook_event_category'),
        attributes: z.looseObject({
          name: z.string(),
          events: z.array(z.looseObject({ name: z.enum(EVENT_NAMES), description: z.string() })),
        }),
      }),
    )
    .min(1),
});

/** GET /webhooks/ips, plain JSON. */
export const webhookIps = z.looseObject({ webhook_notification_ips: z.array(z.string()), last_updated: timestamp });

/** POST /webhooks/trigger, plain JSON (§2.4). */
export const triggerResult = z.looseObject({
  url: z.string(),
  succeeded: z.boolean(),
  error: z.string().nullable(),
  status_code: z.number().int().nullable(),
  request_headers: z.record(z.string(), z.string()),
  request_body: z.string(),
  response_headers: z.record(z.string(), z.string()),
  response_body: z.string().nullable(),
});
