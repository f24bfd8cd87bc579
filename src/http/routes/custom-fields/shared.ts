// What the custom-field routes share (docs/custom-fields.md): the request bodies as the reference's SDK and CLI send
// them, the parents of the per-entity routes, and the kinds rendered with the service as their loader.
import { Transform } from 'node:stream';
import type { RequestPayload } from 'fastify';
import { z } from 'zod';
import { type EntityRefType, LIMITS, significantDigits } from '../../../domain/custom-fields.js';
import { validationFailed } from '../../../domain/errors.js';
import { customFieldDefinitionKind, customFieldKind } from '../../../render/custom-fields.js';
import type { HttpDeps } from '../../context.js';

export const TAG = 'custom_fields';

/**
 * The value of a custom field: which JSON kinds it takes depends on the definition's data type (422 otherwise). Present
 * (null is a value): a missing one is a 422 `can't be blank`.
 */
export const valueAttribute = z
  .unknown()
  .meta({ description: 'The value, as the definition’s data type takes it (docs/custom-fields.md); null clears it unless required.' });

/** The `data` of `custom_field` writes: `{type?, id?, attributes: {…}}`. */
const fieldData = <A extends z.ZodObject>(attributes: A) =>
  z.object({
    type: z.literal('custom_field').optional(),
    id: z.string().optional(),
    attributes,
  });
const fieldBody = <A extends z.ZodObject>(attributes: A) => z.object({ data: fieldData(attributes) });

/** POST /{parent}/{id}/custom_fields: the slug and the value; the path names the record. */
export const setBody = fieldBody(z.object({ api_slug: z.string(), value: valueAttribute }));

/** PATCH of a value (by id or by slug): the value only. */
export const valueBody = fieldBody(z.object({ value: valueAttribute }));

/** POST /custom_fields: the slug, the value, and the record in `relationships.entity`. */
export const createBody = z.object({
  data: fieldData(z.object({ api_slug: z.string(), value: valueAttribute })).extend({
    relationships: z.object({
      entity: z.object({
        data: z.object({
          type: z.enum(['shipment', 'container', 'tracking_request']).describe('shipment, container or tracking_request'),
          id: z.string(),
        }),
      }),
    }),
  }),
});

/** The parents of the per-entity routes: their path, the path parameter naming the record, its type. */
export const PARENTS = [
  { path: 'shipments', param: 'shipment_id', type: 'shipment', tag: 'shipments' },
  { path: 'containers', param: 'container_id', type: 'container', tag: 'containers' },
  { path: 'tracking_requests', param: 'tracking_request_id', type: 'tracking_request', tag: 'tracking_requests' },
] as const satisfies readonly { path: string; param: string; type: EntityRefType; tag: string }[];

/** A parent's path parameters: the record id (and the slug on item routes). */
export const parentParams = (param: string, withSlug: boolean) =>
  z.object({
    [param]: z.string().describe('The record id (UUID)'),
    ...(withSlug ? { api_slug: z.string().describe('The definition’s api_slug') } : {}),
  }) as z.ZodObject<{ [k: string]: z.ZodString }>;

export const definitionKind = (deps: HttpDeps) => customFieldDefinitionKind(deps.customFields);
export const fieldKind = (deps: HttpDeps) => customFieldKind(deps.customFields);

/** `:definition_id` (and `:option_id`) of the option routes. */
export const optionParams = z.object({ definition_id: z.string().describe('The definition id (UUID)') });
export const optionItemParams = optionParams.extend({ option_id: z.string().describe('The option id (UUID)') });

export const optionAttributes = z.object({
  label: z.string().nullish(),
  value: z.string().nullish(),
  position: z.number().int().min(-2147483648).max(2147483647).nullish(),
});

// ---------- numbers as sent ----------

/** Bodies' text by request, kept by `keepBodyText` (up to the app's body limit). */
const bodyTexts = new WeakMap<object, string>();
const KEPT_TEXT = 1024 * 1024;

/**
 * `preParsing` of the value writes: keeps the body's text as it streams past, for `refuseImpreciseNumbers`. A JSON
 * number is read as a double, so `123456789012.000001` arrives as `123456789012`: only the text shows what was sent.
 */
export async function keepBodyText(req: object, _reply: unknown, payload: RequestPayload): Promise<RequestPayload> {
  const chunks: Buffer[] = [];
  let size = 0;
  const tee = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      size += chunk.length;
      if (size <= KEPT_TEXT) chunks.push(chunk);
      next(null, chunk);
    },
    flush(next) {
      if (size <= KEPT_TEXT) bodyTexts.set(req, Buffer.concat(chunks).toString('utf8'));
      next();
    },
  });
  return payload.pipe(tee);
}

/** A JSON string (skipped) or a JSON number (captured). Linear: no nested quantifiers. */
const TOKEN = /"(?:[^"\\]|\\.)*"|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;

/**
 * Refuses (422) a number among `paths` of `data.attributes` that was sent with more significant digits than a double
 * holds exactly (LIMITS.numberSignificantDigits): it would otherwise be stored silently rounded.
 */
export function refuseImpreciseNumbers(req: object, attributes: object, paths: readonly string[]): void {
  const text = bodyTexts.get(req);
  if (text === undefined) return;
  const sent = new Map<number, string>();
  for (const m of text.matchAll(TOKEN)) {
    if (m[1] !== undefined && significantDigits(m[1]) > LIMITS.numberSignificantDigits) sent.set(Number(m[1]), m[1]);
  }
  if (!sent.size) return;
  const problems = paths.flatMap((path) => {
    const v = path
      .split('/')
      .reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), attributes);
    const token = typeof v === 'number' ? sent.get(v) : undefined;
    if (token === undefined) return [];
    const words = path.charAt(0).toUpperCase() + path.slice(1).replace(/[_/]/g, ' ');
    return [
      {
        pointer: `/data/attributes/${path}`,
        detail: `${words} ${token} has more than ${LIMITS.numberSignificantDigits} significant digits: a JSON number holds ${LIMITS.numberSignificantDigits} exactly, and it would be stored as ${v}`,
      },
    ];
  });
  if (problems.length) throw validationFailed(problems);
}

/** The attributes of a definition write that are numbers a client may send. */
export const DEFINITION_NUMBERS = ['default_value', 'validation/min', 'validation/max'] as const;
