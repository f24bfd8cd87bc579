// The JSON:API documents (single, list, webhook delivery) and the error documents the routes answer with.
import { z } from 'zod';
import { at, ext } from './common.js';
import { includedResource } from './registry.js';
import { webhookNotificationResource } from './webhooks.js';

/** The JSON:API documents of the helpers below, and schemas derived from them (`.meta`, `.describe`). */
const jsonApiDocuments = new WeakSet<object>();
/** Marks a document schema of a route's own as JSON:API (documented as `application/vnd.api+json`). */
export const markJsonApi = <S extends z.ZodType>(schema: S): S => {
  jsonApiDocuments.add(schema);
  return schema;
};

/** Whether a response schema is a JSON:API document (sent as `application/vnd.api+json`), itself or what it derives from. */
export function isJsonApiDocument(schema: unknown): boolean {
  for (let s = schema as { _zod?: { parent?: unknown } } | undefined; s; s = s._zod?.parent as typeof s) {
    if (jsonApiDocuments.has(s)) return true;
  }
  return false;
}

/** A links object: every value an absolute URL string; a link that does not apply is omitted, never null. */
export const pageLinks = z
  .strictObject({
    self: z.string(),
    current: z.string().optional(),
    first: z.string().optional(),
    prev: z.string().optional(),
    next: z.string().optional(),
    last: z.string().optional(),
  })
  .meta({ id: 'PageLinks', description: 'Absolute URLs; links that do not apply are omitted, never null (api-wire-notes §1.7).' });

export const pagination = z.strictObject({
  current: z.number().int(),
  next: z.number().int().optional(),
  last: z.number().int().optional(),
  records: z.number().int(),
});

/** `meta` of the lists: `{size, total}`, `{total}`, or with `pagination` (api-wire-notes §1.7 table). */
export const listMeta = z
  .strictObject({
    size: z.number().int().optional(),
    total: z.number().int().optional(),
    pagination: pagination.optional(),
  })
  .meta({ id: 'ListMeta' });

const selfLink = z.strictObject({ self: z.string().meta({ description: 'Absolute: the request URL as sent.' }) });

/** `{data: <resource>, included?, links: {self}}`; `meta` when given. */
export function resourceDocument<R extends z.ZodType, M extends z.ZodType = z.ZodNever>(data: R, opts: { meta?: M } = {}) {
  const schema = z.strictObject({
    data,
    included: z.array(includedResource).optional(),
    links: selfLink.optional(),
    ...(opts.meta ? { meta: opts.meta } : {}),
  } as { data: R; included: z.ZodOptional<z.ZodArray<typeof includedResource>>; links: z.ZodOptional<typeof selfLink>; meta: M });
  return markJsonApi(schema);
}

/** `{data: [<resource>], included?, links, meta?}` of a list; `meta` defaults to the lists' `ListMeta`. */
export function listDocument<R extends z.ZodType, M extends z.ZodType = z.ZodOptional<typeof listMeta>>(data: R, opts: { meta?: M } = {}) {
  return markJsonApi(
    z.strictObject({
      data: z.array(data),
      included: z.array(includedResource).optional(),
      links: pageLinks,
      meta: (opts.meta ?? listMeta.optional()) as M,
    }),
  );
}

/** The webhook delivery document (and `GET /v2/webhook_notifications/{id}`'s with `meta`). */
export const notificationDocument = markJsonApi(
  z.strictObject({
    data: webhookNotificationResource,
    included: z.array(includedResource).optional().meta({ description: 'Absent for the minimal events (api-wire-notes §5.4).' }),
    links: z.strictObject({ self: z.string() }),
    meta: z
      .strictObject({ sequence: z.number().int(), occurred_at: at() })
      .optional()
      .meta({ description: ext('receivers order a container’s notifications by `sequence`.') }),
  }),
).meta({ id: 'WebhookNotificationDocument' });

// ---------- errors ----------

export const errorObject = z
  .strictObject({
    status: z.string().meta({ description: 'The HTTP status, as a string.' }),
    title: z.string(),
    detail: z.string().nullable().optional(),
    source: z
      .union([z.strictObject({ pointer: z.string() }), z.strictObject({ parameter: z.string() })])
      .nullable()
      .optional(),
    code: z.string().optional(),
    meta: z.record(z.string(), z.unknown()).optional().meta({ description: 'Always has `request_id` (Tidemark extension).' }),
  })
  .meta({ id: 'Error', description: 'A JSON:API error object.' });

export const errorDocument = markJsonApi(z.strictObject({ errors: z.array(errorObject) })).meta({
  id: 'ErrorDocument',
  description: 'JSON:API errors',
});

/**
 * The shipments list's 422 on invalid filters: the reference's top-level `error` list beside JSON:API `errors`
 * (api-wire-notes §6).
 */
export const shipmentFilterErrorDocument = markJsonApi(
  z.strictObject({
    error: z.array(z.strictObject({ title: z.string(), detail: z.string().nullable().optional() })),
    errors: z.array(errorObject),
  }),
).meta({ id: 'ShipmentFilterErrorDocument', description: 'Invalid filter values: the reference’s `error` list and JSON:API `errors`' });
