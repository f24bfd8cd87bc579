// The webhook event catalogue (api-wire-notes §5.3–5.4): every event name a webhook can subscribe to, its
// category, what it means, the feature it needs, the notification's reference object and the JSON:API types the
// reference API puts in `included`. Pure data; the management API and the notification documents read it.
import type { Feature } from './account.js';
import { EVENT_NAMES, type EventName } from './events.js';

export { EVENT_NAMES, type EventName, isEventName } from './events.js';

export const EVENT_CATEGORIES = [
  { id: 'tracking-request-events', name: 'Tracking Request Events' },
  { id: 'container-transport-events', name: 'Container Transport Events' },
  { id: 'container-events', name: 'Container Events' },
  { id: 'shipment-events', name: 'Shipment Events' },
  { id: 'document-events', name: 'Document Events' },
] as const;
export type EventCategoryId = (typeof EVENT_CATEGORIES)[number]['id'];

/** What a notification's `reference_object` is (document events name theirs `document` instead). */
export type ReferenceObjectType =
  | 'tracking_request'
  | 'transport_event'
  | 'estimated_event'
  | 'container_updated_event'
  | 'container_created_event'
  | 'container_pod_terminal_changed_event'
  | 'document';

/** A JSON:API type that can appear in a notification's `included`. */
export type IncludedType =
  | Exclude<ReferenceObjectType, 'document'>
  | 'shipment'
  | 'container'
  | 'port'
  | 'metro_area'
  | 'terminal'
  | 'rail_terminal'
  | 'vessel'
  | 'document'
  | 'email_submission'
  | 'document_representation';

export interface EventSpec {
  name: EventName;
  category: EventCategoryId;
  /** One line for `GET /v2/webhooks/events`. */
  description: string;
  /** The account feature the event needs, if any. */
  feature: Feature | null;
  referenceObject: ReferenceObjectType;
  /**
   * The types in `included` as the reference API sends them (the reference object among them), or `none`:
   * the minimal events, whose document has no `included` key at all, only `links.self`. Where an event's
   * location or facility is of the other kind (a rail ramp's metro area instead of a port, a rail terminal
   * instead of a terminal), that kind stands in its place.
   */
  included: readonly IncludedType[] | 'none';
}

type Row = [EventName, EventCategoryId, string, ReferenceObjectType, readonly IncludedType[] | 'none'];

const TE = 'transport_event' as const;
// The included sets of §5.4, by family of transport event.
const AT_VESSEL: readonly IncludedType[] = ['shipment', 'container', 'port', 'vessel', TE];
const AT_BERTH: readonly IncludedType[] = ['shipment', 'container', 'port', 'terminal', 'vessel', TE];
const AT_PORT: readonly IncludedType[] = ['shipment', 'container', 'port', TE];
const AT_TERMINAL: readonly IncludedType[] = ['shipment', 'container', 'port', 'terminal', TE];
const AT_RAIL_TERMINAL: readonly IncludedType[] = ['shipment', 'container', 'metro_area', 'rail_terminal', TE];
const EVENT_ONLY: readonly IncludedType[] = [TE];
const CT = 'container-transport-events' as const;
const CE = 'container-events' as const;
const TR = 'tracking-request-events' as const;

const ROWS: readonly Row[] = [
  ['container.transport.vessel_arrived', CT, 'Vessel arrived at the port of discharge with the container', TE, AT_VESSEL],
  ['container.transport.estimated.vessel_arrived', CT, 'Estimated arrival of the vessel at the port of discharge changed', TE, EVENT_ONLY],
  ['container.transport.vessel_discharged', CT, 'Container discharged from the vessel at the port of discharge', TE, AT_BERTH],
  ['container.transport.vessel_loaded', CT, 'Container loaded on the vessel at the port of lading', TE, AT_VESSEL],
  ['container.transport.vessel_departed', CT, 'Vessel departed the port of lading with the container', TE, AT_VESSEL],
  [
    'container.transport.estimated.vessel_departed',
    CT,
    'Estimated departure of the vessel from the port of lading changed',
    TE,
    EVENT_ONLY,
  ],
  ['container.transport.rail_departed', CT, 'Rail departed with the container', TE, AT_PORT],
  ['container.transport.rail_arrived', CT, 'Container arrived by rail at a rail terminal (interchanges included)', TE, AT_RAIL_TERMINAL],
  ['container.transport.rail_loaded', CT, 'Container loaded on rail', TE, AT_PORT],
  ['container.transport.rail_unloaded', CT, 'Container unloaded from rail', TE, AT_RAIL_TERMINAL],
  ['container.transport.transshipment_arrived', CT, 'Container arrived at a transshipment port', TE, AT_VESSEL],
  ['container.transport.transshipment_discharged', CT, 'Container discharged at a transshipment port', TE, AT_VESSEL],
  ['container.transport.transshipment_loaded', CT, 'Container loaded at a transshipment port', TE, AT_VESSEL],
  ['container.transport.transshipment_departed', CT, 'Container departed a transshipment port', TE, AT_VESSEL],
  ['container.transport.feeder_arrived', CT, 'Container arrived on a feeder vessel or barge', TE, AT_VESSEL],
  ['container.transport.feeder_discharged', CT, 'Container discharged from a feeder vessel or barge', TE, AT_VESSEL],
  ['container.transport.feeder_loaded', CT, 'Container loaded on a feeder vessel or barge', TE, AT_VESSEL],
  ['container.transport.feeder_departed', CT, 'Container departed on a feeder vessel or barge', TE, AT_VESSEL],
  ['container.transport.empty_out', CT, 'Empty container picked up for loading', TE, ['shipment', 'container', 'metro_area', TE]],
  ['container.transport.full_in', CT, 'Full container gated in at the port of lading', TE, AT_PORT],
  ['container.transport.full_out', CT, 'Full container gated out for delivery', TE, AT_TERMINAL],
  ['container.transport.empty_in', CT, 'Empty container returned', TE, AT_PORT],
  ['container.transport.vessel_berthed', CT, 'Vessel berthed at the port of discharge', TE, AT_BERTH],
  [
    'shipment.estimated.arrival',
    'shipment-events',
    'Estimated arrival of the shipment at the port of discharge changed',
    'estimated_event',
    ['shipment', 'port', 'estimated_event'],
  ],
  [
    'tracking_request.succeeded',
    TR,
    'Shipment created and linked to the tracking request',
    'tracking_request',
    ['container', 'shipment', 'tracking_request'],
  ],
  ['tracking_request.failed', TR, 'Tracking request failed and no shipment was created', 'tracking_request', ['tracking_request']],
  [
    'tracking_request.awaiting_manifest',
    TR,
    'Tracking request is waiting for the carrier to publish the manifest',
    'tracking_request',
    ['tracking_request'],
  ],
  [
    'tracking_request.tracking_stopped',
    TR,
    'Tidemark is no longer updating the tracking request',
    'tracking_request',
    ['shipment', 'tracking_request'],
  ],
  [
    'container.created',
    CE,
    'Container added to a tracked shipment',
    'container_created_event',
    ['shipment', 'container', 'container_created_event'],
  ],
  [
    'container.updated',
    CE,
    'Terminal data of the container changed (availability, holds, fees, last free day, appointment, terminal)',
    'container_updated_event',
    ['shipment', 'port', 'terminal', 'container', 'container_updated_event'],
  ],
  [
    'container.pod_terminal_changed',
    CE,
    'Container is expected at, or moved to, another terminal at the port of discharge',
    'container_pod_terminal_changed_event',
    ['shipment', 'container', 'terminal', 'container_pod_terminal_changed_event'],
  ],
  ['container.transport.arrived_at_inland_destination', CT, 'Container arrived at its inland destination', TE, AT_TERMINAL],
  [
    'container.transport.estimated.arrived_at_inland_destination',
    CT,
    'Estimated arrival of the container at its inland destination changed',
    TE,
    AT_TERMINAL,
  ],
  ['container.pickup_lfd.changed', CE, 'Last free day for pickup changed', TE, AT_TERMINAL],
  ['container.pickup_lfd_line.changed', CE, 'Last free day set by the shipping line changed', TE, EVENT_ONLY],
  ['container.pickup_lfd_terminal.changed', CE, 'Last free day set by the terminal changed', TE, EVENT_ONLY],
  ['container.pickup_lfd_rail.changed', CE, 'Last free day at the inland rail terminal changed', TE, EVENT_ONLY],
  ['container.pickup_appointment.changed', CE, 'Pickup appointment at the terminal changed', TE, EVENT_ONLY],
  ['container.transport.available', CT, 'Container became available for pickup', TE, 'none'],
  ['container.transport.not_available', CT, 'Container is no longer available for pickup', TE, 'none'],
  ['container.transport.delivered', CT, 'Container delivered (marked by hand)', TE, 'none'],
  [
    'document.extracted',
    'document-events',
    'Document data extracted (Tidemark does not process documents: never sent)',
    'document',
    ['document', 'email_submission', 'document_representation'],
  ],
  [
    'document.extraction_failed',
    'document-events',
    'Document extraction failed (Tidemark does not process documents: never sent)',
    'document',
    ['document', 'email_submission', 'document_representation'],
  ],
];

/** Events only accounts with a feature may subscribe to. */
const FEATURES: Partial<Record<EventName, Feature>> = { 'container.pickup_lfd_rail.changed': 'rail_lfd' };

/** Every event's catalogue entry, by name. */
export const EVENT_CATALOGUE: Readonly<Record<EventName, EventSpec>> = Object.freeze(
  Object.fromEntries(
    ROWS.map(([name, category, description, referenceObject, included]) => [
      name,
      Object.freeze({ name, category, description, feature: FEATURES[name] ?? null, referenceObject, included }),
    ]),
  ) as Record<EventName, EventSpec>,
);

export function eventSpec(name: EventName): EventSpec {
  return EVENT_CATALOGUE[name];
}

/** The feature an event needs, or null. */
export function eventFeature(name: EventName): Feature | null {
  return EVENT_CATALOGUE[name].feature;
}

/** Whether an account with these features may subscribe to the event. */
export function eventAvailable(name: EventName, features: readonly string[]): boolean {
  const feature = eventFeature(name);
  return feature === null || features.includes(feature);
}

/**
 * Every event an account with these features may subscribe to, in catalogue order: what a webhook created without
 * `events` subscribes to (the list as it is then; events added to the catalogue later are not added to it).
 */
export function eventsAvailableTo(features: readonly string[]): EventName[] {
  return EVENT_NAMES.filter((n) => eventAvailable(n, features));
}

export interface EventCategory {
  id: EventCategoryId;
  name: string;
  events: { name: EventName; description: string }[];
}

/** `GET /v2/webhooks/events`: the categories with the events an account with these features may subscribe to. */
export function eventCategories(features: readonly string[]): EventCategory[] {
  return EVENT_CATEGORIES.map((c) => ({
    id: c.id,
    name: c.name,
    events: EVENT_NAMES.filter((n) => EVENT_CATALOGUE[n].category === c.id && eventAvailable(n, features)).map((n) => ({
      name: n,
      description: EVENT_CATALOGUE[n].description,
    })),
  })).filter((c) => c.events.length > 0);
}
