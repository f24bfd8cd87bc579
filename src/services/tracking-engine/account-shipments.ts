// Projecting a tracked shipment's state onto the accounts that follow it: each account's shipment columns, its
// containers (with their checks and the board's pickup facts), the transport events it lacks, its estimated events
// and the events it may see. The re-derivation (services/rederive.ts) writes containers through here too.
import { newId } from '../../lib/ids.js';
import type { Queryable } from '../../storage/db.js';
import * as repo from '../../storage/repositories/tracking.js';
import { pickupFacts } from '../../tracking/attention.js';
import type { DomainEvent, StoredState } from '../../tracking/changes.js';
import type { ContainerSnapshot, ShipmentSnapshot } from '../../tracking/snapshot.js';
import { accountEventRow, inOrder, visibleTo } from './account-events.js';
import type { EngineContext } from './context.js';

/** One account shipment to write: the state to show and the events to announce (was the engine's "projection"). */
export interface AccountShipmentWrite {
  shipment: { id: string; account_id: string; features: readonly string[] };
  state: StoredState;
  events: readonly DomainEvent[];
  tracked: repo.TrackedShipmentRow;
  /** The state the account had (its records need no write); null: write them all. */
  previous: StoredState | null;
}

/** When the sources were last and will next be asked about an account container. */
export interface ContainerChecks {
  terminal_checked_at: Date | null;
  terminal_next_check_at: Date | null;
  rail_checked_at: Date | null;
  rail_next_check_at: Date | null;
}

/** One account container to write: its shipment, its snapshot, its checks. */
export interface AccountContainerWrite {
  shipment: { id: string; account_id: string };
  container: ContainerSnapshot;
  checks: ContainerChecks;
}

/** An account container's id by its shipment and number (null without a number or a row). */
type ContainerIdOf = (shipmentId: string, number: string | null) => string | null;

/** Writes each state onto its account's shipment and records the events the account may see. */
export async function writeAccountShipments(
  ctx: EngineContext,
  tx: Queryable,
  writes: readonly AccountShipmentWrite[],
  worldNow: Date,
): Promise<void> {
  if (writes.length === 0) return;
  const wall = ctx.clocks.wall.now();
  const containerId = await writeShipmentsAndContainers(tx, writes, wall);
  const eventIds = await writeTransportEvents(tx, writes, containerId, wall);
  await recordAnnouncedEvents(tx, writes, containerId, eventIds, worldNow, wall);
}

/** The shipments' columns and their containers; how to find a written container's id. */
async function writeShipmentsAndContainers(tx: Queryable, writes: readonly AccountShipmentWrite[], wall: Date): Promise<ContainerIdOf> {
  await repo.updateShipmentColumnsMany(
    tx,
    writes.flatMap((p) => (p.state.shipment ? [{ id: p.shipment.id, cols: shipmentColumns(p.state.shipment, p.tracked, null) }] : [])),
    wall,
  );
  const saved = await writeAccountContainers(
    tx,
    writes.flatMap(({ shipment, state, tracked }) =>
      state.containers.map((container) => ({ shipment, container, checks: trackedChecks(tracked, container) })),
    ),
    wall,
  );
  const containerIds = new Map(saved.map((c) => [`${c.shipment_id} ${c.number}`, c.id]));
  return (shipmentId, number) => (number ? (containerIds.get(`${shipmentId} ${number}`) ?? null) : null);
}

/** The transport events each account lacks; their ids by `container_id key`. */
async function writeTransportEvents(
  tx: Queryable,
  writes: readonly AccountShipmentWrite[],
  containerId: ContainerIdOf,
  wall: Date,
): Promise<Map<string, string>> {
  // Records the account already has as they are need no write (previous null: write them all).
  const unchangedOf = new Map<StoredState, Set<string>>();
  const unchanged = (previous: StoredState) => {
    const known = unchangedOf.get(previous);
    if (known) return known;
    const set = new Set(previous.transportEvents.map((r) => JSON.stringify(r)));
    unchangedOf.set(previous, set);
    return set;
  };
  const events = [];
  for (const { shipment, state, previous } of writes) {
    const same = previous ? unchanged(previous) : null;
    for (const record of state.transportEvents) {
      const id = containerId(shipment.id, record.container_number);
      if (!id || same?.has(JSON.stringify(record))) continue;
      events.push({
        id: newId(),
        account_id: shipment.account_id,
        shipment_id: shipment.id,
        container_id: id,
        event: record.event,
        key: record.key,
        timestamp: record.timestamp,
        record,
      });
    }
  }
  return new Map((await repo.upsertTransportEvents(tx, events, wall)).map((e) => [`${e.container_id} ${e.key}`, e.id]));
}

/** The events each account may see, in order, with the estimated events they announce. */
async function recordAnnouncedEvents(
  tx: Queryable,
  writes: readonly AccountShipmentWrite[],
  containerId: ContainerIdOf,
  eventIds: Map<string, string>,
  worldNow: Date,
  wall: Date,
): Promise<void> {
  // The events each account may see, in order; an announced transport event the account already had is looked up.
  const announced = writes.flatMap(({ shipment, events }) =>
    inOrder(visibleTo(events, shipment.features)).map((event) => {
      const number = 'container_number' in event ? event.container_number : null;
      const container = containerId(shipment.id, number);
      return { shipment, event, container, key: 'transport_event' in event && number ? event.transport_event.key : null };
    }),
  );
  const missing = announced.filter((a) => a.container && a.key && !eventIds.has(`${a.container} ${a.key}`));
  for (const e of await repo.findTransportEventIds(
    tx,
    missing.map((a) => ({ container_id: a.container!, key: a.key! })),
  )) {
    eventIds.set(`${e.container_id} ${e.key}`, e.id);
  }
  const estimated = [];
  const rows = [];
  for (const { shipment, event, container, key } of announced) {
    let estimatedEventId: string | null = null;
    if (event.type === 'shipment.estimated.arrival') {
      estimatedEventId = newId();
      estimated.push({
        id: estimatedEventId,
        account_id: shipment.account_id,
        shipment_id: shipment.id,
        event: event.type,
        estimated_timestamp: event.estimated_event.estimated_timestamp,
        record: event.estimated_event,
      });
    }
    rows.push(
      accountEventRow(shipment.account_id, event.type, worldNow, {
        shipment_id: shipment.id,
        container_id: container,
        transport_event_id: key && container ? (eventIds.get(`${container} ${key}`) ?? null) : null,
        estimated_event_id: estimatedEventId,
        payload: event,
      }),
    );
  }
  await repo.insertEstimatedEvents(tx, estimated, wall);
  await repo.insertAccountEvents(tx, rows, wall);
}

/** A projected container's checks: its tracked shipment's (the railroad's only for a rail move). */
export function trackedChecks(
  tracked: Pick<repo.TrackedShipmentRow, 'terminal_checked_at' | 'terminal_next_check_at' | 'rail_checked_at' | 'rail_next_check_at'>,
  c: ContainerSnapshot,
): ContainerChecks {
  return {
    terminal_checked_at: tracked.terminal_checked_at,
    terminal_next_check_at: tracked.terminal_next_check_at,
    rail_checked_at: c.rail_move ? tracked.rail_checked_at : null,
    rail_next_check_at: c.rail_move ? tracked.rail_next_check_at : null,
  };
}

/**
 * Writes account containers as every projection does: the status and snapshot as derived, the board's pickup facts
 * of the snapshot, a delivery marked by hand kept (repo.upsertContainers). The re-derivation after a change of the
 * rules (services/rederive.ts) writes through here too, so that the two cannot drift apart.
 */
export function writeAccountContainers(
  tx: Queryable,
  rows: readonly AccountContainerWrite[],
  wall: Date,
): Promise<{ id: string; shipment_id: string; number: string }[]> {
  return repo.upsertContainers(
    tx,
    rows.map(({ shipment, container: c, checks }) => ({
      id: newId(),
      account_id: shipment.account_id,
      shipment_id: shipment.id,
      number: c.number,
      current_status: c.current_status,
      snapshot: c,
      ...checks,
      pickup: pickupFacts(c),
    })),
    wall,
  );
}

/** An account shipment's columns from the tracked state (`requestNumber`: the account's own, on its first write). */
export function shipmentColumns(s: ShipmentSnapshot, tracked: repo.TrackedShipmentRow, requestNumber: string | null): repo.ShipmentColumns {
  return {
    bill_of_lading_number: s.bill_of_lading_number ?? s.booking_number ?? requestNumber ?? tracked.number,
    booking_number: s.booking_number,
    shipping_line_scac: s.shipping_line_scac ?? tracked.scac,
    shipping_line_name: s.shipping_line_name,
    shipping_line_short_name: s.shipping_line_short_name,
    port_of_lading_locode: s.port_of_lading_locode,
    port_of_lading_name: s.port_of_lading_name,
    pol_etd_at: s.pol_etd_at,
    pol_atd_at: s.pol_atd_at,
    pol_original_etd_at: s.pol_original_etd_at,
    pol_timezone: s.pol_timezone,
    port_of_discharge_locode: s.port_of_discharge_locode,
    port_of_discharge_name: s.port_of_discharge_name,
    pod_terminal_firms_code: s.pod_terminal?.firmsCode ?? null,
    pod_vessel_name: s.pod_vessel_name,
    pod_vessel_imo: s.pod_vessel_imo,
    pod_voyage_number: s.pod_voyage_number,
    pod_eta_at: s.pod_eta_at,
    pod_original_eta_at: s.pod_original_eta_at,
    pod_ata_at: s.pod_ata_at,
    pod_timezone: s.pod_timezone,
    destination_locode: s.destination_locode,
    destination_name: s.destination_name,
    destination_eta_at: s.destination_eta_at,
    destination_ata_at: s.destination_ata_at,
    destination_original_eta_at: s.destination_original_eta_at,
    destination_timezone: s.destination_timezone,
    line_tracking_last_attempted_at: tracked.line_last_attempted_at,
    line_tracking_last_succeeded_at: tracked.line_last_succeeded_at,
    line_tracking_next_attempt_at: tracked.line_next_check_at,
    snapshot: s,
  };
}
