// Tracking requests from the API's side: accept (validate, store `pending`, enqueue the first attempt in the
// same transaction), list, read, edit. The attempts themselves are the tracking engine's (tracking-engine.ts).
import { cleanList } from '../lib/lists.js';
import type { Account } from '../domain/account.js';
import type { Clocks } from '../domain/clock.js';
import { checkContainerNumber } from '../domain/container-number.js';
import { type ErrorItem, notFound, TidemarkError, validationFailed } from '../domain/errors.js';
import {
  type InitialCustomFields,
  containerNumberKey,
  MAX_STAGED,
  repeatedStaged,
  type StagedContainerValue,
  stagedNumberProblem,
  stagedValueProblem,
} from '../domain/initial-custom-fields.js';
import { isUuid, newId } from '../lib/ids.js';
import { carrierByScac } from '../sources/reference/index.js';
import { TEST_SCAC } from '../sources/registry.js';
import type { Db } from '../storage/db.js';
import { findParty } from '../storage/repositories/parties.js';
import { findShipmentsByIds } from '../storage/repositories/shipments.js';
import * as repo from '../storage/repositories/tracking-requests.js';
import type { CustomFieldService } from './custom-fields.js';
import type { JobSender } from './jobs.js';
import type { ShippingLineService } from './shipping-lines.js';

export type {
  RequestType,
  TrackingRequestFilter,
  TrackingRequestRecord,
  TrackingRequestStatus,
} from '../storage/repositories/tracking-requests.js';

/** The job that makes one attempt at a tracking request. */
export const TRACKING_ATTEMPT_JOB = 'tracking.attempt';
/** The free plan's cap on active containers. */
export const FREE_PLAN_CONTAINER_CAP = 10;

export interface NewTrackingRequestInput {
  requestType: repo.RequestType;
  requestNumber: string;
  /** Null or blank with `autoDetect`: the engine picks the carrier. */
  scac: string | null;
  autoDetect: boolean;
  refNumbers: string[];
  shipmentTags: string[];
  customerId: string | null;
  /** Values staged for the shipment and its containers, applied once the request resolves (docs/custom-fields.md). */
  initialCustomFields?: InitialCustomFields | null;
}

const ATTR = '/data/attributes';
const TRACK_BY: Record<repo.RequestType, { flag: 'trackByBillOfLading' | 'trackByBooking' | 'trackByContainer'; words: string }> = {
  bill_of_lading: { flag: 'trackByBillOfLading', words: 'bill of lading number' },
  booking_number: { flag: 'trackByBooking', words: 'booking number' },
  container: { flag: 'trackByContainer', words: 'container number' },
};

export class TrackingRequestService {
  constructor(
    private readonly db: Db,
    private readonly clocks: Clocks,
    private readonly jobs: JobSender,
    private readonly shippingLines: ShippingLineService,
    private readonly customFields: Pick<CustomFieldService, 'checkValues'>,
  ) {}

  /**
   * Checks a request and stores it as `pending` with its first attempt queued, in one transaction. Every
   * problem with the request is a 422 naming its field; nothing is written then.
   */
  async create(account: Account, input: NewTrackingRequestInput): Promise<repo.TrackingRequestRecord> {
    const items: ErrorItem[] = [];
    const number = normalizeNumber(input.requestType, input.requestNumber);
    if (!number) {
      items.push({
        title: 'Invalid request number',
        detail: "Request number can't be blank",
        pointer: `${ATTR}/request_number`,
        code: 'blank',
      });
    } else if (number.length > 40) {
      items.push({
        title: 'Invalid request number',
        detail: 'Request number is too long (at most 40 characters)',
        pointer: `${ATTR}/request_number`,
        code: 'too_long',
      });
    } else if (input.requestType === 'container') {
      const check = checkContainerNumber(number);
      if (!check.valid) {
        items.push({
          title: 'Invalid request number',
          detail:
            check.reason === 'check_digit'
              ? `Request number ${number} is not a valid container number: its check digit should be ${check.expectedCheckDigit}`
              : `Request number ${number} is not a valid container number (ISO 6346: 4 letters, 6 digits, a check digit)`,
          pointer: `${ATTR}/request_number`,
          code: 'invalid_container_number',
        });
      }
    }

    const raw = input.scac?.trim().toUpperCase() ?? '';
    let scac = '';
    if (!raw) {
      if (!input.autoDetect) {
        items.push({
          title: 'Invalid SCAC',
          detail: "Scac can't be blank (or set auto_detect_vocc_scac to true)",
          pointer: `${ATTR}/scac`,
          code: 'blank',
        });
      }
    } else if (raw === TEST_SCAC) {
      scac = TEST_SCAC;
    } else {
      const carrier = carrierByScac(raw);
      const visible = carrier && this.shippingLines.list(account).some((c) => c.scac === carrier.scac);
      if (!carrier) {
        items.push({ title: 'Invalid SCAC', detail: `Scac ${raw} not recognized`, pointer: `${ATTR}/scac`, code: 'not_recognized' });
      } else if (!visible) {
        items.push({
          title: 'Invalid SCAC',
          detail: `Scac ${carrier.scac} (${carrier.name}) is not enabled for this account`,
          pointer: `${ATTR}/scac`,
          code: 'not_enabled',
        });
      } else if (!carrier[TRACK_BY[input.requestType].flag]) {
        items.push({
          title: 'Invalid request type',
          detail: `${carrier.name} (${carrier.scac}) does not support tracking by ${TRACK_BY[input.requestType].words}`,
          pointer: `${ATTR}/request_type`,
          code: 'not_supported',
        });
      } else {
        scac = carrier.scac;
      }
    }

    if (input.customerId !== null) {
      const party = isUuid(input.customerId) ? await findParty(this.db, account.id, input.customerId) : undefined;
      if (!party)
        items.push({
          title: 'Invalid customer',
          detail: 'Customer not found',
          pointer: '/data/relationships/customer/data/id',
          code: 'not_found',
        });
    }
    if (input.initialCustomFields) items.push(...(await this.checkInitialCustomFields(account.id, input.initialCustomFields)));
    if (items.length) throw validationFailed(items);

    const now = this.clocks.wall.now();
    return this.db.transaction(async (tx) => {
      if (account.plan === 'free' && (await repo.countActiveContainers(tx, account.id)) >= FREE_PLAN_CONTAINER_CAP) {
        const detail = `Your plan tracks at most ${FREE_PLAN_CONTAINER_CAP} active containers; stop tracking a shipment or upgrade to track more.`;
        throw new TidemarkError('validation_failed', detail, {
          // The request as a whole is refused (no one attribute is at fault): the pointer names the resource.
          items: [{ title: 'Plan limit reached', detail, pointer: '/data', code: 'plan_limit_reached' }],
        });
      }
      const record = await repo.insertTrackingRequest(tx, {
        id: newId(),
        account_id: account.id,
        request_type: input.requestType,
        request_number: number,
        scac,
        auto_detect_scac: input.autoDetect,
        ref_numbers: cleanList(input.refNumbers),
        shipment_tags: cleanList(input.shipmentTags),
        customer_id: input.customerId,
        next_attempt_at: this.clocks.world.now(),
        created_at: now,
        updated_at: now,
        initial_custom_fields: stagedOrNull(input.initialCustomFields),
      });
      await this.jobs.enqueue(tx, TRACKING_ATTEMPT_JOB, { trackingRequestId: record.id });
      return record;
    });
  }

  /**
   * The problems of staged values, checked now against the account's Shipment and Container definitions (slug, value
   * for its data type, options, validation), each pointing at the item: nothing is stored when there is one.
   */
  private async checkInitialCustomFields(accountId: string, staged: InitialCustomFields): Promise<ErrorItem[]> {
    const base = `${ATTR}/initial_custom_fields`;
    const title = 'Invalid initial custom field';
    const items: ErrorItem[] = [];
    const lists: { key: string; entityType: 'Shipment' | 'Container'; values: readonly StagedContainerValue[] }[] = [
      { key: 'shipment', entityType: 'Shipment', values: staged.shipment },
      { key: 'containers', entityType: 'Container', values: staged.containers },
    ];
    for (const { key, entityType, values } of lists) {
      if (values.length > MAX_STAGED) {
        items.push({
          title,
          detail: `At most ${MAX_STAGED} values can be staged for the ${key}`,
          pointer: `${base}/${key}`,
          code: 'too_long',
        });
        continue;
      }
      const at = (index: number, field: string) => `${base}/${key}/${index}/${field}`;
      for (const [index, item] of values.entries()) {
        const missing = stagedValueProblem(item);
        if (missing) items.push({ title, detail: missing, pointer: at(index, 'value'), code: 'blank' });
        const number = stagedNumberProblem(item.number);
        if (number) items.push({ title, detail: number, pointer: at(index, 'number'), code: 'invalid' });
      }
      for (const index of repeatedStaged(values)) {
        const item = values[index]!;
        const where =
          key === 'shipment'
            ? 'the shipment'
            : containerNumberKey(item.number)
              ? `container ${containerNumberKey(item.number)}`
              : 'every container';
        items.push({
          title,
          detail: `Api slug '${item.api_slug}' is staged more than once for ${where}`,
          pointer: at(index, 'api_slug'),
          code: 'taken',
        });
      }
      const problems = await this.customFields.checkValues(accountId, entityType, values);
      for (const p of problems) {
        if (p.field === 'value' && values[p.index]?.value === undefined) continue; // said above
        items.push({ title, detail: p.detail, pointer: at(p.index, p.field), code: 'invalid' });
      }
    }
    return items;
  }

  list(accountId: string, filter: repo.TrackingRequestFilter, page: { limit: number; offset: number }) {
    return repo.listTrackingRequests(this.db, accountId, filter, page);
  }

  /** The account's request; not_found for another account's or an unknown id. */
  async get(accountId: string, id: string): Promise<repo.TrackingRequestRecord> {
    const found = isUuid(id) ? await repo.findTrackingRequest(this.db, accountId, id) : undefined;
    if (!found) throw notFound('tracking request');
    return found;
  }

  async updateRefNumbers(accountId: string, id: string, refNumbers: string[]): Promise<repo.TrackingRequestRecord> {
    const updated = isUuid(id)
      ? await repo.updateRefNumbers(this.db, accountId, id, cleanList(refNumbers), this.clocks.wall.now())
      : undefined;
    if (!updated) throw notFound('tracking request');
    return updated;
  }

  /** The shipments these requests point at (for `include=tracked_object`), scoped to the account. */
  trackedObjects(accountId: string, shipmentIds: string[]) {
    return findShipmentsByIds(this.db, accountId, shipmentIds);
  }
}

/** What is stored with the request: null when nothing is staged. */
function stagedOrNull(staged: InitialCustomFields | null | undefined): InitialCustomFields | null {
  if (!staged || (staged.shipment.length === 0 && staged.containers.length === 0)) return null;
  return staged;
}

/** Trimmed; container numbers upper-case without spaces or dashes, other numbers upper-case. */
function normalizeNumber(type: repo.RequestType, input: string): string {
  const trimmed = (input ?? '').trim();
  return type === 'container' ? trimmed.replace(/[\s-]/g, '').toUpperCase() : trimmed.toUpperCase();
}
