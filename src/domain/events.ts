// The event vocabulary (api-wire-notes §5.3): every event Tidemark records and webhooks announce, as the
// reference API names them. The tracking engine emits them; the webhook catalogue describes them.

/** The 43 event names of the reference API, in its schema's order. */
export const EVENT_NAMES = [
  'container.transport.vessel_arrived',
  'container.transport.estimated.vessel_arrived',
  'container.transport.vessel_discharged',
  'container.transport.vessel_loaded',
  'container.transport.vessel_departed',
  'container.transport.estimated.vessel_departed',
  'container.transport.rail_departed',
  'container.transport.rail_arrived',
  'container.transport.rail_loaded',
  'container.transport.rail_unloaded',
  'container.transport.transshipment_arrived',
  'container.transport.transshipment_discharged',
  'container.transport.transshipment_loaded',
  'container.transport.transshipment_departed',
  'container.transport.feeder_arrived',
  'container.transport.feeder_discharged',
  'container.transport.feeder_loaded',
  'container.transport.feeder_departed',
  'container.transport.empty_out',
  'container.transport.full_in',
  'container.transport.full_out',
  'container.transport.empty_in',
  'container.transport.vessel_berthed',
  'shipment.estimated.arrival',
  'tracking_request.succeeded',
  'tracking_request.failed',
  'tracking_request.awaiting_manifest',
  'tracking_request.tracking_stopped',
  'container.created',
  'container.updated',
  'container.pod_terminal_changed',
  'container.transport.arrived_at_inland_destination',
  'container.transport.estimated.arrived_at_inland_destination',
  'container.pickup_lfd.changed',
  'container.pickup_lfd_line.changed',
  'container.pickup_lfd_terminal.changed',
  'container.pickup_lfd_rail.changed',
  'container.pickup_appointment.changed',
  'container.transport.available',
  'container.transport.not_available',
  'container.transport.delivered',
  'document.extracted',
  'document.extraction_failed',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

export function isEventName(name: string): name is EventName {
  return (EVENT_NAMES as readonly string[]).includes(name);
}

/** Container transport events (milestones, estimates, availability, delivery). */
export type TransportEventName = Extract<EventName, `container.transport.${string}`>;
export const TRANSPORT_EVENT_NAMES: readonly TransportEventName[] = EVENT_NAMES.filter((e): e is TransportEventName =>
  e.startsWith('container.transport.'),
);

/** Changes of a container's last free days and pickup appointment. */
export type PickupChangeEventName = Extract<EventName, `container.pickup_${string}`>;
export const PICKUP_CHANGE_EVENT_NAMES: readonly PickupChangeEventName[] = EVENT_NAMES.filter((e): e is PickupChangeEventName =>
  e.startsWith('container.pickup_'),
);
