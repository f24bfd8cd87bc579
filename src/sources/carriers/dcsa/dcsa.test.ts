import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../domain/clock.js';
import { type FetchContext, type NumberType, SourceError, type TrackTarget } from '../../contract.js';
import { type DcsaAuth, DcsaClient, type DcsaClientOptions, parseRetryAfter } from './client.js';
import { type DcsaConfig, dcsaCarrierSource, dcsaConfigSchema, parseAuthSetting, payloadSha256 } from './index.js';
import { parseDcsaEvents, stableJson } from './parse.js';

// ---------------------------------------------------------------------------------------------------------
// A carrier on 127.0.0.1 that records every request it sees.

interface Seen {
  method: string;
  url: URL;
  headers: http.IncomingHttpHeaders;
  body: string;
}
type Reply = { status?: number; headers?: Record<string, string>; body?: unknown; raw?: string; hang?: boolean };

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
});

async function carrier(handle: (req: Seen, n: number) => Reply) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const s: Seen = { method: req.method ?? '', url: new URL(req.url ?? '/', 'http://carrier'), headers: req.headers, body };
      seen.push(s);
      const reply = handle(s, seen.length);
      if (reply.hang) return;
      res.writeHead(reply.status ?? 200, { 'Content-Type': 'application/json', ...reply.headers });
      res.end(reply.raw ?? JSON.stringify(reply.body ?? []));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, seen, get: () => seen.filter((s) => s.method === 'GET') };
}

const clock = new FixedClock('2026-03-01T12:00:00Z');
const ctx = (signal: AbortSignal = new AbortController().signal): FetchContext => ({ signal, now: () => clock.now() });

function client(base: string, options: Partial<DcsaClientOptions> = {}) {
  return new DcsaClient({ baseUrl: base, version: '2.2', auth: { type: 'none' }, timeoutMs: 5_000, pageSize: 2, ...options });
}

const BL: { numberType: NumberType; number: string } = { numberType: 'bill_of_lading', number: 'TEST0412345' };

const ev22 = (n: number) => ({
  eventID: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  eventCreatedDateTime: '2026-01-01T00:00:00Z',
  eventType: 'SHIPMENT',
  eventClassifierCode: 'ACT',
  eventDateTime: '2026-01-01T00:00:00Z',
  shipmentEventTypeCode: 'DRFT',
  documentTypeCode: 'BKG',
  documentID: 'BKG1',
});
const ev30 = (n: number) => ({
  eventID: `evt-${n}`,
  eventDateTime: '2026-01-01T00:00:00Z',
  eventClassification: { eventTypeCode: 'SHIPMENT', eventClassifierCode: 'ACT', shipmentEventTypeCode: 'CONF' },
});

async function failure(promise: Promise<unknown>): Promise<SourceError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SourceError) return error;
    throw error;
  }
  throw new Error('expected a SourceError');
}

// ---------------------------------------------------------------------------------------------------------

describe('DCSA client: TNT 2.2', () => {
  it('follows Next-Page (absolute URL, relative URL, bare cursor) until it is absent', async () => {
    const c = await carrier((req, n) => {
      if (n === 1) return { body: [ev22(1), ev22(2)], headers: { 'Next-Page': `http://${req.headers.host}/v2/events?cursor=p2` } };
      if (n === 2) return { body: [ev22(3), ev22(4)], headers: { 'Next-Page': '/v2/events?cursor=p3' } };
      if (n === 3) return { body: [ev22(5), ev22(6)], headers: { 'Next-Page': 'fE9mZnNldHw9NSZsaW1pdD01' } };
      return { body: [ev22(7)] };
    });
    const result = await client(c.base).fetchEvents(BL, ctx());
    expect(result.pages).toBe(4);
    expect(result.events).toEqual([1, 2, 3, 4, 5, 6, 7].map(ev22));
    expect(c.seen.map((s) => s.url.pathname + s.url.search)).toEqual([
      '/v2/events?transportDocumentReference=TEST0412345&limit=2',
      '/v2/events?cursor=p2',
      '/v2/events?cursor=p3',
      // A bare cursor keeps the original query, as 3.0 requires and 2.2's own example implies.
      '/v2/events?transportDocumentReference=TEST0412345&limit=2&cursor=fE9mZnNldHw9NSZsaW1pdD01',
    ]);
    for (const s of c.seen) {
      expect(s.method).toBe('GET');
      expect(s.headers['api-version']).toBe('2');
      expect(s.headers.accept).toBe('application/json');
    }
  });

  it.each([
    ['bill_of_lading', 'transportDocumentReference'],
    ['booking_number', 'carrierBookingReference'],
    ['container', 'equipmentReference'],
  ] as const)('asks for a %s with %s', async (numberType, parameter) => {
    const c = await carrier(() => ({ body: [ev22(1)] }));
    await client(c.base).fetchEvents({ numberType, number: 'N123' }, ctx());
    expect([...c.seen[0]!.url.searchParams.keys()]).toEqual([parameter, 'limit']);
    expect(c.seen[0]!.url.searchParams.get(parameter)).toBe('N123');
  });

  it('hangs the DCSA path under a base URL with a path and a trailing slash, keeping its query', async () => {
    const c = await carrier(() => ({ body: [ev22(1)] }));
    await client(`${c.base}/carrier/track/`).fetchEvents(BL, ctx());
    expect(c.seen[0]!.url.pathname).toBe('/carrier/track/v2/events');
    await client(`${c.base}/carrier/track?subscription-key=k1`).fetchEvents(BL, ctx());
    expect(c.seen[1]!.url.pathname + c.seen[1]!.url.search).toBe(
      '/carrier/track/v2/events?subscription-key=k1&transportDocumentReference=TEST0412345&limit=2',
    );
  });

  it('refuses a Next-Page on another origin without calling it', async () => {
    const other = await carrier(() => ({ body: [ev22(9)] }));
    const c = await carrier(() => ({ body: [ev22(1)], headers: { 'Next-Page': `${other.base}/v2/events?cursor=x` } }));
    expect((await failure(client(c.base).fetchEvents(BL, ctx()))).kind).toBe('bad_response');
    expect(other.seen).toHaveLength(0);
  });

  it('stops a Next-Page loop and caps the number of pages', async () => {
    const loop = await carrier(() => ({ body: [ev22(1)], headers: { 'Next-Page': '/v2/events?cursor=same' } }));
    const looped = await failure(client(loop.base).fetchEvents(BL, ctx()));
    expect(looped).toMatchObject({ kind: 'bad_response', message: expect.stringMatching(/loops/) });
    expect(loop.seen).toHaveLength(2);

    const endless = await carrier((_req, n) => ({ body: [ev22(n)], headers: { 'Next-Page': `/v2/events?cursor=${n}` } }));
    const capped = await failure(client(endless.base, { maxPages: 3 }).fetchEvents(BL, ctx()));
    expect(capped).toMatchObject({ kind: 'bad_response', message: expect.stringMatching(/3 pages/) });
    expect(endless.seen).toHaveLength(3);
  });
});

describe('DCSA client: TNT 3.0', () => {
  it('follows Next-Page-Cursor with the original query, full API-Version, path /events', async () => {
    const c = await carrier((req) => {
      const cursor = req.url.searchParams.get('cursor');
      if (!cursor) return { body: { events: [ev30(1), ev30(2)] }, headers: { 'Next-Page-Cursor': 'c-2' } };
      if (cursor === 'c-2') return { body: { events: [ev30(3)] }, headers: { 'Next-Page-Cursor': 'c-3' } };
      // A stateless producer may end with an empty last page.
      return { body: { events: [] } };
    });
    const result = await client(c.base, { version: '3.0' }).fetchEvents({ numberType: 'booking_number', number: 'BKG1' }, ctx());
    expect(result.events).toEqual([ev30(1), ev30(2), ev30(3)]);
    expect(c.seen.map((s) => s.url.pathname + s.url.search)).toEqual([
      '/events?carrierBookingReference=BKG1&limit=2',
      '/events?carrierBookingReference=BKG1&limit=2&cursor=c-2',
      '/events?carrierBookingReference=BKG1&limit=2&cursor=c-3',
    ]);
    expect(c.seen.every((s) => s.headers['api-version'] === '3.0.0')).toBe(true);
  });

  it('treats an empty result as not_found', async () => {
    const c = await carrier(() => ({ body: { events: [] } }));
    expect((await failure(client(c.base, { version: '3.0' }).fetchEvents(BL, ctx()))).kind).toBe('not_found');
  });
});

describe('DCSA client: authentication', () => {
  it('sends the configured API-key header', async () => {
    const c = await carrier(() => ({ body: [ev22(1)] }));
    await client(c.base, { auth: { type: 'header', name: 'Consumer-Key', value: 'k-123' } }).fetchEvents(BL, ctx());
    expect(c.seen[0]!.headers['consumer-key']).toBe('k-123');
    expect(c.seen[0]!.headers.authorization).toBeUndefined();
  });

  it('gets an OAuth2 token by client credentials, reuses it, and renews it shortly before expiry', async () => {
    let issued = 0;
    const c = await carrier((req) => {
      if (req.url.pathname === '/oauth/token') {
        issued++;
        return { body: { access_token: `tok-${issued}`, token_type: 'Bearer', expires_in: 3600 } };
      }
      return { body: [ev22(1)] };
    });
    const auth: DcsaAuth = {
      type: 'oauth2',
      tokenUrl: `${c.base}/oauth/token`,
      clientId: 'tidemark',
      clientSecret: 's3cr&t',
      scope: 'tnt:read',
    };
    const dcsa = client(c.base, { auth });
    const local = new FixedClock('2026-03-01T12:00:00Z');
    const localCtx: FetchContext = { signal: new AbortController().signal, now: () => local.now() };

    await dcsa.fetchEvents(BL, localCtx);
    local.advance(3_000_000); // 50 min: still valid
    await dcsa.fetchEvents(BL, localCtx);
    local.advance(540_001); // 59 min: inside the last minute, renewed
    await dcsa.fetchEvents(BL, localCtx);

    const tokenRequests = c.seen.filter((s) => s.url.pathname === '/oauth/token');
    expect(tokenRequests).toHaveLength(2);
    expect(tokenRequests[0]!.method).toBe('POST');
    expect(tokenRequests[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(tokenRequests[0]!.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'tidemark',
      client_secret: 's3cr&t',
      scope: 'tnt:read',
    });
    expect(c.get().map((s) => s.headers.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-2']);
  });

  it('renews a cached token once when the API answers 401; a 401 on a fresh token is final', async () => {
    let issued = 0;
    let rejectAll = false;
    const c = await carrier((req) => {
      if (req.url.pathname === '/token') return { body: { access_token: `tok-${++issued}`, expires_in: 3600 } };
      if (rejectAll || req.headers.authorization === 'Bearer tok-1') return { status: 401, body: {} };
      return { body: [ev22(1)] };
    });
    const dcsa = client(c.base, { auth: { type: 'oauth2', tokenUrl: `${c.base}/token`, clientId: 'a', clientSecret: 'b' } });
    const count = () => [c.seen.filter((s) => s.url.pathname === '/token').length, c.get().length];

    // tok-1 was just issued: its 401 is the answer.
    expect((await failure(dcsa.fetchEvents(BL, ctx()))).kind).toBe('auth');
    expect(count()).toEqual([1, 1]);
    // The cached tok-1 meets a 401 again: one renewal (tok-2), one retry, success.
    await expect(dcsa.fetchEvents(BL, ctx())).resolves.toMatchObject({ pages: 1 });
    expect(count()).toEqual([2, 3]);
    // Renewal does not loop: cached tok-2 fails, tok-3 fails, auth.
    rejectAll = true;
    expect(await failure(dcsa.fetchEvents(BL, ctx()))).toMatchObject({ kind: 'auth', details: { status: 401 } });
    expect(count()).toEqual([3, 5]);
  });

  it.each([
    [400, 'auth'],
    [401, 'auth'],
    [503, 'unavailable'],
  ] as const)('maps a token endpoint %i to %s', async (status, kind) => {
    const c = await carrier((req) => (req.url.pathname === '/token' ? { status, body: { error: 'invalid_client' } } : { body: [ev22(1)] }));
    const dcsa = client(c.base, { auth: { type: 'oauth2', tokenUrl: `${c.base}/token`, clientId: 'a', clientSecret: 'b' } });
    expect((await failure(dcsa.fetchEvents(BL, ctx()))).kind).toBe(kind);
    expect(c.get()).toHaveLength(0);
  });
});

describe('DCSA client: failures', () => {
  it.each([
    [401, 'auth', false],
    [403, 'auth', false],
    [404, 'not_found', false],
    [500, 'unavailable', true],
    [502, 'unavailable', true],
    [400, 'bad_response', false],
  ] as const)('maps HTTP %i to %s (retryable: %s)', async (status, kind, retryable) => {
    const c = await carrier(() => ({ status, body: { errors: [] } }));
    const error = await failure(client(c.base).fetchEvents(BL, ctx()));
    expect(error).toMatchObject({ kind, retryable, details: { status } });
  });

  it('maps 429 with Retry-After in seconds to rate_limited', async () => {
    const c = await carrier(() => ({ status: 429, headers: { 'Retry-After': '120' }, body: {} }));
    const error = await failure(client(c.base).fetchEvents(BL, ctx()));
    expect(error).toMatchObject({ kind: 'rate_limited', retryable: true, details: { status: 429, retryAfterSeconds: 120 } });
  });

  it('maps 429 with Retry-After as an HTTP date, counted from the injected clock', async () => {
    const c = await carrier(() => ({ status: 429, headers: { 'Retry-After': 'Sun, 01 Mar 2026 12:05:00 GMT' }, body: {} }));
    const error = await failure(client(c.base).fetchEvents(BL, ctx()));
    expect(error.details.retryAfterSeconds).toBe(300);
  });

  it('maps an empty event list to not_found', async () => {
    const c = await carrier(() => ({ body: [] }));
    expect((await failure(client(c.base).fetchEvents(BL, ctx()))).kind).toBe('not_found');
  });

  it('maps a garbage body to bad_response', async () => {
    const c = await carrier(() => ({ raw: '<html>maintenance</html>' }));
    expect((await failure(client(c.base).fetchEvents(BL, ctx()))).kind).toBe('bad_response');
  });

  it('maps a body that is JSON but not DCSA to bad_response, naming the field', async () => {
    const c = await carrier(() => ({ body: [{ ...ev22(1), eventID: 'not-a-uuid' }] }));
    const error = await failure(client(c.base).fetchEvents(BL, ctx()));
    expect(error).toMatchObject({ kind: 'bad_response', message: expect.stringContaining('[0].eventID') });
  });

  it('refuses to follow a redirect', async () => {
    const c = await carrier(() => ({ status: 302, headers: { Location: '/elsewhere' } }));
    expect((await failure(client(c.base).fetchEvents(BL, ctx()))).kind).toBe('bad_response');
    expect(c.seen).toHaveLength(1);
  });

  it('maps a timeout to unavailable', async () => {
    const c = await carrier(() => ({ hang: true }));
    const error = await failure(client(c.base, { timeoutMs: 150 }).fetchEvents(BL, ctx()));
    expect(error).toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/timed out after 150 ms/) });
  });

  it('maps a refused connection to unavailable', async () => {
    const c = await carrier(() => ({ body: [] }));
    const server = servers.pop()!;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect((await failure(client(c.base).fetchEvents(BL, ctx()))).kind).toBe('unavailable');
  });

  it('makes no request at all when the signal is already aborted', async () => {
    const c = await carrier(() => ({ body: [ev22(1)] }));
    const aborted = AbortSignal.abort(new Error('shutting down'));
    await expect(client(c.base).fetchEvents(BL, ctx(aborted))).rejects.toThrow('shutting down');
    const oauth = client(c.base, { auth: { type: 'oauth2', tokenUrl: `${c.base}/token`, clientId: 'a', clientSecret: 'b' } });
    await expect(oauth.fetchEvents(BL, ctx(aborted))).rejects.toThrow('shutting down');
    expect(c.seen).toHaveLength(0);
  });

  it('passes the caller abort through as itself, not as a source failure', async () => {
    const c = await carrier(() => ({ hang: true }));
    const controller = new AbortController();
    const pending = client(c.base).fetchEvents(BL, ctx(controller.signal));
    while (c.seen.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort(new Error('lease lost'));
    const error = await pending.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(SourceError);
    expect(error).toMatchObject({ message: 'lease lost' });
  });

  it('parses Retry-After values', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 30 ', now)).toBe(30);
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:00:10 GMT', now)).toBe(10);
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('dcsaCarrierSource', () => {
  const direct = JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, 'fixtures/events.bill-of-lading.direct.json'), 'utf8'),
  ) as unknown[];

  it('defines dcsa:<SCAC>, a carrier for that SCAC and every number type', () => {
    const source = dcsaCarrierSource({ scac: 'maeu', name: 'Maersk' });
    expect(source).toMatchObject({
      id: 'dcsa:MAEU',
      kind: 'carrier',
      name: 'Maersk',
      tracks: { scacs: ['MAEU'], numberTypes: ['bill_of_lading', 'booking_number', 'container'] },
    });
    expect(() => dcsaCarrierSource({ scac: 'MAEU1', name: 'x' })).toThrow(/not a SCAC/);
  });

  it('validates its configuration with defaults', () => {
    expect(dcsaConfigSchema.parse({ baseUrl: 'https://api.example.com/dcsa' })).toEqual({
      baseUrl: 'https://api.example.com/dcsa',
      version: '2.2',
      auth: { type: 'none' },
      timeoutMs: 30_000,
      pageSize: 100,
    });
    expect(dcsaConfigSchema.safeParse({ baseUrl: 'ftp://api.example.com' }).success).toBe(false);
    expect(dcsaConfigSchema.safeParse({ baseUrl: 'https://x.example', version: '2.1' }).success).toBe(false);
    expect(
      dcsaConfigSchema.safeParse({ baseUrl: 'https://x.example', auth: { type: 'header', name: 'X-Key', value: 'a\r\nb: c' } }).success,
    ).toBe(false);
    expect(
      dcsaConfigSchema.safeParse({ baseUrl: 'https://x.example', auth: { type: 'header', name: 'Bad Name', value: 'v' } }).success,
    ).toBe(false);
    expect(
      dcsaConfigSchema.safeParse({
        baseUrl: 'https://x.example',
        auth: { type: 'oauth2', tokenUrl: 'nope', clientId: 'a', clientSecret: 'b' },
      }).success,
    ).toBe(false);
  });

  it('fetches every page into one observation: payload as received, hashed, facts parsed, fetchedAt from ctx', async () => {
    const c = await carrier((req) =>
      req.url.searchParams.get('cursor') ? { body: direct.slice(5) } : { body: direct.slice(0, 5), headers: { 'Next-Page': 'page-2' } },
    );
    const source = dcsaCarrierSource({ scac: 'TEST', name: 'Test Line' });
    const config: DcsaConfig = dcsaConfigSchema.parse({ baseUrl: c.base, auth: { type: 'header', name: 'X-Api-Key', value: 'k' } });
    const target: TrackTarget = { numberType: 'bill_of_lading', number: ' TEST0412345 ', scac: 'TEST' };
    const observation = await source.create(config).fetch(target, ctx());

    expect(c.seen[0]!.url.searchParams.get('transportDocumentReference')).toBe('TEST0412345');
    expect(observation.sourceId).toBe('dcsa:TEST');
    expect(observation.target).toBe(target);
    expect(observation.fetchedAt).toEqual(clock.now());
    expect(observation.payload).toEqual(direct);
    expect(observation.payloadSha256).toBe(createHash('sha256').update(stableJson(direct)).digest('hex'));
    expect(observation.payloadSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(observation.facts).toEqual(
      parseDcsaEvents(direct, { carrierScac: 'TEST', target: { numberType: 'bill_of_lading', number: 'TEST0412345' } }),
    );
    expect(observation.facts.milestones).toHaveLength(9);
  });

  it('stores a 3.0 fetch as one { events } document and normalizes container numbers in the query', async () => {
    const issued = { ...ev30(1), shipmentDetails: { documentReference: { typeCode: 'TRD', reference: 'TEST0412345' } } };
    const c = await carrier(() => ({ body: { events: [issued], feedbackElements: [] } }));
    const source = dcsaCarrierSource({ scac: 'TEST', name: 'Test Line' });
    const adapter = source.create(dcsaConfigSchema.parse({ baseUrl: c.base, version: '3.0' }));
    const observation = await adapter.fetch({ numberType: 'container', number: 'msku 123456-5' }, ctx());
    expect(c.seen[0]!.url.searchParams.get('equipmentReference')).toBe('MSKU1234565');
    expect(observation.payload).toEqual({ events: [issued] });
  });

  it('hashes the same events the same whatever their key order', () => {
    expect(payloadSha256([{ a: 1, b: { c: 2, d: 3 } }])).toBe(payloadSha256([{ b: { d: 3, c: 2 }, a: 1 }]));
    expect(payloadSha256([{ a: 1 }])).not.toBe(payloadSha256([{ a: 2 }]));
  });
});

describe('parseAuthSetting (TIDEMARK_CARRIER_<SCAC>_AUTH)', () => {
  it.each([
    ['none', { type: 'none' }],
    ['', { type: 'none' }],
    ['header:Consumer-Key:abc:def', { type: 'header', name: 'Consumer-Key', value: 'abc:def' }],
    ['bearer:t0k3n', { type: 'header', name: 'Authorization', value: 'Bearer t0k3n' }],
    [
      'oauth2:https://auth.example.com/oauth/token|tidemark|s3cret',
      { type: 'oauth2', tokenUrl: 'https://auth.example.com/oauth/token', clientId: 'tidemark', clientSecret: 's3cret' },
    ],
    [
      'oauth2:https://auth.example.com/token|id|sec|tnt:read events',
      { type: 'oauth2', tokenUrl: 'https://auth.example.com/token', clientId: 'id', clientSecret: 'sec', scope: 'tnt:read events' },
    ],
    [
      '{"type":"oauth2","tokenUrl":"https://a.example/t","clientId":"id","clientSecret":"a|b"}',
      { type: 'oauth2', tokenUrl: 'https://a.example/t', clientId: 'id', clientSecret: 'a|b' },
    ],
  ])('parses %j', (value, expected) => {
    expect(parseAuthSetting(value)).toEqual(expected);
  });

  it.each([
    ['basic:user:pass', /expected none, header/],
    ['header:NoValue', /header:<Name>:<value>/],
    ['header:Bad Name:v', /name/],
    ['bearer:', /bearer:<token>/],
    ['oauth2:https://a.example/t|id', /oauth2:<tokenUrl>/],
    ['oauth2:not-a-url|id|TOPSECRET', /tokenUrl/],
    ['{"type":"header"', /not valid JSON/],
  ])('rejects %j without repeating the value', (value, message) => {
    let error: unknown;
    try {
      parseAuthSetting(value);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('TOPSECRET');
    expect((error as Error).message).not.toContain('pass');
  });
});

describe('dcsaCarrierSource: typed outcomes', () => {
  const source = dcsaCarrierSource({ scac: 'TEST', name: 'Test Line' });
  const adapter = (base: string, version: '2.2' | '3.0' = '2.2') => source.create(dcsaConfigSchema.parse({ baseUrl: base, version }));
  const booking = (n: number, code: string, documentTypeCode = 'BKG') => ({
    ...ev22(n),
    shipmentEventTypeCode: code,
    documentTypeCode,
    documentID: documentTypeCode === 'TRD' ? 'TEST0412345' : 'BKG1',
  });
  const BOOKING: TrackTarget = { numberType: 'booking_number', number: 'BKG1' };

  it('refuses vessel_imo at once, typed, without a request', async () => {
    const c = await carrier(() => ({ body: [ev22(1)] }));
    const error = await failure(adapter(c.base).fetch({ numberType: 'vessel_imo', number: '9321483' }, ctx()));
    expect(error).toMatchObject({ kind: 'invalid_number', retryable: false });
    expect(c.seen).toHaveLength(0);
  });

  it('answers awaiting_manifest (retryable) when only booking-level shipment events exist', async () => {
    const c = await carrier(() => ({ body: [booking(1, 'RECE'), booking(2, 'CONF')] }));
    expect(await failure(adapter(c.base).fetch(BOOKING, ctx()))).toMatchObject({ kind: 'awaiting_manifest', retryable: true });
  });

  it('is no longer awaiting the manifest once a transport document or a transport event exists', async () => {
    const issued = await carrier(() => ({ body: [booking(1, 'CONF'), booking(2, 'ISSU', 'TRD')] }));
    await expect(adapter(issued.base).fetch(BOOKING, ctx())).resolves.toMatchObject({ facts: { milestones: [] } });
    const direct = JSON.parse(readFileSync(path.resolve(import.meta.dirname, 'fixtures/events.bill-of-lading.direct.json'), 'utf8')) as {
      eventType: string;
    }[];
    const moving = await carrier(() => ({ body: [booking(1, 'CONF'), ...direct.filter((e) => e.eventType === 'TRANSPORT')] }));
    await expect(adapter(moving.base).fetch(BOOKING, ctx())).resolves.toMatchObject({ sourceId: 'dcsa:TEST' });
  });

  it('answers cancelled (not retryable) for a CANC shipment event on the booking, in 2.2 and in 3.0 words', async () => {
    const c22 = await carrier(() => ({ body: [booking(1, 'CONF'), booking(2, 'CANC')] }));
    expect(await failure(adapter(c22.base).fetch(BOOKING, ctx()))).toMatchObject({ kind: 'cancelled', retryable: false });
    const cancelled30 = {
      eventID: 'evt-canc',
      eventDateTime: '2026-01-02T00:00:00Z',
      eventClassification: { eventType: 'SHIPMENT', eventClassifier: 'ACTUAL', shipmentEventType: 'CANCELLED' },
      shipmentDetails: { documentReference: { type: 'BOOKING', reference: 'BKG1' } },
    };
    const c30 = await carrier(() => ({ body: { events: [cancelled30] } }));
    expect(await failure(adapter(c30.base, '3.0').fetch(BOOKING, ctx()))).toMatchObject({ kind: 'cancelled' });
  });

  it.each([
    ['property', { reason: 'invalidQuery', message: 'unknown format', property: 'carrierBookingReference' }],
    [
      'property with a prefix',
      { reason: 'invalidInput', message: 'size must be between 1 and 35', property: 'query.carrierBookingReference' },
    ],
    ['message', { reason: 'invalidQuery', message: 'carrierBookingReference: must match [A-Z0-9]+' }],
  ])('maps a 400 whose DCSA error names the reference (%s) to invalid_number', async (_how, error) => {
    const body = { httpMethod: 'GET', requestUri: '/v2/events', statusCode: 400, errorDateTime: '2026-03-01T12:00:00Z', errors: [error] };
    const c = await carrier(() => ({ status: 400, body }));
    expect(await failure(adapter(c.base).fetch(BOOKING, ctx()))).toMatchObject({
      kind: 'invalid_number',
      retryable: false,
      details: { status: 400 },
    });
  });

  it.each([
    ['names another parameter', { errors: [{ reason: 'invalidQuery', message: 'limit must be at least 1', property: 'limit' }] }],
    ['is not a DCSA error', { message: 'carrierBookingReference is wrong' }],
    ['is not JSON', 'Bad Request'],
  ])('keeps a 400 whose body %s as bad_response', async (_what, body) => {
    const c = await carrier(() => (typeof body === 'string' ? { status: 400, raw: body } : { status: 400, body }));
    expect(await failure(adapter(c.base).fetch(BOOKING, ctx()))).toMatchObject({ kind: 'bad_response', details: { status: 400 } });
  });

  it('reports eventCreatedDateTime as reportedAt', async () => {
    const direct = JSON.parse(readFileSync(path.resolve(import.meta.dirname, 'fixtures/events.bill-of-lading.direct.json'), 'utf8')) as {
      eventID: string;
      eventCreatedDateTime: string;
    }[];
    const c = await carrier(() => ({ body: direct }));
    const observation = await adapter(c.base).fetch({ numberType: 'bill_of_lading', number: 'TEST0412345' }, ctx());
    for (const m of observation.facts.milestones) {
      expect(m.reportedAt).toBe(direct.find((e) => e.eventID === m.sourceEventId)?.eventCreatedDateTime);
    }
    expect(observation.facts.vesselPositions).toEqual([]);
  });
});
