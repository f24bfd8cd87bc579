// The building blocks of the hand-written response schemas, from the reference's wire notes
// (/work/shared/reference/api-wire-notes.md §1.3–1.7, §6): what a client of the reference may rely on. Objects are
// loose (members beyond these are Tidemark's extensions and allowed) unless the notes say a client trips over one.
import { z } from 'zod';

/** A resource id: a UUID string (§1.3). */
export const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'a UUID string');

/** ISO 8601 in UTC, second precision, `Z` (§1.4). */
export const timestamp = z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, 'an ISO 8601 UTC timestamp with seconds and Z');
export const nullableTimestamp = timestamp.nullable();
export const nullableString = z.string().nullable();
/** An IANA time zone name (or null when the place is unknown, §1.4). */
export const timezone = z
  .string()
  .regex(/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*$/, 'an IANA zone name')
  .nullable();
/** A list of strings; the notes make every attribute not marked required nullable. */
export const stringList = z.array(z.string()).nullable();

/** A resource identifier `{id, type}` of one of these types. */
export function ref(...types: [string, ...string[]]) {
  return z.looseObject({ id: uuid, type: z.enum(types) });
}

/** A to-one relationship: always present, `{data: null}` when empty (§1.5). */
export function toOne(...types: [string, ...string[]]) {
  return z.looseObject({ data: ref(...types).nullable() });
}

/** A to-one relationship that always names a record. */
export function toOneRequired(...types: [string, ...string[]]) {
  return z.looseObject({ data: ref(...types) });
}

/** A to-many relationship: always present, `{data: []}` when empty (§1.5). */
export function toMany(...types: [string, ...string[]]) {
  return z.looseObject({ data: z.array(ref(...types)) });
}

/** The resource-level `links.self` of shipments, tracking requests and parties: relative (§1.5). */
export function relativeSelf(collection: string) {
  return z.looseObject({
    self: z.string().regex(new RegExp(`^/v2/${collection}/[0-9a-f-]{36}$`), `a relative /v2/${collection}/<id> link`),
  });
}

/** A resource object `{id, type, attributes, relationships, links?}` (§1.5): every declared relationship present. */
export function resource<A extends z.core.$ZodLooseShape, R extends z.core.$ZodLooseShape>(
  type: string,
  attributes: A,
  relationships: R,
  options: { id?: z.ZodType; links?: z.ZodType } = {},
) {
  return z.looseObject({
    id: options.id ?? uuid,
    type: z.literal(type),
    attributes: z.looseObject(attributes),
    relationships: z.looseObject(relationships),
    ...(options.links ? { links: options.links } : {}),
  });
}

/** An absolute URL string. */
export const absoluteUrl = z.string().regex(/^https?:\/\/[^/]+\/v2\//, 'an absolute URL under /v2');

/**
 * `links` of any document: strings only, never null (§1.8: the MCP list tools validate them as Record<string,string>).
 */
export const stringLinks = z.record(z.string(), z.string());

/** The document-level `links` of a single resource: `self` absolute, echoing the request (§1.5). */
export const singleLinks = z.looseObject({ self: absoluteUrl }).and(stringLinks);

/**
 * The `links` of a list (§1.7): `self` and `current` always, `next`/`last`/`first`/`prev` only where they apply —
 * omitted, never null — each an absolute URL; the canonical ones carry `page[number]` and `page[size]` with raw brackets.
 */
const pageLink = absoluteUrl
  .regex(/page\[number\]=\d+/, 'a page link with a raw page[number]')
  .regex(/page\[size\]=\d+/, 'a page link with a raw page[size]');
export const listLinks = z
  .looseObject({
    self: absoluteUrl,
    current: pageLink,
    next: pageLink.optional(),
    last: pageLink.optional(),
    first: pageLink.optional(),
    prev: pageLink.optional(),
  })
  .and(stringLinks);
/** The links of the lists whose reference answer has only `self` and `current` (search, §1.7). */
export const selfCurrentLinks = z.looseObject({ self: absoluteUrl, current: absoluteUrl }).and(stringLinks);

const count = z.number().int().nonnegative();
/** `meta` of the lists (§1.7 table). */
export const META = {
  sizeTotal: z.looseObject({ size: count, total: count }),
  total: z.looseObject({ total: count }),
  paginated: z.looseObject({
    size: count,
    total: count,
    pagination: z.looseObject({
      current: z.number().int().positive(),
      next: z.number().int().positive().optional(),
      last: z.number().int().positive().optional(),
      records: count,
    }),
  }),
} as const;

/** One error object (§6): every member optional and nullable; `status` a string. */
export const errorObject = z.looseObject({
  status: z.string().nullable().optional(),
  title: z.string().nullable().optional(),
  detail: z.string().nullable().optional(),
  code: z.string().nullable().optional(),
  source: z.looseObject({ pointer: z.string().nullable().optional(), parameter: z.string().nullable().optional() }).nullable().optional(),
  meta: z.record(z.string(), z.unknown()).nullable().optional(),
});

/**
 * The error envelope `{"errors": [...]}` of one status: the SDK maps by status and reads `detail || title || code`
 * (§1.8), so each error carries its status as a string and at least one of those three.
 */
export function errorEnvelope(status: number) {
  return z.looseObject({
    errors: z
      .array(
        errorObject
          .extend({ status: z.literal(String(status)) })
          .refine((e) => Boolean(e.detail || e.title || e.code), 'an error says something in detail, title or code'),
      )
      .min(1),
  });
}

/** A 422 whose errors point into the body (`source.pointer`), as the reference's validation errors do (§6). */
export function pointedErrors(status = 422) {
  return z.looseObject({
    errors: z
      .array(errorObject.extend({ status: z.literal(String(status)), source: z.looseObject({ pointer: z.string().startsWith('/data') }) }))
      .min(1),
  });
}

/** The shipments list's filter errors: top-level key `error`, not `errors` (§6). */
export const shipmentFilterErrors = z.looseObject({ error: z.array(z.looseObject({ title: z.string(), detail: z.string() })).min(1) });
