// The container resource (api-wire-notes §4.2) and the board's container with its `meta.attention`.
import { z } from 'zod';
import {
  at,
  CONTAINER_STATUSES,
  EQUIPMENT_HEIGHTS,
  EQUIPMENT_LENGTHS,
  EQUIPMENT_TYPES,
  ext,
  fee,
  hold,
  LFD_PARTIES,
  resource,
  strings,
  text,
  toMany,
  toOne,
} from './common.js';

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
  // An engine field that has reached the wire (src/render/container.ts does not hide it): kept, documented.
  bound_inland: z
    .boolean()
    .nullable()
    .optional()
    .meta({
      description: ext(
        "the bill of lading's destination is an inland rail hub (a metro area) other than the POD: the box goes on " +
          'from the POD by rail before any rail leg is reported, so it is `awaiting_inland_transfer` from discharge, ' +
          'never `available` at the POD terminal, and its pickup place is the inland rail terminal. A full out at the ' +
          'POD (`pod_full_out_at`) overrides it. Null until a carrier answer lists the box; absent on the webhook samples’ containers.',
      ),
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
    custom_fields: toMany('custom_field')
      .optional()
      .meta({ description: 'Extension: present when the request includes `custom_fields` (its values, oldest first).' }),
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

export type BoardAttention = z.infer<typeof attention>;
