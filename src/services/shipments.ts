// Reading the account's shipments, and stopping or resuming their tracking. The tracking engine writes them;
// this is the API's view.
import { notFound } from '../domain/errors.js';
import { isUuid } from '../lib/ids.js';
import type { Db } from '../storage/db.js';
import * as repo from '../storage/repositories/shipments.js';
import type { TrackingEngine } from './tracking-engine.js';

export type { ShipmentRecord } from '../storage/repositories/shipments.js';

export class ShipmentService {
  constructor(
    private readonly db: Db,
    private readonly engine: TrackingEngine,
  ) {}

  list(accountId: string, page: { limit: number; offset: number }) {
    return repo.listShipments(this.db, accountId, page);
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
