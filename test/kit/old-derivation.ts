// Data as Tidemark stored it under the derivation rules before version 1 (src/tracking/derivation.ts), for tests of
// the re-derivation that brings it to the current rules: the old deriveContainer, a few boxes derived by it, and the
// rows a tracked shipment and its account shipments had.
import { newId } from '../../src/lib/ids.js';
import type { Queryable } from '../../src/storage/db.js';
import { insertShipment } from '../../src/storage/repositories/shipments.js';
import { upsertContainers } from '../../src/storage/repositories/tracking.js';
import type { StoredState } from '../../src/tracking/changes.js';
import { transportEventRecord } from './seed.js';
import {
  type ContainerSnapshot,
  emptyContainer,
  emptyShipment,
  type ShipmentSnapshot,
  type TransportEventRecord,
} from '../../src/tracking/snapshot.js';

export const LA = 'America/Los_Angeles';

/**
 * What deriveContainer made of a container before derivation version 1 (src/tracking/snapshot.ts at 721126c^): the
 * status from the latest stage reached, whoever reported it (a terminal's "not available" put a box at sea at the
 * terminal), the line's last free day first, and none of the fields added since.
 */
export function storedUnderOldRules(facts: Partial<ContainerSnapshot> & { number: string }, s: ShipmentSnapshot): Record<string, unknown> {
  const c = { ...emptyContainer(facts.number), ...facts };
  const inland =
    c.rail_move &&
    (c.ind_ata_at !== null ||
      c.ind_rail_unloaded_at !== null ||
      c.ind_facility_available_for_pickup !== null ||
      c.final_destination_full_out_at !== null ||
      s.destination_ata_at !== null);
  const available = inland ? c.ind_facility_available_for_pickup : c.pod_terminal_available_for_pickup;
  const byAvailability = available === true ? 'available' : available === false ? 'not_available' : 'grounded';
  const atPod = c.pod_discharged_at !== null || c.pod_terminal_available_for_pickup !== null || c.location_at_pod_terminal !== null;
  const sailing = c.pod_arrived_at || c.pol_vessel_loaded_at || c.pol_vessel_departed_at ? 'on_ship' : 'new';
  const status = c.empty_terminated_at
    ? 'empty_returned'
    : c.pod_full_out_at || c.final_destination_full_out_at
      ? 'picked_up'
      : c.rail_move
        ? inland
          ? byAvailability
          : c.pod_rail_loaded_at || c.pod_rail_departed_at
            ? 'on_rail'
            : atPod
              ? 'awaiting_inland_transfer'
              : sailing
        : atPod
          ? byAvailability
          : sailing;
  const {
    pickup_lfd_binding: _1,
    pickup_lfd_binding_party: _2,
    pickup_lfd_binding_timezone: _3,
    on_board_at: _4,
    pod_grounded_at: _5,
    inland_at: _6,
    pod_terminal_off_dock: _7,
    ...old
  } = {
    ...c,
    pickup_lfd: c.pickup_lfd_line ?? c.pickup_lfd_terminal ?? c.pickup_lfd_rail,
    ind_facility_lfd_on: c.pickup_lfd_rail,
    ssl_lfd: c.pickup_lfd_line,
    available_for_pickup: available,
    availability_known: available !== null,
    ready_for_pickup: available === true,
    current_status: status,
  };
  return old;
}

/** One vessel, arrived at Los Angeles: a box discharged and available, and a rail move on its way inland. */
export const ARRIVED: ShipmentSnapshot = {
  ...emptyShipment(),
  bill_of_lading_number: 'MAEUOLD0001',
  shipping_line_scac: 'MAEU',
  port_of_discharge_locode: 'USLAX',
  pod_ata_at: '2026-03-04T15:00:00Z',
  pod_timezone: LA,
  destination_locode: 'USCHI',
  destination_timezone: 'America/Chicago',
};
/** Another, still at sea. */
export const SAILING: ShipmentSnapshot = {
  ...emptyShipment(),
  bill_of_lading_number: 'MAEUOLD0002',
  shipping_line_scac: 'MAEU',
  port_of_discharge_locode: 'USLAX',
  pod_eta_at: '2026-03-20T15:00:00Z',
  pod_timezone: LA,
};
/** Available at the terminal; the terminal's free time ends on 6 March, the line's on 10 March (LA midnights). */
export const AVAILABLE = storedUnderOldRules(
  {
    number: 'MSKU1000002',
    pol_vessel_departed_at: '2026-02-10T10:00:00Z',
    pod_arrived_at: '2026-03-04T15:00:00Z',
    pod_discharged_at: '2026-03-05T02:00:00Z',
    pod_terminal_available_for_pickup: true,
    holds_at_pod_terminal: [],
    pod_timezone: LA,
    pickup_lfd_line: '2026-03-10T07:00:00Z',
    pickup_lfd_terminal: '2026-03-06T08:00:00Z',
  },
  ARRIVED,
);
/** On a train from the port; the inland ramp said "not available" before the box got there. */
export const RAILING = storedUnderOldRules(
  {
    number: 'MSKU1000003',
    rail_move: true,
    pol_vessel_departed_at: '2026-02-10T10:00:00Z',
    pod_arrived_at: '2026-03-04T15:00:00Z',
    pod_discharged_at: '2026-03-05T02:00:00Z',
    pod_rail_loaded_at: '2026-03-06T20:00:00Z',
    pod_rail_departed_at: '2026-03-07T01:00:00Z',
    ind_facility_available_for_pickup: false,
    pod_timezone: LA,
    final_destination_timezone: 'America/Chicago',
  },
  ARRIVED,
);
/** At sea; the POD terminal already answers "not available" for it. */
export const AT_SEA = storedUnderOldRules(
  {
    number: 'MSKU1000001',
    pol_vessel_loaded_at: '2026-03-01T10:00:00Z',
    pol_vessel_departed_at: '2026-03-01T22:00:00Z',
    pod_terminal_available_for_pickup: false,
    pod_timezone: LA,
  },
  SAILING,
);

/** A departure stored as the engine of that time stored it: before observed_at existed. */
export function eventRecord(containerNumber: string): TransportEventRecord {
  return {
    ...transportEventRecord(containerNumber, {
      event: 'container.transport.vessel_departed',
      milestone: 'vessel_departed',
      timestamp: '2026-02-10T10:00:00Z',
    }),
    key: `vessel_departed|${containerNumber}`,
    observed_at: null,
  };
}

export function oldState(shipment: ShipmentSnapshot, containers: Record<string, unknown>[]): StoredState {
  return {
    shipment,
    containers: containers as unknown as ContainerSnapshot[],
    transportEvents: containers.map((c) => eventRecord(c.number as string)),
    estimatedEvents: [],
    withdrawals: [],
  };
}

/** A tracked shipment with this stored state; its id. */
export async function insertTrackedShipment(db: Queryable, number: string, state: StoredState, now: Date): Promise<string> {
  const id = newId();
  await db.query(
    `INSERT INTO tracked_shipments (id, scac, number_type, number, state, active, terminal_checked_at, created_at, updated_at)
     VALUES ($1, 'MAEU', 'bill_of_lading', $2, $3, true, $4, $4, $4)`,
    [id, number, JSON.stringify(state), now],
  );
  return id;
}

/**
 * An account's shipment following a tracked shipment (stopped by the user, or not), with these stored containers as
 * a projection of the old version wrote them; the board's facts are left at their defaults (migration 0020 fills
 * them as that version derived them). Its id.
 */
export async function insertAccountShipment(
  db: Queryable,
  o: {
    accountId: string;
    trackedId: string;
    shipment: ShipmentSnapshot;
    containers: Record<string, unknown>[];
    stopped?: boolean;
    now: Date;
  },
): Promise<string> {
  const id = newId();
  await insertShipment(db, {
    id,
    account_id: o.accountId,
    bill_of_lading_number: o.shipment.bill_of_lading_number!,
    request_number: o.shipment.bill_of_lading_number!,
    created_at: o.now,
    updated_at: o.now,
  });
  await db.query(
    `UPDATE shipments SET tracked_shipment_id = $2, snapshot = $3, line_tracking_stopped_at = $4, line_tracking_stopped_reason = $5,
       line_tracking_stopped_by_user = $6 WHERE id = $1`,
    [id, o.trackedId, JSON.stringify(o.shipment), o.stopped ? o.now : null, o.stopped ? 'cancelled_by_user' : null, o.stopped ?? false],
  );
  await upsertContainers(
    db,
    o.containers.map((c) => ({
      id: newId(),
      account_id: o.accountId,
      shipment_id: id,
      number: c.number as string,
      current_status: c.current_status as string,
      snapshot: c,
      terminal_checked_at: o.now,
      terminal_next_check_at: null,
      rail_checked_at: null,
      rail_next_check_at: null,
      pickup: { zone: null, lfd_day: null, holds: 0, available: false, billed: false },
    })),
    o.now,
  );
  return id;
}
