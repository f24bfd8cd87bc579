// The shipment resource (api-wire-notes §4.1).
import { z } from 'zod';
import { at, ext, linkedResource, STOPPED_REASONS, strings, text, toMany, toOne } from './common.js';

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
    custom_fields: toMany('custom_field')
      .optional()
      .meta({ description: 'Extension: present when the request includes `custom_fields` (its values, oldest first).' }),
  }),
});
