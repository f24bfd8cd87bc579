// The reference's 27 custom-field operations (custom-fields-documents-wire.md §2, api-wire-notes.md §2.8) and
// `initial_custom_fields` on POST /v2/tracking_requests (§2.9), each with the request the reference's SDK or CLI sends
// (§2.10: `Content-Type: application/json`, percent-encoded brackets, the CLI's --payload verbatim), on a sandbox world
// with a tracked shipment; every answer must validate against the hand-written schemas of test/compat/schemas and the
// custom-field contract's statuses (deletes 200 `{}`, per-entity deletes 204, upserts 201 both times, 422 with
// pointers, 404 for unknown ids). The tests run in order: each builds on what the ones before it made.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxWorld, sandboxWorld, shipmentOf, type WorldAccount } from '../kit/sandbox-world.js';
import * as S from './schemas/index.js';
import { type Answer, type CallOptions, client, coverage, expectAnswer } from './wire.js';

const ops = coverage((o) => o.section === 'A');

let world: SandboxWorld;
let A: WorldAccount;
let call: (method: string, url: string, options?: CallOptions) => Promise<Answer>;
let shipment: string;
let container: string;
let trackingRequest: string;
/** Definition ids by api_slug. */
const defs = new Map<string, string>();
/** Option ids by value. */
const options = new Map<string, string>();

const writeLinks = S.stringLinks.optional();
const definitionDoc = S.single(S.customFieldDefinition, writeLinks);
const fieldDoc = S.single(S.customField, writeLinks);
const fieldList = S.list(S.customField, 'sizeTotal', S.stringLinks);

beforeAll(async () => {
  world = await sandboxWorld({ accounts: 1, scenarios: (e) => e.scenario === 'succeeded' });
  A = world.accounts[0]!;
  call = client(world.t, A.auth);
  shipment = await shipmentOf(world, A, 'succeeded');
  trackingRequest = A.requests.get('succeeded')!;
  const [box] = await world.t.database.db.query<{ id: string }>('SELECT id FROM containers WHERE shipment_id = $1 LIMIT 1', [shipment]);
  container = box!.id;
}, 120_000);

afterAll(() => world?.close());

/** The CLI's `t49 custom-field-definitions create --payload <json>`, sent verbatim. */
const definition = (attributes: Record<string, unknown>) => ({ body: { data: { type: 'custom_field_definition', attributes } } });
/** The SDK's setCustomField body. */
const setField = (api_slug: string, value: unknown) => ({ body: { data: { type: 'custom_field', attributes: { api_slug, value } } } });
const valueOnly = (value: unknown) => ({ body: { data: { type: 'custom_field', attributes: { value } } } });

describe('definitions', () => {
  it('post-custom-field-definitions: one of each data type; 201, template_id null, the account related', async () => {
    ops.op('post-custom-field-definitions');
    const made: [string, Record<string, unknown>, string][] = [
      [
        'po_number',
        { entity_type: 'Shipment', display_name: 'PO number', data_type: 'short_text', validation: { max_length: 20 } },
        'Shipment',
      ],
      [
        'declared_value',
        { entity_type: 'Shipment', display_name: 'Declared value', data_type: 'number', default_format: '%.2f' },
        'Shipment',
      ],
      ['customs_date', { entity_type: 'Shipment', display_name: 'Customs date', data_type: 'date', description: null }, 'Shipment'],
      ['eta_override', { entity_type: 'Shipment', display_name: 'ETA override', data_type: 'datetime' }, 'Shipment'],
      ['hazmat', { entity_type: 'Shipment', display_name: 'Hazmat', data_type: 'boolean', default_value: false }, 'Shipment'],
      ['handling', { entity_type: 'Shipment', display_name: 'Handling', data_type: 'enum_multi' }, 'Shipment'],
      [
        'related_box',
        { entity_type: 'Shipment', display_name: 'Related box', data_type: 'reference', reference_type: 'container' },
        'Shipment',
      ],
      ['priority', { entity_type: 'Container', display_name: 'Priority', data_type: 'enum' }, 'Container'],
      // The reference's live spelling of a container definition.
      ['seal_checked', { entity_type: 'Cargo', display_name: 'Seal checked', data_type: 'boolean' }, 'Container'],
      ['tr_note', { entity_type: 'TrackingRequest', display_name: 'Note', data_type: 'short_text' }, 'TrackingRequest'],
    ];
    for (const [api_slug, attributes, answered] of made) {
      const res = await call('POST', '/v2/custom_field_definitions', definition({ api_slug, ...attributes }));
      expectAnswer(res, 201, definitionDoc, `POST /v2/custom_field_definitions ${api_slug}`);
      expect(res.json.data.attributes).toMatchObject({ api_slug, entity_type: answered, template_id: null });
      expect(res.json.data.relationships.account.data).toEqual({ type: 'account', id: A.account.id });
      defs.set(api_slug, res.json.data.id);
    }
  });

  it('post-custom-field-definitions: a slug taken for the entity type, or not a slug, is a 422 pointed at api_slug', async () => {
    ops.op('post-custom-field-definitions');
    for (const api_slug of ['po_number', 'PO Number']) {
      const res = await call(
        'POST',
        '/v2/custom_field_definitions',
        definition({ api_slug, entity_type: 'Shipment', display_name: 'X', data_type: 'short_text' }),
      );
      expectAnswer(res, 422, S.pointedErrors(), `a definition with api_slug ${api_slug}`);
      expect(res.json.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toContain('/data/attributes/api_slug');
    }
  });

  it('get-custom-field-definitions: the CLI list (encoded page only), and the three filters', async () => {
    ops.op('get-custom-field-definitions');
    let url = '/v2/custom_field_definitions?page%5Bnumber%5D=1&page%5Bsize%5D=2';
    let res = await call('GET', url);
    expectAnswer(res, 200, S.list(S.customFieldDefinition, 'sizeTotal'), url);
    expect(res.json.meta).toMatchObject({ size: 2, total: 10 });
    expect(res.json.links.next).toMatch(/page\[number\]=2/);
    for (const [query, slugs] of [
      ['filter[entity_type]=Container', ['priority', 'seal_checked']],
      ['filter%5Bentity_type%5D=container', ['priority', 'seal_checked']],
      ['filter[entity_type]=Cargo', ['priority', 'seal_checked']],
      ['filter[entity_type]=TrackingRequest', ['tr_note']],
      ['filter[data_type]=enum_multi', ['handling']],
      ['filter[display_name]=PO', ['po_number']],
    ] as const) {
      url = `/v2/custom_field_definitions?${query}`;
      res = await call('GET', url);
      expectAnswer(res, 200, S.list(S.customFieldDefinition, 'sizeTotal'), url);
      expect(res.json.data.map((d: { attributes: { api_slug: string } }) => d.attributes.api_slug).sort(), url).toEqual([...slugs]);
    }
  });

  it('get-custom-field-definitions-id, with include=options; an unknown id is a 404', async () => {
    ops.op('get-custom-field-definitions-id');
    const url = `/v2/custom_field_definitions/${defs.get('po_number')}?include=options`;
    expectAnswer(await call('GET', url), 200, S.single(S.customFieldDefinition), url);
    expectAnswer(
      await call('GET', '/v2/custom_field_definitions/00000000-0000-4000-8000-000000000000'),
      404,
      S.errorEnvelope(404),
      'unknown definition',
    );
  });

  it('patch-custom-field-definitions-id: display_name and description', async () => {
    ops.op('patch-custom-field-definitions-id');
    const res = await call('PATCH', `/v2/custom_field_definitions/${defs.get('po_number')}`, {
      body: { data: { type: 'custom_field_definition', attributes: { display_name: 'Purchase order', description: 'From the customer' } } },
    });
    expectAnswer(res, 200, definitionDoc, 'PATCH a definition');
    expect(res.json.data.attributes).toMatchObject({
      display_name: 'Purchase order',
      description: 'From the customer',
      api_slug: 'po_number',
    });
  });
});

describe('options', () => {
  it('post-custom-field-options: label, value, position; 201', async () => {
    ops.op('post-custom-field-options');
    for (const [slug, label, value, position] of [
      ['priority', 'High', 'high', 1],
      ['priority', 'Low', 'low', 2],
      ['handling', 'Fragile', 'fragile', null],
      ['handling', 'Keep cold', 'cold', null],
    ] as const) {
      const res = await call('POST', `/v2/custom_field_definitions/${defs.get(slug)}/options`, {
        body: { data: { type: 'custom_field_option', attributes: { label, value, position } } },
      });
      expectAnswer(res, 201, S.single(S.customFieldOption, writeLinks), `POST an option ${value}`);
      options.set(value, res.json.data.id);
    }
  });

  it('get-custom-field-options: with the page parameters the SDK sends; the definition lists them in order', async () => {
    ops.op('get-custom-field-options');
    const url = `/v2/custom_field_definitions/${defs.get('priority')}/options?page%5Bnumber%5D=1&page%5Bsize%5D=25`;
    const res = await call('GET', url);
    expectAnswer(res, 200, S.list(S.customFieldOption, 'sizeTotal', S.stringLinks), url);
    expect(res.json.data.map((o: { attributes: { value: string } }) => o.attributes.value)).toEqual(['high', 'low']);
    const def = await call('GET', `/v2/custom_field_definitions/${defs.get('priority')}?include=options`);
    expect(def.json.data.relationships.options.data.map((r: { id: string }) => r.id)).toEqual([options.get('high'), options.get('low')]);
  });

  it('get-custom-field-options-id and patch-custom-field-options-id (label, position)', async () => {
    ops.op('get-custom-field-options-id');
    ops.op('patch-custom-field-options-id');
    const url = `/v2/custom_field_definitions/${defs.get('priority')}/options/${options.get('low')}`;
    expectAnswer(await call('GET', url), 200, S.single(S.customFieldOption), url);
    const res = await call('PATCH', url, {
      body: { data: { type: 'custom_field_option', attributes: { label: 'Low (routine)', position: 3 } } },
    });
    expectAnswer(res, 200, S.single(S.customFieldOption, writeLinks), `PATCH ${url}`);
    expect(res.json.data.attributes).toEqual({ label: 'Low (routine)', value: 'low', position: 3 });
  });
});

describe('values on a shipment', () => {
  const base = () => `/v2/shipments/${shipment}/custom_fields`;

  it('post-shipments-custom-fields: the SDK setCustomField, an upsert answering 201 both times', async () => {
    ops.op('post-shipments-custom-fields');
    const first = await call('POST', base(), setField('po_number', 'PO-1'));
    expectAnswer(first, 201, fieldDoc, 'set po_number');
    const again = await call('POST', base(), setField('po_number', 'PO-2'));
    expectAnswer(again, 201, fieldDoc, 'set po_number again');
    expect(again.json.data.id).toBe(first.json.data.id);
    expect(again.json.data.attributes).toMatchObject({ api_slug: 'po_number', value: 'PO-2', display_value: 'PO-2' });
    expect(again.json.data.relationships.entity.data).toEqual({ type: 'shipment', id: shipment });
  });

  it('post-shipments-custom-fields: each data type, answered and displayed as §2.1 says', async () => {
    ops.op('post-shipments-custom-fields');
    const cases: [string, unknown, unknown, (display: string) => boolean][] = [
      ['declared_value', 1234.5, 1234.5, (d) => d === '1234.50'],
      ['customs_date', '2026-03-05', '2026-03-05', (d) => d === '2026-03-05'],
      // Answered in UTC seconds.
      ['eta_override', '2026-03-05T10:00:00+02:00', '2026-03-05T08:00:00Z', (d) => d.startsWith('2026-03-05 08:00')],
      ['hazmat', true, true, (d) => d === 'Yes'],
      ['handling', ['fragile', 'cold'], ['fragile', 'cold'], (d) => d.includes('Fragile') && d.includes('Keep cold')],
      ['related_box', { type: 'container', id: container }, { type: 'container', id: container }, () => true],
    ];
    for (const [slug, value, answered, displayed] of cases) {
      const res = await call('POST', base(), setField(slug, value));
      expectAnswer(res, 201, fieldDoc, `set ${slug}`);
      expect(res.json.data.attributes.value, slug).toEqual(answered);
      expect(
        displayed(String(res.json.data.attributes.display_value)),
        `${slug}: display_value ${res.json.data.attributes.display_value}`,
      ).toBe(true);
    }
  });

  it('post-shipments-custom-fields: a value the definition refuses is a 422 pointed into the body', async () => {
    ops.op('post-shipments-custom-fields');
    for (const [slug, value] of [
      ['po_number', 'X'.repeat(21)],
      ['declared_value', 'a lot'],
      ['customs_date', '05/03/2026'],
      ['handling', ['fragile', 'nope']],
      ['related_box', { type: 'shipment', id: shipment }],
      ['priority', 'high'],
      ['no_such_field', 'x'],
    ] as const) {
      const res = await call('POST', base(), setField(slug, value));
      expectAnswer(res, 422, S.pointedErrors(), `set ${slug} to ${JSON.stringify(value)}`);
    }
  });

  it('get-shipments-custom-fields: no query (the SDK), and include=definition', async () => {
    ops.op('get-shipments-custom-fields');
    let res = await call('GET', base());
    expectAnswer(res, 200, fieldList, `GET ${base()}`);
    expect(res.json.data.length).toBe(7);
    res = await call('GET', `${base()}?include=definition`);
    expectAnswer(res, 200, fieldList, `GET ${base()}?include=definition`);
    expect(new Set(res.json.included?.map((r: { type: string }) => r.type))).toEqual(new Set(['custom_field_definition']));
  });

  it('patch-shipments-custom-fields-api-slug and delete-shipments-custom-fields-api-slug (204)', async () => {
    ops.op('patch-shipments-custom-fields-api-slug');
    ops.op('delete-shipments-custom-fields-api-slug');
    const res = await call('PATCH', `${base()}/po_number`, valueOnly('PO-3'));
    expectAnswer(res, 200, fieldDoc, 'PATCH po_number');
    expect(res.json.data.attributes.value).toBe('PO-3');
    const gone = await call('DELETE', `${base()}/hazmat`);
    expectAnswer(gone, 204, null, 'DELETE hazmat');
    expect(gone.text).toBe('');
    const list = await call('GET', base());
    expect(list.json.data.map((f: { attributes: { api_slug: string } }) => f.attributes.api_slug)).not.toContain('hazmat');
  });

  it("Tidemark's extensions: include=custom_fields on the shipment, filter[custom_fields][po_number] on the list", async () => {
    let res = await call('GET', `/v2/shipments/${shipment}?include=custom_fields`);
    expectAnswer(res, 200, S.single(S.shipment), 'include=custom_fields');
    expect(res.json.included.filter((r: { type: string }) => r.type === 'custom_field').length).toBe(6);
    res = await call('GET', '/v2/shipments?filter%5Bcustom_fields%5D%5Bpo_number%5D=PO-3');
    expectAnswer(res, 200, S.list(S.shipment, 'sizeTotal'), 'filter[custom_fields][po_number]');
    expect(res.json.data.map((s: { id: string }) => s.id)).toEqual([shipment]);
  });
});

describe('values on a container and a tracking request', () => {
  it('the four container operations; the Cargo definition applies to containers', async () => {
    for (const id of [
      'post-containers-custom-fields',
      'get-containers-custom-fields',
      'patch-containers-custom-fields-api-slug',
      'delete-containers-custom-fields-api-slug',
    ])
      ops.op(id);
    const base = `/v2/containers/${container}/custom_fields`;
    let res = await call('POST', base, setField('priority', 'high'));
    expectAnswer(res, 201, fieldDoc, 'set priority');
    expect(res.json.data.attributes).toMatchObject({ value: 'high', display_value: 'High' });
    expect(res.json.data.relationships.entity.data).toEqual({ type: 'container', id: container });
    expectAnswer(await call('POST', base, setField('seal_checked', false)), 201, fieldDoc, 'set seal_checked');
    res = await call('GET', base);
    expectAnswer(res, 200, fieldList, `GET ${base}`);
    expect(res.json.data.length).toBe(2);
    expectAnswer(await call('PATCH', `${base}/seal_checked`, valueOnly(true)), 200, fieldDoc, 'PATCH seal_checked');
    expectAnswer(await call('DELETE', `${base}/seal_checked`), 204, null, 'DELETE seal_checked');
    // A shipment's definition is not a container's.
    expectAnswer(await call('POST', base, setField('po_number', 'PO-1')), 422, S.pointedErrors(), 'a shipment field on a container');
  });

  it('the four tracking-request operations', async () => {
    for (const id of [
      'post-tracking-requests-custom-fields',
      'get-tracking-requests-custom-fields',
      'patch-tracking-requests-custom-fields-api-slug',
      'delete-tracking-requests-custom-fields-api-slug',
    ])
      ops.op(id);
    const base = `/v2/tracking_requests/${trackingRequest}/custom_fields`;
    const res = await call('POST', base, setField('tr_note', 'call the broker'));
    expectAnswer(res, 201, fieldDoc, 'set tr_note');
    expect(res.json.data.relationships.entity.data).toEqual({ type: 'tracking_request', id: trackingRequest });
    expectAnswer(await call('GET', base), 200, fieldList, `GET ${base}`);
    expectAnswer(await call('PATCH', `${base}/tr_note`, valueOnly('broker called')), 200, fieldDoc, 'PATCH tr_note');
    expectAnswer(await call('DELETE', `${base}/tr_note`), 204, null, 'DELETE tr_note');
  });
});

describe('generic custom fields', () => {
  let id: string;

  it('post-custom-fields: with relationships.entity; an upsert on (entity, definition)', async () => {
    ops.op('post-custom-fields');
    const res = await call('POST', '/v2/custom_fields', {
      body: {
        data: {
          type: 'custom_field',
          attributes: { api_slug: 'hazmat', value: true },
          relationships: { entity: { data: { type: 'shipment', id: shipment } } },
        },
      },
    });
    expectAnswer(res, 201, fieldDoc, 'POST /v2/custom_fields');
    expect(res.json.data.attributes).toMatchObject({ value: true, display_value: 'Yes' });
    id = res.json.data.id;
  });

  it('get-custom-fields: the filters, raw and encoded', async () => {
    ops.op('get-custom-fields');
    for (const [query, count] of [
      ['page%5Bnumber%5D=1&page%5Bsize%5D=25', 8],
      [`filter[entity_type]=Shipment&filter[entity_id]=${shipment}`, 7],
      [`filter%5Bdefinition_id%5D=${defs.get('priority')}`, 1],
      ['filter[entity_type]=Container', 1],
    ] as const) {
      const url = `/v2/custom_fields?${query}`;
      const res = await call('GET', url);
      expectAnswer(res, 200, S.list(S.customField, 'sizeTotal'), url);
      expect(res.json.meta.total, url).toBe(count);
    }
  });

  it('get-custom-fields-id (include=definition), patch-custom-fields-id, delete-custom-fields-id (200 {})', async () => {
    ops.op('get-custom-fields-id');
    ops.op('patch-custom-fields-id');
    ops.op('delete-custom-fields-id');
    expectAnswer(
      await call('GET', `/v2/custom_fields/${id}?include=definition`),
      200,
      S.single(S.customField),
      'GET /v2/custom_fields/{id}',
    );
    const res = await call('PATCH', `/v2/custom_fields/${id}`, valueOnly(false));
    expectAnswer(res, 200, fieldDoc, 'PATCH /v2/custom_fields/{id}');
    expect(res.json.data.attributes).toMatchObject({ value: false, display_value: 'No' });
    const gone = await call('DELETE', `/v2/custom_fields/${id}`);
    expectAnswer(gone, 200, S.emptyObject, 'DELETE /v2/custom_fields/{id}');
    expect(gone.json).toEqual({});
    expectAnswer(await call('GET', `/v2/custom_fields/${id}`), 404, S.errorEnvelope(404), 'GET a deleted custom field');
  });
});

describe('initial_custom_fields on POST /v2/tracking_requests (§2.9)', () => {
  it('stages values that the shipment and its containers get once the request resolves', async () => {
    const res = await call('POST', '/v2/tracking_requests', {
      body: {
        data: {
          type: 'tracking_request',
          attributes: {
            request_type: 'bill_of_lading',
            request_number: 'MEDU240200002',
            scac: 'MSCU',
            initial_custom_fields: {
              shipment: [{ api_slug: 'po_number', value: 'PO-INIT' }],
              containers: [{ api_slug: 'priority', value: 'low', number: '' }],
            },
          },
        },
      },
    });
    expectAnswer(res, 201, S.single(S.trackingRequest, writeLinks), 'POST /v2/tracking_requests with initial_custom_fields');
    await world.t.queue!.runOnce('tracking.attempt');
    const [row] = await world.t.database.db.query<{ shipment_id: string | null }>(
      'SELECT shipment_id FROM tracking_requests WHERE id = $1',
      [res.json.data.id],
    );
    expect(row?.shipment_id, 'the request resolved').toBeTruthy();
    const fields = await call('GET', `/v2/shipments/${row!.shipment_id}/custom_fields`);
    expectAnswer(fields, 200, fieldList, "the new shipment's custom fields");
    expect(
      fields.json.data.map((f: { attributes: { api_slug: string; value: unknown } }) => [f.attributes.api_slug, f.attributes.value]),
    ).toEqual([['po_number', 'PO-INIT']]);
    const boxes = await call('GET', `/v2/containers?page[size]=100`);
    const mine = boxes.json.data.filter(
      (c: { relationships: { shipment: { data: { id: string } } } }) => c.relationships.shipment.data.id === row!.shipment_id,
    );
    expect(mine.length).toBeGreaterThan(1);
    for (const box of mine) {
      const got = await call('GET', `/v2/containers/${box.id}/custom_fields`);
      expect(
        got.json.data.map((f: { attributes: { value: unknown } }) => f.attributes.value),
        box.id,
      ).toEqual(['low']);
    }
  });

  it('refuses an unknown slug at creation with a 422 pointed into initial_custom_fields', async () => {
    const res = await call('POST', '/v2/tracking_requests', {
      body: {
        data: {
          type: 'tracking_request',
          attributes: {
            request_type: 'bill_of_lading',
            request_number: 'CMDU240300003',
            scac: 'CMDU',
            initial_custom_fields: { shipment: [{ api_slug: 'nope', value: 'x' }] },
          },
        },
      },
    });
    expectAnswer(res, 422, S.pointedErrors(), 'initial_custom_fields with an unknown slug');
    expect(res.json.errors[0].source.pointer).toMatch(/^\/data\/attributes\/initial_custom_fields\//);
  });
});

describe('deletes', () => {
  it('delete-custom-field-options-id: 200 {}; the values that used the option stay', async () => {
    ops.op('delete-custom-field-options-id');
    const res = await call('DELETE', `/v2/custom_field_definitions/${defs.get('priority')}/options/${options.get('high')}`);
    expectAnswer(res, 200, S.emptyObject, 'DELETE an option');
    const fields = await call('GET', `/v2/containers/${container}/custom_fields`);
    expect(fields.json.data.map((f: { attributes: { value: unknown } }) => f.attributes.value)).toEqual(['high']);
    expectAnswer(
      await call('GET', `/v2/custom_field_definitions/${defs.get('priority')}/options/${options.get('high')}`),
      404,
      S.errorEnvelope(404),
      'GET a deleted option',
    );
  });

  it('delete-custom-field-definitions-id: 200 {}; its values go with it', async () => {
    ops.op('delete-custom-field-definitions-id');
    const res = await call('DELETE', `/v2/custom_field_definitions/${defs.get('po_number')}`);
    expectAnswer(res, 200, S.emptyObject, 'DELETE a definition');
    expectAnswer(
      await call('GET', `/v2/custom_field_definitions/${defs.get('po_number')}`),
      404,
      S.errorEnvelope(404),
      'GET a deleted definition',
    );
    const left = await call('GET', `/v2/custom_fields?filter[definition_id]=${defs.get('po_number')}`);
    expect(left.json.meta?.total ?? left.json.data.length).toBe(0);
  });
});

describe('coverage', () => {
  it('every custom-field operation got a request here', () => {
    expect(ops.missing()).toEqual([]);
  });
});
