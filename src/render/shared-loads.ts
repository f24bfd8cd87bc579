// Resource dependencies whose loads are shared: loads of one kind asked for by several renders in the same turn of
// the event loop are made once, for all their ids, and each render gets exactly its own rows. Rendering many
// documents at once (a claim of webhook deliveries) then costs one query per kind of include, not one per document.
import type { ResourceDeps } from './deps.js';

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

/** `service` with some methods replaced; the others still run on the service itself. */
function overriding<T extends object>(service: T, overrides: Partial<T>): T {
  return new Proxy(service, {
    get(target, prop) {
      if (Object.hasOwn(overrides, prop)) return overrides[prop as keyof T];
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * `deps` with the loads that notification documents make shared between renders running at once. Each render
 * sees the rows it would have loaded alone (the loads are plain reads by id; nothing is kept past the turn).
 */
export function sharedLoads(deps: ResourceDeps): ResourceDeps {
  const { containers, vessels, trackingRequests, notifications, webhooks } = deps;
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
    ...deps,
    containers: overriding(containers, { shipments, byIds: containersById, ofShipments }),
    vessels: overriding(vessels, { byImos: (ids: readonly string[]) => imos('', [...ids]) }),
    trackingRequests: overriding(trackingRequests, { trackedObjects }),
    notifications: overriding(notifications, {
      transportEventsByIds: transportEvents,
      estimatedEventsByIds: estimatedEvents,
      trackingRequestsByIds: requests,
    }),
    webhooks: overriding(webhooks, { viewsByIds: views }),
  };
}
