// Loaders whose loads are shared: loads of one kind asked for by several renders in the same turn of
// the event loop are made once, for all their ids, and each render gets exactly its own rows. Rendering many
// documents at once (a claim of webhook deliveries) then costs one query per kind of include, not one per document.
import type { NotificationDocumentLoaders } from './loaders.js';

type Load<R> = (scope: string, ids: string[]) => Promise<R[]>;

/** `load` with the calls of one turn (per scope, e.g. the account) merged into one; rows are matched by `keyOf`. */
function shared<R>(load: Load<R>, keyOf: (row: R) => string): Load<R> {
  let pending: Map<
    string,
    { ids: Set<string>; waiting: { ids: string[]; resolve(rows: R[]): void; reject(err: unknown): void }[] }
  > | null = null;
  const flush = () => {
    const groups = pending!;
    pending = null;
    for (const [scope, group] of groups) {
      const [only] = group.waiting;
      if (group.waiting.length === 1 && only) {
        load(scope, only.ids).then(only.resolve, only.reject);
        continue;
      }
      load(scope, [...group.ids]).then(
        (rows) => {
          for (const w of group.waiting) {
            const wanted = new Set(w.ids);
            w.resolve(rows.filter((r) => wanted.has(keyOf(r))));
          }
        },
        (err: unknown) => {
          for (const w of group.waiting) w.reject(err);
        },
      );
    }
  };
  return (scope, ids) =>
    new Promise<R[]>((resolve, reject) => {
      if (!pending) {
        pending = new Map();
        setImmediate(flush);
      }
      let group = pending.get(scope);
      if (!group) {
        group = { ids: new Set(), waiting: [] };
        pending.set(scope, group);
      }
      for (const id of ids) group.ids.add(id);
      group.waiting.push({ ids, resolve, reject });
    });
}

/**
 * `loaders` with the loads that notification documents make shared between renders running at once. Each render
 * sees the rows it would have loaded alone (the loads are plain reads by id; nothing is kept past the turn).
 */
export function sharedLoads(loaders: NotificationDocumentLoaders): NotificationDocumentLoaders {
  const { containers, vessels, trackingRequests, notifications, webhooks } = loaders;
  const byId = (r: { id: string }) => r.id;
  const shipments = shared((a, ids) => containers.shipments(a, ids), byId);
  const containersById = shared((a, ids) => containers.byIds(a, ids), byId);
  const ofShipments = shared(
    (a, ids) => containers.ofShipments(a, ids),
    (c) => c.shipment_id,
  );
  const imos = shared(
    (_, ids) => vessels.byImos(ids),
    (v) => v.imo,
  );
  const trackedObjects = shared((a, ids) => trackingRequests.trackedObjects(a, ids), byId);
  const transportEvents = shared((a, ids) => notifications.transportEventsByIds(a, ids), byId);
  const estimatedEvents = shared((a, ids) => notifications.estimatedEventsByIds(a, ids), byId);
  const requests = shared((a, ids) => notifications.trackingRequestsByIds(a, ids), byId);
  const views = shared((a, ids) => webhooks.viewsByIds(a, ids), byId);
  return {
    places: loaders.places,
    parties: loaders.parties,
    partyRoles: loaders.partyRoles,
    customFields: loaders.customFields,
    containers: {
      shipments,
      byIds: containersById,
      ofShipments,
      transportEventsOf: (a, ids) => containers.transportEventsOf(a, ids),
      rawEventsOf: (records) => containers.rawEventsOf(records),
    },
    vessels: { byImos: (ids) => imos('', [...ids]) },
    trackingRequests: { trackedObjects },
    notifications: {
      logsOf: (ids) => notifications.logsOf(ids),
      transportEventsByIds: transportEvents,
      estimatedEventsByIds: estimatedEvents,
      trackingRequestsByIds: requests,
    },
    webhooks: { viewsByIds: views },
  };
}
