// The three kinds that include one another — a container its shipment and transport events, a shipment its
// containers, a transport event its shipment and container — made together, each reaching the others through this
// registry instead of importing their modules, so that no renderer module imports another back.
import type { ContainerRecord } from '../storage/repositories/containers.js';
import type { ShipmentRecord } from '../storage/repositories/shipments.js';
import type { TransportEventRow } from '../storage/repositories/containers.js';
import { containerKindOf } from './container.js';
import type { ResourceKind } from './jsonapi.js';
import type { ResourceLoaders } from './loaders.js';
import type { Resource } from './schemas.js';
import { shipmentKindOf } from './shipment.js';
import { transportEventKindOf } from './transport-event.js';

export interface RelatedKinds {
  readonly container: ResourceKind<ContainerRecord>;
  readonly shipment: ResourceKind<ShipmentRecord>;
  readonly transportEvent: ResourceKind<TransportEventRow, Resource<'transport_event'>>;
}

/** The three kinds over `deps`, each made on first use (a kind may ask for another while it is being made). */
export function relatedKinds(deps: ResourceLoaders): RelatedKinds {
  let container: RelatedKinds['container'] | undefined;
  let shipment: RelatedKinds['shipment'] | undefined;
  let transportEvent: RelatedKinds['transportEvent'] | undefined;
  const kinds: RelatedKinds = {
    get container() {
      container ??= containerKindOf(deps, kinds);
      return container;
    },
    get shipment() {
      shipment ??= shipmentKindOf(deps, kinds);
      return shipment;
    },
    get transportEvent() {
      transportEvent ??= transportEventKindOf(deps, kinds);
      return transportEvent;
    },
  };
  return kinds;
}

export const containerKind = (deps: ResourceLoaders) => relatedKinds(deps).container;
export const shipmentKind = (deps: ResourceLoaders) => relatedKinds(deps).shipment;
export const transportEventKind = (deps: ResourceLoaders) => relatedKinds(deps).transportEvent;
