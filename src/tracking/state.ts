// What the engine keeps per tracked shipment between two refreshes (the `state` of a tracked shipment): read by
// detectChanges, the AIS port calls, the re-derivation and the engine.
import type { ContainerSnapshot, EstimatedEventRecord, ShipmentSnapshot, TransportEventRecord } from './snapshot.js';
import type { IsoInstant } from './time.js';

/** A terminal (or rail, or line LFD) value that went missing and is kept until the flap window has passed. */
export interface Withdrawal {
  container: string;
  /** The field, or `field:item` for one hold or fee line. */
  field: string;
  since: IsoInstant;
}

/** Everything the engine keeps per tracked shipment between two refreshes. */
export interface StoredState {
  shipment: ShipmentSnapshot | null;
  containers: ContainerSnapshot[];
  transportEvents: TransportEventRecord[];
  estimatedEvents: EstimatedEventRecord[];
  withdrawals: Withdrawal[];
}
