// The version of the rules that turn stored facts into derived ones, and the re-derivation of a stored state under
// the current rules (services/rederive.ts runs it over the database once per version, without announcing anything).
import { type ContainerSnapshot, deriveContainer, emptyContainer, inlandDestination, type ShipmentSnapshot } from './snapshot.js';
import type { StoredState } from './state.js';

/**
 * Bump whenever a rule changes what is derived from stored facts: deriveContainer (status, availability, readiness,
 * the binding last free day, the position marks) or attention.ts pickupFacts (the board's facts kept with each
 * container). The first start of a version whose number is above the database's re-derives every stored container.
 * 1: status is where the box physically is; binding last free day; off-dock boxes on the board (721126c, 3f5a5fd).
 */
export const DERIVATION_VERSION = 1;

/** A stored container under the current rules: fields added since it was stored are filled as unknown first. */
export function rederiveContainer(c: ContainerSnapshot, shipment: ShipmentSnapshot | null): ContainerSnapshot {
  const filled = { ...emptyContainer(c.number), ...c };
  return deriveContainer(
    {
      ...filled,
      // Stored before the destination said it: a bill of lading to an inland hub is bound inland by rail.
      bound_inland: filled.bound_inland ?? (shipment ? inlandDestination(shipment) : null),
      // A carrier's drop-off at the consignee is no delivery (the hand mark is kept apart, on the row).
      delivered_at: null,
    },
    shipment,
    null,
  );
}

/** A stored state with every container re-derived; nothing else changes (no events, no transport events). */
export function rederiveState(state: StoredState): StoredState {
  return { ...state, containers: state.containers.map((c) => rederiveContainer(c, state.shipment)) };
}
