// A delivery marked by hand (`PATCH /v2/containers/{id}` with `delivered_at`): no source reports deliveries to
// the consignee, so the user's word becomes the container's `container.transport.delivered` event.
import type { ContainerSnapshot, IsoInstant, TransportEventRecord } from './snapshot.js';

/** The stored event's key: one hand-marked delivery per container, however often it is re-marked. */
export const MANUAL_DELIVERY_KEY = 'manual:delivered';

/** A transport event the user gave; `data_source` says so (the sources' values are never claimed). */
export type ManualTransportEventRecord = Omit<TransportEventRecord, 'data_source'> & {
  data_source: 'user';
  /** Set when the user takes the delivery back. */
  invalidated_at: IsoInstant | null;
};

/**
 * The delivered event for a container delivered at `at`, marked at `now` (domain time). It happens at the
 * consignee's, a place no source names: its zone is the last one the container was in (the inland rail
 * destination's, else the POD's). Tidemark learns of it when it is marked, and never before it happened.
 */
export function manualDeliveryEvent(c: ContainerSnapshot, at: IsoInstant, now: IsoInstant): ManualTransportEventRecord {
  return {
    key: MANUAL_DELIVERY_KEY,
    event: 'container.transport.delivered',
    milestone: 'delivered',
    classifier: 'actual',
    container_number: c.number,
    timestamp: at,
    timezone: c.final_destination_timezone ?? c.pod_timezone ?? null,
    location_locode: null,
    location_type: null,
    terminal: null,
    vessel_name: null,
    vessel_imo: null,
    voyage_number: null,
    rail_carrier_scac: null,
    data_source: 'user',
    value: null,
    source_id: null,
    source_event_id: null,
    source_code: null,
    reported_at: null,
    observed_at: Date.parse(now) >= Date.parse(at) ? now : at,
    invalidated_at: null,
  };
}
