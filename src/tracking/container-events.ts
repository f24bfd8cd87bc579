// The events one container's change implies (the announcing half of detectChanges): `container.updated` with its
// changeset, a terminal change, pickup LFD and appointment changes, and availability at the pickup place.
import type { Changeset, ChangesetKey, DomainEvent } from './domain-events.js';
import { sameFacility } from './places.js';
import {
  type ContainerSnapshot,
  type DataSource,
  isInland,
  isPickedUp,
  type PickupChangeEventName,
  type ShipmentSnapshot,
  type TransportEventName,
  type TransportEventRecord,
} from './snapshot.js';
import type { IsoInstant } from './time.js';

/** What announcing a container's changes needs from the detectChanges it is part of. */
export interface ContainerEventContext {
  /** The merged shipment. */
  shipment: ShipmentSnapshot | null;
  /** World now, as stored on the records it makes. */
  now: IsoInstant;
  /** Whether the rail LFD is announced (the `rail_lfd` feature). */
  railLfd: boolean;
  /** Containers a POD terminal reported on this time. */
  terminalReported: readonly string[];
  /** The shipment's transport event records: the pickup and availability records are appended. */
  records: TransportEventRecord[];
  /** Announces an event of a container. */
  fire: (container: string, event: DomainEvent) => void;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Lists compare as sets in their stable order, and "unknown" equals "none": neither is news. */
function sameList(a: readonly unknown[] | null, b: readonly unknown[] | null): boolean {
  return same(a ?? [], b ?? []);
}

/** Announces what changed on a known container between `prev` and its merged, derived successor `c`. */
export function containerChanges(ctx: ContainerEventContext, prev: ContainerSnapshot, c: ContainerSnapshot): void {
  announceUpdate(ctx, prev, c);
  announcePickupChanges(ctx, prev, c);
}

/** `container.updated` with its changeset, and `container.pod_terminal_changed` when the terminal changed. */
function announceUpdate(
  { now, railLfd, terminalReported, fire }: ContainerEventContext,
  prev: ContainerSnapshot,
  c: ContainerSnapshot,
): void {
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
      data_source: terminalReported.includes(n) ? 'terminal' : 'shipping_line',
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
}

/** The pickup LFD and appointment changes, and availability at the pickup place: each a record and an event. */
function announcePickupChanges(ctx: ContainerEventContext, prev: ContainerSnapshot, c: ContainerSnapshot): void {
  const { shipment, railLfd, records, fire } = ctx;
  const n = c.number;
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
    const r = pickupRecord(ctx, c, event, c[field] as IsoInstant | null, source);
    records.push(r);
    fire(n, { type: event, container_number: n, transport_event: r });
  }

  // Availability events only at the pickup place while the box is there: the derived value is null before it
  // gets there, and after the full out "not available" is no news (it was picked up).
  if (c.available_for_pickup !== null && prev.available_for_pickup !== c.available_for_pickup && !isPickedUp(c)) {
    const event = c.available_for_pickup ? 'container.transport.available' : 'container.transport.not_available';
    const r = pickupRecord(ctx, c, event, null, inland ? 'rail' : 'terminal');
    records.push(r);
    fire(n, { type: event, container_number: n, transport_event: r });
  }
}

/** The transport event record of a pickup change or an availability event, at the place it concerns. */
function pickupRecord(
  { shipment, now }: ContainerEventContext,
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
