// The documents: a resource schema per wire type, and the single and list documents built from them
// (api-wire-notes.md §1.5, §1.7). Resources in `included` are checked with their own type's schema.
import { z } from 'zod';
import { customField, customFieldDefinition, customFieldOption } from './custom-fields.js';
import { listLinks, META, selfCurrentLinks, singleLinks, stringLinks, uuid } from './common.js';
import {
  account,
  metroArea,
  party,
  port,
  railTerminal,
  searchResult,
  shippingLine,
  terminal,
  vessel,
  webhook,
  webhookNotification,
} from './places.js';
import { container, estimatedEvent, rawEvent, shipment, trackingRequest, transportEvent } from './tracking.js';

export * from './common.js';
export * from './custom-fields.js';
export * from './places.js';
export * from './plain.js';
export * from './tracking.js';

/** The schema of each wire type a document may carry. */
export const RESOURCES: Record<string, z.ZodType> = {
  shipment,
  container,
  transport_event: transportEvent,
  raw_event: rawEvent,
  estimated_event: estimatedEvent,
  tracking_request: trackingRequest,
  webhook,
  webhook_notification: webhookNotification,
  party,
  account,
  shipping_line: shippingLine,
  port,
  terminal,
  rail_terminal: railTerminal,
  metro_area: metroArea,
  vessel,
  search_result: searchResult,
  custom_field_definition: customFieldDefinition,
  custom_field_option: customFieldOption,
  custom_field: customField,
};

/**
 * A resource in `included`: parsed with its type's schema; a type without one (a webhook's container_updated_event,
 * a notification log) only as a resource object.
 */
const includedResource = z.looseObject({ id: z.string(), type: z.string() }).superRefine((r, ctx) => {
  const schema =
    RESOURCES[r.type] ?? z.looseObject({ id: uuid, type: z.string(), attributes: z.looseObject({}), relationships: z.looseObject({}) });
  const result = schema.safeParse(r);
  if (!result.success) for (const issue of result.error.issues) ctx.addIssue({ ...issue, path: issue.path } as z.core.$ZodRawIssue);
});

/** `included`: omitted or an array, each member unique by type and id (§1.5). */
const included = z
  .array(includedResource)
  .refine((list) => new Set(list.map((r) => `${r.type}:${r.id}`)).size === list.length, 'no resource twice in included')
  .optional();

/** A single-resource document: `{data, included?, links: {self}}`, self absolute (§1.5). */
export function single(data: z.ZodType, links: z.ZodType = singleLinks) {
  return z.looseObject({ data, included, links });
}

export type ListMeta = keyof typeof META | 'none' | 'optional';

/** A list document `{data: [], included?, links, meta?}` with the list's links and meta (§1.7). */
export function list(data: z.ZodType, meta: ListMeta, links: z.ZodType = listLinks) {
  const metaSchema = meta === 'none' || meta === 'optional' ? z.looseObject({}).optional() : META[meta];
  return z.looseObject({ data: z.array(data), included, links, meta: metaSchema });
}

export { selfCurrentLinks, stringLinks };
