// The shipping lines an account may track: every default carrier, plus Seaboard Marine and Trailer
// Bridge for accounts with the `extra_carriers` feature. The reference's test SCAC is never listed.
import { hasFeature, type Account } from '../domain/account.js';
import { notFound } from '../domain/errors.js';
import { carrierProfile, type CarrierProvidedData } from '../sandbox/world/index.js';
import { CARRIERS, carrierById, type Carrier } from '../sources/reference/index.js';

export type { Carrier };

/** What Tidemark's source for a carrier provides, and the carrier's public pages. */
export interface CarrierSourceInfo {
  providedData: CarrierProvidedData;
  trackingUrl: string;
  contactUrl: string;
}

export interface ShippingLine extends Carrier {
  /** Null when the carrier is served by a configured real endpoint, whose coverage Tidemark does not know. */
  source: CarrierSourceInfo | null;
}

export class ShippingLineService {
  /**
   * `sandbox`: whether the simulated world serves carriers; `realScacs`: carriers with a configured real
   * endpoint (their data coverage is the endpoint's, not the simulated profile's).
   */
  constructor(private readonly options: { sandbox: boolean; realScacs: readonly string[] } = { sandbox: false, realScacs: [] }) {}

  /** Carriers visible to the account, optionally filtered by a case-insensitive match on name, short name or SCAC. */
  list(account: Pick<Account, 'features'>, search?: string): ShippingLine[] {
    const needle = search?.trim().toLowerCase();
    return CARRIERS.filter((c) => this.visible(account, c))
      .filter(
        (c) =>
          !needle ||
          c.name.toLowerCase().includes(needle) ||
          c.shortName.toLowerCase().includes(needle) ||
          [c.scac, ...c.alternativeScacs].some((s) => s.toLowerCase().includes(needle)),
      )
      .map((c) => this.describe(c));
  }

  get(account: Pick<Account, 'features'>, id: string): ShippingLine {
    const carrier = carrierById(id);
    if (!carrier || !this.visible(account, carrier)) throw notFound('Shipping line');
    return this.describe(carrier);
  }

  private describe(c: Carrier): ShippingLine {
    if (!this.options.sandbox || this.options.realScacs.includes(c.scac)) return { ...c, source: null };
    const profile = carrierProfile(c.scac);
    return { ...c, source: { providedData: profile.providedData, trackingUrl: profile.trackingUrl, contactUrl: profile.contactUrl } };
  }

  private visible(account: Pick<Account, 'features'>, c: Carrier): boolean {
    return c.defaultEnabled || hasFeature(account, 'extra_carriers');
  }
}
