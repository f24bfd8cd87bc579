// An account's containers as the API shows them, and their raw events re-derived from what the sources said.
import { normalizeContainerNumber } from '../domain/container-number.js';
import type { Clocks } from '../domain/clock.js';
import { notFound, validationFailed } from '../domain/errors.js';
import { isUuid, newId } from '../lib/ids.js';
import { cleanList } from '../lib/lists.js';
import type { Db } from '../storage/db.js';
import {
  boardPage,
  boardZones,
  type ContainerFilter,
  type ContainerRecord,
  containersOfShipments,
  findContainer,
  findContainersByIds,
  type LatestObservation,
  latestObservations,
  setManualDelivery,
  updateContainerRefNumbers,
  listContainers,
  listTransportEvents,
  type TransportEventRow,
} from '../storage/repositories/containers.js';
import { findShipmentsByIds } from '../storage/repositories/shipments.js';
import { findVesselsByImos, vesselPositions } from '../storage/repositories/vessels.js';
import { insertAccountEvent, upsertTransportEvent } from '../storage/repositories/tracking.js';
import { type Attention, attentionOf, type BoardKind, localDayOf } from '../tracking/attention.js';
import { type ManualTransportEventRecord, manualDeliveryEvent } from '../tracking/manual-delivery.js';
import { readContainerSnapshot } from '../tracking/stored.js';
import { isoSeconds } from '../lib/dates.js';
import type { MilestoneFact } from '../sources/contract.js';
import { type RawEventRecord, rawEvents } from '../tracking/raw-events.js';
import { type ContainerRoute, planRoute } from './container-route.js';
import { rawEventId } from '../render/container.js';

export type { Attention } from '../tracking/attention.js';
export { CONTAINER_STATUSES } from '../tracking/snapshot.js';
export { BOARD_KINDS, type BoardKind } from '../tracking/attention.js';
export type { ContainerFilter, ContainerRecord, TransportEventRow };
export type { RawEventRecord };
export type { ContainerRoute, RouteLeg, RouteStop } from './container-route.js';

export interface ContainerChanges {
  refNumbers?: string[];
  /** A delivery marked by hand; null takes it back. */
  deliveredAt?: Date | null;
}

export class ContainerService {
  constructor(
    private readonly db: Db,
    private readonly clocks: Clocks,
  ) {}

  /**
   * `PATCH /v2/containers/{id}`: reference numbers, and a delivery marked by hand. Marking a delivery the
   * account did not know of yet records `container.transport.delivered` (event and account event) in the same
   * transaction; a later mark moves its time; null takes it back (the event is invalidated, not deleted).
   */
  async update(accountId: string, id: string, changes: ContainerChanges): Promise<ContainerRecord> {
    const current = await this.#find(accountId, id);
    const { deliveredAt } = changes;
    // Domain time: the mark is when Tidemark learns of the delivery (the event's observed_at).
    const worldNow = this.clocks.world.now();
    if (deliveredAt && deliveredAt.getTime() > worldNow.getTime()) {
      throw validationFailed([
        { title: 'Invalid delivered_at', detail: 'delivered_at cannot be in the future', pointer: '/data/attributes/delivered_at' },
      ]);
    }
    const wall = this.clocks.wall.now();
    await this.db.transaction(async (tx) => {
      if (changes.refNumbers) await updateContainerRefNumbers(tx, accountId, id, cleanList(changes.refNumbers), wall);
      if (deliveredAt === undefined) return;
      const set = await setManualDelivery(tx, accountId, id, deliveredAt, wall);
      if (!set) throw notFound('container');
      const snapshot = readContainerSnapshot(current.snapshot);
      const previous = set.previous;
      if (deliveredAt === null && previous === null) return;
      const record: ManualTransportEventRecord = {
        ...manualDeliveryEvent(snapshot, isoSeconds((deliveredAt ?? previous)!.getTime()), isoSeconds(worldNow.getTime())),
        invalidated_at: deliveredAt === null ? isoSeconds(wall.getTime()) : null,
      };
      const eventId = await upsertTransportEvent(
        tx,
        {
          id: newId(),
          account_id: accountId,
          shipment_id: current.shipment_id,
          container_id: id,
          event: record.event,
          key: record.key,
          timestamp: record.timestamp,
          record,
        },
        wall,
      );
      // Announced once: when the account learns of the delivery (a source may have reported it already).
      if (deliveredAt && previous === null && !snapshot.delivered_at) {
        await insertAccountEvent(
          tx,
          {
            id: newId(),
            account_id: accountId,
            event: record.event,
            tracking_request_id: null,
            shipment_id: current.shipment_id,
            container_id: id,
            transport_event_id: eventId,
            estimated_event_id: null,
            payload: { type: record.event, container_number: current.number, transport_event: record },
            occurred_at: deliveredAt,
          },
          wall,
        );
      }
    });
    return this.get(accountId, id);
  }

  /** The account's container, as the API shows it; not_found for another account's or an unknown id. */
  async get(accountId: string, id: string): Promise<ContainerRecord> {
    return (await this.#withRawEventIds([await this.#find(accountId, id)]))[0]!;
  }

  /** The account's container row alone (no raw events derived): for checks and edits. */
  async #find(accountId: string, id: string): Promise<ContainerRecord> {
    const found = isUuid(id) ? await findContainer(this.db, accountId, id) : undefined;
    if (!found) throw notFound('container');
    return found;
  }

  /**
   * Every container read here carries the ids of its raw events (`raw_event_ids`): the wire's `raw_events`
   * relationship lists them whether or not they are included.
   */
  async #withRawEventIds<C extends ContainerRecord>(containers: C[]): Promise<C[]> {
    const events = await this.rawEventsOf(containers);
    for (const c of containers) c.raw_event_ids = (events.get(c.id) ?? []).map((e) => rawEventId(c.id, e.key));
    return containers;
  }

  /** What every source said about the container in its latest answer, in time order. */
  async rawEvents(accountId: string, id: string): Promise<{ container: ContainerRecord; events: RawEventRecord[] }> {
    const found = await this.#find(accountId, id);
    const events = (await this.rawEventsOf([found])).get(found.id) ?? [];
    found.raw_event_ids = events.map((e) => rawEventId(found.id, e.key));
    return { container: found, events };
  }

  /** The raw events of each of these containers (one query for all), by container id. */
  async rawEventsOf(containers: readonly ContainerRecord[]): Promise<Map<string, RawEventRecord[]>> {
    const tracked = [...new Set(containers.map((c) => c.tracked_shipment_id).filter((id): id is string => !!id))];
    const byTracked = new Map<string, LatestObservation[]>();
    for (const o of await latestObservations(this.db, tracked)) {
      byTracked.set(o.tracked_shipment_id, [...(byTracked.get(o.tracked_shipment_id) ?? []), o]);
    }
    const out = new Map<string, RawEventRecord[]>();
    for (const c of containers) {
      const observations = c.tracked_shipment_id ? (byTracked.get(c.tracked_shipment_id) ?? []) : [];
      out.set(
        c.id,
        rawEvents(
          c.number,
          observations.map((o) => ({
            id: o.id,
            sourceId: o.source_id,
            firstFetchedAt: o.first_fetched_at,
            milestones: (o.facts.milestones ?? []) as MilestoneFact[],
          })),
        ),
      );
    }
    return out;
  }

  /**
   * The container's ocean route (ports, legs, the leg sailing now), with its vessels as stored and the AIS
   * track of each leg sailed or being sailed; not_found when the container is not the account's.
   */
  async route(accountId: string, id: string): Promise<ContainerRoute> {
    const container = await this.#find(accountId, id);
    const [shipment] = await findShipmentsByIds(this.db, accountId, [container.shipment_id]);
    if (!shipment) throw notFound('container');
    const events = (await this.rawEventsOf([container])).get(container.id) ?? [];
    const plan = planRoute(shipment, events);
    const imos = [...new Set(plan.legs.map((l) => l.vessel?.imo).filter((imo): imo is string => !!imo))];
    const vessels = new Map((await findVesselsByImos(this.db, imos)).map((v) => [v.imo, v]));
    const now = this.clocks.world.now();
    const tracks = new Map<number, Awaited<ReturnType<typeof vesselPositions>>>();
    for (const leg of plan.legs) {
      const vessel = leg.vessel?.imo ? vessels.get(leg.vessel.imo) : undefined;
      const departed = leg.from.outbound_atd_at;
      // An arrival known only from a later port's actual times has no end to cut the track at: no track.
      const until = leg.to.inbound_ata_at ?? leg.to.outbound_atd_at ?? (leg.status === 'sailing' ? now : null);
      if (!vessel || !departed || !until) continue;
      tracks.set(leg.sequence, await vesselPositions(this.db, vessel.id, departed, until));
    }
    return { ...plan, container, shipment, vessels, tracks, now };
  }

  /** The account's containers, newest first; `number` typed any way (spaces, dashes, lower case). */
  async list(accountId: string, filter: ContainerFilter, page: { limit: number; offset: number }) {
    const number = filter.number ? normalizeContainerNumber(filter.number) : undefined;
    const { items, total } = await listContainers(this.db, accountId, { ...filter, ...(number ? { number } : {}) }, page);
    return { items: await this.#withRawEventIds(items), total };
  }

  /** A container's transport events, newest first; not_found when the container is not the account's. */
  async transportEvents(accountId: string, id: string, page: { limit: number; offset: number }) {
    const container = await this.#find(accountId, id);
    return listTransportEvents(this.db, accountId, [container.id], page);
  }

  /** Every transport event of these containers (for `include=transport_events`). */
  async transportEventsOf(accountId: string, containerIds: string[]): Promise<TransportEventRow[]> {
    if (containerIds.length === 0) return [];
    return (await listTransportEvents(this.db, accountId, containerIds, { limit: 10_000, offset: 0 })).items;
  }

  /**
   * The board: the account's containers that need action today (holds, available, last free day today,
   * tomorrow or passed, demurrage), most urgent first, with what each needs, judged at domain time; one page of
   * them (`needs` narrows it to one kind), and the counts of every kind over all of them. Candidates are judged
   * in the database on the pickup facts kept with each (tracking/attention.ts pickupFacts); only the page's
   * containers are read whole, and their attention is judged again from their snapshots.
   */
  async board(
    accountId: string,
    page: { limit: number; offset: number },
    needs?: BoardKind,
  ): Promise<{ items: (ContainerRecord & { attention: Attention })[]; total: number; counts: Record<string, number> }> {
    const worldNow = this.clocks.world.now();
    // The day it is in each zone the account's candidates count their last free days in, then the board on those
    // days, both from one snapshot of the database: a container that moved to a zone between the two reads would
    // have no day and be left out of the counts.
    const { counts, ids } = await this.db.transaction(async (tx) => {
      await tx.exec('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      const today = new Map((await boardZones(tx, accountId)).map((zone) => [zone, localDayOf(worldNow, zone || null)]));
      return boardPage(tx, accountId, today, needs, page);
    });
    const byId = new Map((await this.byIds(accountId, ids)).map((c) => [c.id, c]));
    // A container picked up or deleted between the two reads is left out of the page rather than shown stale.
    const items = ids.flatMap((id) => {
      const record = byId.get(id);
      return record ? [{ ...record, attention: attentionOf(readContainerSnapshot(record.snapshot), worldNow) }] : [];
    });
    return { items, total: counts[needs ?? 'needs_action'], counts };
  }

  async byIds(accountId: string, ids: string[]): Promise<ContainerRecord[]> {
    return this.#withRawEventIds(await findContainersByIds(this.db, accountId, ids));
  }

  async ofShipments(accountId: string, shipmentIds: string[]): Promise<ContainerRecord[]> {
    return this.#withRawEventIds(await containersOfShipments(this.db, accountId, shipmentIds));
  }

  shipments(accountId: string, ids: string[]) {
    return findShipmentsByIds(this.db, accountId, ids);
  }
}
