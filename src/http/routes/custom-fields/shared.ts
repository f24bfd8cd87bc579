// What the custom-field routes share (docs/custom-fields.md): the request bodies as the reference's SDK and CLI send
// them, the parents of the per-entity routes, and the kinds rendered with the service as their loader.
import { z } from 'zod';
import type { EntityRefType } from '../../../domain/custom-fields.js';
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
