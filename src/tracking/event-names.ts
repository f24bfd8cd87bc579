// The wire's transport event names (api-wire-notes §5.3) and which milestone, actual or estimated, has one.
import type { TransportEventName } from '../domain/events.js';
import type { Classifier, Milestone } from '../domain/milestones.js';

export { PICKUP_CHANGE_EVENT_NAMES, type PickupChangeEventName, TRANSPORT_EVENT_NAMES, type TransportEventName } from '../domain/events.js';

/** Milestones with a wire transport event of their own when they happen. */
const ACTUAL_EVENT: Partial<Record<Milestone, TransportEventName>> = {
  vessel_arrived: 'container.transport.vessel_arrived',
  vessel_discharged: 'container.transport.vessel_discharged',
  vessel_loaded: 'container.transport.vessel_loaded',
  vessel_departed: 'container.transport.vessel_departed',
  vessel_berthed: 'container.transport.vessel_berthed',
  rail_departed: 'container.transport.rail_departed',
  rail_arrived: 'container.transport.rail_arrived',
  rail_loaded: 'container.transport.rail_loaded',
  rail_unloaded: 'container.transport.rail_unloaded',
  transshipment_arrived: 'container.transport.transshipment_arrived',
  transshipment_discharged: 'container.transport.transshipment_discharged',
  transshipment_loaded: 'container.transport.transshipment_loaded',
  transshipment_departed: 'container.transport.transshipment_departed',
  feeder_arrived: 'container.transport.feeder_arrived',
  feeder_discharged: 'container.transport.feeder_discharged',
  feeder_loaded: 'container.transport.feeder_loaded',
  feeder_departed: 'container.transport.feeder_departed',
  empty_out: 'container.transport.empty_out',
  full_in: 'container.transport.full_in',
  full_out: 'container.transport.full_out',
  empty_in: 'container.transport.empty_in',
  arrived_at_destination: 'container.transport.arrived_at_inland_destination',
  // `delivered` has none: a carrier's drop-off stays a raw event; the delivered event is the user's mark only.
};

/** The wire has estimated events for these milestones only. */
const ESTIMATED_EVENT: Partial<Record<Milestone, TransportEventName>> = {
  vessel_arrived: 'container.transport.estimated.vessel_arrived',
  vessel_departed: 'container.transport.estimated.vessel_departed',
  arrived_at_destination: 'container.transport.estimated.arrived_at_inland_destination',
};

/**
 * The wire event of a milestone, or null when it has none (positioned moves, VGM, releases: raw events only;
 * availability: derived from the pickup facility's answer, see changes.ts). Planned counts as estimated.
 */
export function transportEventName(milestone: Milestone, classifier: Classifier): TransportEventName | null {
  return (classifier === 'actual' ? ACTUAL_EVENT[milestone] : ESTIMATED_EVENT[milestone]) ?? null;
}
