// The one place that maps error codes to HTTP statuses and renders JSON:API `errors[]` bodies.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { TidemarkError, type ErrorCode, type ErrorItem } from '../domain/errors.js';

export const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  feature_not_enabled: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  unsupported_media_type: 415,
  validation_failed: 422,
  rate_limited: 429,
  locked: 423,
  unavailable: 503,
  internal: 500,
};

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  423: 'Locked',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export interface JsonApiError {
  status: string;
  title: string;
  detail?: string | null;
  source?: { pointer?: string; parameter?: string } | null;
  code?: string;
  meta?: Record<string, unknown>;
}

function render(status: number, item: ErrorItem, requestId: string): JsonApiError {
  const out: JsonApiError = { status: String(status), title: item.title ?? TITLES[status] ?? 'Error' };
  if (item.detail !== undefined) out.detail = item.detail;
  if (item.pointer !== undefined) out.source = { pointer: item.pointer };
  else if (item.parameter !== undefined) out.source = { parameter: item.parameter };
  if (item.code) out.code = item.code;
  out.meta = { ...item.meta, request_id: requestId };
  return out;
}

export function errorBody(status: number, items: ErrorItem[], requestId: string): { errors: JsonApiError[] } {
  const list = items.length ? items : [{}];
  return { errors: list.map((i) => render(status, i, requestId)) };
}

/** Fastify's schema-validation errors (zod issues) as error items with pointers or parameters. */
function validationItems(err: FastifyError): { status: number; items: ErrorItem[] } {
  const context = err.validationContext;
  const issues = err.validation ?? [];
  if (context === 'body') {
    return {
      status: 422,
      // A missing or non-object body has no field to point at: point at the primary data it lacks.
      items: issues.flatMap((v) => {
        // An attribute the resource does not take: point at it, not at its parent object.
        const unknown = /^Unrecognized keys?: (.+)$/.exec(v.message ?? '');
        if (unknown) {
          return [...unknown[1]!.matchAll(/"([^"]+)"/g)].map((k) => ({
            detail: `${k[1]} is not an attribute that can be set here`,
            pointer: `${v.instancePath === '/' ? '' : v.instancePath}/${k[1]}`,
          }));
        }
        return [
          v.instancePath && v.instancePath !== '/'
            ? { detail: describe(v.instancePath, v.message), pointer: v.instancePath }
            : { detail: 'The request body must be a JSON:API document with data', pointer: '/data' },
        ];
      }),
    };
  }
  if (context === 'params') return { status: 404, items: [{}] };
  return {
    status: 400,
    items: issues.map((v) => {
      const parameter = toParameter(v.instancePath);
      return { detail: `${parameter}: ${v.message ?? 'is invalid'}`, parameter };
    }),
  };
}

function describe(pointer: string, message: string | undefined): string {
  const field = pointer.split('/').filter(Boolean).pop();
  return field ? `${field}: ${message ?? 'is invalid'}` : (message ?? 'is invalid');
}

/** `/page/size` → `page[size]`. */
function toParameter(instancePath: string): string {
  const [first, ...rest] = instancePath.split('/').filter(Boolean);
  return (first ?? 'query') + rest.map((p) => `[${p}]`).join('');
}

export function sendError(reply: FastifyReply, err: unknown, request: FastifyRequest): FastifyReply {
  const requestId = String(request.id);
  if (err instanceof TidemarkError) {
    const status = STATUS[err.code];
    if (err.retryAfterSeconds !== undefined) reply.header('retry-after', String(err.retryAfterSeconds));
    if (status >= 500) request.log.error({ err }, 'request failed');
    const items = err.items.length ? err.items : [{ detail: status >= 500 ? null : err.message }];
    return reply
      .code(status)
      .type('application/vnd.api+json')
      .send(errorBody(status, items, requestId));
  }
  const fe = err as FastifyError;
  if (fe?.validation) {
    const { status, items } = validationItems(fe);
    return reply
      .code(status)
      .type('application/vnd.api+json')
      .send(errorBody(status, items, requestId));
  }
  const status = typeof fe?.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500 ? fe.statusCode : 500;
  if (status === 500) {
    request.log.error({ err }, 'unhandled error');
    return reply
      .code(500)
      .type('application/vnd.api+json')
      .send({
        errors: [{ status: '500', source: null, title: 'Internal Server Error', detail: null, meta: { request_id: requestId } }],
      });
  }
  const detail =
    fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
      ? `Unsupported media type ${request.headers['content-type'] ?? ''}; send application/json or application/vnd.api+json`.trim()
      : fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fe instanceof SyntaxError || fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
        ? 'The request body is not valid JSON'
        : fe.message;
  return reply
    .code(status)
    .type('application/vnd.api+json')
    .send(errorBody(status, [{ detail }], requestId));
}

/** JSON:API: a body whose id is not the resource's in the URL is a conflict. */
export function idMismatch() {
  const detail = 'data.id does not match the id in the URL';
  return new TidemarkError('conflict', detail, { items: [{ title: 'Conflict', detail, pointer: '/data/id' }] });
}
