// The one way the app talks to Tidemark: same-origin fetch with JSON bodies, the CSRF header on writes,
// JSON:API `errors[]` turned into readable messages (and per-field messages), and a 401 sending the user to
// the sign-in page with the current path as `next`.
import { navigate } from './router';
import { clearSession, getSession } from './session';

/** One problem the server reported, flattened from a JSON:API error object. */
export interface Problem {
  message: string;
  /** The field it is about: the last segment of `source.pointer` (`/data/attributes/url` → `url`, `/email` → `email`). */
  field: string | null;
  /** The query parameter it is about (`source.parameter`). */
  parameter: string | null;
  code: string | null;
}

export class ApiError extends Error {
  readonly status: number;
  readonly problems: Problem[];
  /** Seconds, from `Retry-After` (429). */
  readonly retryAfter: number | null;
  readonly requestId: string | null;

  constructor(status: number, problems: Problem[], opts: { retryAfter?: number | null; requestId?: string | null } = {}) {
    super(problems.map((p) => p.message).join(' ') || `The server answered ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.problems = problems;
    this.retryAfter = opts.retryAfter ?? null;
    this.requestId = opts.requestId ?? null;
  }

  /** Messages by field name, for inline errors next to form controls (the first message per field). */
  get fields(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const p of this.problems) if (p.field && !(p.field in out)) out[p.field] = p.message;
    return out;
  }

  /** The problems that no form control shows: for the summary above the form. */
  general(shownFields: readonly string[] = []): string[] {
    return this.problems.filter((p) => !p.field || !shownFields.includes(p.field)).map((p) => p.message);
  }
}

/** The browser could not reach the server at all. */
export class NetworkError extends Error {
  constructor() {
    super('Could not reach Tidemark. Check the connection and try again.');
    this.name = 'NetworkError';
  }
}

export type Query = Record<string, string | number | boolean | null | undefined | readonly string[]>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /** What a 401 does: `redirect` (default) sends the user to sign in; `throw` lets the caller handle it. */
  on401?: 'redirect' | 'throw';
}

const STATUS_TEXT: Record<number, string> = {
  400: 'The request was not understood.',
  401: 'You are not signed in.',
  403: 'You are not allowed to do that.',
  404: 'Not found.',
  409: 'That conflicts with the current state; reload and try again.',
  413: 'That is too large.',
  415: 'The server did not accept the request format.',
  422: 'Some values are not valid.',
  429: 'Too many requests; wait a moment and try again.',
  500: 'Something went wrong on the server.',
  502: 'The server is unreachable (bad gateway).',
  503: 'The service is unavailable right now.',
  504: 'The server took too long to answer.',
};

/** Builds `path?query`, with bracketed keys (`page[number]`) and lists joined by commas. */
export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    params.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = params.toString();
  return s ? `${path}${path.includes('?') ? '&' : '?'}${s}` : path;
}

/** The field a pointer is about: the attribute or relationship named under `/data/…`, else the last name. */
function fieldOf(pointer: unknown): string | null {
  if (typeof pointer !== 'string' || !pointer) return null;
  const parts = pointer.split('/').filter(Boolean);
  if (parts[0] === 'data' && (parts[1] === 'attributes' || parts[1] === 'relationships') && parts[2]) return parts[2];
  const names = parts.filter((p) => !/^\d+$/.test(p));
  return names.length ? names[names.length - 1]! : null;
}

function sentence(s: string): string {
  const t = s.trim();
  if (!t) return t;
  const first = t[0]!.toUpperCase() + t.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}

/** Reads the problems of an error body: JSON:API `errors[]`, the reference API's `error[]`, or plain text. */
export function problemsOf(status: number, body: unknown): Problem[] {
  const list = (body as { errors?: unknown; error?: unknown } | null)?.errors ?? (body as { error?: unknown } | null)?.error;
  if (Array.isArray(list) && list.length) {
    return list.map((e: Record<string, unknown>) => {
      const source = (e.source ?? {}) as Record<string, unknown>;
      const text = (typeof e.detail === 'string' && e.detail) || (typeof e.title === 'string' && e.title) || STATUS_TEXT[status] || 'Error';
      return {
        message: sentence(text),
        field: fieldOf(source.pointer),
        parameter: typeof source.parameter === 'string' ? source.parameter : null,
        code: typeof e.code === 'string' ? e.code : null,
      };
    });
  }
  return [{ message: STATUS_TEXT[status] ?? `The server answered ${status}.`, field: null, parameter: null, code: null }];
}

function signInPath(): string {
  const here = `${window.location.pathname}${window.location.search}`;
  return here.startsWith('/signin') ? '/signin' : `/signin?next=${encodeURIComponent(here)}`;
}

/**
 * Sends a request to Tidemark and answers the parsed JSON body (undefined for 204). Throws `ApiError` for any
 * status ≥ 400 and `NetworkError` when the server cannot be reached; an aborted request rejects with the
 * browser's AbortError.
 */
export async function request<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/vnd.api+json, application/json' };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const csrf = getSession()?.csrf_token;
  if (method !== 'GET' && method !== 'HEAD' && csrf) headers['x-csrf-token'] = csrf;
  let res: Response;
  try {
    res = await fetch(withQuery(path, opts.query), {
      method,
      headers,
      credentials: 'same-origin',
      body: opts.body === undefined ? null : JSON.stringify(opts.body),
      signal: opts.signal ?? null,
    });
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw new NetworkError();
  }
  const text = res.status === 204 ? '' : await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (res.ok) return body as T;

  const retry = Number(res.headers.get('retry-after'));
  const error = new ApiError(res.status, problemsOf(res.status, body), {
    retryAfter: Number.isFinite(retry) && retry > 0 ? retry : null,
    requestId: res.headers.get('x-request-id'),
  });
  if (res.status === 401 && (opts.on401 ?? 'redirect') === 'redirect') {
    clearSession();
    navigate(signInPath(), { replace: true });
  }
  throw error;
}

export const api = {
  get: <T = unknown>(path: string, opts?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, opts),
  post: <T = unknown>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, { ...opts, body }),
  patch: <T = unknown>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PATCH', path, { ...opts, body }),
  delete: <T = unknown>(path: string, opts?: RequestOptions) => request<T>('DELETE', path, opts),
};

/** A message for any error a page may catch (ApiError, NetworkError, or a bug). */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 429 && err.retryAfter) return `Too many attempts. Try again in ${err.retryAfter} seconds.`;
    return err.message;
  }
  if (err instanceof NetworkError) return err.message;
  return 'Something went wrong in the app. Reload the page and try again.';
}

export const isAbort = (err: unknown) => (err as Error | null)?.name === 'AbortError';
