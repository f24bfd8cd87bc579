// The list filters are declared in the routes' querystring schemas: /v2/openapi.json lists each of them, and the
// schema checks them before the handler runs (src/http/query.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../test/kit/app.js';

interface Parameter {
  in: string;
  name: string;
  schema?: { properties?: Record<string, unknown> };
}

let t: TestApp;
let doc: { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };
beforeAll(async () => {
  t = await testApp();
  doc = (await t.app.inject({ url: '/v2/openapi.json' })).json();
});
afterAll(() => t.close());

const FILTERS: Record<string, string[]> = {
  '/v2/shipments': [
    'q',
    'number',
    'customer_name',
    'tracking_stopped',
    'customer_id',
    'arrival_from',
    'arrival_to',
    'port_of_lading',
    'port_of_discharge',
    'carrier',
    'status',
    'custom_fields',
  ],
  '/v2/containers': ['number', 'customer_id', 'customer_name', 'custom_fields'],
  '/v2/containers/board': ['needs'],
  '/v2/tracking_requests': ['request_number', 'status', 'scac', 'request_type', 'created_at', 'updated_at'],
  '/v2/webhook_notifications': ['webhook_id', 'event', 'delivery_status'],
};

describe('list filters in /v2/openapi.json', () => {
  it.each(Object.entries(FILTERS))('%s lists its filter[…] parameters', (path, names) => {
    const parameters = doc.paths[path]!.get!.parameters ?? [];
    const filter = parameters.find((p) => p.in === 'query' && p.name === 'filter');
    expect(Object.keys(filter?.schema?.properties ?? {})).toEqual(names);
  });

  it('lists the bare forms the shipments list takes, and with_party_roles', () => {
    const names = (doc.paths['/v2/shipments']!.get!.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    // filter[custom_fields][<slug>] has no bare form: its names are the account's slugs.
    const bare = FILTERS['/v2/shipments']!.filter((name) => name !== 'custom_fields');
    expect(names).toEqual(expect.arrayContaining([...bare, 'with_party_roles', 'include', 'page']));
    expect(names).not.toContain('custom_fields');
  });

  it('lists q on the tracking requests list', () => {
    const names = (doc.paths['/v2/tracking_requests']!.get!.parameters ?? []).map((p) => p.name);
    expect(names).toContain('q');
  });
});

describe('list filters checked by the schema', () => {
  it('a filter a list refuses by name, and a value of the wrong kind, are 400s naming the parameter', async () => {
    const { auth } = await t.account();
    for (const [url, parameter, detail] of [
      ['/v2/webhook_notifications?filter[color]=blue', 'filter[color]', 'filter[color] is not a filter of webhook notifications'],
      ['/v2/containers/board?filter[status]=held', 'filter[status]', 'filter[status] is not a filter of the board; it takes filter[needs]'],
      ['/v2/containers?filter=x', 'filter', 'filter must be given as filter[name]=value'],
      ['/v2/tracking_requests?filter[scac][]=MAEU', 'filter[scac]', 'filter[scac] must be a single value'],
      [
        '/v2/tracking_requests?filter[created_at][start]=soon',
        'filter[created_at][start]',
        'filter[created_at][start] must be an ISO 8601 date-time',
      ],
      [
        '/v2/containers?filter[custom_fields]=po',
        'filter[custom_fields]',
        'filter[custom_fields] must be given as filter[custom_fields][api_slug]=value',
      ],
      ['/v2/shipments?filter[custom_fields][po][]=a', 'filter[custom_fields][po]', 'filter[custom_fields][po] must be a single value'],
    ]) {
      const res = await t.app.inject({ url: url!, headers: auth });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().errors, url).toEqual([expect.objectContaining({ detail, source: { parameter } })]);
    }
  });

  it('every wrong filter of a request is named in the one answer', async () => {
    const { auth } = await t.account();
    const res = await t.app.inject({ url: '/v2/tracking_requests?filter[status]=lost&filter[request_type]=parcel', headers: auth });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { source: unknown }) => e.source)).toEqual([
      { parameter: 'filter[status]' },
      { parameter: 'filter[request_type]' },
    ]);
  });

  it('blank filters are no filter, and good ones are read', async () => {
    const { auth } = await t.account();
    for (const url of [
      '/v2/containers/board?filter[needs]=',
      '/v2/containers/board?filter[needs]=%20on_hold%20',
      '/v2/tracking_requests?filter[status]=succeeded,pending&filter[created_at][end]=2026-03-01',
      '/v2/webhook_notifications?filter[delivery_status]=failed&filter[event]=container.transport.vessel_arrived',
      '/v2/containers?filter[customer_id]=&filter[number]=MSKU%209070323',
      // A blank custom-field filter is no filter: its slug is not even looked up.
      '/v2/shipments?filter[custom_fields][nothing_here]=',
    ]) {
      expect((await t.app.inject({ url, headers: auth })).statusCode, url).toBe(200);
    }
  });
});
