// The events of a shipment and its containers: transport, estimated, container updated/created/POD terminal
// changed (api-wire-notes §4.4–4.7), and the raw events (§4.8).
import { z } from 'zod';
import { at, CONTAINER_EVENT_NAMES, ext, instant, resource, text, toOne } from './common.js';

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
  data_provider_name: text('The carrier whose answer it is, by name (`COSCO` beside `COSU`).'),
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
