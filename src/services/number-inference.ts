// Number inference for an account: the pure rules of tracking/infer-number.ts, limited to the shipping
// lines the account may track (ShippingLineService decides which), with an id per answer.
import type { Account } from '../domain/account.js';
import { validationFailed } from '../domain/errors.js';
import { newId } from '../lib/ids.js';
import { inferNumber, type NumberInference } from '../tracking/infer-number.js';
import type { ShippingLineService } from './shipping-lines.js';

export type { NumberInference };

export interface NumberInferenceResult extends NumberInference {
  /** `req_<uuid>`, as the reference API names its inference answers. */
  id: string;
}

export class NumberInferenceService {
  constructor(private readonly shippingLines: ShippingLineService) {}

  /**
   * `number` is null when the request had none (or not a string). Throws validation_failed (pointer
   * `/number`, the reference API's detail) when it is missing, blank or cannot be any carrier's number.
   */
  infer(account: Pick<Account, 'features'>, number: string | null): NumberInferenceResult {
    const visible = new Set(this.shippingLines.list(account).map((c) => c.scac));
    const inference = number === null ? null : inferNumber(number, { isVisible: (scac) => visible.has(scac) });
    if (!inference) throw validationFailed([{ detail: 'This reference number is not valid.', pointer: '/number' }]);
    return { id: `req_${newId()}`, ...inference };
  }
}
