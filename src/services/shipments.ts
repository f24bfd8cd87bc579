// Reading the account's shipments. The tracking engine writes them; this is the API's view.
import type { Db } from '../storage/db.js';
import * as repo from '../storage/repositories/shipments.js';

export type { ShipmentRecord } from '../storage/repositories/shipments.js';

export class ShipmentService {
  constructor(private readonly db: Db) {}

  list(accountId: string, page: { limit: number; offset: number }) {
    return repo.listShipments(this.db, accountId, page);
  }
}
