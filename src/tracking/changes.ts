// Comparing what the sources say now with what is stored: the merged state to store and the domain events
// (webhook event names) it implies. Pure: world time is passed in; the same input twice gives no events.
// The merge itself is merge.ts (with the flap filter of flaps.ts); a container's events are container-events.ts.
import { containerChanges } from './container-events.js';
import type { DomainEvent } from './domain-events.js';
import { FlapFilter } from './flaps.js';
import { mergeContainer, mergeShipment } from './merge.js';
import type { Normalized } from './normalize.js';
import { compatibleVessels } from './occurrences.js';
import {
  type ContainerSnapshot,
  deriveContainer,
  type EstimatedEventRecord,
  type ShipmentSnapshot,
  type TransportEventRecord,
} from './snapshot.js';
import type { StoredState } from './state.js';
import type { IsoInstant } from './time.js';
import { isoSeconds } from '../lib/dates.js';

export type { Changeset, ChangesetKey, DomainEvent } from './domain-events.js';
export { FLAP_WINDOW_MS } from './flaps.js';
export type { StoredState, Withdrawal } from './state.js';

/**
 * An estimate (POD arrival, departure, inland arrival) is announced again only when it has moved more than this
 * from the estimate last announced: ETAs are revised at every poll by minutes or hours, while what a person plans
 * (a truck, a warehouse slot) moves by half days. Smaller moves are stored and served without a webhook.
 */
export const ETA_CHANGE_THRESHOLD_MS = 6 * 60 * 60 * 1000;

/** Whether an estimate moved enough from the one last announced to be announced again. */
export function etaMovedEnough(announced: IsoInstant | null, next: IsoInstant | null): boolean {
  if (announced === null || next === null) return announced !== next;
  return Math.abs(Date.parse(next) - Date.parse(announced)) > ETA_CHANGE_THRESHOLD_MS;
}

export interface ChangeContext {
  /** Domain time: the world clock's now. */
  worldNow: Date;
  /** The account's features; `rail_lfd` unlocks the rail LFD event and changeset key. */
  accountFeatures?: readonly string[];
}

/** Announces an event of a container (collected per container, ordered at the end). */
type Fire = (container: string, event: DomainEvent) => void;

function locationKey(r: TransportEventRecord): string {
  return r.location_locode ?? (r.terminal ? `facility:${r.terminal.code}` : '-');
}

/** Whether a stored record and a new one are the same occurrence (the key, or the same rule normalize dedups by). */
function sameOccurrence(a: TransportEventRecord, b: TransportEventRecord): boolean {
  if (a.key === b.key) return true;
  if (a.milestone === null || a.milestone !== b.milestone || a.container_number !== b.container_number) return false;
  if (locationKey(a) !== locationKey(b)) return false;
  return compatibleVessels(
    { vesselImo: a.vessel_imo, vesselName: a.vessel_name, voyage: a.voyage_number },
    { vesselImo: b.vessel_imo, vesselName: b.vessel_name, voyage: b.voyage_number },
  );
}

export function detectChanges(
  previous: StoredState | null,
  next: Normalized,
  ctx: ChangeContext,
): { events: DomainEvent[]; state: StoredState } {
  const nowMs = ctx.worldNow.getTime();
  const now = isoSeconds(nowMs);
  const railLfd = ctx.accountFeatures?.includes('rail_lfd') ?? false;
  const flaps = new FlapFilter(previous?.withdrawals ?? [], nowMs);
  const events: DomainEvent[] = [];

  const prevShipment = previous?.shipment ?? null;
  const shipment = mergeShipment(prevShipment, next.shipment, next.reported.carrier);

  // Containers: merged where known before, new ones as they come, unreported ones kept as they were.
  const prevByNumber = new Map((previous?.containers ?? []).map((c) => [c.number, c]));
  const nextByNumber = new Map(next.containers.map((c) => [c.number, c]));
  const numbers = [...new Set([...prevByNumber.keys(), ...nextByNumber.keys()])].sort();
  const containers: ContainerSnapshot[] = [];
  const perContainer = new Map<string, DomainEvent[]>();
  const created: DomainEvent[] = [];

  // Transport events: each occurrence once, actual over estimated; nothing stored is ever dropped.
  const records: TransportEventRecord[] = [...(previous?.transportEvents ?? [])];
  const fire: Fire = (n, e) => {
    const list = perContainer.get(n);
    if (list) list.push(e);
    else perContainer.set(n, [e]);
  };
  mergeTransportEvents(records, next.transportEvents, prevByNumber, fire);

  const eventContext = { shipment, now, railLfd, terminalReported: next.reported.terminal, records, fire };
  for (const n of numbers) {
    const prev = prevByNumber.get(n);
    const nxt = nextByNumber.get(n);
    if (!prev) {
      const c = deriveContainer(nxt!, shipment, now);
      containers.push(c);
      created.push({ type: 'container.created', container_number: n, timestamp: now, timezone: c.pod_timezone });
      continue;
    }
    const c = deriveContainer(nxt ? mergeContainer(prev, nxt, next.reported, flaps) : prev, shipment, now);
    containers.push(c);
    containerChanges(eventContext, prev, c);
  }

  const { estimatedEvents, shipmentEvents } = estimatedArrival(previous, prevShipment, shipment, next);

  for (const n of numbers) {
    const list = perContainer.get(n);
    if (list) events.push(...orderContainerEvents(list));
  }

  return {
    events: [...created, ...shipmentEvents, ...events],
    state: {
      shipment,
      containers,
      transportEvents: records,
      estimatedEvents,
      withdrawals: flaps.withdrawals(),
    },
  };
}

/**
 * Merges the new transport event records into the stored ones (`records`, in place) and announces, for containers
 * known before, a new actual and an estimate that moved past the threshold.
 */
function mergeTransportEvents(
  records: TransportEventRecord[],
  incoming: readonly TransportEventRecord[],
  prevByNumber: ReadonlyMap<string, ContainerSnapshot>,
  fire: Fire,
): void {
  for (const r of incoming) {
    const i = records.findIndex((p) => sameOccurrence(p, r));
    const known = prevByNumber.has(r.container_number);
    if (i === -1) {
      // The first estimate of an occurrence starts its history quietly; a new actual is news.
      const stored = r.classifier === 'actual' ? r : { ...r, announced_timestamp: r.timestamp };
      records.push(stored);
      if (known && r.classifier === 'actual')
        fire(r.container_number, { type: r.event, container_number: r.container_number, transport_event: r });
      continue;
    }
    const p = records[i]!;
    // AIS never overrides what a line, terminal or railroad said about the same occurrence. Their actual
    // replaces an AIS one silently: the occurrence was announced once already (with `data_source: ais`).
    if (r.data_source === 'ais' && p.data_source !== 'ais' && p.classifier === 'actual') continue;
    if (p.data_source === 'ais' && r.data_source !== 'ais' && r.classifier === 'actual') {
      records[i] = { ...r, key: p.key };
      continue;
    }
    const upgraded = p.classifier !== 'actual' && r.classifier === 'actual';
    const moved = p.timestamp !== r.timestamp && !(p.classifier === 'actual' && r.classifier !== 'actual');
    if (!upgraded && !moved) continue;
    // A corrected actual is stored silently; a new actual is news, and so is an estimate that moved more than the
    // threshold from the one last announced (smaller moves are stored quietly).
    const announced = p.announced_timestamp !== undefined ? p.announced_timestamp : p.timestamp;
    const estimateNews = !upgraded && r.classifier !== 'actual' && etaMovedEnough(announced, r.timestamp);
    const replacement: TransportEventRecord =
      r.classifier === 'actual' ? { ...r, key: p.key } : { ...r, key: p.key, announced_timestamp: estimateNews ? r.timestamp : announced };
    records[i] = replacement;
    if (known && (upgraded || estimateNews)) {
      fire(r.container_number, { type: r.event, container_number: r.container_number, transport_event: replacement });
    }
  }
}

/** The POD ETA moved: one estimated event for the shipment. The stored estimated events, and what to announce. */
function estimatedArrival(
  previous: StoredState | null,
  prevShipment: ShipmentSnapshot | null,
  shipment: ShipmentSnapshot | null,
  next: Normalized,
): { estimatedEvents: EstimatedEventRecord[]; shipmentEvents: DomainEvent[] } {
  const estimatedEvents = [...(previous?.estimatedEvents ?? [])];
  const shipmentEvents: DomainEvent[] = [];
  // The first ETA starts the history quietly; after that only a move past the threshold from the last announced
  // one (the latest stored estimated event) is news.
  const lastAnnounced = estimatedEvents.at(-1)?.estimated_timestamp ?? null;
  const firstEta = prevShipment !== null && lastAnnounced === null && prevShipment.pod_eta_at === null;
  if (
    prevShipment &&
    shipment?.pod_eta_at &&
    shipment.pod_eta_at !== prevShipment.pod_eta_at &&
    (firstEta || etaMovedEnough(lastAnnounced ?? prevShipment.pod_eta_at, shipment.pod_eta_at))
  ) {
    const record: EstimatedEventRecord = next.estimatedEvents.find((e) => e.estimated_timestamp === shipment.pod_eta_at) ?? {
      key: `shipment.estimated.arrival|${shipment.port_of_discharge_locode ?? '-'}|${shipment.pod_eta_at}`,
      event: 'shipment.estimated.arrival',
      estimated_timestamp: shipment.pod_eta_at,
      location_locode: shipment.port_of_discharge_locode,
      timezone: shipment.pod_timezone,
      voyage_number: shipment.pod_voyage_number,
      vessel_name: shipment.pod_vessel_name,
      vessel_imo: shipment.pod_vessel_imo,
      data_source: 'shipping_line',
      reported_at: null,
    };
    if (!estimatedEvents.some((e) => e.key === record.key)) estimatedEvents.push(record);
    if (!firstEta) {
      shipmentEvents.push({
        type: 'shipment.estimated.arrival',
        estimated_event: record,
        previous_estimated_timestamp: lastAnnounced ?? prevShipment.pod_eta_at,
      });
    }
  } else if (!prevShipment) {
    for (const e of next.estimatedEvents) if (!estimatedEvents.some((x) => x.key === e.key)) estimatedEvents.push(e);
  }
  return { estimatedEvents, shipmentEvents };
}

/** Transport events in the order they happened, then the container's updates. */
function orderContainerEvents(list: DomainEvent[]): DomainEvent[] {
  const transport = list.filter((e) => 'transport_event' in e && e.transport_event.milestone !== null);
  const rest = list.filter((e) => !transport.includes(e));
  const ms = (e: DomainEvent) => ('transport_event' in e && e.transport_event.timestamp ? Date.parse(e.transport_event.timestamp) : 0);
  return [...transport.sort((a, b) => ms(a) - ms(b)), ...rest];
}
