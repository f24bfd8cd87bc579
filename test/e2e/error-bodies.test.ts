// Every 4xx the API gives for bad input, pinned: for each documented operation, requests made wrong in each way
// its OpenAPI description allows (no key, a malformed id, each query parameter and each attribute of the wrong
// type, a body that is not a document, an attribute it does not take) plus bad values of the list filters that
// the generated cases do not try. The file snapshot beside this test holds every status and body; a change to what a client
// is told shows there as a diff to read, and a route whose answer to bad input changes by accident fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURES } from '../../src/domain/account.js';
import { resetAdminToken } from '../../src/services/setup.js';
import { type TestApp, testApp } from '../kit/app.js';

type Json = Record<string, unknown>;
type Schema = Json & { type?: string | string[]; properties?: Record<string, Schema>; enum?: unknown[]; items?: Schema };

interface Case {
  label: string;
  method: string;
  url: string;
  auth?: 'none' | 'admin';
  body?: unknown;
}

const ID = '00000000-0000-4000-8000-000000000000';
const METHODS = ['get', 'post', 'patch', 'put', 'delete'];
/** Operations of the document that take no input a client can get wrong (besides the key). */
const NO_INPUT = /^\/(healthz|readyz|metrics)$/;

/** List filters with bad values of their own (the document lists each filter; the generated cases give it `x-1`). */
const FILTER_CASES: Record<string, string[]> = {
  '/v2/shipments': [
    'filter[tracking_stopped]=maybe',
    'filter[customer_id]=nope',
    'filter[arrival_from]=2026-13-01',
    'filter[arrival_from]=2026-03-02&filter[arrival_to]=2026-03-01',
    'filter[port_of_lading]=LA',
    'port_of_discharge[]=12345',
    'filter[carrier]=not-a-scac',
    'filter[status]=lost',
    'with_party_roles=maybe',
    'filter[number][x]=1',
    'filter[custom_fields][colour]=red',
    'filter[custom_fields][colour][x]=1',
  ],
  '/v2/containers': ['filter[customer_id]=nope', 'filter[number][x]=1', 'filter[custom_fields][colour]=red', 'filter[custom_fields]=red'],
  '/v2/containers/board': ['filter[needs]=everything', 'filter[status]=held'],
  '/v2/tracking_requests': [
    'filter[status]=lost',
    'filter[request_type]=parcel',
    'filter[created_at]=yesterday',
    'filter[created_at][start]=not-a-date',
  ],
  '/v2/webhook_notifications': ['filter[delivery_status]=lost', 'filter[color]=blue'],
  '/v2/custom_field_definitions': [
    'filter[entity_type]=Order',
    'filter[entity_type]=cargo',
    'filter[data_type]=money',
    'filter[colour]=red',
  ],
  '/v2/custom_fields': ['filter[entity_type]=Order', 'filter[entity_id]=nope', 'filter[definition_id]=nope'],
};

/** The operator's API trial routes: days out of range (whole days, 1 to 365), and none for an extension. */
const TRIAL_CASES: Case[] = [{ days: 0 }, { days: 366 }, { days: 1.5 }, { days: '7' }].flatMap((body) =>
  ['POST', 'PATCH'].map((method) => ({
    label: `api trial days ${JSON.stringify(body.days)}`,
    method,
    url: '/admin/accounts/no-such-name/api_trial',
    auth: 'admin' as const,
    body,
  })),
);

/** `initial_custom_fields` a tracking request cannot stage (the account of each case has no definitions). */
const INITIAL_CUSTOM_FIELD_CASES: Case[] = [
  { shipment: [{ api_slug: 'po', value: 'PO-1' }] },
  { containers: [{ api_slug: 'seal', value: 'S', number: 'X'.repeat(21) }] },
  { containers: [{ api_slug: 'seal' }] },
  { shipment: 'PO-1', containers: [{ value: 1 }] },
].map((initial_custom_fields) => ({
  label: `body: initial_custom_fields ${JSON.stringify(initial_custom_fields)}`,
  method: 'POST',
  url: '/v2/tracking_requests',
  body: {
    data: {
      type: 'tracking_request',
      attributes: { request_type: 'bill_of_lading', request_number: 'MAEU250000001', scac: 'MAEU', initial_custom_fields },
    },
  },
}));

/** A value of the wrong kind for a schema: what a client that misread the type would send. */
function wrongValue(schema: Schema | undefined): unknown {
  const type = [schema?.type ?? 'string'].flat().find((t) => t !== 'null') ?? 'string';
  if (schema?.enum) return 'not-one-of-them';
  if (type === 'string') return 12345;
  if (type === 'array') return 'not-a-list';
  return type === 'object' ? 'not-an-object' : 'not-a-number';
}

/** A query value a parameter of this schema does not take. */
function wrongQuery(name: string, schema: Schema | undefined): string[] {
  if (schema?.type === 'object' && schema.properties) {
    return Object.keys(schema.properties).map((k) => `${name}[${k}]=x-1`);
  }
  if (name === 'include') return ['include=nothing_here'];
  const type = [schema?.type ?? 'string'].flat().find((t) => t !== 'null');
  return [`${name}=${type === 'string' && !schema?.enum && !schema?.format && !schema?.pattern ? '' : 'x-1'}`];
}

function bodyCases(op: Json, type: string | undefined): { label: string; body: unknown }[] {
  const schema = (op.requestBody as Json | undefined)?.content as Record<string, { schema?: Schema }> | undefined;
  const root = Object.values(schema ?? {})[0]?.schema;
  const data = root?.properties?.data;
  const attributes = data?.properties?.attributes?.properties ?? {};
  const out: { label: string; body: unknown }[] = [
    { label: 'no body', body: undefined },
    { label: 'a list for a document', body: [] },
    { label: 'no data', body: {} },
    { label: 'data null', body: { data: null } },
    { label: 'data a string', body: { data: 'x' } },
  ];
  if (!data) return out;
  out.push({ label: 'no attributes', body: { data: { type } } });
  out.push({ label: 'an attribute it does not take', body: { data: { type, attributes: { no_such_attribute: 1 } } } });
  for (const [name, s] of Object.entries(attributes)) {
    out.push({ label: `attribute ${name} of the wrong kind`, body: { data: { type, attributes: { [name]: wrongValue(s) } } } });
  }
  for (const name of Object.keys(data.properties?.relationships?.properties ?? {})) {
    out.push({
      label: `relationship ${name} not an object`,
      body: { data: { type, attributes: {}, relationships: { [name]: 'x' } } },
    });
  }
  return out;
}

function casesOf(doc: Json): Case[] {
  const cases: Case[] = [];
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    if (NO_INPUT.test(path)) continue;
    for (const method of METHODS) {
      const op = ops[method];
      if (!op) continue;
      const M = method.toUpperCase();
      const admin = path.startsWith('/admin/');
      const params = (op.parameters ?? []) as { in: string; name: string; schema?: Schema }[];
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'id' ? ID : 'no-such-name'));
      const as = admin ? 'admin' : undefined;
      cases.push({ label: 'no key', method: M, url, auth: 'none' });
      for (const p of params.filter((x) => x.in === 'path')) {
        cases.push({
          label: `malformed ${p.name}`,
          method: M,
          url: path.replace(`{${p.name}}`, 'not-an-id').replace(/\{\w+\}/g, ID),
          auth: as,
        });
      }
      for (const p of params.filter((x) => x.in === 'query')) {
        for (const q of wrongQuery(p.name, p.schema)) cases.push({ label: `query ${q}`, method: M, url: `${url}?${q}`, auth: as });
      }
      for (const q of M === 'GET' ? (FILTER_CASES[path] ?? []) : []) {
        cases.push({ label: `query ${q}`, method: M, url: `${url}?${q}`, auth: as });
      }
      if (op.requestBody) {
        const type = typeOf(path);
        for (const b of bodyCases(op, type)) cases.push({ label: `body: ${b.label}`, method: M, url, auth: as, body: b.body });
      }
    }
  }
  return cases;
}

/**
 * The web app's JSON routes, which the OpenAPI document leaves out: no session, and bodies that are not what
 * they take (their fields are checked in the handlers; src/http/routes/auth/*.test.ts walks them one by one).
 */
function hiddenCases(routes: { method: string; url: string; documented: boolean }[]): Case[] {
  const cases: Case[] = [];
  for (const r of routes) {
    if (r.documented || !r.url.startsWith('/auth/')) continue;
    const url = r.url.replace(/:(\w+)/g, (_, name: string) => (name === 'id' ? ID : 'no-such-token'));
    cases.push({ label: 'no session, no body', method: r.method, url });
    if (r.method === 'GET' || r.method === 'DELETE') continue;
    for (const [label, body] of [
      ['a list for a body', []],
      ['an empty object', {}],
      ['fields of the wrong kind', { email: 1, password: 2, name: 3, token: 4 }],
    ] as const) {
      cases.push({ label: `no session, ${label}`, method: r.method, url, body });
    }
  }
  return cases;
}

/** The JSON:API type a write to this path names (the resource of the collection). */
function typeOf(path: string): string | undefined {
  // Custom fields live under other resources' paths too: /v2/shipments/{id}/custom_fields, …/{id}/options.
  if (path.includes('/custom_fields')) return 'custom_field';
  if (path.endsWith('/options') || path.includes('/options/')) return 'custom_field_option';
  const resource = path.split('/').filter((p) => p && p !== 'v2' && p !== 'admin' && !p.startsWith('{'))[0];
  if (!resource) return undefined;
  return resource.endsWith('ies') ? `${resource.slice(0, -3)}y` : resource.replace(/s$/, '');
}

/**
 * A 4xx body as lines to pin, one error a line. Every error must carry the request id (checked here, then left
 * out with the ids of the run, which vary); anything else of the body is pinned.
 */
function pinned(status: number, text: string): string {
  if (status < 400) return `${status} (not an error)`;
  const body = JSON.parse(text) as { errors?: { meta?: Json }[] };
  const errors = body.errors ?? [];
  expect(errors.length, text).toBeGreaterThan(0);
  const lines = errors.map((e) => {
    expect(typeof e.meta?.request_id, text).toBe('string');
    const { request_id: _, ...meta } = e.meta ?? {};
    const line = JSON.stringify({ ...e, meta: Object.keys(meta).length ? meta : undefined });
    return `  ${line.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, (id) => (id === ID ? id : '<id>'))}`;
  });
  return [String(status), ...lines].join('\n');
}

let t: TestApp;
let adminToken: string;

beforeAll(async () => {
  t = await testApp({ sandbox: true });
  adminToken = await resetAdminToken(t.services.db, t.clock);
});
afterAll(async () => {
  await t?.close();
});

describe('4xx answers to bad input', () => {
  it('are the pinned statuses and bodies for every operation', async () => {
    const doc = JSON.parse((await t.app.inject({ method: 'GET', url: '/v2/openapi.json' })).body) as Json;
    const cases = [...casesOf(doc), ...hiddenCases(t.app.routeTable), ...TRIAL_CASES, ...INITIAL_CUSTOM_FIELD_CASES];
    expect(cases.length).toBeGreaterThan(300);
    const lines: string[] = [];
    for (const c of cases) {
      // A key of its own per operation: the run's requests never meet an account's rate limit.
      const { auth } = await t.account({ features: [...FEATURES] });
      const headers: Record<string, string> =
        c.auth === 'none' ? {} : c.auth === 'admin' ? { authorization: `Bearer ${adminToken}` } : { ...auth };
      const res = await t.app.inject({
        method: c.method as 'GET',
        url: c.url,
        headers: c.body === undefined ? headers : { ...headers, 'content-type': 'application/vnd.api+json' },
        payload: c.body === undefined ? undefined : JSON.stringify(c.body),
      });
      lines.push(`## ${c.method} ${c.url} — ${c.label}\n${pinned(res.statusCode, res.body)}`);
    }
    await expect(`${lines.join('\n\n')}\n`).toMatchFileSnapshot('./__snapshots__/error-bodies.txt');
  });
});
