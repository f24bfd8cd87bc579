// Custom fields where the shipments and containers meet them (docs/custom-fields.md, docs/extensions.md):
// `include=custom_fields` on the four reads, `filter[custom_fields][<api_slug>]` on both lists (equality as the data
// type reads it, several slugs together, meta.total counted with it, 422s naming the parameter, tenant-scoped), and
// the MCP tools' `custom_fields` through an in-process client. Every answer is checked against /v2/openapi.json.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeContainerNumber } from '../../src/domain/container-number.js';
import type { Account } from '../../src/domain/account.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { type TestApp, testApp } from '../kit/app.js';
import { checkResponse } from '../kit/openapi.js';
import { seedShipment } from '../kit/seed.js';

let t: TestApp;
let owner: { account: Account; auth: { authorization: string } };
let other: { account: Account; auth: { authorization: string } };
/** Three shipments of the owner: s1 (two boxes), s2 (one box), s3 (one box, no values). */
const s: Record<'s1' | 's2' | 's3', { id: string; containerIds: string[] }> = {} as never;
const field: Record<string, string> = {};

async function get(url: string, auth = owner.auth) {
  const res = await t.app.inject({ url, headers: auth });
  await checkResponse(t.app, {
    method: 'GET',
    url,
    status: res.statusCode,
    contentType: String(res.headers['content-type']),
    body: res.body,
  });
  return res;
}
const ids = (doc: { data: { id: string }[] }) => doc.data.map((r) => r.id).sort();
const sorted = (list: string[]) => [...list].sort();

beforeAll(async () => {
  t = await testApp();
  owner = await t.account();
  other = await t.account();
  s.s1 = await seedShipment(t, owner.account.id, {
    bl: 'CFLIST0001',
    containers: [{ number: makeContainerNumber('MSCU', 1) }, { number: makeContainerNumber('MSCU', 2) }],
  });
  s.s2 = await seedShipment(t, owner.account.id, { bl: 'CFLIST0002', containers: [{ number: makeContainerNumber('MSCU', 3) }] });
  s.s3 = await seedShipment(t, owner.account.id, { bl: 'CFLIST0003', containers: [{ number: makeContainerNumber('MSCU', 4) }] });

  const cf = t.services.customFields;
  const define = async (accountId: string, entity_type: string, api_slug: string, data_type: string, display_name: string) =>
    (await cf.createDefinition(accountId, { entity_type, api_slug, data_type, display_name })).id;
  const a = owner.account.id;
  await define(a, 'Shipment', 'po', 'short_text', 'PO number');
  await define(a, 'Shipment', 'hazmat', 'boolean', 'Hazardous');
  await define(a, 'Shipment', 'weight', 'number', 'Weight');
  await define(a, 'Shipment', 'due', 'date', 'Due');
  const lanes = await define(a, 'Shipment', 'lanes', 'enum_multi', 'Lanes');
  for (const value of ['east', 'west', 'gulf']) await cf.createOption(a, lanes, { label: value.toUpperCase(), value });
  await define(a, 'Container', 'seal', 'short_text', 'Seal');
  await define(a, 'Container', 'reefer', 'boolean', 'Reefer');

  const on = (type: 'shipment' | 'container', id: string, slug: string, value: unknown) => cf.set(a, { type, id }, slug, value);
  field.s1po = (await on('shipment', s.s1.id, 'po', 'PO-1')).id;
  field.s1hazmat = (await on('shipment', s.s1.id, 'hazmat', true)).id;
  await on('shipment', s.s1.id, 'weight', 12.5);
  await on('shipment', s.s1.id, 'due', '2026-12-01');
  await on('shipment', s.s1.id, 'lanes', ['east', 'west']);
  await on('shipment', s.s2.id, 'po', 'PO-2');
  await on('shipment', s.s2.id, 'hazmat', false);
  await on('shipment', s.s2.id, 'lanes', ['west']);
  field.box1seal = (await on('container', s.s1.containerIds[0]!, 'seal', 'SL-1')).id;
  await on('container', s.s1.containerIds[0]!, 'reefer', true);
  await on('container', s.s2.containerIds[0]!, 'reefer', true);
  await on('container', s.s1.containerIds[1]!, 'reefer', false);

  // Another account: the same slug and value, on its own shipment.
  const theirs = await seedShipment(t, other.account.id, { bl: 'CFLIST0009', containers: [{ number: makeContainerNumber('MSCU', 9) }] });
  await cf.createDefinition(other.account.id, {
    entity_type: 'Shipment',
    api_slug: 'hazmat',
    data_type: 'boolean',
    display_name: 'Hazmat',
  });
  await cf.set(other.account.id, { type: 'shipment', id: theirs.id }, 'hazmat', true);
});
afterAll(() => t?.close());

describe('include=custom_fields', () => {
  it('adds the relationship and the values to each shipment of the list, and nothing without it', async () => {
    const doc = (await get('/v2/shipments?include=custom_fields')).json();
    expect(doc.meta.total).toBe(3);
    const byId = new Map(doc.data.map((r: { id: string }) => [r.id, r]));
    const rel = (id: string) =>
      (byId.get(id) as { relationships: { custom_fields: { data: { id: string }[] } } }).relationships.custom_fields.data;
    expect(rel(s.s1.id).map((r) => r.id)).toContain(field.s1po);
    expect(rel(s.s1.id)).toHaveLength(5);
    expect(rel(s.s2.id)).toHaveLength(3);
    expect(rel(s.s3.id)).toEqual([]);
    const included = doc.included.filter((r: { type: string }) => r.type === 'custom_field');
    expect(included).toHaveLength(8);
    const po = included.find((r: { id: string }) => r.id === field.s1po);
    expect(po.attributes).toEqual({ api_slug: 'po', value: 'PO-1', display_value: 'PO-1' });
    expect(po.relationships.entity.data).toEqual({ type: 'shipment', id: s.s1.id });
    const lanes = included.find(
      (r: { attributes: { api_slug: string }; relationships: { entity: { data: { id: string } } } }) =>
        r.attributes.api_slug === 'lanes' && r.relationships.entity.data.id === s.s1.id,
    );
    expect(lanes.attributes.display_value).toBe('EAST, WEST');

    const plain = (await get('/v2/shipments')).json();
    for (const r of plain.data) expect(r.relationships).not.toHaveProperty('custom_fields');
    expect(plain.included ?? []).toEqual([]);
  });

  it('on one shipment, and through containers.custom_fields on its containers too', async () => {
    const one = (await get(`/v2/shipments/${s.s1.id}?include=custom_fields,containers.custom_fields`)).json();
    expect(one.data.relationships.custom_fields.data).toHaveLength(5);
    const boxes = one.included.filter((r: { type: string }) => r.type === 'container');
    expect(boxes).toHaveLength(2);
    const box1 = boxes.find((r: { id: string }) => r.id === s.s1.containerIds[0]);
    expect(sorted(box1.relationships.custom_fields.data.map((r: { id: string }) => r.id))).toContain(field.box1seal);
    const fieldIds = one.included.filter((r: { type: string }) => r.type === 'custom_field').map((r: { id: string }) => r.id);
    // Full linkage: every included value is named by a relationship in the document.
    const named = [one.data, ...boxes].flatMap((r: { relationships: { custom_fields: { data: { id: string }[] } } }) =>
      r.relationships.custom_fields.data.map((x) => x.id),
    );
    expect(sorted(fieldIds)).toEqual(sorted(named));
    expect(fieldIds).toHaveLength(5 + 3);
  });

  it('on the containers list and one container, with the definitions behind them on request', async () => {
    const list = (await get('/v2/containers?include=custom_fields')).json();
    expect(list.meta.total).toBe(4);
    const box1 = list.data.find((r: { id: string }) => r.id === s.s1.containerIds[0]);
    expect(box1.relationships.custom_fields.data).toHaveLength(2);
    const one = (await get(`/v2/containers/${s.s1.containerIds[0]}?include=custom_fields.definition`)).json();
    expect(one.data.relationships.custom_fields.data).toHaveLength(2);
    expect(sorted(one.included.map((r: { type: string }) => r.type))).toEqual([
      'custom_field',
      'custom_field',
      'custom_field_definition',
      'custom_field_definition',
    ]);
    const plain = (await get(`/v2/containers/${s.s1.containerIds[0]}`)).json();
    expect(plain.data.relationships).not.toHaveProperty('custom_fields');
  });

  it('shows a value changed since the document was first read', async () => {
    const url = `/v2/containers/${s.s3.containerIds[0]}?include=custom_fields`;
    expect((await get(url)).json().data.relationships.custom_fields.data).toEqual([]);
    const set = await t.services.customFields.set(owner.account.id, { type: 'container', id: s.s3.containerIds[0]! }, 'seal', 'SL-3');
    expect((await get(url)).json().data.relationships.custom_fields.data).toEqual([{ id: set.id, type: 'custom_field' }]);
    await t.services.customFields.delete(owner.account.id, set.id);
  });
});

describe('filter[custom_fields][<api_slug>]', () => {
  it.each([
    ['filter[custom_fields][hazmat]=true', ['s1']],
    ['filter[custom_fields][hazmat]=false', ['s2']],
    ['filter[custom_fields][po]=PO-2', ['s2']],
    ['filter[custom_fields][po]=PO', []],
    ['filter[custom_fields][weight]=12.50', ['s1']],
    ['filter[custom_fields][due]=2026-12-01', ['s1']],
    ['filter[custom_fields][lanes]=west', ['s1', 's2']],
    ['filter[custom_fields][lanes]=gulf', []],
    ['filter[custom_fields][lanes]=west&filter[custom_fields][hazmat]=false', ['s2']],
    ['filter[custom_fields][lanes]=east&filter[custom_fields][hazmat]=false', []],
    ['filter%5Bcustom_fields%5D%5Bpo%5D=PO-1', ['s1']],
  ])('shipments ?%s', async (query, names) => {
    const expected = sorted(names.map((n) => s[n as keyof typeof s].id));
    const doc = (await get(`/v2/shipments?${query}`)).json();
    expect(ids(doc)).toEqual(expected);
    expect(doc.meta.total).toBe(expected.length);
  });

  it('counts meta.total with the filter across pages, beside the other filters', async () => {
    const page = (await get('/v2/shipments?filter[custom_fields][lanes]=west&page[size]=1')).json();
    expect(page.data).toHaveLength(1);
    expect(page.meta.total).toBe(2);
    const both = (await get('/v2/shipments?filter[custom_fields][lanes]=west&filter[number]=CFLIST0002')).json();
    expect(ids(both)).toEqual([s.s2.id]);
    expect(both.meta.total).toBe(1);
  });

  it('containers, with the include', async () => {
    const doc = (await get('/v2/containers?filter[custom_fields][reefer]=true&include=custom_fields')).json();
    expect(ids(doc)).toEqual(sorted([s.s1.containerIds[0]!, s.s2.containerIds[0]!]));
    expect(doc.meta.total).toBe(2);
    const sealed = (await get('/v2/containers?filter[custom_fields][seal]=SL-1&filter[custom_fields][reefer]=true')).json();
    expect(ids(sealed)).toEqual([s.s1.containerIds[0]]);
    expect(sealed.meta.total).toBe(1);
  });

  it("finds only the account's own records", async () => {
    const theirs = (await get('/v2/shipments?filter[custom_fields][hazmat]=true', other.auth)).json();
    expect(theirs.meta.total).toBe(1);
    expect(ids(theirs)).not.toContain(s.s1.id);
    // The owner's Container slug is no Shipment definition of the other account either.
    expect((await get('/v2/shipments?filter[custom_fields][po]=PO-1', other.auth)).statusCode).toBe(422);
  });

  it.each([
    ['/v2/shipments?filter[custom_fields][colour]=red', [['filter[custom_fields][colour]', /names no Shipment custom field definition/]]],
    ['/v2/shipments?filter[custom_fields][hazmat]=yes', [['filter[custom_fields][hazmat]', /must be true or false/]]],
    [
      '/v2/shipments?filter[custom_fields][weight]=heavy&filter[custom_fields][due]=2026-13-01',
      [
        ['filter[custom_fields][weight]', /must be a number/],
        ['filter[custom_fields][due]', /must be a date as YYYY-MM-DD/],
      ],
    ],
    ['/v2/containers?filter[custom_fields][po]=PO-1', [['filter[custom_fields][po]', /names no Container custom field definition/]]],
    // At most 10 slugs (each a condition of the list's query): the 11th refuses the filter as a whole, first.
    [
      `/v2/shipments?${Array.from({ length: 11 }, (_, i) => `filter[custom_fields][f${i}]=x`).join('&')}`,
      [['filter[custom_fields]', /may name at most 10 custom fields \(11 were given\)/]],
    ],
    [
      `/v2/containers?${Array.from({ length: 11 }, (_, i) => `filter[custom_fields][f${i}]=x`).join('&')}`,
      [['filter[custom_fields]', /may name at most 10 custom fields/]],
    ],
  ])('%s is a 422 naming each parameter', async (url, problems) => {
    const res = await get(url);
    expect(res.statusCode, res.body).toBe(422);
    const errors = res.json().errors as { source: { parameter: string }; detail: string }[];
    expect(errors.map((e) => e.source.parameter)).toEqual(problems.map(([p]) => p));
    for (const [i, [, detail]] of problems.entries()) expect(errors[i]!.detail).toMatch(detail as RegExp);
    // The shipments list answers its filters' 422 in the reference's shape too (`error` beside `errors`).
    if (url.startsWith('/v2/shipments'))
      expect(res.json().error).toEqual(errors.map((e) => ({ title: 'Invalid custom field filter', detail: e.detail })));
  });
});

describe('MCP tools', () => {
  let client: Client;
  beforeAll(async () => {
    const server = createMcpServer({ deps: t.services, account: owner.account });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    client = new Client({ name: 'custom-fields', version: '1.0.0' });
    await client.connect(b);
  });
  afterAll(() => client?.close());

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
    return { text: (result.content[0] as { text: string }).text, data: result.structuredContent as Record<string, unknown> };
  };

  it('get_shipment_details and get_container show the custom fields by name, as people read them', async () => {
    const shipment = await call('get_shipment_details', { id: s.s1.id });
    expect(shipment.data.custom_fields).toEqual([
      { api_slug: 'po', display_name: 'PO number', display_value: 'PO-1', value: 'PO-1' },
      { api_slug: 'hazmat', display_name: 'Hazardous', display_value: 'Yes', value: true },
      { api_slug: 'weight', display_name: 'Weight', display_value: '12.5', value: 12.5 },
      { api_slug: 'due', display_name: 'Due', display_value: '2026-12-01', value: '2026-12-01' },
      { api_slug: 'lanes', display_name: 'Lanes', display_value: 'EAST, WEST', value: ['east', 'west'] },
    ]);
    expect(shipment.text).toContain('Custom fields: PO number: PO-1; Hazardous: Yes;');
    const box = await call('get_container', { id: s.s1.containerIds[0] });
    expect(box.data.custom_fields).toEqual([
      { api_slug: 'seal', display_name: 'Seal', display_value: 'SL-1', value: 'SL-1' },
      { api_slug: 'reefer', display_name: 'Reefer', display_value: 'Yes', value: true },
    ]);
    expect(box.text).toContain('Custom fields: Seal: SL-1; Reefer: Yes.');
    const bare = await call('get_container', { id: s.s3.containerIds[0] });
    expect(bare.data.custom_fields).toEqual([]);
    expect(bare.text).not.toContain('Custom fields');
  });

  it('list_shipments and list_containers give each item’s custom fields by its id', async () => {
    const shipments = await call('list_shipments', {});
    const byShipment = shipments.data.custom_fields as Record<string, { api_slug: string }[]>;
    expect(sorted(Object.keys(byShipment))).toEqual(sorted([s.s1.id, s.s2.id]));
    expect(byShipment[s.s2.id]!.map((f) => f.api_slug)).toEqual(['po', 'hazmat', 'lanes']);
    const containers = await call('list_containers', {});
    const byBox = containers.data.custom_fields as Record<string, { display_value: string }[]>;
    expect(byBox[s.s1.containerIds[1]!]).toEqual([{ api_slug: 'reefer', display_name: 'Reefer', display_value: 'No', value: false }]);
    expect(Object.keys(byBox)).not.toContain(s.s3.containerIds[0]);
  });
});
