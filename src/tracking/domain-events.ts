// The domain events a refresh announces (webhook event names and their payloads), as detectChanges makes them and
// the engine records them for each account.
import type { FacilityRef } from './places.js';
import type { EstimatedEventRecord, PickupChangeEventName, TransportEventName, TransportEventRecord } from './snapshot.js';
import type { IsoInstant } from './time.js';

/** The keys of a `container.updated` changeset (api-wire-notes §4.6). */
export type ChangesetKey =
  | 'available_for_pickup'
  | 'pickup_lfd'
  | 'pickup_lfd_line'
  | 'pickup_lfd_rail'
  | 'fees_at_pod_terminal'
  | 'holds_at_pod_terminal'
  | 'pickup_appointment_at'
  | 'pod_terminal';

/** `{ field: [old, new] }`; `pod_terminal` values are terminal ids (the facility code when it has no id). */
export type Changeset = Partial<Record<ChangesetKey, [unknown, unknown]>>;

export type DomainEvent =
  | { type: TransportEventName | PickupChangeEventName; container_number: string; transport_event: TransportEventRecord }
  | { type: 'shipment.estimated.arrival'; estimated_event: EstimatedEventRecord; previous_estimated_timestamp: IsoInstant | null }
  | { type: 'container.created'; container_number: string; timestamp: IsoInstant; timezone: string | null }
  | {
      type: 'container.updated';
      container_number: string;
      changeset: Changeset;
      timestamp: IsoInstant;
      timezone: string | null;
      data_source: 'terminal';
      terminal: FacilityRef | null;
    }
  | {
      type: 'container.pod_terminal_changed';
      container_number: string;
      timestamp: IsoInstant;
      data_source: 'shipping_line' | 'terminal';
      terminal: FacilityRef;
      previous_terminal: FacilityRef;
    };
