// DCSA Track & Trace over HTTP, and nothing else: query, authentication, paging, timeouts, and every failure
// mapped to a SourceError. Returns the events exactly as received; meaning is parse.ts's business.
import { z } from 'zod';
import { type FetchContext, type NumberType, SourceError, type TrackTarget } from '../../contract.js';
import { Page22, Page30, validate } from './raw.js';

export type DcsaVersion = '2.2' | '3.0';

export type DcsaAuth =
  | { type: 'none' }
  | { type: 'header'; name: string; value: string }
  | { type: 'oauth2'; tokenUrl: string; clientId: string; clientSecret: string; scope?: string | undefined };

export interface DcsaClientOptions {
  baseUrl: string;
  version: DcsaVersion;
  auth: DcsaAuth;
  /** Per HTTP request (each page and each token request), not for the whole fetch. */
  timeoutMs: number;
  pageSize: number;
  /** A carrier that keeps answering with a next page past this is broken, not busy. */
  maxPages?: number;
  fetch?: typeof globalThis.fetch;
}

export interface FetchedEvents {
  /** Every page's events, in page order, exactly as parsed from JSON. */
  events: unknown[];
  pages: number;
}

export const DEFAULT_MAX_PAGES = 50;

/** Both versions name the filters the same way; only the path and the paging header differ. */
const QUERY_PARAMETER: Record<NumberType, string> = {
  bill_of_lading: 'transportDocumentReference',
  booking_number: 'carrierBookingReference',
  container: 'equipmentReference',
};

const VERSIONS = {
  // 2.2: "if added it MUST only contain MAJOR version"; 3.0: "set to the full version".
  '2.2': { path: 'v2/events', apiVersion: '2', pageSchema: Page22 },
  '3.0': { path: 'events', apiVersion: '3.0.0', pageSchema: Page30 },
} as const;

const TokenResponse = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().nullish(),
  expires_in: z.coerce.number().positive().nullish(),
});

interface CachedToken {
  value: string;
  /** Null when the server gave no lifetime: then it is used until the API answers 401. */
  refreshAtMs: number | null;
}

export class DcsaClient {
  readonly #options: DcsaClientOptions;
  readonly #fetch: typeof globalThis.fetch;
  #token: CachedToken | null = null;
  #pendingToken: Promise<CachedToken> | null = null;

  constructor(options: DcsaClientOptions) {
    this.#options = options;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  async fetchEvents(target: Pick<TrackTarget, 'numberType' | 'number'>, ctx: FetchContext): Promise<FetchedEvents> {
    ctx.signal.throwIfAborted();
    const version = VERSIONS[this.#options.version];
    const base = new URL(this.#options.baseUrl);
    const first = new URL(version.path, `${base.origin}${base.pathname.replace(/\/+$/, '')}/`);
    // Some gateways take their key as a query parameter of the base URL: it goes on every request.
    for (const [name, value] of base.searchParams) first.searchParams.append(name, value);
    first.searchParams.set(QUERY_PARAMETER[target.numberType], target.number);
    first.searchParams.set('limit', String(this.#options.pageSize));

    const maxPages = this.#options.maxPages ?? DEFAULT_MAX_PAGES;
    const seen = new Set<string>();
    const events: unknown[] = [];
    let url: URL | null = first;
    let pages = 0;
    while (url) {
      if (pages >= maxPages) throw new SourceError('bad_response', `DCSA paging did not end after ${maxPages} pages`);
      if (seen.has(url.href)) throw new SourceError('bad_response', 'DCSA paging loops: a next page pointed back to a page already read');
      seen.add(url.href);
      const response = await this.#getPage(url, version.apiVersion, ctx);
      const json = await readJson(response, ctx);
      const page = validate(version.pageSchema, json);
      if (!page.ok) throw new SourceError('bad_response', `DCSA ${this.#options.version} page ${pages + 1}: ${page.message}`);
      events.push(...(this.#options.version === '2.2' ? (json as unknown[]) : (json as { events: unknown[] }).events));
      pages++;
      url = this.#nextPage(response, url, first);
    }
    // DCSA answers an unknown number with 200 and no events ("not a 404"); to us that is not found.
    if (events.length === 0) throw new SourceError('not_found', `DCSA: no events for ${target.numberType} ${target.number}`);
    return { events, pages };
  }

  #nextPage(response: Response, current: URL, first: URL): URL | null {
    if (this.#options.version === '3.0') {
      const cursor = response.headers.get('Next-Page-Cursor')?.trim();
      if (!cursor) return null;
      // 3.0: keep every original query parameter and add the cursor.
      const next = new URL(first);
      next.searchParams.set('cursor', cursor);
      return next;
    }
    const link = response.headers.get('Next-Page')?.trim();
    if (!link) return null;
    let next: URL;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(link) || link.startsWith('?') || (link.startsWith('/') && link.includes('?'))) {
      next = new URL(link, current);
    } else {
      // 2.2 calls it "a link", yet its own example is a bare cursor (`fE9mZnNldHw9NSZsaW1pdD01`). A base64
      // cursor may contain `/`, so only a scheme or a query string marks a link.
      next = new URL(first);
      next.searchParams.set('cursor', link);
    }
    // Credentials go with every page: never to a host the operator did not configure.
    if (next.origin !== first.origin) {
      throw new SourceError('bad_response', `DCSA Next-Page points to another origin (${next.origin}); refusing to send credentials there`);
    }
    return next;
  }

  async #getPage(url: URL, apiVersion: string, ctx: FetchContext): Promise<Response> {
    const auth = this.#options.auth;
    const cachedBefore = this.#token;
    let token = auth.type === 'oauth2' ? await this.#accessToken(ctx) : null;
    let reused = token !== null && token === cachedBefore;
    for (;;) {
      const headers: Record<string, string> = { Accept: 'application/json', 'API-Version': apiVersion };
      if (auth.type === 'header') headers[auth.name] = auth.value;
      if (token) headers.Authorization = `Bearer ${token.value}`;
      const response = await this.#request(url, { method: 'GET', headers }, ctx);
      if (response.ok) return response;
      // A cached token can be revoked or expire early; one fresh token settles whether it is us or them.
      if (response.status === 401 && reused) {
        await response.body?.cancel();
        if (this.#token === token) this.#token = null;
        token = await this.#accessToken(ctx);
        reused = false;
        continue;
      }
      throw await failure(response, 'DCSA events', ctx);
    }
  }

  async #accessToken(ctx: FetchContext): Promise<CachedToken> {
    const cached = this.#token;
    if (cached && (cached.refreshAtMs === null || ctx.now().getTime() < cached.refreshAtMs)) return cached;
    // Concurrent fetches share one token request instead of each asking for its own.
    this.#pendingToken ??= this.#requestToken(ctx).finally(() => {
      this.#pendingToken = null;
    });
    return this.#pendingToken;
  }

  async #requestToken(ctx: FetchContext): Promise<CachedToken> {
    const auth = this.#options.auth;
    if (auth.type !== 'oauth2') throw new Error('unreachable: token requested without OAuth2 settings');
    const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: auth.clientId, client_secret: auth.clientSecret });
    if (auth.scope) body.set('scope', auth.scope);
    const response = await this.#request(
      new URL(auth.tokenUrl),
      { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' }, body },
      ctx,
    );
    if (!response.ok) {
      // 400 is how RFC 6749 says invalid_client / invalid_scope: the credentials, not the carrier, are wrong.
      if (response.status === 400) {
        await response.body?.cancel();
        throw new SourceError('auth', 'OAuth2 token request rejected (400)', { status: 400 });
      }
      throw await failure(response, 'OAuth2 token request', ctx);
    }
    const parsed = validate(TokenResponse, await readJson(response, ctx));
    if (!parsed.ok) throw new SourceError('bad_response', `OAuth2 token response: ${parsed.message}`);
    const { access_token, token_type, expires_in } = parsed.value;
    if (token_type && token_type.toLowerCase() !== 'bearer') {
      throw new SourceError('bad_response', `OAuth2 token type ${token_type} is not supported (only Bearer)`);
    }
    const issuedAt = ctx.now().getTime();
    // Renew a minute early (a tenth of the lifetime for short-lived tokens) so no request carries a token
    // that expires in flight.
    const refreshAtMs = expires_in ? issuedAt + (expires_in - Math.min(60, expires_in / 10)) * 1000 : null;
    this.#token = { value: access_token, refreshAtMs };
    return this.#token;
  }

  async #request(url: URL, init: RequestInit, ctx: FetchContext): Promise<Response> {
    ctx.signal.throwIfAborted();
    const timeout = AbortSignal.timeout(this.#options.timeoutMs);
    try {
      // Redirects are refused: a followed redirect would carry API keys to wherever it points.
      return await this.#fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.any([ctx.signal, timeout]) });
    } catch (error) {
      throw networkFailure(error, url, ctx, timeout, this.#options.timeoutMs);
    }
  }
}

async function readJson(response: Response, ctx: FetchContext): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    // Reading the body is part of the request: same abort, timeout and network rules.
    ctx.signal.throwIfAborted();
    throw new SourceError('unavailable', `DCSA response body could not be read: ${messageOf(error)}`, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new SourceError('bad_response', `DCSA response is not JSON (${response.status}, ${text.length} bytes)`, {
      status: response.status,
      cause: error,
    });
  }
}

function networkFailure(error: unknown, url: URL, ctx: FetchContext, timeout: AbortSignal, timeoutMs: number): unknown {
  // The caller cancelled (shutdown, job lease lost): that is not the carrier's failure, so it is not a SourceError.
  if (ctx.signal.aborted) return ctx.signal.reason;
  if (timeout.aborted)
    return new SourceError('unavailable', `DCSA request to ${url.origin} timed out after ${timeoutMs} ms`, { cause: error });
  return new SourceError('unavailable', `DCSA request to ${url.origin} failed: ${messageOf(error)}`, { cause: error });
}

async function failure(response: Response, what: string, ctx: FetchContext): Promise<SourceError> {
  const status = response.status;
  await response.body?.cancel();
  if (status === 401 || status === 403) return new SourceError('auth', `${what}: ${status}`, { status });
  if (status === 404 || status === 410) return new SourceError('not_found', `${what}: ${status}`, { status });
  if (status === 429 || status >= 500 || status === 408) {
    const retryAfterSeconds = parseRetryAfter(response.headers.get('Retry-After'), ctx.now());
    const kind = status === 429 ? 'rate_limited' : 'unavailable';
    return new SourceError(kind, `${what}: ${status}`, retryAfterSeconds === undefined ? { status } : { status, retryAfterSeconds });
  }
  if (status >= 300 && status < 400) {
    return new SourceError(
      'bad_response',
      `${what}: redirected (${status}) to ${response.headers.get('Location') ?? '?'}; configure the final URL`,
      {
        status,
      },
    );
  }
  // Any other 4xx: the carrier refuses the request as built (unsupported filter, wrong version); retrying
  // the same request cannot help.
  return new SourceError('bad_response', `${what}: ${status}`, { status });
}

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, now: Date): number | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
