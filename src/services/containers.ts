// An account's containers as the API shows them, and their raw events re-derived from what the sources said.
import { normalizeContainerNumber } from '../domain/container-number.js';
import { notFound } from '../domain/errors.js';
import { isUuid } from '../lib/ids.js';
import type { Db } from '../storage/db.js';
import {
  type ContainerRecord,
  containersOfShipments,
  findContainer,
  findContainersByIds,
  latestObservations,
  listContainers,
  listTransportEvents,
  type TransportEventRow,
} from '../storage/repositories/containers.js';
import { findShipmentsByIds } from '../storage/repositories/shipments.js';
import type { MilestoneFact } from '../sources/contract.js';
import { type RawEventRecord, rawEvents } from '../tracking/raw-events.js';

export type { ContainerRecord, TransportEventRow };
export type { RawEventRecord };

export class ContainerService {
  constructor(private readonly db: Db) {}

  /** The account's container; not_found for another account's or an unknown id. */
  async get(accountId: string, id: string): Promise<ContainerRecord> {
    const found = isUuid(id) ? await findContainer(this.db, accountId, id) : undefined;
    if (!found) throw notFound('container');
    return found;
  }

  /** What every source said about the container in its latest answer, in time order. */
  async rawEvents(accountId: string, id: string): Promise<{ container: ContainerRecord; events: RawEventRecord[] }> {
    const container = await this.get(accountId, id);
    if (!container.tracked_shipment_id) return { container, events: [] };
    const observations = await latestObservations(this.db, container.tracked_shipment_id);
    const events = rawEvents(
      container.number,
      observations.map((o) => ({
        id: o.id,
        sourceId: o.source_id,
        firstFetchedAt: o.first_fetched_at,
        milestones: (o.facts.milestones ?? []) as MilestoneFact[],
      })),
    );
    return { container, events };
  }

  /** The account's containers, newest first; `number` typed any way (spaces, dashes, lower case). */
  list(accountId: string, filter: { number?: string }, page: { limit: number; offset: number }) {
    const number = filter.number ? normalizeContainerNumber(filter.number) : undefined;
    return listContainers(this.db, accountId, number ? { number } : {}, page);
  }

  /** A container's transport events, newest first; not_found when the container is not the account's. */
  async transportEvents(accountId: string, id: string, page: { limit: number; offset: number }) {
    const container = await this.get(accountId, id);
    return listTransportEvents(this.db, accountId, [container.id], page);
  }

  /** Every transport event of these containers (for `include=transport_events`). */
  async transportEventsOf(accountId: string, containerIds: string[]): Promise<TransportEventRow[]> {
    if (containerIds.length === 0) return [];
    return (await listTransportEvents(this.db, accountId, containerIds, { limit: 10_000, offset: 0 })).items;
  }

  byIds(accountId: string, ids: string[]) {
    return findContainersByIds(this.db, accountId, ids);
  }

  ofShipments(accountId: string, shipmentIds: string[]) {
    return containersOfShipments(this.db, accountId, shipmentIds);
  }

  shipments(accountId: string, ids: string[]) {
    return findShipmentsByIds(this.db, accountId, ids);
  }
}
