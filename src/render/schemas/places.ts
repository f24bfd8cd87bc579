// Reference data: carriers (api-wire-notes §4.12), ports and metro areas (§4.9), terminals (§4.10), vessels (§4.11).
import { z } from 'zod';
import { at, providedData, resource, strings, text, toMany, toOne } from './common.js';

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

export type VesselPosition = z.infer<typeof vesselPosition>;
