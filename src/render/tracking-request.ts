import type { TrackingRequestRecord } from '../storage/repositories/tracking-requests.js';
import { shipmentKind } from './kinds.js';
import type { ResourceKind } from './jsonapi.js';
import { isoSeconds } from '../lib/dates.js';
import type { ResourceLoaders } from './loaders.js';
import { customerInclude } from './party.js';

import type { Attributes, Resource } from './schemas.js';

/** The tracking_request resource (api-wire-notes §4.3); `tracked_object` is the shipment once created. */
export const trackingRequestKind = (deps: ResourceLoaders): ResourceKind<TrackingRequestRecord, Resource<'tracking_request'>> => {
  const shipments = shipmentKind(deps);
  const { trackingRequests: requests, parties } = deps;
  return {
    type: 'tracking_request',
    render: (r): Resource<'tracking_request'> => ({
      id: r.id,
      type: 'tracking_request',
      attributes: {
        request_number: r.request_number,
        request_type: r.request_type,
        scac: r.scac,
        ref_numbers: r.ref_numbers,
        shipment_tags: r.shipment_tags,
        status: r.status,
        failed_reason: r.failed_reason as Attributes<'tracking_request'>['failed_reason'],
        is_retrying: r.is_retrying,
        retry_count: r.retry_count,
        created_at: isoSeconds(r.created_at),
        updated_at: isoSeconds(r.updated_at),
      },
      relationships: {
        tracked_object: { data: r.shipment_id ? { id: r.shipment_id, type: 'shipment' } : null },
        customer: { data: r.customer_id ? { id: r.customer_id, type: 'party' } : null },
        user: { data: null },
      },
      links: { self: `/v2/tracking_requests/${r.id}` },
    }),
    includable: {
      tracked_object: {
        targets: () => [shipments],
        async load(records) {
          const accountId = records[0]?.account_id;
          const ids = [...new Set(records.map((r) => r.shipment_id).filter((id): id is string => !!id))];
          if (!accountId) return [];
          return (await requests.trackedObjects(accountId, ids)).map((record) => ({ kind: shipments, record }));
        },
      },
      customer: customerInclude(parties),
      user: null,
    },
  };
};
