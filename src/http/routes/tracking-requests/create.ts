// POST /v2/tracking_requests: accepted at once as `pending`; a worker runs it (docs/tracking.md).
import { renderAccount } from '../../../render/account.js';
import { z } from 'zod';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import type { ResourceObject } from '../../../render/jsonapi.js';
import { sendDocument } from '../../reply.js';
import { shippingLineKind } from '../../../render/shipping-line.js';
import { trackingRequestKind } from '../../../render/tracking-request.js';
import { resourceDocument, trackingRequestResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, oneOrList, WRITE_ERRORS } from '../../schemas.js';

/** A value staged for the shipment or its containers; which JSON kinds it takes is its definition's data type's. */
const stagedValue = z.object({
  api_slug: z.string().describe('The api_slug of one of the account’s definitions (Shipment or Container)'),
  value: z.unknown().meta({ description: 'The value, as the definition’s data type takes it (docs/custom-fields.md); null stages none.' }),
});

/** `initial_custom_fields`: checked at once, applied once when the request resolves (docs/custom-fields.md). */
const initialCustomFields = z
  .object({
    shipment: z.array(stagedValue).nullish(),
    containers: z
      .array(
        stagedValue.extend({
          number: z.string().nullish().describe('The container it goes to; missing or "" for every container of the shipment'),
        }),
      )
      .nullish(),
  })
  .nullish()
  .describe(
    'Custom-field values for the shipment and its containers, checked against the account’s definitions now (422) and applied once, in the transaction that makes the shipment.',
  );

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
      initial_custom_fields: initialCustomFields,
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
        // 422 also for an unknown carrier or customer, a number the carrier cannot track, the free plan's cap, an
        // initial custom field whose slug or value the account's definitions refuse;
        // 429 from its own bucket (create_tracking_request).
        response: {
          201: described(
            resourceDocument(trackingRequestResource),
            'The tracking request, `pending`; the account is included, and the shipping line when the carrier is known',
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
        initialCustomFields: attributes.initial_custom_fields
          ? { shipment: attributes.initial_custom_fields.shipment ?? [], containers: attributes.initial_custom_fields.containers ?? [] }
          : null,
      });
      // As the reference's 201: the account (api-wire-notes §2.2) and the shipping line when the carrier is known.
      const included: ResourceObject[] = [renderAccount(account, deps.apiTrial.access(account))];
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
