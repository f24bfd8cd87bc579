// The shipping lines an account may track: every default carrier, plus Seaboard Marine and Trailer
// Bridge for accounts with the `extra_carriers` feature. The reference's test SCAC is never listed.
import { hasFeature, type Account } from '../domain/account.js';
import { notFound } from '../domain/errors.js';
import { CARRIERS, carrierById, type Carrier } from '../sources/reference/index.js';

export type { Carrier };

export class ShippingLineService {
  /** Carriers visible to the account, optionally filtered by a case-insensitive match on name, short name or SCAC. */
  list(account: Pick<Account, 'features'>, search?: string): Carrier[] {
    const needle = search?.trim().toLowerCase();
    return CARRIERS.filter((c) => this.visible(account, c)).filter(
      (c) =>
        !needle ||
        c.name.toLowerCase().includes(needle) ||
        c.shortName.toLowerCase().includes(needle) ||
        [c.scac, ...c.alternativeScacs].some((s) => s.toLowerCase().includes(needle)),
    );
  }

  get(account: Pick<Account, 'features'>, id: string): Carrier {
    const carrier = carrierById(id);
    if (!carrier || !this.visible(account, carrier)) throw notFound('Shipping line');
    return carrier;
  }

  private visible(account: Pick<Account, 'features'>, c: Carrier): boolean {
    return c.defaultEnabled || hasFeature(account, 'extra_carriers');
  }
}
