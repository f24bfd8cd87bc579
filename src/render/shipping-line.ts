import type { Carrier } from '../sources/reference/index.js';
import type { ResourceKind } from './jsonapi.js';
import type { Resource } from './schemas.js';

/** A carrier of the reference table with what Tidemark's source for it provides (services/shipping-lines.ts). */
export interface ShippingLineRecord extends Carrier {
  /** Null when the carrier is served by a configured real endpoint, whose coverage Tidemark does not know. */
  source: { providedData: object; trackingUrl: string; contactUrl: string } | null;
}

/**
 * The reference's shipping_line with its extras: `provided_data` (which fields Tidemark's source for the
 * carrier fills, with notes where partial), `tracking_url` (`${BLNUM}` template) and `contact_url`; null
 * for a carrier served by a configured real endpoint.
 */
export const shippingLineKind: ResourceKind<ShippingLineRecord, Resource<'shipping_line'>> = {
  type: 'shipping_line',
  render: (c): Resource<'shipping_line'> => ({
    id: c.id,
    type: 'shipping_line',
    attributes: {
      scac: c.scac,
      name: c.name,
      short_name: c.shortName,
      alternative_scacs: [...c.alternativeScacs],
      bill_of_lading_tracking_support: c.trackByBillOfLading,
      booking_number_tracking_support: c.trackByBooking,
      container_number_tracking_support: c.trackByContainer,
      bol_prefix: c.bolPrefixes[0] ?? null,
      provided_data: c.source ? { ...c.source.providedData } : null,
      tracking_url: c.source?.trackingUrl ?? null,
      contact_url: c.source?.contactUrl ?? null,
    },
    relationships: {},
  }),
  includable: {},
};
