// The one place where the engine's JSON documents read back from the database become the engine's types. Storage
// types every json/jsonb column `unknown` (src/storage/schema.generated.ts) and may not import the tracking types;
// a service that reads a snapshot, a state or an event record from a row goes through the reader of its column here
// instead of a cast of its own.
//
// A checked brand, not a parse (docs/decisions/0014-typed-storage.md):
// - The engine is the only writer of these columns: each document is built from these very types in the transaction
//   that stores it (tracking-engine.ts, rederive.ts, tracking/*). The database is inside the boundary: the
//   architecture validates at the edges (HTTP, sources, jobs, config) and trusts inside.
// - Documents written under older derivation rules stay until the re-derivation (services/rederive.ts) rewrites
//   them; a strict parse of today's shape would refuse exactly the rows it has to read.
// - Cost: the document cache renders hundreds of containers a page and the board its whole page of snapshots (about
//   60 fields each, with holds, fees and rail legs); a schema walk of each would be paid on every render, for
//   documents that were typed when written.
// What is checked is what a wrong column or a misplaced cast looks like: the value is a JSON object (not null, an
// array or a scalar) or, for lists, an array of objects. A failure names the column.
import type { ManualTransportEventRecord } from './manual-delivery.js';
import type { DomainEvent } from './domain-events.js';
import type { StoredState } from './state.js';
import type { ContainerSnapshot, EstimatedEventRecord, ShipmentSnapshot, TransportEventRecord } from './snapshot.js';

/** A value read from a json/jsonb column that is not the document its column holds. */
export class StoredDocumentError extends Error {
  constructor(column: string, value: unknown, found = describe(value)) {
    super(`${column} does not hold a stored document: found ${found}`);
    this.name = 'StoredDocumentError';
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function object<T>(column: string, value: unknown): T {
  if (!isObject(value)) throw new StoredDocumentError(column, value);
  return value as T;
}

function objects<T>(column: string, value: unknown): T[] {
  if (!Array.isArray(value) || !value.every(isObject)) throw new StoredDocumentError(column, value);
  return value as T[];
}

/** `containers.snapshot` (also one element of a tracked shipment's `state.containers`). */
export function readContainerSnapshot(json: unknown, column = 'containers.snapshot'): ContainerSnapshot {
  return object<ContainerSnapshot>(column, json);
}

/** A list of container snapshots: `tracked_shipments.state->'containers'`. */
export function readContainerSnapshots(json: unknown, column = "tracked_shipments.state->'containers'"): ContainerSnapshot[] {
  return objects<ContainerSnapshot>(column, json);
}

/** `shipments.snapshot` (or `tracked_shipments.state->'shipment'`): null before the line has answered. */
export function readShipmentSnapshot(json: unknown, column = 'shipments.snapshot'): ShipmentSnapshot | null {
  return json === null || json === undefined ? null : object<ShipmentSnapshot>(column, json);
}

/** `tracked_shipments.state`: null before the first successful fetch. */
export function readStoredState(json: unknown, column = 'tracked_shipments.state'): StoredState | null {
  if (json === null || json === undefined) return null;
  const state = object<StoredState>(column, json);
  if (!Array.isArray(state.containers)) throw new StoredDocumentError(`${column}->'containers'`, state.containers);
  return state;
}

/** `transport_events.record`: an event the sources gave, or a delivery the user marked (manual-delivery.ts). */
export function readTransportEventRecord(
  json: unknown,
  column = 'transport_events.record',
): TransportEventRecord | ManualTransportEventRecord {
  return object<TransportEventRecord | ManualTransportEventRecord>(column, json);
}

/** `estimated_events.record`. */
export function readEstimatedEventRecord(json: unknown, column = 'estimated_events.record'): EstimatedEventRecord {
  return object<EstimatedEventRecord>(column, json);
}

/** `account_events.payload` of an engine event: the domain event the engine stored (domain-events.ts), of `type`. */
export function readDomainEvent<T extends DomainEvent['type']>(
  json: unknown,
  type: T,
  column = 'account_events.payload',
): Extract<DomainEvent, { type: T }> {
  const event = object<DomainEvent>(column, json);
  if (event.type !== type) throw new StoredDocumentError(column, event, `a ${String(event.type)} event where ${type} belongs`);
  return event as Extract<DomainEvent, { type: T }>;
}
