// POST /v2/tracking_requests: accepted at once as `pending`; a worker runs it (docs/tracking.md).
import { z } from 'zod';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import type { ResourceObject } from '../../../render/jsonapi.js';
import { sendDocument } from '../../reply.js';
import { shippingLineKind } from '../../../render/shipping-line.js';
import { trackingRequestKind } from '../../../render/tracking-request.js';
import { resourceDocument, trackingRequestResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, oneOrList, WRITE_ERRORS } from '../../schemas.js';

const body = z.object({
  data: z.object({
    type: z.literal('tracking_request').optional(),
    attributes: z.object({
      request_type: z.enum(['bill_of_lading', 'booking_number', 'container']),
      request_number: z.string(),
      scac: z.string().nullish(),
      auto_detect_vocc_scac: z.boolean().nullish(),
      ref_numbers: oneOrList(z.string()).nullish(),
      shipment_tags: oneOrList(z.string()).nullish(),
    }),
    relationships: z
      .object({
        customer: z.object({ data: z.object({ id: z.string(), type: z.literal('party').optional() }).nullable() }).nullish(),
      })
      .nullish(),
  }),
});

export default function createTrackingRequest(app: App, deps: HttpDeps) {
  const kind = trackingRequestKind(deps);
  app.post(
    '/v2/tracking_requests',
    {
      config: { rateBucket: 'create_tracking_request' },
      schema: {
        tags: ['tracking_requests'],
        summary: 'Track a bill of lading, booking or container number',
        description:
          'Answers 201 at once with status `pending`; a worker asks the carrier and the request becomes `created` (with its shipment as `tracked_object`), `awaiting_manifest` or `failed`. Without `scac`, set `auto_detect_vocc_scac: true` to let Tidemark pick the carrier.',
        body,
        // 422 also for an unknown carrier or customer, a number the carrier cannot track, the free plan's cap;
        // 429 from its own bucket (create_tracking_request).
        response: {
          201: described(
            resourceDocument(trackingRequestResource),
            'The tracking request, `pending`; its shipping line is included when the carrier is known',
          ),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS),
        },
      },
    },
    async (req, reply) => {
      const account = accountOf(req);
      const { attributes, relationships } = req.body.data;
      const record = await deps.trackingRequests.create(account, {
        requestType: attributes.request_type,
        requestNumber: attributes.request_number,
        scac: attributes.scac ?? null,
        autoDetect: attributes.auto_detect_vocc_scac ?? false,
        refNumbers: attributes.ref_numbers ?? [],
        shipmentTags: attributes.shipment_tags ?? [],
        customerId: relationships?.customer?.data?.id ?? null,
      });
      const included: ResourceObject[] = [];
      const line = record.scac ? deps.shippingLines.list(account).find((c) => c.scac === record.scac) : undefined;
      if (line) included.push(shippingLineKind.render(line));
      return sendDocument(reply, 201, {
        data: kind.render(record),
        included,
        links: { self: `/v2/tracking_requests/${record.id}` },
      });
    },
  );
}
