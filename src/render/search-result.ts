import type { SearchHit } from '../storage/repositories/search.js';
import type { ResourceKind } from './jsonapi.js';
import { isoSeconds } from '../lib/dates.js';
import type { Attributes, Resource } from './schemas.js';

/**
 * The search_result resource (api-wire-notes §4.13): a shipment, container (`cargo`) or tracking request
 * found by GET /v2/search, with its `shipment` (itself for a shipment; null for a request not yet tracked).
 */
export const searchResultKind: ResourceKind<SearchHit, Resource<'search_result'>> = {
  type: 'search_result',
  render: (h): Resource<'search_result'> => ({
    id: h.id,
    type: 'search_result',
    attributes: {
      entity_type: h.entity_type,
      number: h.number,
      shipment_id: h.shipment_id,
      scac: h.scac,
      port_of_lading_name: h.port_of_lading_name,
      port_of_discharge_name: h.port_of_discharge_name,
      containers_count: h.containers_count,
      tracking_stopped: h.tracking_stopped,
      tracking_stopped_reason: h.tracking_stopped_reason as Attributes<'search_result'>['tracking_stopped_reason'],
      status: h.status,
      failed_reason: h.failed_reason as Attributes<'search_result'>['failed_reason'],
      ref_numbers: h.ref_numbers ?? [],
      created_at: isoSeconds(h.created_at),
      updated_at: isoSeconds(h.updated_at),
    },
    relationships: {
      shipment: { data: h.shipment_id ? { id: h.shipment_id, type: 'shipment' } : null },
    },
  }),
  includable: {},
};
