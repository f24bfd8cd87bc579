// The event resources a webhook notification points at besides transport events and tracking requests
// (api-wire-notes §4.5–4.7): estimated events (their own table) and the container events, which are the
// account event itself: its id, rendered from the engine's domain event kept as its payload.
import { readDomainEvent, readEstimatedEventRecord } from '../tracking/stored.js';
import type { EstimatedEventRow } from '../storage/repositories/notification-reads.js';
import { containerKind, shipmentKind } from './kinds.js';
import type { RelationshipDef, ResourceKind } from './jsonapi.js';
import { isoSeconds } from '../lib/dates.js';

import type { ResourceLoaders } from './loaders.js';
import { facilityRef, portInclude, portRef, terminalInclude } from './places.js';

import { vesselInclude, vesselRef } from './vessel.js';
import type { Attributes, Resource } from './schemas.js';

/** An account event as a container event resource is rendered from it. */
export interface AccountEventRecord {
  /** The account event's id: the resource's id. */
  id: string;
  account_id: string;
  event: string;
  shipment_id: string | null;
  container_id: string | null;
  /** The engine's domain event (tracking/changes.ts DomainEvent). */
  payload: Record<string, unknown>;
}

/** The engine's stored record, through its column's reader. */
const estimatedOf = (e: EstimatedEventRow) => readEstimatedEventRecord(e.record);

const ref = <T extends string>(id: string | null, type: T): { id: string; type: T } | null => (id ? { id, type } : null);

/** `shipment` of records that carry the id of one of the account's shipments. */
function shipmentRelationship<T extends { account_id: string }>(deps: ResourceLoaders, idOf: (r: T) => string | null): RelationshipDef<T> {
  return {
    targets: () => [shipmentKind(deps)],
    async load(records) {
      const accountId = records[0]?.account_id;
      const ids = [...new Set(records.map(idOf).filter((id): id is string => !!id))];
      if (!accountId || ids.length === 0) return [];
      const kind = shipmentKind(deps);
      return (await deps.containers.shipments(accountId, ids)).map((record) => ({ kind, record }));
    },
  };
}

/** `container` of records that carry the id of one of the account's containers. */
function containerRelationship<T extends { account_id: string }>(deps: ResourceLoaders, idOf: (r: T) => string | null): RelationshipDef<T> {
  return {
    targets: () => [containerKind(deps)],
    async load(records) {
      const accountId = records[0]?.account_id;
      const ids = [...new Set(records.map(idOf).filter((id): id is string => !!id))];
      if (!accountId || ids.length === 0) return [];
      const kind = containerKind(deps);
      return (await deps.containers.byIds(accountId, ids)).map((record) => ({ kind, record }));
    },
  };
}

/** `shipment.estimated.arrival`'s object (§4.5): `port` is the port the estimate is for. */
export const estimatedEventKind = (deps: ResourceLoaders): ResourceKind<EstimatedEventRow, Resource<'estimated_event'>> => ({
  type: 'estimated_event',
  render: (e): Resource<'estimated_event'> => {
    const r = estimatedOf(e);
    return {
      id: e.id,
      type: 'estimated_event',
      attributes: {
        created_at: isoSeconds(e.created_at),
        estimated_timestamp: r.estimated_timestamp ?? isoSeconds(e.estimated_timestamp),
        event: e.event as Attributes<'estimated_event'>['event'],
        location_locode: r.location_locode,
        timezone: r.timezone,
        voyage_number: r.voyage_number,
        data_source: r.data_source as Attributes<'estimated_event'>['data_source'],
      },
      relationships: {
        shipment: { data: { id: e.shipment_id, type: 'shipment' } },
        port: { data: portRef(r.location_locode) },
        vessel: { data: vesselRef(r.vessel_imo) },
      },
    };
  },
  includable: {
    shipment: shipmentRelationship(deps, (e) => e.shipment_id),
    port: portInclude(deps.places, (e) => [estimatedOf(e).location_locode]),
    vessel: vesselInclude(deps.vessels, (e) => [{ imo: estimatedOf(e).vessel_imo, name: estimatedOf(e).vessel_name }]),
  },
});

/** The payload of `container.updated`: the engine's domain event, through its column's reader. */
const updatedOf = (e: AccountEventRecord) => readDomainEvent(e.payload, 'container.updated');

/** `container.updated`'s object (§4.6): `{field: [old, new]}` changes of terminal data; `terminal` is the source. */
export const containerUpdatedEventKind = (
  deps: ResourceLoaders,
): ResourceKind<AccountEventRecord, Resource<'container_updated_event'>> => ({
  type: 'container_updated_event',
  render: (e): Resource<'container_updated_event'> => {
    const p = updatedOf(e);
    return {
      id: e.id,
      type: 'container_updated_event',
      attributes: {
        changeset: p.changeset ?? {},
        timestamp: p.timestamp ?? null,
        timezone: p.timezone ?? null,
        data_source: (p.data_source ?? null) as Attributes<'container_updated_event'>['data_source'],
      },
      relationships: {
        container: { data: ref(e.container_id, 'container') },
        terminal: { data: facilityRef(p.terminal) },
        shipment: { data: ref(e.shipment_id, 'shipment') },
      },
    };
  },
  includable: {
    container: containerRelationship(deps, (e) => e.container_id),
    terminal: terminalInclude(deps.places, (e) => [updatedOf(e).terminal]),
    shipment: shipmentRelationship(deps, (e) => e.shipment_id),
  },
});

/** `container.created`'s object (§4.7). */
export const containerCreatedEventKind = (
  deps: ResourceLoaders,
): ResourceKind<AccountEventRecord, Resource<'container_created_event'>> => ({
  type: 'container_created_event',
  render: (e): Resource<'container_created_event'> => {
    const p = e.payload as { timestamp?: string; timezone?: string | null };
    return {
      id: e.id,
      type: 'container_created_event',
      attributes: { timestamp: p.timestamp ?? null, timezone: p.timezone ?? null },
      relationships: {
        container: { data: ref(e.container_id, 'container') },
        shipment: { data: ref(e.shipment_id, 'shipment') },
      },
    };
  },
  includable: {
    container: containerRelationship(deps, (e) => e.container_id),
    shipment: shipmentRelationship(deps, (e) => e.shipment_id),
  },
});

/** The payload of `container.pod_terminal_changed`: the engine's domain event, through its column's reader. */
const terminalChangedOf = (e: AccountEventRecord) => readDomainEvent(e.payload, 'container.pod_terminal_changed');

/** `container.pod_terminal_changed`'s object (§4.7): `terminal` is the new POD terminal. */
export const containerPodTerminalChangedEventKind = (
  deps: ResourceLoaders,
): ResourceKind<AccountEventRecord, Resource<'container_pod_terminal_changed_event'>> => ({
  type: 'container_pod_terminal_changed_event',
  render: (e): Resource<'container_pod_terminal_changed_event'> => {
    const p = terminalChangedOf(e);
    return {
      id: e.id,
      type: 'container_pod_terminal_changed_event',
      attributes: {
        data_source: (p.data_source ?? null) as Attributes<'container_pod_terminal_changed_event'>['data_source'],
        timestamp: p.timestamp ?? null,
      },
      relationships: {
        container: { data: ref(e.container_id, 'container') },
        shipment: { data: ref(e.shipment_id, 'shipment') },
        terminal: { data: facilityRef(p.terminal) },
      },
    };
  },
  includable: {
    container: containerRelationship(deps, (e) => e.container_id),
    shipment: shipmentRelationship(deps, (e) => e.shipment_id),
    terminal: terminalInclude(deps.places, (e) => [terminalChangedOf(e).terminal]),
  },
});
