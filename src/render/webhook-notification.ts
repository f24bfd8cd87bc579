// Webhook notifications on the wire (api-wire-notes §4.13, §5): the resource the read API serves, the document
// POSTed to receivers (`notificationDocument`), and the sample document of every event (`exampleNotification`),
// which is the same document rendered from hand-made records by the same kinds.
import { EVENT_CATALOGUE, type EventName, type IncludedType, isEventName, type ReferenceObjectType } from '../domain/event-catalogue.js';
import { transportEventKind } from './kinds.js';
import type { TransportEventRow } from '../storage/repositories/containers.js';
import type { EstimatedEventRow } from '../storage/repositories/notification-reads.js';
import type { NotificationLogRow, NotificationRow } from '../storage/repositories/webhooks.js';
import {
  type IncludeTree,
  parseInclude,
  type Ref,
  type Related,
  type ResourceKind,
  type ResourceObject,
  resolveIncluded,
} from './jsonapi.js';
import { isoSeconds } from '../lib/dates.js';
import type { NotificationDocumentLoaders } from './loaders.js';
import { ReferencePlaces } from './places.js';
import {
  type AccountEventRecord,
  containerCreatedEventKind,
  containerPodTerminalChangedEventKind,
  containerUpdatedEventKind,
  estimatedEventKind,
} from './events.js';
import { trackingRequestKind } from './tracking-request.js';

import { webhookKind } from './webhook.js';
import { type ExampleDocumentRecords, type NotificationExample, notificationExample } from './webhook-examples.js';
import type { Resource } from './schemas.js';

/** A notification as the API shows it: with its delivery attempts, oldest first, when they were read. */
export type NotificationRecord = NotificationRow & { logs?: NotificationLogRow[] };

/** What receivers get, and what `GET /v2/webhook_notifications/{id}` answers. */
export interface NotificationDocument {
  data: ResourceObject;
  /** Absent for the minimal events (api-wire-notes §5.4): receivers resolve the reference object by its id. */
  included?: ResourceObject[];
  links: { self: string };
  /** Tidemark's addition: receivers order a container's notifications by `sequence`. */
  meta: { sequence: number; occurred_at: string | null };
}

/** Document events carry a version of their document schema (api-wire-notes §4.13). */
const DOCUMENT_EVENT_VERSION = '2026-03-10';

const specOf = (n: { event: string }) => (isEventName(n.event) ? EVENT_CATALOGUE[n.event] : null);

function payloadId(n: NotificationRow, key: string): string | null {
  const v = n.payload?.[key];
  return typeof v === 'string' ? v : null;
}

/** The id of a notification's reference object: the row it points at, else the account event itself. */
function referenceRef(n: NotificationRow): Ref | null {
  const type = specOf(n)?.referenceObject;
  switch (type) {
    case undefined:
    case 'document':
      return null;
    case 'tracking_request': {
      const id = n.tracking_request_id ?? payloadId(n, 'tracking_request_id');
      return id ? { id, type } : null;
    }
    case 'transport_event':
      return { id: n.transport_event_id ?? n.account_event_id, type };
    case 'estimated_event':
      return { id: n.estimated_event_id ?? n.account_event_id, type };
    default:
      return { id: n.account_event_id, type };
  }
}

/** The container event resources are the account event: its id, its payload. */
const accountEventOf = (n: NotificationRow): AccountEventRecord => ({
  id: n.account_event_id,
  account_id: n.account_id,
  event: n.event,
  shipment_id: n.shipment_id,
  container_id: n.container_id,
  payload: n.payload ?? {},
});

/** One delivery attempt (Tidemark fills what the reference API leaves empty). */
export const webhookNotificationLogKind = (
  _deps: NotificationDocumentLoaders,
): ResourceKind<NotificationLogRow, Resource<'webhook_notification_log'>> => ({
  type: 'webhook_notification_log',
  render: (l): Resource<'webhook_notification_log'> => ({
    id: l.id,
    type: 'webhook_notification_log',
    attributes: {
      attempt: l.attempt,
      started_at: isoSeconds(l.started_at),
      duration_ms: l.duration_ms,
      status_code: l.status_code,
      error: l.error,
      response_body: l.response_body,
    },
    relationships: { webhook_notification: { data: { id: l.notification_id, type: 'webhook_notification' } } },
  }),
  includable: {},
});

/**
 * The webhook_notification resource. `reference_object` is polymorphic (tracking request, transport event,
 * estimated event, container events); `webhook_notification_logs` lists the attempts the record carries.
 */
export const webhookNotificationKind = (deps: NotificationDocumentLoaders): ResourceKind<NotificationRecord> => {
  const kinds = {
    tracking_request: trackingRequestKind(deps),
    transport_event: transportEventKind(deps),
    estimated_event: estimatedEventKind(deps),
    container_updated_event: containerUpdatedEventKind(deps),
    container_created_event: containerCreatedEventKind(deps),
    container_pod_terminal_changed_event: containerPodTerminalChangedEventKind(deps),
  };
  const webhooks = webhookKind(deps);
  const logs = webhookNotificationLogKind(deps);
  return {
    type: 'webhook_notification',
    render: (n) => {
      const spec = specOf(n);
      const document = spec?.referenceObject === 'document';
      const relationships: ResourceObject['relationships'] = { webhook: { data: { id: n.webhook_id, type: 'webhook' } } };
      if (document) {
        const id = payloadId(n, 'document_id');
        relationships.document = { data: id ? { id, type: 'document' } : null };
      } else {
        relationships.reference_object = { data: referenceRef(n) };
      }
      relationships.webhook_notification_logs = {
        data: (n.logs ?? []).map((l) => ({ id: l.id, type: 'webhook_notification_log' })),
      };
      return {
        id: n.id,
        type: 'webhook_notification',
        attributes: {
          id: n.id,
          event: n.event,
          delivery_status: n.delivery_status,
          created_at: isoSeconds(n.created_at),
          ...(document ? { version: DOCUMENT_EVENT_VERSION } : {}),
        },
        relationships,
      };
    },
    includable: {
      webhook: {
        targets: () => [webhooks],
        async load(records) {
          const accountId = records[0]?.account_id;
          if (!accountId) return [];
          const ids = [...new Set(records.map((r) => r.webhook_id))];
          return (await deps.webhooks.viewsByIds(accountId, ids)).map((record) => ({ kind: webhooks, record }));
        },
      },
      reference_object: {
        targets: () => Object.values(kinds),
        load: (records) => loadReferenceObjects(deps, kinds, records),
      },
      webhook_notification_logs: {
        targets: () => [logs],
        async load(records) {
          const attached = records.every((r) => r.logs !== undefined);
          const rows = attached ? records.flatMap((r) => r.logs ?? []) : await deps.notifications.logsOf(records.map((r) => r.id));
          return rows.map((record) => ({ kind: logs, record }));
        },
      },
      document: null,
    },
  };
};

/** The reference objects of a page of notifications: one query per kind of object. */
async function loadReferenceObjects(
  deps: NotificationDocumentLoaders,
  kinds: {
    tracking_request: ResourceKind<unknown>;
    transport_event: ResourceKind<TransportEventRow>;
    estimated_event: ResourceKind<EstimatedEventRow>;
    container_updated_event: ResourceKind<AccountEventRecord>;
    container_created_event: ResourceKind<AccountEventRecord>;
    container_pod_terminal_changed_event: ResourceKind<AccountEventRecord>;
  },
  records: NotificationRecord[],
): Promise<Related[]> {
  const accountId = records[0]?.account_id;
  if (!accountId) return [];
  const of = (type: ReferenceObjectType) => records.filter((r) => specOf(r)?.referenceObject === type);
  const out: Related[] = [];

  const requestIds = of('tracking_request').flatMap((r) => referenceRef(r)?.id ?? []);
  for (const record of await deps.notifications.trackingRequestsByIds(accountId, requestIds)) {
    out.push({ kind: kinds.tracking_request, record });
  }

  // An event the engine announced without a stored row (or whose row is gone) is rendered from the payload,
  // under the same id the notification points at: a reference is never left dangling.
  const transport = of('transport_event');
  const stored = await deps.notifications.transportEventsByIds(
    accountId,
    transport.flatMap((r) => r.transport_event_id ?? []),
  );
  const found = new Set(stored.map((e) => e.id));
  for (const record of stored) out.push({ kind: kinds.transport_event, record });
  for (const r of transport) {
    const id = referenceRef(r)!.id;
    const record = r.payload?.transport_event as Record<string, unknown> | undefined;
    if (found.has(id) || !record) continue;
    found.add(id);
    out.push({
      kind: kinds.transport_event,
      record: {
        id,
        account_id: r.account_id,
        shipment_id: r.shipment_id,
        container_id: r.container_id,
        event: r.event,
        record,
        created_at: r.created_at,
        updated_at: r.created_at,
      } as TransportEventRow,
    });
  }

  const estimated = of('estimated_event');
  const storedEstimates = await deps.notifications.estimatedEventsByIds(
    accountId,
    estimated.flatMap((r) => r.estimated_event_id ?? []),
  );
  const foundEstimates = new Set(storedEstimates.map((e) => e.id));
  for (const record of storedEstimates) out.push({ kind: kinds.estimated_event, record });
  for (const r of estimated) {
    const id = referenceRef(r)!.id;
    const record = r.payload?.estimated_event as Record<string, unknown> | undefined;
    if (foundEstimates.has(id) || !record || !r.shipment_id) continue;
    foundEstimates.add(id);
    out.push({
      kind: kinds.estimated_event,
      record: {
        id,
        account_id: r.account_id,
        shipment_id: r.shipment_id,
        event: r.event,
        estimated_timestamp: new Date(String(record.estimated_timestamp)),
        record,
        created_at: r.created_at,
      } satisfies EstimatedEventRow,
    });
  }

  for (const type of ['container_updated_event', 'container_created_event', 'container_pod_terminal_changed_event'] as const) {
    const seen = new Set<string>();
    for (const r of of(type)) {
      if (seen.has(r.account_event_id)) continue;
      seen.add(r.account_event_id);
      out.push({ kind: kinds[type], record: accountEventOf(r) });
    }
  }
  return out;
}

/**
 * The relationships of each kind of reference object that bring each `included` type of the catalogue. A
 * location or a facility is included whatever its kind: a rail ramp's metro area where the catalogue names a
 * port, a rail terminal where it names a terminal.
 */
const INCLUDE_PATHS: Record<Exclude<ReferenceObjectType, 'document'>, Partial<Record<IncludedType, readonly string[]>>> = {
  tracking_request: { shipment: ['tracked_object'], container: ['tracked_object.containers'] },
  transport_event: {
    shipment: ['shipment'],
    container: ['container'],
    port: ['location'],
    metro_area: ['location'],
    terminal: ['terminal'],
    rail_terminal: ['terminal'],
    vessel: ['vessel'],
  },
  estimated_event: { shipment: ['shipment'], port: ['port'], vessel: ['vessel'] },
  container_updated_event: {
    shipment: ['shipment'],
    container: ['container'],
    terminal: ['terminal'],
    // The POD: the terminal's port, and the shipment's port of discharge when the terminal is not known.
    port: ['terminal.port', 'shipment.port_of_discharge'],
  },
  container_created_event: { shipment: ['shipment'], container: ['container'] },
  container_pod_terminal_changed_event: { shipment: ['shipment'], container: ['container'], terminal: ['terminal'] },
};

/** The `include` of an event's notification document; null when the document has no `included` key at all. */
export function notificationIncludePaths(event: EventName): string[] | null {
  const spec = EVENT_CATALOGUE[event];
  if (spec.included === 'none' || spec.referenceObject === 'document') return null;
  const paths = INCLUDE_PATHS[spec.referenceObject];
  const nested = spec.included.flatMap((t) => paths[t] ?? []).map((p) => `reference_object.${p}`);
  return ['reference_object', ...new Set(nested)];
}

/**
 * The exact body POSTed to receivers: the notification (`delivery_status: pending`, it is being delivered),
 * `included` as the catalogue gives for its event (no `included` key for the minimal events), the absolute URL
 * of the notification, and `meta` with the account event's sequence number and time.
 */
export async function notificationDocument(
  deps: NotificationDocumentLoaders,
  row: NotificationRow,
  publicUrl: string,
): Promise<NotificationDocument> {
  const record: NotificationRecord = { ...row, delivery_status: 'pending', logs: [] };
  const { kind, includeOf } = notificationKindsOf(deps);
  const doc: Partial<NotificationDocument> = { data: kind.render(record) };
  const include = includeOf(row.event);
  if (include) doc.included = await resolveIncluded(kind, [record], include);
  doc.links = { self: `${publicUrl}/v2/webhook_notifications/${row.id}` };
  doc.meta = notificationMeta(row);
  return doc as NotificationDocument;
}

/**
 * The notification kind and each event's include tree, made once per set of dependencies: webhook delivery renders
 * thousands of documents a second with the same ones.
 */
const kindsByDeps = new WeakMap<NotificationDocumentLoaders, ReturnType<typeof makeDocumentKinds>>();
function notificationKindsOf(deps: NotificationDocumentLoaders) {
  let made = kindsByDeps.get(deps);
  if (!made) {
    made = makeDocumentKinds(deps);
    kindsByDeps.set(deps, made);
  }
  return made;
}

function makeDocumentKinds(deps: NotificationDocumentLoaders) {
  const kind = webhookNotificationKind(deps);
  const trees = new Map<string, IncludeTree | null>();
  const includeOf = (event: string): IncludeTree | null => {
    let tree = trees.get(event);
    if (tree === undefined) {
      const paths = isEventName(event) ? notificationIncludePaths(event) : null;
      tree = paths ? parseInclude(paths.join(','), kind) : null;
      trees.set(event, tree);
    }
    return tree;
  };
  return { kind, includeOf };
}

/** `meta` of a notification: the account event's sequence number (as a number) and when it happened. */
export function notificationMeta(row: Pick<NotificationRow, 'sequence' | 'occurred_at'>): NotificationDocument['meta'] {
  return { sequence: Number(row.sequence), occurred_at: isoSeconds(row.occurred_at) };
}

// ---------- samples ----------

/** The document events' resources, only ever rendered in samples (Tidemark does not process documents). */
const documentKinds = {
  document: {
    type: 'document',
    render: (d: ExampleDocumentRecords) => ({
      id: d.document.id,
      type: 'document',
      attributes: d.document.attributes,
      relationships: {
        email_submission: { data: { id: d.emailSubmission.id, type: 'email_submission' } },
        last_document_representation: { data: { id: d.representation.id, type: 'document_representation' } },
      },
      links: { self: `/v2/documents/${d.document.id}` },
    }),
    includable: {},
  } satisfies ResourceKind<ExampleDocumentRecords>,
  emailSubmission: {
    type: 'email_submission',
    render: (d: ExampleDocumentRecords) => ({
      id: d.emailSubmission.id,
      type: 'email_submission',
      attributes: d.emailSubmission.attributes,
      relationships: { documents: { data: [{ id: d.document.id, type: 'document' }] } },
    }),
    includable: {},
  } satisfies ResourceKind<ExampleDocumentRecords>,
  representation: {
    type: 'document_representation',
    render: (d: ExampleDocumentRecords) => ({
      id: d.representation.id,
      type: 'document_representation',
      attributes: d.representation.attributes,
      relationships: { document: { data: { id: d.document.id, type: 'document' } } },
    }),
    includable: {},
  } satisfies ResourceKind<ExampleDocumentRecords>,
};

/** The reference places as a server with the sandbox off knows them: no terminal source, no `provided_data`. */
const SAMPLE_PLACES = new ReferencePlaces();

/**
 * Loaders that answer from one sample's records: the kinds load their includes from them exactly as they do
 * from the database. The samples have no parties, no raw events, no custom fields and no delivery attempts.
 */
function sampleLoaders(x: NotificationExample): NotificationDocumentLoaders {
  const pick = <T extends { id: string }>(rows: readonly T[], ids: readonly string[]) => rows.filter((r) => ids.includes(r.id));
  return {
    places: SAMPLE_PLACES,
    containers: {
      shipments: async (_, ids) => pick(x.shipments, ids),
      byIds: async (_, ids) => pick(x.containers, ids),
      ofShipments: async (_, ids) => x.containers.filter((c) => ids.includes(c.shipment_id)),
      transportEventsOf: async (_, ids) => x.transportEvents.filter((e) => ids.includes(e.container_id)),
      rawEventsOf: async () => new Map(),
    },
    vessels: { byImos: async (imos) => x.vessels.filter((v) => imos.includes(v.imo)) },
    trackingRequests: { trackedObjects: async (_, ids) => pick(x.shipments, ids) },
    parties: { byIds: async () => [] },
    partyRoles: { ofShipments: async () => [] },
    customFields: { valuesFor: async () => [], definitionsByIds: async () => [], optionsOf: async () => [] },
    notifications: {
      logsOf: async () => [],
      transportEventsByIds: async (_, ids) => pick(x.transportEvents, ids),
      estimatedEventsByIds: async (_, ids) => pick(x.estimatedEvents, ids),
      trackingRequestsByIds: async (_, ids) => pick(x.trackingRequests, ids),
    },
    webhooks: { viewsByIds: async (_, ids) => pick([x.webhook], ids) },
  };
}

async function renderSample(event: EventName): Promise<NotificationDocument> {
  const x = notificationExample(event);
  const deps = sampleLoaders(x);
  if (!x.document) return notificationDocument(deps, x.notification, '');
  // Document events: their documents are not Tidemark records, so they are rendered beside the notification.
  const record: NotificationRecord = { ...x.notification, delivery_status: 'pending', logs: [] };
  return {
    data: webhookNotificationKind(deps).render(record),
    included: [documentKinds.document, documentKinds.emailSubmission, documentKinds.representation].map((k) => k.render(x.document!)),
    links: { self: `/v2/webhook_notifications/${record.id}` },
    meta: notificationMeta(record),
  };
}

/** Each event's sample, rendered when first asked for (nothing is rendered when the module loads). */
const samples = new Map<EventName, Promise<NotificationDocument>>();

/**
 * A realistic sample notification document for any event: what a receiver subscribed to it gets, with
 * deterministic ids (UUIDv5 of the event name) and `links.self` under `publicUrl`. Every event's sample is
 * rendered by the tests (render/webhook-examples.test.ts), so one that cannot be rendered fails them.
 */
export async function exampleNotification(event: EventName, publicUrl: string): Promise<NotificationDocument> {
  let sample = samples.get(event);
  if (!sample) {
    sample = renderSample(event);
    samples.set(event, sample);
    // A failure is not kept: the next call renders again (and fails again, with its own error).
    sample.catch(() => samples.delete(event));
  }
  const doc = structuredClone(await sample);
  doc.links = { self: `${publicUrl}/v2/webhook_notifications/${doc.data.id}` };
  return doc;
}
