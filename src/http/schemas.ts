// Request schemas shared by routes. They validate the request and generate /v2/openapi.json.
import { z } from 'zod';
import { errorDocument, shipmentFilterErrorDocument } from '../render/schemas.js';

/** The query of a JSON:API list: paging and include are checked by the handlers (400 with a parameter). */
export const listQuery = z
  .object({
    include: z.string().optional().describe('Comma-separated relationship paths to include'),
    page: z
      .object({ number: z.string().optional(), size: z.string().optional() })
      .catchall(z.unknown())
      .optional()
      .describe('page[number] (from 1) and page[size] (at most 100)'),
  })
  .catchall(z.unknown());

export const includeQuery = z.object({ include: z.string().optional() }).catchall(z.unknown());

/** A JSON:API write body `{data: {type, attributes}}` with the given attributes schema. */
export function resourceBody<A extends z.ZodType>(type: string, attributes: A) {
  return z.object({
    data: z.object({
      type: z.literal(type).optional(),
      id: z.string().optional(),
      attributes,
    }),
  });
}

/**
 * Reference numbers and tags as clients edit them: at most 100 strings of at most 255 characters. One string is taken
 * as a list of one: the reference's CLI sends `--attr ref_numbers=X` as a string.
 */
export const labelList = oneOrList(z.string().max(255), 100);

/** A list of `item`s (at most `max` when given), or one `item` alone, read as a list of one. */
export function oneOrList<T extends z.ZodType>(item: T, max?: number) {
  const list = max === undefined ? z.array(item) : z.array(item).max(max);
  return z
    .union([item, list])
    .transform((v) => (Array.isArray(v) ? v : [v]) as z.output<T>[])
    .meta({ description: max === undefined ? 'A list, or one value alone' : `A list (at most ${max}), or one value alone` });
}

/** The `:id` of a resource's URL. Any text: an id that names nothing (malformed or not) is the service's 404. */
export const idParams = z.object({ id: z.string().describe('The resource id (UUID)') });

// ---------- response schemas ----------
//
// Routes declare responses in Fastify's plain form, `{ 200: schema, ...errorResponses(404) }`, which types
// `reply.send` (the content form would not). The OpenAPI transform (app.ts) documents JSON:API documents and every
// error under `application/vnd.api+json`, with the schema's description as the response's.

/** A response schema with the description the OpenAPI document gives the status: `described(listDocument(x), 'The x')`. */
export const described = <S extends z.ZodType>(schema: S, description: string): S => schema.meta({ description }) as S;

/** Every error status a route may declare, with what it means on this API (the response's description). */
const ERROR_STATUSES = {
  400: 'Bad Request: a query parameter is wrong (`source.parameter` names it), or the body is not JSON',
  401: 'Unauthorized: no API key, or not a valid one',
  403: 'Forbidden: the account may not do this, or the feature is not enabled for it',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large: the body is over 1 MiB',
  415: 'Unsupported Media Type: send JSON (`application/json` or `application/vnd.api+json`)',
  422: 'Unprocessable Entity: the body is wrong; `source.pointer` points at what',
  423: 'Locked',
  429: 'Too Many Requests: wait `Retry-After` seconds',
  500: 'Internal Server Error',
  503: 'Service Unavailable: try again after `Retry-After` seconds',
} as const;
export type ErrorStatus = keyof typeof ERROR_STATUSES;

const ERROR_RESPONSES = Object.fromEntries(
  Object.entries(ERROR_STATUSES).map(([status, description]) => [status, described(errorDocument, description)]),
) as unknown as Record<ErrorStatus, typeof errorDocument>;

/**
 * The error responses of a route, for its `schema.response` (the JSON:API `errors[]` document, one named component):
 * `response: { 200: described(listDocument(shipmentResource), 'The shipments'), ...errorResponses(400, 401, 429) }`.
 */
export function errorResponses<const S extends ErrorStatus[]>(...statuses: S): { [K in S[number]]: typeof errorDocument } {
  return Object.fromEntries(statuses.map((s) => [s, ERROR_RESPONSES[s]])) as { [K in S[number]]: typeof errorDocument };
}

/** What any authenticated /v2 route can answer whatever it does: a bad key, a rate limit, a server closing. */
export const API_ERRORS = [401, 429, 503] as const satisfies ErrorStatus[];

/**
 * The shipments list's 422 for invalid filters (`{error: [...], errors: [...]}`, the reference's odd shape, api-wire-notes
 * §6), for `response: { ..., 422: shipmentFilterErrors }`.
 */
export const shipmentFilterErrors = shipmentFilterErrorDocument;

/** A 204's response schema: no body. */
export const noContent = z.null().meta({ description: 'No Content' });

/**
 * What a /v2 write with a JSON body can answer besides API_ERRORS whatever it does: a body that is not JSON (400), a
 * web-app session without its `X-CSRF-Token` (403), a body over 1 MiB (413), a body of another media type (415), a
 * body the schema or the service refuses (422). `...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404)`.
 */
export const WRITE_ERRORS = [400, 403, 413, 415, 422] as const satisfies ErrorStatus[];
