import { readContainerSnapshot } from '../tracking/stored.js';
import { referenceId } from '../lib/ids.js';
import type { ContainerRecord } from '../storage/repositories/containers.js';
import type { RawEventRecord } from '../tracking/raw-events.js';
import type { ResourceKind } from './jsonapi.js';
import { isoSeconds } from '../lib/dates.js';
import { customFieldsInclude, customFieldsRelationship } from './custom-field-include.js';
import type { ResourceLoaders } from './loaders.js';
import { facilityRef, locationInclude, locationRef, terminalInclude } from './places.js';
import { carrierByScac } from '../sources/reference/index.js';
import type { RelatedKinds } from './kinds.js';
import { vesselInclude, vesselRef } from './vessel.js';

/** Snapshot fields that are the engine's own bookkeeping, never on the wire. */
const INTERNAL = new Set([
  'iso_size_type',
  'weight_is_shipment_average',
  'pod_terminal',
  'pod_terminal_source',
  'pickup_facility',
  'rail_move',
  'pod_terminal_available_for_pickup',
  'ind_facility_available_for_pickup',
  'pod_terminal_off_dock',
  'customs_selection_holds',
  'on_board_at',
  'pod_grounded_at',
  'inland_at',
  'number',
]);

/**
 * The container resource (api-wire-notes §4.2): every attribute present, the extras real responses carry.
 * The status is the stored one (a delivery marked by hand overrides the sources' until the empty return).
 * `raw_events` lists the raw events' ids when the record carries them (`raw_event_ids`, set by the routes);
 * `custom_fields` is there only when the request includes it (`custom_field_ids`, render/custom-field-include.ts).
 */
export const containerKindOf = (deps: ResourceLoaders, kinds: RelatedKinds): ResourceKind<ContainerRecord> => {
  const { containers } = deps;
  const shipments = kinds.shipment;
  return {
    type: 'container',
    render: (c) => {
      const s = readContainerSnapshot(c.snapshot);
      const attributes: Record<string, unknown> = { number: c.number, ref_numbers: c.ref_numbers };
      for (const [k, v] of Object.entries(s)) if (!INTERNAL.has(k)) attributes[k] = v ?? null;
      attributes.current_status = c.current_status;
      attributes.delivered_at = s.delivered_at ?? isoSeconds(c.manual_delivered_at as Date | null);
      attributes.holds_at_pod_terminal = s.holds_at_pod_terminal ?? [];
      attributes.fees_at_pod_terminal = s.fees_at_pod_terminal ?? [];
      attributes.import_deadlines = {
        pickup_lfd_line: s.pickup_lfd_line ?? null,
        pickup_lfd_terminal: s.pickup_lfd_terminal ?? null,
        pickup_lfd_rail: s.pickup_lfd_rail ?? null,
      };
      attributes.terminal_checked_at = isoSeconds(c.terminal_checked_at);
      attributes.pod_last_tracking_request_at = isoSeconds(c.terminal_checked_at);
      attributes.shipment_last_tracking_request_at = isoSeconds(c.shipment_last_tracking_request_at);
      attributes.rail_last_tracking_request_at = isoSeconds(c.rail_checked_at);
      // Extras: when each source is asked next (domain time).
      attributes.terminal_next_check_at = isoSeconds(c.terminal_next_check_at);
      attributes.rail_checked_at = isoSeconds(c.rail_checked_at);
      attributes.rail_next_check_at = isoSeconds(c.rail_next_check_at);
      attributes.created_at = isoSeconds(c.created_at);
      attributes.updated_at = isoSeconds(c.updated_at);
      return {
        id: c.id,
        type: 'container',
        attributes,
        relationships: {
          shipment: { data: { id: c.shipment_id, type: 'shipment' } },
          pickup_facility: { data: facilityRef(s.pickup_facility) },
          pod_terminal: { data: facilityRef(s.pod_terminal) },
          transport_events: { data: c.transport_event_ids.map((id) => ({ id, type: 'transport_event' })) },
          raw_events: { data: ((c.raw_event_ids as string[] | undefined) ?? []).map((id) => ({ id, type: 'raw_event' })) },
          ...customFieldsRelationship(c),
        },
      };
    },
    includable: {
      shipment: {
        targets: () => [shipments],
        async load(records) {
          const accountId = records[0]?.account_id;
          if (!accountId) return [];
          const ids = [...new Set(records.map((r) => r.shipment_id))];
          return (await containers.shipments(accountId, ids)).map((record) => ({ kind: shipments, record }));
        },
      },
      pod_terminal: terminalInclude(deps.places, (c) => [readContainerSnapshot(c.snapshot).pod_terminal]),
      pickup_facility: terminalInclude(deps.places, (c) => [readContainerSnapshot(c.snapshot).pickup_facility]),
      transport_events: {
        targets: () => [kinds.transportEvent],
        async load(records) {
          const accountId = records[0]?.account_id;
          if (!accountId) return [];
          const kind = kinds.transportEvent;
          return (
            await containers.transportEventsOf(
              accountId,
              records.map((r) => r.id),
            )
          ).map((record) => ({ kind, record }));
        },
      },
      raw_events: {
        targets: () => [rawEventKindOf(deps)],
        async load(records) {
          const events = await containers.rawEventsOf(records);
          const rawEvents = rawEventKindOf(deps);
          return records.flatMap((c) => (events.get(c.id) ?? []).map((e) => ({ kind: rawEvents, record: { ...e, containerId: c.id } })));
        },
      },
      // Extension (docs/extensions.md): the container's custom-field values.
      custom_fields: customFieldsInclude(deps.customFields, 'container'),
    },
  };
};

export type RawEventRow = RawEventRecord & { containerId: string };

/** A raw event's id: derived from the container and the answer it came from, so the same answer keeps its ids. */
export const rawEventId = (containerId: string, key: string) => referenceId('raw_event', `${containerId}:${key}`);

/** The carrier's name for a raw event's `data_provider_name` (the reference's `COSCO` beside `COSU`). */
const providerName = (scac: string | null) => (scac ? (carrierByScac(scac)?.name ?? null) : null);

/**
 * A raw event (api-wire-notes §4.8); its id is derived from the answer it came from and its place in it. Its
 * location, vessel and terminal can be included (the reference's raw events list includes them).
 */
export const rawEventKindOf = (deps: ResourceLoaders): ResourceKind<RawEventRow> => ({
  type: 'raw_event',
  render: (r) => {
    const { key, containerId, terminal, location_type, ...attributes } = r;
    return {
      id: rawEventId(containerId, key),
      type: 'raw_event',
      attributes: {
        ...attributes,
        data_provider_name: providerName(r.data_provider_code),
        will_occur_at: r.estimated ? r.timestamp : null,
        invalidated_at: null,
      },
      relationships: {
        location: { data: locationRef(r.location_locode, location_type) },
        vessel: { data: vesselRef(r.vessel_imo) },
        container: { data: { id: containerId, type: 'container' } },
        terminal: { data: facilityRef(terminal) },
      },
    };
  },
  includable: {
    location: locationInclude(deps.places, (r) => [{ locode: r.location_locode, type: r.location_type }]),
    vessel: vesselInclude(deps.vessels, (r) => [{ imo: r.vessel_imo, name: r.vessel_name }]),
    terminal: terminalInclude(deps.places, (r) => [r.terminal]),
  },
});
