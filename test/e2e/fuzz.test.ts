// Hostile requests to every /v2 route (the app's route table, shaped by the OpenAPI document): malformed JSON, wrong
// types, huge strings, NUL and unpaired surrogates, odd and broken percent-encodings, repeated parameters, bad ids,
// bodies of each route's own shape with hostile values. Never a 5xx; every 4xx a JSON:API error document with the
// request id. Fixed seed and a bounded number of runs (docs/testing.md, "The fuzz test").
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeContainerNumber } from '../../src/domain/container-number.js';
import { type TestApp, testApp } from '../kit/app.js';
import { onServer } from '../kit/databases.js';
import { seedShipment } from '../kit/seed.js';

/** Requests per run: fewer on the PostgreSQL pass, whose round trips are slower and which repeats what PGlite found. */
const RUNS = Number(process.env.TIDEMARK_FUZZ_RUNS ?? (onServer() ? 600 : 2000));
const SEED = Number(process.env.TIDEMARK_FUZZ_SEED ?? 25);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: Json[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  format?: string;
}
interface Route {
  method: string;
  url: string;
  params: string[];
  query: string[];
  body: Schema | null;
}

let t: TestApp;
let auth: Record<string, string>;
let routes: Route[];
/** Ids of the account's own records and of reference data, so that hostile bodies reach the handlers. */
let ids: string[];
let otherIds: string[];

const UUID_G = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

beforeAll(async () => {
  t = await testApp();
  const owner = await t.account({ name: 'fuzz-owner', features: ['routing', 'rail_lfd', 'refresh', 'widget', 'extra_carriers'] });
  auth = owner.auth;
  const other = await t.account({ name: 'fuzz-other' });

  const get = async (url: string, headers = auth) => (await t.app.inject({ method: 'GET', url, headers })).body;
  const post = async (url: string, body: unknown, headers = auth) =>
    (
      await t.app.inject({
        method: 'POST',
        url,
        headers: { ...headers, 'content-type': 'application/vnd.api+json' },
        payload: JSON.stringify(body),
      })
    ).body;
  const party = await post('/v2/parties', { data: { type: 'party', attributes: { company_name: 'Fuzz Imports' } } });
  const partyId = JSON.parse(party).data.id as string;
  const shipment = await seedShipment(t, owner.account.id, {
    bl: 'MAEUFUZZ0001',
    pol: 'CNSHA',
    pod: 'USLAX',
    refs: ['PO-1'],
    customerId: partyId,
    containers: [{ number: makeContainerNumber('MSCU', 424242) }, { number: makeContainerNumber('MAEU', 515151) }],
  });
  const foreign = await seedShipment(t, other.account.id, {
    bl: 'MAEUFUZZ9999',
    containers: [{ number: makeContainerNumber('CMAU', 313131) }],
  });
  // A second key, so that revoking one of the pool never revokes the key the fuzz sends.
  await post('/v2/api_keys', { data: { type: 'api_key', attributes: { name: 'spare' } } });
  const texts = [
    party,
    await post('/v2/tracking_requests', {
      data: { type: 'tracking_request', attributes: { request_type: 'bill_of_lading', request_number: 'MAEUFUZZ0002', scac: 'MAEU' } },
    }),
    await post('/v2/party_roles', {
      data: {
        type: 'party_role',
        attributes: { role: 'notify' },
        relationships: { party: { data: { type: 'party', id: partyId } }, shipment: { data: { type: 'shipment', id: shipment.id } } },
      },
    }),
    await get(`/v2/shipments/${shipment.id}?include=containers,port_of_lading,port_of_discharge,shipping_line,pod_terminal`),
    await get('/v2/shipping_lines?page[size]=2'),
    await get('/v2/api_keys'),
    await get('/v2/webhook_notifications/examples'),
  ];
  const ownKeyId = (
    await t.services.db.query<{ id: string }>('SELECT id::text AS id FROM api_keys WHERE account_id = $1 ORDER BY created_at LIMIT 1', [
      owner.account.id,
    ])
  )[0]!.id;
  ids = [...new Set(texts.flatMap((x) => x.match(UUID_G) ?? []).map((x) => x.toLowerCase()))].filter((id) => id !== ownKeyId);
  otherIds = [foreign.id, ...foreign.containerIds];

  const doc = (await t.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json() as {
    paths: Record<
      string,
      Record<string, { parameters?: { in: string; name: string }[]; requestBody?: { content: Record<string, { schema: Schema }> } }>
    >;
  };
  routes = t.app.routeTable
    .filter((r) => r.url.startsWith('/v2/'))
    .map((r) => {
      const op = doc.paths[r.url.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()];
      const content = op?.requestBody?.content;
      return {
        method: r.method,
        url: r.url,
        params: [...r.url.matchAll(/:(\w+)/g)].map((m) => m[1]!),
        query: (op?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        body: content ? (Object.values(content)[0]?.schema ?? null) : null,
      };
    });
}, 120_000);
afterAll(() => t?.close());

// ---------- values ----------

const NASTY = [
  '',
  ' ',
  '\u0000',
  'MAEU\u0000FUZZ',
  '\ud800',
  'x\udc00y',
  '\udbff\udfff\ud800',
  '😀',
  '\u202e\ufeff',
  '%00',
  '%',
  '%E0%A4%A',
  "' OR 1=1 --",
  '"; DROP TABLE shipments; --',
  '\\',
  '<script>alert(1)</script>',
  '../../../etc/passwd',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template look-alike, on purpose.
  '{{7*7}}${7*7}',
  'null',
  'undefined',
  'true',
  '-1',
  '0',
  '1e309',
  '9999999999999999999999',
  'NaN',
  '2026-02-30T25:61:61Z',
  '0000-00-00',
  '__proto__',
  'constructor',
  'MSCU4242420',
  'MAEUFUZZ0001',
  '00000000-0000-0000-0000-000000000000',
  '0192c8a4-zzzz-7000-8000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
];

const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constantFrom(100, 101, 1000, 101, 1000, 70_000).map((n) => 'A'.repeat(n)) },
  // Text PostgreSQL cannot store, inside otherwise ordinary text.
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 5 }), fc.constantFrom('\u0000', '\ud800', '\udfff', '\u0000\u0000'), fc.string({ maxLength: 5 }))
      .map(([a, bad, b]) => `${a}${bad}${b}`),
  },
);

const hostileScalar: fc.Arbitrary<Json> = fc.oneof(
  { weight: 6, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constantFrom(-1, 0, 2 ** 53, -(2 ** 63), 1e308, 0.5) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);

const hostileValue: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 6, arbitrary: hostileScalar },
    { weight: 1, arbitrary: fc.array(tie('v'), { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.dictionary(hostileString, tie('v'), { maxKeys: 3 }) },
  ),
})).v;

/** A value of the schema's shape whose leaves are sometimes right and often hostile; extra members sometimes. */
function shaped(schema: Schema | undefined, depth = 0): fc.Arbitrary<Json> {
  if (!schema || depth > 6) return hostileValue;
  const alts = schema.anyOf ?? schema.oneOf;
  if (alts?.length) return fc.oneof(...alts.map((s) => shaped(s, depth + 1)));
  if (schema.enum?.length)
    return fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...schema.enum) }, { weight: 1, arbitrary: hostileValue });
  const types = [schema.type ?? []].flat();
  if (types.includes('object') && schema.properties) {
    const props = Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => [k, shaped(s, depth + 1)]));
    const record = fc.record(props, { requiredKeys: [] }) as fc.Arbitrary<Record<string, Json>>;
    return fc.oneof(
      { weight: 12, arbitrary: record },
      {
        weight: 1,
        arbitrary: fc.tuple(record, fc.dictionary(hostileString, hostileValue, { maxKeys: 2 })).map(([a, b]) => ({ ...b, ...a })),
      },
      { weight: 1, arbitrary: hostileValue },
    );
  }
  if (types.includes('array')) {
    return fc.oneof(
      { weight: 8, arbitrary: fc.array(shaped(schema.items, depth + 1), { maxLength: 4 }) },
      { weight: 1, arbitrary: hostileValue },
    );
  }
  const right: fc.Arbitrary<Json>[] = [];
  if (types.includes('string')) {
    right.push(
      schema.format === 'date-time' || schema.format === 'date'
        ? fc.constantFrom('2026-03-01T12:00:00Z', '2026-03-01', '2026-13-01T00:00:00Z')
        : fc.string({ maxLength: 12 }),
    );
  }
  if (types.includes('number') || types.includes('integer')) right.push(fc.integer({ min: -5, max: 200 }));
  if (types.includes('boolean')) right.push(fc.boolean());
  // Mostly right, so that a body often fails on its one hostile value (and reaches the database when that is text).
  const wrong = types.includes('string')
    ? fc.oneof({ weight: 4, arbitrary: hostileString }, { weight: 1, arbitrary: hostileValue })
    : hostileValue;
  return right.length ? fc.oneof({ weight: 3, arbitrary: fc.oneof(...right) }, { weight: 2, arbitrary: wrong }) : hostileValue;
}

// ---------- encodings ----------

/** Percent-encodes any text, also text encodeURIComponent refuses (unpaired surrogates): their WTF-8 bytes. */
function percent(text: string): string {
  let out = '';
  for (const ch of text) {
    try {
      out += encodeURIComponent(ch);
    } catch {
      const c = ch.charCodeAt(0);
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    }
  }
  return out;
}

const BROKEN_ESCAPES = ['%', '%0', '%ZZ', '%ED%A0%80', '%C0%80', '%FF%FE', '%E2%82', '%00', '%2F', '%2E%2E', '%25', '+'];

/** How a text goes into a URL: percent-encoded (the usual), encoded twice, or with a broken escape spliced in. */
const encoded = (text: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 5, arbitrary: text.map(percent) },
    { weight: 1, arbitrary: text.map((x) => percent(percent(x))) },
    { weight: 2, arbitrary: fc.tuple(text, fc.constantFrom(...BROKEN_ESCAPES)).map(([x, b]) => percent(x) + b) },
    { weight: 1, arbitrary: fc.constantFrom(...BROKEN_ESCAPES) },
  );

const GENERIC_QUERY = [
  'q',
  'query',
  'include',
  'sort',
  'fields[shipment]',
  'page[number]',
  'page[size]',
  'page[after]',
  'page',
  'filter',
  'number',
  'search',
  'port_of_lading',
  'port_of_discharge[]',
  ...[
    'number',
    'q',
    'customer_name',
    'customer_id',
    'request_number',
    'request_type',
    'status',
    'needs',
    'scac',
    'name',
    'key',
    'event',
    'webhook_id',
    'delivery_status',
    'tracking_stopped',
    'arrival_to',
  ].map((f) => `filter[${f}]`),
  'filter[created_at][start]',
  'filter[updated_at][end]',
  'a[b][c][d][e][f][g]',
  '__proto__[polluted]',
  'constructor[prototype][polluted]',
];

/** A parameter name as sent: brackets raw or percent-encoded, or the name itself hostile. */
const paramName = (names: string[]) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...names) },
    { weight: 1, arbitrary: fc.constantFrom(...names).map((n) => n.replace(/\[/g, '%5B').replace(/\]/g, '%5D')) },
    { weight: 1, arbitrary: encoded(hostileString) },
  );

// ---------- requests ----------

const CONTENT_TYPES = [
  'application/vnd.api+json',
  'application/json',
  'application/json; charset=utf-8',
  'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '',
  undefined,
];

const MALFORMED = [
  '{',
  '{"data":',
  '[1,2',
  'nul',
  '{"data":{}}}',
  "{'data':1}",
  '\u0000',
  '{"data":{"attributes":{"company_name":"\\ud800"}}}',
  '{"data":{"attributes":{"company_name":"\\u0000"}}}',
  '{"data":{"type":"x","attributes":{"\\u0000":"a"}}}',
  '{"__proto__":{"polluted":1},"data":{"attributes":{}}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '{"data":1e999999}',
  '"just a string"',
  '[]',
  'null',
  '   ',
];

/** Deep nesting, a body over the limit, bytes that are not UTF-8 inside a JSON string. */
const ODD_BODIES: { payload: string | Buffer; type: string }[] = [
  { payload: `${'['.repeat(100_000)}${']'.repeat(100_000)}`, type: 'application/json' },
  { payload: `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`, type: 'application/json' },
  { payload: JSON.stringify({ data: { attributes: { name: 'x'.repeat(1024 * 1024) } } }), type: 'application/json' },
  {
    payload: Buffer.concat([
      Buffer.from('{"data":{"attributes":{"company_name":"'),
      Buffer.from([0xff, 0xfe, 0xc0, 0x80, 0xed, 0xa0, 0x80]),
      Buffer.from('"}}}'),
    ]),
    type: 'application/json',
  },
];

interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

const arbitraries = new Map<Route, fc.Arbitrary<FuzzRequest>>();

/** One arbitrary per route, built once. */
function requestFor(route: Route): fc.Arbitrary<FuzzRequest> {
  const built = arbitraries.get(route) ?? buildRequestFor(route);
  arbitraries.set(route, built);
  return built;
}

function buildRequestFor(route: Route): fc.Arbitrary<FuzzRequest> {
  const paramValue = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...ids) },
    { weight: 1, arbitrary: fc.constantFrom(...otherIds) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.constantFrom(...ids).map((u) => u.toUpperCase()) },
    { weight: 1, arbitrary: fc.constantFrom(...ids).map((u) => `{${u}}`) },
    { weight: 3, arbitrary: encoded(hostileString) },
    { weight: 1, arbitrary: fc.constantFrom(101, 5000).map((n) => 'a'.repeat(n)) },
  );
  const path = fc.tuple(...route.params.map(() => paramValue)).map((values) => {
    let i = 0;
    return route.url.replace(/:(\w+)/g, () => values[i++]!);
  });
  const pair = fc.tuple(
    paramName([...route.query, ...GENERIC_QUERY]),
    fc.oneof(
      { weight: 4, arbitrary: encoded(hostileString) },
      { weight: 1, arbitrary: fc.constantFrom('1', '100', 'containers', '-created_at') },
    ),
  );
  const query = fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    // One parameter alone, so that an otherwise ordinary request carries it to the handler (and the database).
    { weight: 4, arbitrary: pair.map(([k, v]) => `${k}=${v}`) },
    { weight: 3, arbitrary: fc.array(pair, { maxLength: 5 }).map((ps) => ps.map(([k, v]) => `${k}=${v}`).join('&')) },
    // Repeated parameters: one name, several values.
    {
      weight: 2,
      arbitrary: fc
        .tuple(pair, fc.integer({ min: 2, max: 4 }))
        .map(([[k, v], n]) => Array.from({ length: n }, () => `${k}=${v}`).join('&')),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '&&&',
        '=x',
        'a==b',
        '%',
        '?',
        '#frag',
        'x'.repeat(40_000),
        Array.from({ length: 300 }, (_, i) => `p${i}=1`).join('&'),
      ),
    },
  );
  const body: fc.Arbitrary<{ payload?: string | Buffer; type?: string | undefined }> = fc.oneof(
    { weight: 2, arbitrary: fc.constant({}) },
    {
      weight: 6,
      arbitrary: fc
        .tuple(shaped(route.body ?? undefined), fc.constantFrom(...CONTENT_TYPES.slice(0, 4)))
        .map(([v, type]) => ({ payload: JSON.stringify(v), type })),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(hostileValue, fc.constantFrom(...CONTENT_TYPES)).map(([v, type]) => ({ payload: JSON.stringify(v), type })),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom(...MALFORMED), fc.constantFrom(...CONTENT_TYPES)).map(([payload, type]) => ({ payload, type })),
    },
    { weight: 1, arbitrary: fc.constantFrom(...ODD_BODIES) },
  );
  const authHeader = fc.oneof(
    { weight: 30, arbitrary: fc.constant(auth) },
    { weight: 1, arbitrary: fc.constant({}) },
    {
      weight: 1,
      arbitrary: fc.constantFrom({ authorization: 'Token nope' }, { authorization: 'Bearer ' }, { authorization: 'Token %00' }),
    },
  );
  return fc.record({ path, query, body, auth: authHeader }).map(({ path, query, body, auth }) => {
    const request: FuzzRequest = {
      method: route.method,
      url: query ? `${path}?${query}` : path,
      headers: { ...auth, ...(body.type ? { 'content-type': body.type } : {}) },
      ...(body.payload !== undefined ? { payload: body.payload } : {}),
    };
    // A counterexample is reported shortened: some payloads are a megabyte.
    return Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) });
  });
}

// ---------- checks ----------

const DATABASE_TEXT =
  /syntax error|invalid byte sequence|violates .* constraint|relation "|column "|duplicate key|pglite|postgres|sqlstate/i;

function describeRequest(r: FuzzRequest): string {
  const payload = r.payload === undefined ? '' : ` ${String(r.payload).slice(0, 300)}${String(r.payload).length > 300 ? '…' : ''}`;
  return `${r.method} ${r.url.slice(0, 300)} ${JSON.stringify(r.headers)}${payload}`;
}

/** The problems with one answer, [] when none. */
function problemsOf(res: Pick<LightMyRequestResponse, 'statusCode' | 'headers' | 'body'>): string[] {
  const problems: string[] = [];
  if (res.statusCode >= 500) problems.push(`answered ${res.statusCode}`);
  // Error answers only: a 2xx may name the database by design (/readyz's `database`, the OpenAPI document's enums).
  if (res.statusCode < 400) return problems;
  if (DATABASE_TEXT.test(res.body)) problems.push('the body has database error text');
  const requestId = res.headers['x-request-id'];
  if (typeof requestId !== 'string' || !requestId) problems.push('no x-request-id header');
  if (!String(res.headers['content-type'] ?? '').startsWith('application/vnd.api+json'))
    problems.push(`content-type ${res.headers['content-type']}`);
  let doc: { errors?: { status?: unknown; title?: unknown; meta?: { request_id?: unknown } }[] };
  try {
    doc = JSON.parse(res.body);
  } catch {
    return [...problems, 'the body is not JSON'];
  }
  if (!Array.isArray(doc.errors) || !doc.errors.length) return [...problems, 'no errors[]'];
  for (const e of doc.errors) {
    if (e.status !== String(res.statusCode)) problems.push(`errors[].status ${JSON.stringify(e.status)}`);
    if (typeof e.title !== 'string' || !e.title) problems.push('errors[] without a title');
    if (e.meta?.request_id !== requestId)
      problems.push(`errors[].meta.request_id ${JSON.stringify(e.meta?.request_id)} is not ${requestId}`);
  }
  return problems;
}

describe('fuzz: every /v2 route', () => {
  it('covers the route table and the OpenAPI document', async () => {
    expect(routes.length).toBeGreaterThan(40);
    const doc = (await t.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(doc.paths)
      .filter(([p]) => p.startsWith('/v2/'))
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ':$1')}`));
    const fuzzed = new Set(routes.map((r) => `${r.method} ${r.url}`));
    expect(documented.filter((r) => !fuzzed.has(r))).toEqual([]);
    expect(routes.filter((r) => r.body).length).toBeGreaterThan(10);
  });

  it(
    `never answers 5xx, and every 4xx is a JSON:API error document (${RUNS} requests, seed ${SEED})`,
    async () => {
      const statuses = new Map<number, number>();
      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...routes).chain((route) => requestFor(route)),
          async (request) => {
            // Two seconds of wall time a request: the account's rate limits (per minute) refuse some, not most.
            t.clock.advance(2000);
            const res = await t.app.inject({
              method: request.method as 'GET',
              url: request.url,
              headers: request.headers,
              ...(request.payload !== undefined ? { payload: request.payload } : {}),
            });
            statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
            const problems = problemsOf(res);
            if (problems.length)
              throw new Error(
                `${problems.join('; ')}\n  request: ${describeRequest(request)}\n  answer: ${res.statusCode} ${res.body.slice(0, 500)}`,
              );
          },
        ),
        { seed: SEED, numRuns: RUNS, endOnFailure: process.env.TIDEMARK_FUZZ_SHRINK !== '1' },
      );
      console.info(`fuzz: ${RUNS} requests in ${Date.now() - started} ms, statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
      // The fuzz reaches the handlers, not only the edge: some requests succeed, and refusals are of several kinds.
      const count = (pred: (s: number) => boolean) => [...statuses].filter(([s]) => pred(s)).reduce((n, [, c]) => n + c, 0);
      expect(
        count((s) => s < 300),
        JSON.stringify([...statuses]),
      ).toBeGreaterThan(RUNS / 50);
      for (const status of [400, 404, 422]) expect(statuses.get(status) ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(0);
    },
    Math.max(180_000, RUNS * 60),
  );
});
