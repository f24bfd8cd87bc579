// Tracking requests from the API's side: accept (validate, store `pending`, enqueue the first attempt in the
// same transaction), list, read, edit. The attempts themselves are the tracking engine's (tracking-engine.ts).
import type { Account } from '../domain/account.js';
import type { Clocks } from '../domain/clock.js';
import { newId } from '../lib/ids.js';
import type { Db } from '../storage/db.js';
import * as repo from '../storage/repositories/tracking-requests.js';
import type { JobSender } from './jobs.js';
import type { ShippingLineService } from './shipping-lines.js';

export type { RequestType, TrackingRequestRecord, TrackingRequestStatus } from '../storage/repositories/tracking-requests.js';

/** The job that makes one attempt at a tracking request. */
export const TRACKING_ATTEMPT_JOB = 'tracking.attempt';

export interface NewTrackingRequestInput {
  requestType: repo.RequestType;
  requestNumber: string;
  /** Null or blank with `autoDetect`: the engine picks the carrier. */
  scac: string | null;
  autoDetect: boolean;
  refNumbers: string[];
  shipmentTags: string[];
  customerId: string | null;
}

export class TrackingRequestService {
  constructor(
    private readonly db: Db,
    private readonly clocks: Clocks,
    private readonly jobs: JobSender,
    private readonly shippingLines: ShippingLineService,
  ) {}

  /** Stores a valid request as `pending` and enqueues its first attempt, in one transaction. */
  async create(account: Account, input: NewTrackingRequestInput): Promise<repo.TrackingRequestRecord> {
    void this.shippingLines;
    const now = this.clocks.wall.now();
    return this.db.transaction(async (tx) => {
      const record = await repo.insertTrackingRequest(tx, {
        id: newId(),
        account_id: account.id,
        request_type: input.requestType,
        request_number: input.requestNumber,
        scac: input.scac?.trim().toUpperCase() ?? '',
        auto_detect_scac: input.autoDetect,
        ref_numbers: input.refNumbers,
        shipment_tags: input.shipmentTags,
        customer_id: input.customerId,
        next_attempt_at: this.clocks.world.now(),
        created_at: now,
        updated_at: now,
      });
      await this.jobs.enqueue(tx, TRACKING_ATTEMPT_JOB, { trackingRequestId: record.id });
      return record;
    });
  }

  get(accountId: string, id: string) {
    return repo.findTrackingRequest(this.db, accountId, id);
  }
}
