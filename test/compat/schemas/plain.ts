// The plain-JSON answers (api-wire-notes.md §1.2, §2.2–2.3, §4.14): infer_number, refresh, map_geojson.
import { z } from 'zod';
import { timestamp } from './common.js';

const candidate = z.looseObject({ scac: z.string(), name: z.string(), confidence: z.number().min(0).max(1) });

export const inferNumberResult = z.looseObject({
  data: z.looseObject({
    id: z.string().regex(/^req_[0-9a-f-]{36}$/, 'req_<uuid>'),
    type: z.literal('infer_number_results'),
    attributes: z.looseObject({
      number_type: z.enum(['container', 'bill_of_lading', 'booking']),
      validation: z.looseObject({
        is_valid: z.boolean(),
        type: z.enum(['container', 'shipment']).nullable(),
        check_digit_passed: z.boolean().nullable(),
        parsed_number: z.string().nullable(),
        reason: z.string().nullable(),
      }),
      shipping_line: z.looseObject({
        decision: z.enum(['auto_select', 'needs_confirmation', 'no_prediction']),
        selected: candidate.nullable(),
        candidates: z.array(candidate),
      }),
    }),
  }),
});

/** PATCH /containers/{id}/refresh: `{"message": "Started refresh for …"}`. */
export const refreshMessage = z.looseObject({ message: z.string().min(1) });

const point = z.tuple([z.number(), z.number()]);
const FEATURE_TYPES = ['port', 'current_vessel', 'past_vessel_locations', 'estimated_full_legs', 'estimated_partial_leg'] as const;

/** GET /containers/{id}/map_geojson: a GeoJSON FeatureCollection (§4.14). */
export const mapGeojson = z.looseObject({
  type: z.literal('FeatureCollection'),
  features: z.array(
    z.looseObject({
      type: z.literal('Feature'),
      geometry: z.discriminatedUnion('type', [
        z.looseObject({ type: z.literal('Point'), coordinates: point }),
        z.looseObject({ type: z.literal('LineString'), coordinates: z.array(point) }),
      ]),
      properties: z.looseObject({ feature_type: z.enum(FEATURE_TYPES), ports_sequence: z.number().int().optional() }),
    }),
  ),
});

/** The port features carry these (§4.14). */
export const portFeatureProperties = z.looseObject({
  feature_type: z.literal('port'),
  ports_sequence: z.number().int().positive(),
  ports_total: z.number().int().positive(),
  location_id: z.string(),
  name: z.string(),
  label: z.string(),
  updated_at: timestamp.nullable().optional(),
});

/** A 2xx answer the SDK parses as JSON: any JSON object (DELETE /webhooks/{id} and the custom-field deletes answer `{}`). */
export const emptyObject = z.looseObject({});
