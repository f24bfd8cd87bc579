// The one place that maps error codes to HTTP statuses and renders JSON:API `errors[]` bodies — for every error,
// whatever raises it: routes and hooks (sendError), the router (frameworkError), the HTTP parser (clientError).
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { TidemarkError, type ErrorCode, type ErrorItem } from '../domain/errors.js';
import { nameOf, parameterOf, type SchemaIssue, sentence, unionBranches } from './validation-messages.js';

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
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  423: 'Locked',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
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

/** Fastify's schema-validation errors (zod issues) as error items with pointers or parameters, in sentences. */
function validationItems(err: FastifyError, request: FastifyRequest): { status: number; items: ErrorItem[] } {
  const context = err.validationContext;
  const issues = ((err.validation ?? []) as ValidationIssue[]).flatMap(withinUnion);
  if (context === 'body') {
    const document = takesDocument(request);
    return {
      status: 422,
      items: issues.flatMap((v): ErrorItem[] => {
        const at = v.instancePath === '/' ? '' : v.instancePath;
        // An attribute the resource does not take: point at it, not at its parent object.
        if (v.keyword === 'unrecognized_keys') {
          const keys = ((v.params as { keys?: string[] }).keys ?? []).map(String);
          return keys.map((k) => ({ detail: unknownMember(at, k), pointer: `${at}/${k}` }));
        }
        // A body that is no object has no member to point at: point at the primary data it lacks.
        if (!at) {
          return [
            document
              ? { detail: 'The request body must be a JSON:API document: an object with data', pointer: '/data' }
              : { detail: 'The request body must be a JSON object', pointer: '' },
          ];
        }
        const { detail, code } = sentence(nameOf(at), issueOf(v));
        return [{ detail, pointer: at, ...(code ? { code } : {}) }];
      }),
    };
  }
  if (context === 'params') return { status: 404, items: [{}] };
  return {
    status: 400,
    items: issues.map((v) => {
      const parameter = parameterOf(v.instancePath);
      return { detail: sentence(parameter, issueOf(v)).detail, parameter };
    }),
  };
}

const issueOf = (v: { keyword?: string; message?: string; params?: unknown }): SchemaIssue => ({
  code: v.keyword,
  message: v.message,
  params: v.params as Record<string, unknown>,
});

type ValidationIssue = (FastifyError['validation'] & object)[number];

/**
 * A value that is none of a union's forms, when all but one form refused it for its kind (a list given where text
 * or a list is taken): the problems inside the form it was meant to be, at their own places (`ref_numbers/0`, a list
 * too long), instead of one "none of the forms" about the whole value.
 */
function withinUnion(v: ValidationIssue): ValidationIssue[] {
  if (v.keyword !== 'invalid_union') return [v];
  const meant = unionBranches(v.params as Record<string, unknown> | undefined).filter((b) => !b.wrongKind);
  if (meant.length !== 1) return [v];
  const at = v.instancePath === '/' ? '' : v.instancePath;
  return meant[0]!.issues.map(({ code, path, message, ...params }) => ({
    keyword: code ?? 'custom',
    instancePath: [at, ...(path ?? []).map(String)].join('/') || '/',
    schemaPath: v.schemaPath,
    message,
    params,
  }));
}

/** Whether the route's body is a JSON:API document (a `data` member) rather than a plain JSON object. */
function takesDocument(request: FastifyRequest): boolean {
  const body = request.routeOptions.schema?.body as { shape?: Record<string, unknown> } | undefined;
  return Boolean(body?.shape && 'data' in body.shape);
}

function unknownMember(at: string, key: string): string {
  if (at.endsWith('/attributes')) return `${key} is not an attribute that can be set here`;
  if (at.endsWith('/relationships')) return `${key} is not a relationship that can be set here`;
  return `${key} is not a member this request takes`;
}

export function sendError(reply: FastifyReply, err: unknown, request: FastifyRequest): FastifyReply {
  const requestId = String(request.id);
  reply.header('x-request-id', requestId);
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
    const { status, items } = validationItems(fe, request);
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
  return reply
    .code(status)
    .type('application/vnd.api+json')
    .send(errorBody(status, [{ detail: clientDetail(fe, request) }], requestId));
}

/**
 * What a client is told about a 4xx error that is not ours: Fastify's own messages (body too large, bad content
 * length …) are written for clients; another library's 4xx error may carry internal text, so it says nothing.
 */
function clientDetail(fe: FastifyError, request: FastifyRequest): string | null {
  if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return `Unsupported media type ${request.headers['content-type'] ?? ''}; send application/json or application/vnd.api+json`.trim();
  }
  if (fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fe instanceof SyntaxError || fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return 'The request body is not valid JSON';
  }
  return typeof fe.code === 'string' && fe.code.startsWith('FST_') ? fe.message : null;
}

/**
 * Fastify's `frameworkErrors`: what the router refuses before any route or hook runs. A path parameter longer than
 * the router takes (100 characters) names no resource: 404, as an unknown id is. A path whose percent-encoding does
 * not decode (`/v2/shipments/%`, bad UTF-8) is a 400.
 */
export function frameworkError(err: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const requestId = String(request.id);
  reply.header('x-request-id', requestId);
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return reply
      .code(404)
      .type('application/vnd.api+json')
      .send(errorBody(404, [{ title: 'Not Found' }], requestId));
  }
  if (err.code === 'FST_ERR_BAD_URL') {
    const detail = 'The URL path is not valid: a percent-escape is incomplete or does not decode to UTF-8';
    return reply
      .code(400)
      .type('application/vnd.api+json')
      .send(errorBody(400, [{ detail }], requestId));
  }
  return sendError(reply, err, request);
}

/**
 * Fastify's `clientErrorHandler`: what the HTTP parser refuses before there is a request (malformed request line or
 * header, headers too large, a request too slow), answered on the socket in the same JSON:API form, with a fresh
 * request id, and the connection closed.
 */
export function clientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const detail =
    status === 408
      ? 'The request was not received in time'
      : status === 431
        ? 'The request headers are too large'
        : 'The request is not valid HTTP';
  const requestId = randomUUID();
  const body = JSON.stringify(errorBody(status, [{ detail }], requestId));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/vnd.api+json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/** JSON:API: a body whose id is not the resource's in the URL is a conflict. */
export function idMismatch() {
  const detail = 'data.id does not match the id in the URL';
  return new TidemarkError('conflict', detail, { items: [{ title: 'Conflict', detail, pointer: '/data/id' }] });
}
