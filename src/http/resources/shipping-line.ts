import type { Carrier } from '../../services/shipping-lines.js';
import type { ResourceKind } from '../jsonapi.js';

/**
 * The reference's shipping_line. `provided_data` (which fields each carrier fills) and the tracking and
 * contact URLs are left out until the carrier profiles of the data-sources work define them.
 */
export const shippingLineKind: ResourceKind<Carrier> = {
  type: 'shipping_line',
  render: (c) => ({
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
    },
    relationships: {},
  }),
  includable: {},
};
