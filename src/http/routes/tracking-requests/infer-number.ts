// POST /v2/tracking_requests/infer_number: plain JSON in and out (not JSON:API), as the reference API
// answers it; the SDK's createFromInfer and the MCP track_container tool read this shape.
import { z } from 'zod';
import type { NumberInferenceResult } from '../../../services/number-inference.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { API_ERRORS, described, errorResponses, WRITE_ERRORS } from '../../schemas.js';

const candidate = z.object({ scac: z.string(), name: z.string(), confidence: z.number().min(0).max(1) });
const numberType = z.enum(['container', 'bill_of_lading', 'booking']);

const inferResult = z.object({
  data: z.object({
    id: z.string().describe('req_<uuid>'),
    type: z.literal('infer_number_results'),
    attributes: z.object({
      number_type: numberType.describe('`booking` is request_type `booking_number`'),
      validation: z.object({
        is_valid: z.boolean(),
        type: z.enum(['container', 'shipment']).describe('What the number names: a container, or a shipment (bill of lading or booking)'),
        check_digit_passed: z.boolean().nullable().describe('ISO 6346 check of a container number; null for other types'),
        parsed_number: z.string(),
        reason: z.string().nullable(),
      }),
      shipping_line: z.object({
        decision: z.enum(['auto_select', 'needs_confirmation', 'no_prediction']).describe('auto_select ≥ 0.95; needs_confirmation ≥ 0.70'),
        selected: candidate.nullable(),
        candidates: z.array(candidate),
      }),
    }),
  }),
});

const body = z.object({ number: z.string().describe('A container, bill of lading or booking number') });

export default function inferNumber(app: App, deps: HttpDeps) {
  app.post(
    '/v2/tracking_requests/infer_number',
    {
      config: { rateBucket: 'infer_number' },
      // A body that is not `{number: string}` gets the 422 of an invalid number (pointer `/number`), not the
      // JSON:API one the shared validation handler gives (pointer `/data`).
      attachValidation: true,
      schema: {
        tags: ['tracking_requests'],
        summary: 'Infer the type and shipping line of a number (plain JSON, not JSON:API)',
        body,
        // 422 for a number that is no container, bill of lading or booking number (or a body without one); 429
        // from its own bucket (infer_number).
        response: {
          200: described(inferResult, "The number's type and the shipping lines it may be of (plain JSON)"),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS),
        },
      },
    },
    async (req) => render(deps.numberInference.infer(accountOf(req), req.validationError ? null : req.body.number)),
  );
}

function render(r: NumberInferenceResult): z.infer<typeof inferResult> {
  return {
    data: {
      id: r.id,
      type: 'infer_number_results',
      attributes: {
        number_type: r.numberType,
        validation: {
          is_valid: r.validation.isValid,
          type: r.validation.type,
          check_digit_passed: r.validation.checkDigitPassed,
          parsed_number: r.validation.parsedNumber,
          reason: r.validation.reason,
        },
        shipping_line: r.shippingLine,
      },
    },
  };
}
