// What the resource kinds load their includes with: one small interface per kind of record, each exactly the
// reads the kinds make. Declared here and implemented by the services (structurally: render never imports
// services, so that webhooks and services can import render without a cycle). Every record kind takes the same
// `ResourceLoaders`, so any include path resolves from any kind; notification documents add their own two.
import type { ContainerRecord, TransportEventRow } from '../storage/repositories/containers.js';
import type { EstimatedEventRow } from '../storage/repositories/notification-reads.js';
import type { Party } from '../storage/repositories/parties.js';
import type { PartyRoleRecord } from '../storage/repositories/party-roles.js';
import type { ShipmentRecord } from '../storage/repositories/shipments.js';
import type { TrackingRequestRecord } from '../storage/repositories/tracking-requests.js';
import type { VesselRow } from '../storage/repositories/vessels.js';
import type { NotificationLogRow, WebhookView } from '../storage/repositories/webhooks.js';
import type { RawEventRecord } from '../tracking/raw-events.js';
import type { CustomFieldValueLoaders } from './custom-field-include.js';
import type { MetroAreaPlace, PortPlace, RailTerminalPlace, TerminalPlace } from './places.js';

/** An account's shipments and containers and what hangs off a container (services/containers.ts). */
export interface ContainerLoaders {
  shipments(accountId: string, ids: string[]): Promise<ShipmentRecord[]>;
  byIds(accountId: string, ids: string[]): Promise<ContainerRecord[]>;
  ofShipments(accountId: string, shipmentIds: string[]): Promise<ContainerRecord[]>;
  transportEventsOf(accountId: string, containerIds: string[]): Promise<TransportEventRow[]>;
  rawEventsOf(containers: readonly ContainerRecord[]): Promise<Map<string, RawEventRecord[]>>;
}

/** Reference places by wire id (global; render/places.ts `ReferencePlaces`, services/places.ts). */
export interface PlaceLoaders {
  portsByIds(ids: readonly string[]): PortPlace[];
  metroAreasByIds(ids: readonly string[]): MetroAreaPlace[];
  terminalsByIds(ids: readonly string[]): TerminalPlace[];
  /** The rail terminals of these facilities (FacilityRefs), each once. */
  railTerminalsOf(facilities: readonly unknown[]): RailTerminalPlace[];
}

/** Stored vessels by IMO number (global; services/vessels.ts). */
export interface VesselLoaders {
  byImos(imos: readonly string[]): Promise<VesselRow[]>;
}

/** An account's parties (services/parties.ts). */
export interface PartyLoaders {
  byIds(accountId: string, ids: string[]): Promise<Party[]>;
}

/** The party roles on an account's shipments (services/party-roles.ts). */
export interface PartyRoleLoaders {
  ofShipments(accountId: string, shipmentIds: string[]): Promise<PartyRoleRecord[]>;
}

/** The shipments tracking requests point at (services/tracking-requests.ts). */
export interface TrackingRequestLoaders {
  trackedObjects(accountId: string, shipmentIds: string[]): Promise<ShipmentRecord[]>;
}

/** What every record kind loads its includes from. */
export interface ResourceLoaders {
  containers: ContainerLoaders;
  places: PlaceLoaders;
  vessels: VesselLoaders;
  parties: PartyLoaders;
  partyRoles: PartyRoleLoaders;
  trackingRequests: TrackingRequestLoaders;
  /** Custom-field values on shipments and containers (`include=custom_fields`; services/custom-fields.ts). */
  customFields: CustomFieldValueLoaders;
}

/** A notification's attempts and the records its reference object is (services/notifications.ts). */
export interface NotificationLoaders {
  logsOf(notificationIds: string[]): Promise<NotificationLogRow[]>;
  transportEventsByIds(accountId: string, ids: string[]): Promise<TransportEventRow[]>;
  estimatedEventsByIds(accountId: string, ids: string[]): Promise<EstimatedEventRow[]>;
  trackingRequestsByIds(accountId: string, ids: string[]): Promise<TrackingRequestRecord[]>;
}

/** A notification's `webhook` (services/webhooks.ts). */
export interface WebhookLoaders {
  viewsByIds(accountId: string, ids: string[]): Promise<WebhookView[]>;
}

/** What notification documents (and the webhook_notification resource) load from. */
export interface NotificationDocumentLoaders extends ResourceLoaders {
  notifications: NotificationLoaders;
  webhooks: WebhookLoaders;
}
