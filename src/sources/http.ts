// The HTTP every source adapter speaks: one request with a per-request timeout joined to the caller's abort
// signal, no redirects, JSON bodies read with typed failures, and one mapping of HTTP statuses to SourceError.
import { createHash } from 'node:crypto';
import { type FetchContext, SourceError } from './contract.js';

export interface HttpClientOptions {
  /** Names the source in error messages, e.g. `DCSA`, `Terminal API`. */
  label: string;
  /** Per HTTP request (headers and body), not for a whole fetch of several requests. */
  timeoutMs: number;
  /** For an in-process transport (the sandbox) or a test fake; defaults to the global fetch. */
  fetch?: typeof globalThis.fetch | undefined;
}

/** Error bodies are read for their message only; a huge one is cut rather than held in memory. */
const MAX_ERROR_BODY_CHARS = 64 * 1024;

export class HttpClient {
  readonly #options: HttpClientOptions;
  readonly #fetch: typeof globalThis.fetch;

  constructor(options: HttpClientOptions) {
    this.#options = options;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  get label(): string {
    return this.#options.label;
  }

  /**
   * One request, whatever its status. Rejects with `ctx.signal.reason` when the caller aborts (before or during
   * the request: then it is not the source's failure) and with `unavailable` on a timeout or a network failure.
   */
  async request(url: URL, init: RequestInit, ctx: FetchContext): Promise<Response> {
    ctx.signal.throwIfAborted();
    const timeout = AbortSignal.timeout(this.#options.timeoutMs);
    try {
      // Redirects are refused: a followed redirect would carry credentials to wherever it points.
      return await this.#fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.any([ctx.signal, timeout]) });
    } catch (error) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      const label = this.#options.label;
      if (timeout.aborted) {
        throw new SourceError('unavailable', `${label} request to ${url.origin} timed out after ${this.#options.timeoutMs} ms`, {
          cause: error,
        });
      }
      throw new SourceError('unavailable', `${label} request to ${url.origin} failed: ${messageOf(error)}`, { cause: error });
    }
  }

  /** The body as JSON: `unavailable` when it cannot be read (same rules as the request), `bad_response` when it is not JSON. */
  async readJson(response: Response, ctx: FetchContext): Promise<unknown> {
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      // Reading the body is part of the request: same abort, timeout and network rules.
      ctx.signal.throwIfAborted();
      throw new SourceError('unavailable', `${this.#options.label} response body could not be read: ${messageOf(error)}`, { cause: error });
    }
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new SourceError('bad_response', `${this.#options.label} response is not JSON (${response.status}, ${text.length} bytes)`, {
        status: response.status,
        cause: error,
      });
    }
  }

  /** GET a JSON document: any status but 2xx is a SourceError (see `statusFailure`). */
  async getJson(url: URL, ctx: FetchContext, headers: Record<string, string> = {}): Promise<{ response: Response; json: unknown }> {
    const response = await this.request(url, { method: 'GET', headers: { Accept: 'application/json', ...headers } }, ctx);
    if (!response.ok) throw await failure(response, `${this.#options.label} ${url.pathname}`, ctx);
    return { response, json: await this.readJson(response, ctx) };
  }
}

/** A non-2xx response as a SourceError; its body is discarded. */
export async function failure(response: Response, what: string, ctx: FetchContext): Promise<SourceError> {
  await response.body?.cancel().catch(() => undefined);
  return statusFailure(response.status, response.headers, what, ctx.now());
}

/**
 * The one mapping of HTTP statuses: 401/403 `auth`; 404/410 `not_found`; 408 and 5xx `unavailable`; 429
 * `rate_limited` (both with `retryAfterSeconds` from Retry-After when given); 3xx (never followed) and every
 * other 4xx `bad_response`: the source refuses the request as built, and the same request cannot succeed later.
 */
export function statusFailure(status: number, headers: Headers, what: string, now: Date): SourceError {
  if (status === 401 || status === 403) return new SourceError('auth', `${what}: ${status}`, { status });
  if (status === 404 || status === 410) return new SourceError('not_found', `${what}: ${status}`, { status });
  if (status === 429 || status === 408 || status >= 500) {
    const retryAfterSeconds = parseRetryAfter(headers.get('Retry-After'), now);
    const kind = status === 429 ? 'rate_limited' : 'unavailable';
    return new SourceError(kind, `${what}: ${status}`, retryAfterSeconds === undefined ? { status } : { status, retryAfterSeconds });
  }
  if (status >= 300 && status < 400) {
    return new SourceError(
      'bad_response',
      `${what}: redirected (${status}) to ${headers.get('Location') ?? '?'}; configure the final URL`,
      {
        status,
      },
    );
  }
  return new SourceError('bad_response', `${what}: ${status}`, { status });
}

/** An error body as JSON when it is JSON, else null: read only to explain a failure, never to fail again. */
export async function readErrorBody(response: Response): Promise<unknown> {
  try {
    const text = (await response.text()).slice(0, MAX_ERROR_BODY_CHARS);
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3); a date is counted from `now`. */
export function parseRetryAfter(value: string | null, now: Date): number | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

export function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

/** JSON with object keys sorted at every depth: equal data, equal text, whatever order keys arrived in. */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
}

/** sha256 hex of a payload's canonical JSON: an observation's `payloadSha256`, the same whatever the key order. */
export function payloadSha256(payload: unknown): string {
  return createHash('sha256').update(stableJson(payload), 'utf8').digest('hex');
}
