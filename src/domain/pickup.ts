// Whether a container can be picked up: which statuses mean it has left its pickup place, which holds block it
// there, and the release-readiness verdict. Pure; the server's board (tracking/attention.ts) and the web app's pages
// import this same module, so the board and the container page cannot read the same box differently.
// Reads only /v2 attribute names (the engine's snapshot carries the same ones), and imports nothing.

/** A hold as the sources report it (`holds_at_pod_terminal`, `ind_facility_holds`). */
export interface PickupHold {
  name: string;
  /** `hold` blocks pickup; `pending` is under review and does not (yet). */
  status: string;
  description?: string | null;
}

/**
 * Statuses after which nothing is left to do at the pickup place (docs/tracking.md, "Container status").
 * `dropped` and `loaded` are drayage states Tidemark never derives; they mean the box left the pickup place too.
 * `off_dock` is not one: the box waits at the off-dock yard and is picked up from there.
 */
export const LEFT_PICKUP_PLACE_STATUSES = ['picked_up', 'delivered', 'empty_returned', 'dropped', 'loaded'] as const;
export type LeftStatus = (typeof LEFT_PICKUP_PLACE_STATUSES)[number];

const LEFT: ReadonlySet<string> = new Set(LEFT_PICKUP_PLACE_STATUSES);

/** Whether a status says the box has left its pickup place. */
export function isLeftStatus(status: string): status is LeftStatus {
  return LEFT.has(status);
}

type FullOut = { pod_full_out_at?: string | null; final_destination_full_out_at?: string | null };

/** Whether the box has left its pickup place: by its status, or by a full-out time the status has not caught up with. */
export function leftPickupPlace(c: { current_status: string } & FullOut): boolean {
  return isLeftStatus(c.current_status) || Boolean(c.pod_full_out_at || c.final_destination_full_out_at);
}

/** The holds of both places a box can be picked up from. */
export interface HoldLists<H extends PickupHold = PickupHold> {
  holds_at_pod_terminal: readonly H[] | null;
  ind_facility_holds?: readonly H[] | null;
}

/**
 * The holds of the place the box is picked up from: the inland rail terminal's once a rail move is there, else the
 * POD terminal's (pre-arrival holds are real, so they count while the box is still on its way).
 */
export function holdsAtPickupPlace<H extends PickupHold>(c: HoldLists<H>, atInlandRamp: boolean): readonly H[] {
  return (atInlandRamp ? c.ind_facility_holds : c.holds_at_pod_terminal) ?? [];
}

/** The names of the holds with a given status, each once, in the order given. */
export function holdNames(holds: readonly PickupHold[], status: 'hold' | 'pending'): string[] {
  return [...new Set(holds.filter((h) => h.status === status).map((h) => h.name))];
}

/** What a client of the API sees of a rail move's position (the engine's own marks, `rail_move`/`inland_at`, are not served). */
export interface RailFields {
  pod_rail_loaded_at?: string | null;
  pod_rail_departed_at?: string | null;
  ind_ata_at?: string | null;
  ind_rail_unloaded_at?: string | null;
}

/** Statuses of a box at its pickup place (for a rail move: the inland ramp, which only then gives availability). */
const AT_PICKUP_PLACE: ReadonlySet<string> = new Set(['available', 'not_available', 'grounded']);

/**
 * Whether a rail move is at its inland ramp, from its /v2 attributes: the railroad's arrival or unload there, or a
 * box that went by rail standing at its pickup place (a rail move only gets availability at the ramp). The engine
 * knows it exactly (`rail_move && inland_at`); this reads the same from what it serves. It misses only a box whose
 * arrival inland is known from the shipment alone (the line's `destination_ata_at`) while it still sits on its car.
 */
export function atInlandRampOnTheWire(c: RailFields & { current_status: string }): boolean {
  if (c.ind_ata_at || c.ind_rail_unloaded_at) return true;
  return Boolean(c.pod_rail_loaded_at || c.pod_rail_departed_at) && AT_PICKUP_PLACE.has(c.current_status);
}

/** What the verdict reads of a container (the /v2 attribute names). */
export interface ReadinessFields extends HoldLists, RailFields, FullOut {
  current_status: string;
  ready_for_pickup: boolean;
  available_for_pickup: boolean | null;
  availability_known: boolean;
  pod_arrived_at: string | null;
  pod_discharged_at: string | null;
}

/**
 * Whether the box can be picked up, and if not, why, in the order a person asks: has it gone; is it held; where is
 * it; is it offered. Words are the caller's (the web app's lib/readiness.ts).
 */
export type Readiness =
  | { state: 'left'; status: LeftStatus }
  | { state: 'on_hold'; holds: string[] }
  | { state: 'off_dock'; ready: boolean }
  | { state: 'not_arrived' }
  | { state: 'on_rail'; departed: boolean }
  | { state: 'inland_not_unloaded' }
  | { state: 'awaiting_inland_transfer' }
  | { state: 'hold_pending'; holds: string[] }
  | { state: 'ready' }
  | { state: 'availability_unknown' }
  | { state: 'available_not_released' }
  | { state: 'not_discharged' }
  | { state: 'not_available' };

/**
 * The release-readiness verdict. `atInlandRamp` says whose holds count (see `holdsAtPickupPlace`); a client of the
 * API leaves it to `atInlandRampOnTheWire`. Availability and readiness are the engine's (`available_for_pickup`,
 * `ready_for_pickup`: the pickup place's answer, given only while the box is there).
 */
export function readiness(c: ReadinessFields, atInlandRamp = atInlandRampOnTheWire(c)): Readiness {
  const status = c.current_status;
  if (isLeftStatus(status)) return { state: 'left', status };
  if (leftPickupPlace(c)) return { state: 'left', status: 'picked_up' };
  const holds = holdsAtPickupPlace(c, atInlandRamp);
  const blocking = holdNames(holds, 'hold');
  if (blocking.length) return { state: 'on_hold', holds: blocking };
  if (status === 'off_dock') return { state: 'off_dock', ready: c.ready_for_pickup };
  if (status === 'new' || status === 'on_ship' || (!c.pod_arrived_at && !c.pod_discharged_at && status !== 'on_rail')) {
    return { state: 'not_arrived' };
  }
  // At the ramp but still on its car (`on_rail` until unloaded or offered): the railroad's arrival puts it there.
  if (c.ind_ata_at && !c.ind_rail_unloaded_at && !c.ready_for_pickup) return { state: 'inland_not_unloaded' };
  const railing = Boolean(c.pod_rail_loaded_at || c.pod_rail_departed_at) && !c.ind_ata_at && !c.ind_rail_unloaded_at;
  if (railing || status === 'on_rail') return { state: 'on_rail', departed: Boolean(c.pod_rail_departed_at) };
  if (status === 'awaiting_inland_transfer') return { state: 'awaiting_inland_transfer' };
  const pending = holdNames(holds, 'pending');
  if (pending.length) return { state: 'hold_pending', holds: pending };
  if (c.ready_for_pickup) return { state: 'ready' };
  if (!c.availability_known) return { state: 'availability_unknown' };
  if (c.available_for_pickup) return { state: 'available_not_released' };
  if (!c.pod_discharged_at) return { state: 'not_discharged' };
  return { state: 'not_available' };
}
