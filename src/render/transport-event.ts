import { readTransportEventRecord } from '../tracking/stored.js';
import type { TransportEventRow } from '../storage/repositories/containers.js';
import type { ResourceKind } from './jsonapi.js';
import { isoSeconds } from '../lib/dates.js';
import type { ResourceLoaders } from './loaders.js';
import { facilityRef, locationInclude, locationRef, terminalInclude } from './places.js';
import type { RelatedKinds } from './kinds.js';
import { vesselInclude, vesselRef } from './vessel.js';
import type { Attributes, Resource } from './schemas.js';

/** The engine's stored record, through its column's reader. */
const recordOf = (e: TransportEventRow) => readTransportEventRecord(e.record);

/** The transport_event resource (api-wire-notes §4.4), rendered from the engine's stored record. */
export const transportEventKindOf = (
  deps: ResourceLoaders,
  kinds: RelatedKinds,
): ResourceKind<TransportEventRow, Resource<'transport_event'>> => {
  const { containers } = deps;
  return {
    type: 'transport_event',
    render: (e): Resource<'transport_event'> => {
      const r = recordOf(e);
      return {
        id: e.id,
        type: 'transport_event',
        attributes: {
          event: e.event as Attributes<'transport_event'>['event'],
          voyage_number: r.voyage_number,
          timestamp: r.timestamp,
          timezone: r.timezone,
          location_locode: r.location_locode,
          data_source: r.data_source as Attributes<'transport_event'>['data_source'],
          value: r.value,
          invalidated_at: ('invalidated_at' in r ? r.invalidated_at : null) ?? null,
          created_at: isoSeconds(e.created_at),
          // Extra (docs/extensions.md): when Tidemark first saw it, in domain time; `created_at` is wall time.
          observed_at: r.observed_at ?? null,
        },
        relationships: {
          shipment: { data: { id: e.shipment_id, type: 'shipment' } },
          container: { data: { id: e.container_id, type: 'container' } },
          vessel: { data: vesselRef(r.vessel_imo) },
          location: { data: locationRef(r.location_locode, r.location_type) },
          terminal: { data: facilityRef(r.terminal) },
          source_event: { data: null },
          previous_version: { data: null },
        },
      };
    },
    includable: {
      shipment: {
        targets: () => [kinds.shipment],
        async load(records) {
          const accountId = records[0]?.account_id;
          if (!accountId) return [];
          const kind = kinds.shipment;
          return (await containers.shipments(accountId, [...new Set(records.map((r) => r.shipment_id))])).map((record) => ({
            kind,
            record,
          }));
        },
      },
      container: {
        targets: () => [kinds.container],
        async load(records) {
          const accountId = records[0]?.account_id;
          if (!accountId) return [];
          const kind = kinds.container;
          return (await containers.byIds(accountId, [...new Set(records.map((r) => r.container_id))])).map((record) => ({ kind, record }));
        },
      },
      location: locationInclude(deps.places, (e) => [{ locode: recordOf(e).location_locode, type: recordOf(e).location_type }]),
      terminal: terminalInclude(deps.places, (e) => [recordOf(e).terminal]),
      vessel: vesselInclude(deps.vessels, (e) => [{ imo: recordOf(e).vessel_imo, name: recordOf(e).vessel_name }]),
    },
  };
};
