// Comparing what the sources say now with what is stored: the merged state to store and the domain events
// (webhook event names) it implies. Pure: world time is passed in; the same input twice gives no events.
import type { Changeset, ChangesetKey, DomainEvent } from './domain-events.js';
import type { Normalized } from './normalize.js';
import { compatibleVessels } from './occurrences.js';
import { sameFacility } from './places.js';
import {
  type ContainerSnapshot,
  compareFees,
  compareHolds,
  type DataSource,
  deriveContainer,
  deriveShipment,
  type EstimatedEventRecord,
  type Fee,
  feeId,
  type Hold,
  holdId,
  isInland,
  isPickedUp,
  leftPodYard,
  type PickupChangeEventName,
  type ShipmentSnapshot,
  terminalHolds,
  type TransportEventName,
  type TransportEventRecord,
} from './snapshot.js';
import type { StoredState, Withdrawal } from './state.js';
import { type IsoInstant, isoInstant } from './time.js';

export type { Changeset, ChangesetKey, DomainEvent } from './domain-events.js';
export type { StoredState, Withdrawal } from './state.js';

/**
 * A terminal value that disappears is still shown for this long (world time) before its withdrawal is
 * announced: if it comes back meanwhile, nothing fires at all instead of a withdrawn/restored pair.
 */
export const FLAP_WINDOW_MS = 2 * 60 * 60 * 1000;

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

// Fields the merge treats specially; every other snapshot field is "the latest known value wins".
const TERMINAL_SCALARS = [
  'pod_terminal_available_for_pickup',
  'pickup_lfd_terminal',
  'pickup_appointment_at',
  'location_at_pod_terminal',
  'pod_full_out_chassis_number',
] as const;
const RAIL_SCALARS = ['ind_facility_available_for_pickup', 'pickup_lfd_rail'] as const;
const SPECIAL: ReadonlySet<string> = new Set([
  ...TERMINAL_SCALARS,
  ...RAIL_SCALARS,
  'pickup_lfd_line',
  'holds_at_pod_terminal',
  'fees_at_pod_terminal',
  'ind_facility_holds',
  'ind_facility_fees',
  'rail_move',
  'pod_terminal',
  'pod_terminal_source',
  'pod_terminal_off_dock',
]);

const ORIGINALS = ['pol_original_etd_at', 'pod_original_eta_at', 'destination_original_eta_at'] as const;

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Lists compare as sets in their stable order, and "unknown" equals "none": neither is news. */
function sameList(a: readonly unknown[] | null, b: readonly unknown[] | null): boolean {
  return same(a ?? [], b ?? []);
}

function mergeShipment(prev: ShipmentSnapshot | null, next: ShipmentSnapshot | null, carrierReported: boolean): ShipmentSnapshot | null {
  if (!prev) return next;
  if (!next || !carrierReported) return prev;
  const merged = { ...prev } as Record<string, unknown>;
  for (const [k, v] of Object.entries(next)) merged[k] = v ?? merged[k] ?? null;
  // The first estimate ever seen stays the original.
  for (const k of ORIGINALS) merged[k] = prev[k] ?? next[k];
  return deriveShipment(merged as unknown as ShipmentSnapshot);
}

class Flaps {
  readonly #kept: Withdrawal[] = [];
  readonly #pending: Map<string, number>;
  readonly #visited = new Set<string>();
  constructor(
    private readonly previous: readonly Withdrawal[],
    private readonly nowMs: number,
  ) {
    this.#pending = new Map(previous.map((w) => [Flaps.#key(w.container, w.field), Date.parse(w.since)]));
  }

  static #key(container: string, field: string): string {
    return `${container}\u0000${field}`;
  }

  /**
   * The value to store for a reported field: the new one; or, when it went missing, the old one until the
   * window has passed since it first went missing, then null.
   */
  scalar<T>(container: string, field: string, prev: T | null, next: T | null): T | null {
    this.#visited.add(Flaps.#key(container, field));
    if (next !== null || prev === null) return next;
    return this.#withdrawn(container, field) ? null : prev;
  }

  /** The same per item of a list (holds by name, fees by type): each missing item lingers for the window. */
  list<T>(
    container: string,
    field: string,
    prev: T[] | null,
    next: T[] | null,
    id: (t: T) => string,
    order: (a: T, b: T) => number,
    confirmed = false,
  ): T[] | null {
    if (next === null) return prev;
    if (confirmed) {
      for (const item of prev ?? []) this.#visited.add(Flaps.#key(container, `${field}:${id(item)}`));
      return [...next].sort(order);
    }
    for (const item of [...(prev ?? []), ...next]) this.#visited.add(Flaps.#key(container, `${field}:${id(item)}`));
    const nextIds = new Set(next.map(id));
    const lingering = (prev ?? []).filter((item) => !nextIds.has(id(item)) && !this.#withdrawn(container, `${field}:${id(item)}`));
    return [...next, ...lingering].sort(order);
  }

  /**
   * A facility's availability going from true to false is held (true) for the window: the terminal often drops it
   * one poll before its full out is read, and then the full out is the only news. Back to true, or a full out,
   * within the window: the drop is forgotten.
   */
  availability(container: string, field: string, prev: boolean | null, next: boolean | null, pickedUp: boolean): boolean | null {
    const key = `${field}:drop`;
    this.#visited.add(Flaps.#key(container, key));
    if (pickedUp || prev !== true || next !== false) return next;
    return !this.#withdrawn(container, key);
  }

  /** Forgets a field's pending withdrawal: its value no longer matters (the box has left). */
  forget(container: string, field: string): void {
    this.#visited.add(Flaps.#key(container, field));
  }

  /** Pending withdrawals after this merge: the ones still within the window, and the ones nobody reported on. */
  withdrawals(): Withdrawal[] {
    const untouched = this.previous.filter((w) => !this.#visited.has(Flaps.#key(w.container, w.field)));
    return [...this.#kept, ...untouched].sort((a, b) =>
      a.container !== b.container ? (a.container < b.container ? -1 : 1) : a.field < b.field ? -1 : 1,
    );
  }

  /** True once the value has been missing for the whole window; else remembers it as pending. */
  #withdrawn(container: string, field: string): boolean {
    const since = this.#pending.get(Flaps.#key(container, field)) ?? this.nowMs;
    if (this.nowMs - since >= FLAP_WINDOW_MS) return true;
    this.#kept.push({ container, field, since: isoInstant(since) });
    return false;
  }
}

function mergeContainer(
  prev: ContainerSnapshot,
  next: ContainerSnapshot,
  reported: Normalized['reported'],
  flaps: Flaps,
): ContainerSnapshot {
  const n = next.number;
  const merged = { ...prev } as Record<string, unknown>;
  for (const [k, v] of Object.entries(next)) if (!SPECIAL.has(k)) merged[k] = v ?? merged[k] ?? null;
  merged.rail_move = prev.rail_move || next.rail_move;
  // The terminal's own word on where the box is outranks the line's until the terminal says otherwise.
  const lineOverTerminal = next.pod_terminal_source === 'shipping_line' && prev.pod_terminal_source === 'terminal';
  if (next.pod_terminal && !lineOverTerminal) {
    merged.pod_terminal = next.pod_terminal;
    merged.pod_terminal_source = next.pod_terminal_source;
  }
  const c = merged as unknown as ContainerSnapshot;

  const pickedUp = isPickedUp(c);
  if (reported.terminal.includes(n)) {
    // An off-dock yard that gives no last free day of its own leaves the marine terminal's binding.
    const keepTerminalLfd = next.pod_terminal_off_dock && next.pickup_lfd_terminal === null;
    // Gone from the yard: no slot to keep while the terminal makes up its mind.
    const slotGone = leftPodYard(c);
    for (const f of TERMINAL_SCALARS) {
      if ((f === 'pickup_lfd_terminal' && keepTerminalLfd) || (f === 'location_at_pod_terminal' && slotGone)) flaps.forget(n, f);
      else (c as unknown as Record<string, unknown>)[f] = flaps.scalar(n, f, prev[f], next[f]);
    }
    if (slotGone) c.location_at_pod_terminal = null;
    c.pod_terminal_off_dock = next.pod_terminal_off_dock;
    c.pod_terminal_available_for_pickup = flaps.availability(
      n,
      'pod_terminal_available_for_pickup',
      prev.pod_terminal_available_for_pickup,
      c.pod_terminal_available_for_pickup,
      pickedUp,
    );
    // Holds missing from a report that says the box is available were released, not lost: no lingering (nor
    // once the box has left: there are no holds on a box that is gone).
    const released = next.pod_terminal_available_for_pickup === true || pickedUp;
    c.holds_at_pod_terminal = flaps.list<Hold>(
      n,
      'holds_at_pod_terminal',
      terminalHolds(prev.holds_at_pod_terminal),
      next.holds_at_pod_terminal,
      holdId,
      compareHolds,
      released,
    );
    c.fees_at_pod_terminal = flaps.list<Fee>(
      n,
      'fees_at_pod_terminal',
      prev.fees_at_pod_terminal,
      next.fees_at_pod_terminal,
      feeId,
      compareFees,
    );
  } else {
    // No terminal report this time: the line's availability word may still fill a gap, never erase; so may its
    // word that the box went to an off-dock yard.
    c.pod_terminal_available_for_pickup = next.pod_terminal_available_for_pickup ?? prev.pod_terminal_available_for_pickup;
    c.pod_terminal_off_dock = prev.pod_terminal_off_dock || next.pod_terminal_off_dock;
  }
  if (reported.lineLfd.includes(n)) c.pickup_lfd_line = flaps.scalar(n, 'pickup_lfd_line', prev.pickup_lfd_line, next.pickup_lfd_line);
  if (reported.rail.includes(n)) {
    for (const f of RAIL_SCALARS) (c as unknown as Record<string, unknown>)[f] = flaps.scalar(n, f, prev[f], next[f]);
    c.ind_facility_available_for_pickup = flaps.availability(
      n,
      'ind_facility_available_for_pickup',
      prev.ind_facility_available_for_pickup,
      c.ind_facility_available_for_pickup,
      pickedUp,
    );
    const released = next.ind_facility_available_for_pickup === true || pickedUp;
    c.ind_facility_holds = flaps.list<Hold>(
      n,
      'ind_facility_holds',
      prev.ind_facility_holds,
      next.ind_facility_holds,
      holdId,
      compareHolds,
      released,
    );
    c.ind_facility_fees = flaps.list<Fee>(n, 'ind_facility_fees', prev.ind_facility_fees, next.ind_facility_fees, feeId, compareFees);
  }
  // Fees stop growing once the box has left: what was reported up to the full out (or the empty return) stays.
  if (isPickedUp(prev)) {
    c.fees_at_pod_terminal = prev.fees_at_pod_terminal;
    c.ind_facility_fees = prev.ind_facility_fees;
  }
  return c;
}

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
  const now = isoInstant(nowMs);
  const railLfd = ctx.accountFeatures?.includes('rail_lfd') ?? false;
  const flaps = new Flaps(previous?.withdrawals ?? [], nowMs);
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
  const fire = (n: string, e: DomainEvent) => {
    const list = perContainer.get(n);
    if (list) list.push(e);
    else perContainer.set(n, [e]);
  };
  for (const r of next.transportEvents) {
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
    containerChanges(prev, c);
  }

  function pickupRecord(
    c: ContainerSnapshot,
    event: PickupChangeEventName | TransportEventName,
    value: IsoInstant | null,
    source: DataSource,
  ): TransportEventRecord {
    const inland = isInland(c, shipment);
    return {
      key: `${event}|${c.number}|${value ?? 'null'}|${now}`,
      event,
      milestone: null,
      classifier: 'actual',
      container_number: c.number,
      timestamp: event.startsWith('container.pickup_') ? value : now,
      timezone: source === 'rail' || inland ? c.final_destination_timezone : c.pod_timezone,
      location_locode: source === 'rail' || inland ? (shipment?.destination_locode ?? null) : (shipment?.port_of_discharge_locode ?? null),
      location_type: source === 'rail' || inland ? (shipment?.destination_location_type ?? null) : 'port',
      terminal: source === 'rail' || inland ? c.pickup_facility : c.pod_terminal,
      vessel_name: null,
      vessel_imo: null,
      voyage_number: null,
      rail_carrier_scac: null,
      data_source: source,
      value: event.startsWith('container.pickup_') ? value : null,
      source_id: null,
      source_event_id: null,
      source_code: null,
      reported_at: null,
      observed_at: now,
    };
  }

  function containerChanges(prev: ContainerSnapshot, c: ContainerSnapshot): void {
    const n = c.number;
    const changeset: Changeset = {};
    // The full out says it all: the availability and holds it clears are not announced beside it.
    const leaving = isPickedUp(c) && !isPickedUp(prev);
    const scalars: ChangesetKey[] = ['available_for_pickup', 'pickup_lfd', 'pickup_lfd_line', 'pickup_appointment_at'];
    if (railLfd) scalars.push('pickup_lfd_rail');
    for (const k of scalars) {
      if (leaving && k === 'available_for_pickup') continue;
      const before = prev[k as keyof ContainerSnapshot];
      const after = c[k as keyof ContainerSnapshot];
      if (!same(before, after)) changeset[k] = [before, after];
    }
    for (const k of ['holds_at_pod_terminal', 'fees_at_pod_terminal'] as const) {
      if (leaving && k === 'holds_at_pod_terminal') continue;
      if (!sameList(prev[k], c[k])) changeset[k] = [prev[k] ?? [], c[k] ?? []];
    }
    const terminalChanged = prev.pod_terminal !== null && c.pod_terminal !== null && !sameFacility(prev.pod_terminal, c.pod_terminal);
    if (terminalChanged) {
      changeset.pod_terminal = [prev.pod_terminal!.id ?? prev.pod_terminal!.code, c.pod_terminal!.id ?? c.pod_terminal!.code];
      fire(n, {
        type: 'container.pod_terminal_changed',
        container_number: n,
        timestamp: now,
        data_source: next.reported.terminal.includes(n) ? 'terminal' : 'shipping_line',
        terminal: c.pod_terminal!,
        previous_terminal: prev.pod_terminal!,
      });
    }
    if (Object.keys(changeset).length > 0) {
      fire(n, {
        type: 'container.updated',
        container_number: n,
        changeset,
        timestamp: now,
        timezone: c.pod_timezone,
        data_source: 'terminal',
        terminal: c.pod_terminal,
      });
    }

    const inland = isInland(c, shipment);
    const pickups: [keyof ContainerSnapshot, PickupChangeEventName, DataSource][] = [
      ['pickup_lfd', 'container.pickup_lfd.changed', c.pickup_lfd_line ? 'shipping_line' : c.pickup_lfd_terminal ? 'terminal' : 'rail'],
      ['pickup_lfd_line', 'container.pickup_lfd_line.changed', 'shipping_line'],
      ['pickup_lfd_terminal', 'container.pickup_lfd_terminal.changed', 'terminal'],
      ['pickup_appointment_at', 'container.pickup_appointment.changed', 'terminal'],
    ];
    if (railLfd) pickups.push(['pickup_lfd_rail', 'container.pickup_lfd_rail.changed', 'rail']);
    for (const [field, event, source] of pickups) {
      if (same(prev[field], c[field])) continue;
      const r = pickupRecord(c, event, c[field] as IsoInstant | null, source);
      records.push(r);
      fire(n, { type: event, container_number: n, transport_event: r });
    }

    // Availability events only at the pickup place while the box is there: the derived value is null before it
    // gets there, and after the full out "not available" is no news (it was picked up).
    if (c.available_for_pickup !== null && prev.available_for_pickup !== c.available_for_pickup && !isPickedUp(c)) {
      const event = c.available_for_pickup ? 'container.transport.available' : 'container.transport.not_available';
      const r = pickupRecord(c, event, null, inland ? 'rail' : 'terminal');
      records.push(r);
      fire(n, { type: event, container_number: n, transport_event: r });
    }
  }

  // The POD ETA moved: one estimated event for the shipment.
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

/** Transport events in the order they happened, then the container's updates. */
function orderContainerEvents(list: DomainEvent[]): DomainEvent[] {
  const transport = list.filter((e) => 'transport_event' in e && e.transport_event.milestone !== null);
  const rest = list.filter((e) => !transport.includes(e));
  const ms = (e: DomainEvent) => ('transport_event' in e && e.transport_event.timestamp ? Date.parse(e.transport_event.timestamp) : 0);
  return [...transport.sort((a, b) => ms(a) - ms(b)), ...rest];
}
