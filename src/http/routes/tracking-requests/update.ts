// PATCH /v2/tracking_requests/{id}: its reference numbers (the reference schema names a single `ref_number`).
import { z } from 'zod';
import { validationFailed } from '../../../domain/errors.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { trackingRequestKind } from '../../../render/tracking-request.js';
import { resourceDocument, trackingRequestResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, idParams, oneOrList, WRITE_ERRORS } from '../../schemas.js';

const body = z.object({
  data: z.object({
    type: z.literal('tracking_request').optional(),
    id: z.string().optional(),
    attributes: z.object({ ref_number: z.string().nullish(), ref_numbers: oneOrList(z.string()).nullish() }),
  }),
});

export default function updateTrackingRequest(app: App, deps: HttpDeps) {
  const kind = trackingRequestKind(deps);
  app.patch(
    '/v2/tracking_requests/:id',
    {
      schema: {
        tags: ['tracking_requests'],
        summary: 'Edit a tracking request',
        description: 'Sets its reference numbers: `ref_numbers` (a list) or `ref_number` (one, as the reference schema has it).',
        params: idParams,
        body,
        response: {
          200: described(resourceDocument(trackingRequestResource), 'The tracking request as edited'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404),
        },
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      const { ref_number, ref_numbers } = req.body.data.attributes;
      const refs = ref_numbers ?? (ref_number === undefined ? undefined : ref_number === null ? [] : [ref_number]);
      if (refs === undefined) {
        throw validationFailed([{ title: 'Nothing to change', detail: 'Give ref_numbers or ref_number', pointer: '/data/attributes' }]);
      }
      const record = await deps.trackingRequests.updateRefNumbers(accountOf(req).id, id, refs);
      return sendDocument(reply, 200, { data: kind.render(record), links: { self: selfUrl(deps.config.publicUrl, req) } });
    },
  );
}
