// DCSA Track & Trace (and Arrival Notice) over HTTP, and nothing else: query, authentication, paging, timeouts,
// and every failure mapped to a SourceError. Returns what it read exactly as received; meaning is parse.ts's business.
import { z } from 'zod';
import { type FetchContext, type NumberType, SourceError } from '../../contract.js';
import { failure, HttpClient, readErrorBody, statusFailure } from '../../http.js';
import { ArrivalNoticesPage, Page22, Page30, validate } from './raw.js';

export { parseRetryAfter } from '../../http.js';

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
  /** Root of the carrier's DCSA Arrival Notice 1.0.1 API (`{arrivalNoticeUrl}/arrival-notices`); unset = not read. */
  arrivalNoticeUrl?: string | undefined;
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
/** Arrival Notice: "set to the full version of the implemented DCSA standard". */
export const AN_API_VERSION = '1.0.1';

/** Both versions name the filters the same way; only the path and the paging header differ. */
export const QUERY_PARAMETER: Record<NumberType, string> = {
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
  readonly #http: HttpClient;
  #token: CachedToken | null = null;
  #pendingToken: Promise<CachedToken> | null = null;

  constructor(options: DcsaClientOptions) {
    this.#options = options;
    this.#http = new HttpClient({ label: 'DCSA', timeoutMs: options.timeoutMs, fetch: options.fetch });
  }

  async fetchEvents(target: { numberType: NumberType; number: string }, ctx: FetchContext): Promise<FetchedEvents> {
    ctx.signal.throwIfAborted();
    const version = VERSIONS[this.#options.version];
    const base = new URL(this.#options.baseUrl);
    const first = new URL(version.path, `${base.origin}${base.pathname.replace(/\/+$/, '')}/`);
    // Some gateways take their key as a query parameter of the base URL: it goes on every request.
    for (const [name, value] of base.searchParams) first.searchParams.append(name, value);
    const parameter = QUERY_PARAMETER[target.numberType];
    first.searchParams.set(parameter, target.number);
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
      const response = await this.#getPage(url, version.apiVersion, parameter, ctx);
      const json = await this.#http.readJson(response, ctx);
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

  async #getPage(url: URL, apiVersion: string, parameter: string, ctx: FetchContext): Promise<Response> {
    const response = await this.#authorizedGet(url, apiVersion, ctx);
    if (response.ok) return response;
    if (response.status === 400) {
      // A carrier that rejects the number names the parameter that carried it; any other 400 is our request.
      const blame = blamesParameter(await readErrorBody(response), parameter);
      if (blame) throw new SourceError('invalid_number', `DCSA events: ${parameter} rejected: ${blame}`, { status: 400 });
      throw statusFailure(400, response.headers, 'DCSA events', ctx.now());
    }
    throw await failure(response, 'DCSA events', ctx);
  }

  /** A GET with the configured credentials; one fresh token and one retry when a cached one is refused. */
  async #authorizedGet(url: URL, apiVersion: string, ctx: FetchContext): Promise<Response> {
    const auth = this.#options.auth;
    const cachedBefore = this.#token;
    let token = auth.type === 'oauth2' ? await this.#accessToken(ctx) : null;
    let reused = token !== null && token === cachedBefore;
    for (;;) {
      const headers: Record<string, string> = { Accept: 'application/json', 'API-Version': apiVersion };
      if (auth.type === 'header') headers[auth.name] = auth.value;
      if (token) headers.Authorization = `Bearer ${token.value}`;
      const response = await this.#http.request(url, { method: 'GET', headers }, ctx);
      // A cached token can be revoked or expire early; one fresh token settles whether it is us or them.
      if (response.status === 401 && reused) {
        await response.body?.cancel();
        if (this.#token === token) this.#token = null;
        token = await this.#accessToken(ctx);
        reused = false;
        continue;
      }
      return response;
    }
  }

  /**
   * DCSA Arrival Notice 1.0.1: every notice of one bill of lading (`GET {arrivalNoticeUrl}/arrival-notices?
   * transportDocumentReferences=…`), all pages (`Next-Page-Cursor` → `cursor` with the original query). A 404 or
   * 410 (no notice endpoint, or none for this document yet) and an empty list are "no notice yet": `[]`.
   */
  async fetchArrivalNotices(transportDocumentReference: string, ctx: FetchContext): Promise<unknown[]> {
    ctx.signal.throwIfAborted();
    const root = this.#options.arrivalNoticeUrl;
    if (!root) throw new Error('fetchArrivalNotices: no arrivalNoticeUrl configured');
    const base = new URL(root);
    const first = new URL('arrival-notices', `${base.origin}${base.pathname.replace(/\/+$/, '')}/`);
    for (const [name, value] of base.searchParams) first.searchParams.append(name, value);
    first.searchParams.set('transportDocumentReferences', transportDocumentReference);

    const maxPages = this.#options.maxPages ?? DEFAULT_MAX_PAGES;
    const seen = new Set<string>();
    const notices: unknown[] = [];
    let url: URL | null = first;
    while (url) {
      if (seen.size >= maxPages) throw new SourceError('bad_response', `DCSA arrival notices: paging did not end after ${maxPages} pages`);
      if (seen.has(url.href)) throw new SourceError('bad_response', 'DCSA arrival notices: paging loops back to a page already read');
      seen.add(url.href);
      const response = await this.#authorizedGet(url, AN_API_VERSION, ctx);
      if (response.status === 404 || response.status === 410) {
        await response.body?.cancel();
        return [];
      }
      if (!response.ok) throw await failure(response, 'DCSA arrival notices', ctx);
      const json = await this.#http.readJson(response, ctx);
      const page = validate(ArrivalNoticesPage, json);
      if (!page.ok) throw new SourceError('bad_response', `DCSA arrival notices page ${seen.size}: ${page.message}`);
      notices.push(...((json as { arrivalNotices?: unknown[] | null }).arrivalNotices ?? []));
      const cursor = response.headers.get('Next-Page-Cursor')?.trim();
      url = cursor ? withCursor(first, cursor) : null;
    }
    return notices;
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
    const response = await this.#http.request(
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
    const parsed = validate(TokenResponse, await this.#http.readJson(response, ctx));
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
}

function withCursor(first: URL, cursor: string): URL {
  const next = new URL(first);
  next.searchParams.set('cursor', cursor);
  return next;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Whether a DCSA error body (`errors[]` of `{ reason, message, property? }`) blames the reference we sent: its
 * `property` names the query parameter (3.0 style, also `query.<name>`), or its message does (2.2 style).
 */
export function blamesParameter(body: unknown, parameter: string): string | null {
  if (!isRecord(body) || !Array.isArray(body.errors)) return null;
  const name = parameter.toLowerCase();
  for (const e of body.errors) {
    if (!isRecord(e)) continue;
    const property = typeof e.property === 'string' ? e.property.toLowerCase() : '';
    const message = typeof e.message === 'string' ? e.message : '';
    if (property === name || property.endsWith(`.${name}`) || message.toLowerCase().includes(name)) {
      return message || (typeof e.reason === 'string' ? e.reason : parameter);
    }
  }
  return null;
}
