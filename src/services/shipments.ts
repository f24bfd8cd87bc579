// Reading the account's shipments, and stopping or resuming their tracking. The tracking engine writes them;
// this is the API's view.
import type { Clock } from '../domain/clock.js';
import { notFound } from '../domain/errors.js';
import { cleanList } from '../lib/lists.js';
import { isUuid } from '../lib/ids.js';
import type { Db } from '../storage/db.js';
import * as repo from '../storage/repositories/shipments.js';
import type { TrackingEngine } from './tracking-engine.js';

export type { ShipmentFilter, ShipmentRecord } from '../storage/repositories/shipments.js';

export class ShipmentService {
  constructor(
    private readonly db: Db,
    private readonly engine: TrackingEngine,
    private readonly wall: Clock,
  ) {}

  list(accountId: string, filter: repo.ShipmentFilter, page: { limit: number; offset: number }) {
    return repo.listShipments(this.db, accountId, filter, page);
  }

  /** The shipment's arrival estimates, newest first (not found for another account's shipment). */
  async estimatedEvents(accountId: string, id: string, page: { limit: number; offset: number }) {
    const shipment = await this.get(accountId, id);
    return repo.listEstimatedEvents(this.db, accountId, shipment.id, page);
  }

  /** `PATCH /v2/shipments/{id}`: its reference numbers and tags, each replaced when given. */
  async update(accountId: string, id: string, changes: { refNumbers?: string[]; tags?: string[] }): Promise<repo.ShipmentRecord> {
    const found =
      isUuid(id) &&
      (await repo.updateShipmentLabels(
        this.db,
        accountId,
        id,
        {
          ...(changes.refNumbers ? { ref_numbers: cleanList(changes.refNumbers) } : {}),
          ...(changes.tags ? { tags: cleanList(changes.tags) } : {}),
        },
        this.wall.now(),
      ));
    if (!found) throw notFound('shipment');
    return this.get(accountId, id);
  }

  /** The account's shipment; not_found otherwise (another account's shipment is not found either). */
  async get(accountId: string, id: string): Promise<repo.ShipmentRecord> {
    const shipment = isUuid(id) ? await repo.findShipment(this.db, accountId, id) : undefined;
    if (!shipment) throw notFound('shipment');
    return shipment;
  }

  /** `PATCH /v2/shipments/{id}/stop_tracking`: stops it for this account (reason `cancelled_by_user`). */
  async stopTracking(accountId: string, id: string): Promise<repo.ShipmentRecord> {
    if (!isUuid(id) || !(await this.engine.stopTracking(accountId, id))) throw notFound('shipment');
    return this.get(accountId, id);
  }

  /** `PATCH /v2/shipments/{id}/resume_tracking`: tracks it again, asking its sources at once. */
  async resumeTracking(accountId: string, id: string): Promise<repo.ShipmentRecord> {
    if (!isUuid(id) || !(await this.engine.resumeTracking(accountId, id))) throw notFound('shipment');
    return this.get(accountId, id);
  }

  /** `PATCH /v2/containers/{id}/refresh`: queues an immediate pull from line, terminal and rail. */
  async refreshContainer(accountId: string, containerId: string): Promise<void> {
    if (!isUuid(containerId) || !(await this.engine.requestContainerRefresh(accountId, containerId))) throw notFound('container');
  }
}
