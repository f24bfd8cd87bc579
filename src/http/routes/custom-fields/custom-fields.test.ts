import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onServer } from '../../../../test/kit/databases.js';
import { newId } from '../../../lib/ids.js';
import { testApp, type TestApp } from '../../../../test/kit/app.js';
import { seedShipment } from '../../../../test/kit/seed.js';

let t: TestApp;
let auth: { authorization: string };
let accountId: string;
let shipmentId: string;
let containerIds: string[];
let trackingRequestId: string;

const json = { 'content-type': 'application/json' };
const URL_DEFS = '/v2/custom_field_definitions';

async function trackingRequest(account: string): Promise<string> {
  const id = newId();
  await t.services.db.query(
    `INSERT INTO tracking_requests (id, account_id, request_type, request_number, scac, status, created_at, updated_at)
     VALUES ($1, $2, 'bill_of_lading', 'MAEU123456789', 'MAEU', 'pending', $3, $3)`,
    [id, account, t.clock.now()],
  );
  return id;
}

beforeAll(async () => {
  t = await testApp();
  const a = await t.account();
  auth = a.auth;
  accountId = a.account.id;
  ({ id: shipmentId, containerIds } = await seedShipment(t, accountId, {
    bl: 'MAEU000000001',
    containers: [{ number: 'MSCU1234565' }, { number: 'TGHU7654321' }],
  }));
  trackingRequestId = await trackingRequest(accountId);
});
afterAll(() => t.close());

type Headers = { authorization: string };
/** One request, a second after the last (the fixed clock would otherwise put them all in one minute's rate limit). */
function send(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers: Headers = auth) {
  t.clock.advance(1000);
  if (payload === undefined) return t.app.inject({ method, url, headers });
  return t.app.inject({ method, url, headers: { ...headers, ...json }, payload: JSON.stringify(payload) });
}

async function define(attributes: Record<string, unknown>, headers: Headers = auth) {
  const res = await send('POST', URL_DEFS, { data: { type: 'custom_field_definition', attributes } }, headers);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; attributes: Record<string, unknown> };
}
async function option(definitionId: string, attributes: Record<string, unknown>) {
  const res = await send('POST', `${URL_DEFS}/${definitionId}/options`, { data: { type: 'custom_field_option', attributes } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string };
}
const setOn = (path: string, api_slug: string, value: unknown, headers: Headers = auth) =>
  send('POST', `${path}/custom_fields`, { data: { type: 'custom_field', attributes: { api_slug, value } } }, headers);
const pointers = (res: { json(): { errors: { source?: { pointer?: string } }[] } }) => res.json().errors.map((e) => e.source?.pointer);

describe('custom field definitions', () => {
  it('creates one (201) as the SDK sends it, reads, lists with filters, updates and deletes it (200 {})', async () => {
    const res = await send('POST', URL_DEFS, {
      data: {
        type: 'custom_field_definition',
        attributes: {
          entity_type: 'Shipment',
          api_slug: 'po_number',
          display_name: 'PO number',
          data_type: 'short_text',
          validation: { max_length: 20 },
          description: 'Purchase order',
        },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    const id = body.data.id;
    expect(body).toEqual({
      data: {
        id,
        type: 'custom_field_definition',
        attributes: {
          entity_type: 'Shipment',
          api_slug: 'po_number',
          display_name: 'PO number',
          description: 'Purchase order',
          data_type: 'short_text',
          reference_type: null,
          validation: { max_length: 20 },
          default_format: null,
          default_value: null,
          template_id: null,
          created_at: expect.stringMatching(/Z$/),
          updated_at: expect.stringMatching(/Z$/),
        },
        relationships: { account: { data: { type: 'account', id: accountId } }, options: { data: [] } },
        links: { self: `/v2/custom_field_definitions/${id}` },
      },
      links: { self: `http://tidemark.test/v2/custom_field_definitions/${id}` },
    });

    expect((await send('GET', `${URL_DEFS}/${id}`)).json().data.attributes.api_slug).toBe('po_number');
    const patched = await send('PATCH', `${URL_DEFS}/${id}`, {
      data: {
        type: 'custom_field_definition',
        id,
        attributes: { display_name: 'Purchase order', api_slug: 'po_number', default_value: 'PO-0' },
      },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().data.attributes).toMatchObject({ display_name: 'Purchase order', default_value: 'PO-0' });

    const deleted = await send('DELETE', `${URL_DEFS}/${id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({});
    expect((await send('GET', `${URL_DEFS}/${id}`)).statusCode).toBe(404);
    const again = await send('DELETE', `${URL_DEFS}/${id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().errors[0]).toMatchObject({ status: '404', detail: "Couldn't find CustomFieldDefinition" });
  });

  it('filters by entity type (any spelling), data type and display-name prefix, and pages', async () => {
    const { auth: a } = await t.account();
    await define({ entity_type: 'shipment', api_slug: 'alpha', display_name: 'Alpha', data_type: 'number' }, a);
    await define({ entity_type: 'Cargo', api_slug: 'alpha', display_name: 'Alpine', data_type: 'boolean' }, a);
    await define({ entity_type: 'TrackingRequest', api_slug: 'beta', display_name: 'Beta', data_type: 'number' }, a);
    const slugs = async (query: string) => {
      const res = await send('GET', `${URL_DEFS}${query}`, undefined, a);
      expect(res.statusCode, res.body).toBe(200);
      return res
        .json()
        .data.map((d: { attributes: { entity_type: string; api_slug: string } }) => `${d.attributes.entity_type}:${d.attributes.api_slug}`);
    };
    expect(await slugs('')).toEqual(['Shipment:alpha', 'Container:alpha', 'TrackingRequest:beta']);
    expect(await slugs('?filter[entity_type]=Container')).toEqual(['Container:alpha']);
    expect(await slugs('?filter%5Bentity_type%5D=Cargo')).toEqual(['Container:alpha']);
    expect(await slugs('?filter[entity_type]=tracking_request')).toEqual(['TrackingRequest:beta']);
    expect(await slugs('?filter[data_type]=number')).toEqual(['Shipment:alpha', 'TrackingRequest:beta']);
    expect(await slugs('?filter[display_name]=alp')).toEqual(['Shipment:alpha', 'Container:alpha']);
    expect(await slugs('?filter[display_name]=%25')).toEqual([]);
    const page = await send('GET', `${URL_DEFS}?page%5Bnumber%5D=2&page%5Bsize%5D=2`, undefined, a);
    expect(page.json().meta).toEqual({ size: 1, total: 3 });
    expect(page.json().links.self).toBe('http://tidemark.test/v2/custom_field_definitions?page%5Bnumber%5D=2&page%5Bsize%5D=2');
    const bad = await send('GET', `${URL_DEFS}?filter[entity_type]=Order`, undefined, a);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].source).toEqual({ parameter: 'filter[entity_type]' });
  });

  it('keeps a slug unique per entity type of an account, and refuses what is wrong with pointers', async () => {
    await define({ entity_type: 'Shipment', api_slug: 'dup', display_name: 'Dup', data_type: 'boolean' });
    await define({ entity_type: 'Container', api_slug: 'dup', display_name: 'Dup', data_type: 'boolean' });
    const taken = await send('POST', URL_DEFS, {
      data: { attributes: { entity_type: 'shipment', api_slug: 'dup', display_name: 'Dup 2', data_type: 'number' } },
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors[0]).toMatchObject({
      source: { pointer: '/data/attributes/api_slug' },
      detail: expect.stringMatching(/already been taken/),
    });

    const wrong = await send('POST', URL_DEFS, {
      data: { attributes: { entity_type: 'Order', api_slug: 'Bad', display_name: '', data_type: 'money' } },
    });
    expect(wrong.statusCode).toBe(422);
    expect(pointers(wrong)).toEqual([
      '/data/attributes/entity_type',
      '/data/attributes/api_slug',
      '/data/attributes/data_type',
      '/data/attributes/display_name',
    ]);

    for (const [attributes, pointer] of [
      [{ data_type: 'reference' }, 'reference_type'],
      [{ data_type: 'short_text', reference_type: 'shipment' }, 'reference_type'],
      [{ data_type: 'short_text', validation: { colour: 'red' } }, 'validation'],
      [{ data_type: 'short_text', validation: { pattern: '^(?!x)' } }, 'validation/pattern'],
      [{ data_type: 'date', default_format: '%Q' }, 'default_format'],
      [{ data_type: 'boolean', default_value: 'yes' }, 'default_value'],
    ] as const) {
      const res = await send('POST', URL_DEFS, {
        data: { attributes: { entity_type: 'Shipment', api_slug: 'x_field', display_name: 'X field', ...attributes } },
      });
      expect(res.statusCode, JSON.stringify(attributes)).toBe(422);
      expect(pointers(res)).toEqual([`/data/attributes/${pointer}`]);
    }

    // RE2 matches in linear time: a pattern that would backtrack for hours answers at once, here as a refusal.
    const slow = await send('POST', URL_DEFS, {
      data: {
        attributes: {
          entity_type: 'Shipment',
          api_slug: 'x_field',
          display_name: 'X field',
          data_type: 'short_text',
          validation: { pattern: '^a*a*a*a*a*a*$' },
          default_value: `${'a'.repeat(999)}!`,
        },
      },
    });
    expect(slow.statusCode).toBe(422);
    expect(pointers(slow)).toEqual(['/data/attributes/default_value']);

    // Every problem at once: the base attributes' with validation's and default_value's.
    const many = await send('POST', URL_DEFS, {
      data: {
        attributes: {
          entity_type: 'Shipment',
          api_slug: 'Bad',
          display_name: '',
          data_type: 'short_text',
          validation: { pattern: '(?=x)' },
          default_format: '%Y',
          default_value: 12,
        },
      },
    });
    expect(many.statusCode).toBe(422);
    expect(pointers(many)).toEqual([
      '/data/attributes/api_slug',
      '/data/attributes/display_name',
      '/data/attributes/validation/pattern',
      '/data/attributes/default_format',
      '/data/attributes/default_value',
    ]);

    const def = await define({ entity_type: 'Shipment', api_slug: 'fixed', display_name: 'Fixed', data_type: 'number' });
    const change = await send('PATCH', `${URL_DEFS}/${def.id}`, { data: { attributes: { api_slug: 'other', data_type: 'date' } } });
    expect(change.statusCode).toBe(422);
    expect(pointers(change)).toEqual(['/data/attributes/api_slug', '/data/attributes/data_type']);
  });

  it('holds an account to 200 definitions', async () => {
    const other = await t.account();
    for (let i = 0; i < 200; i++) {
      await t.services.customFields.createDefinition(other.account.id, {
        entity_type: 'Shipment',
        api_slug: `f${i}`,
        display_name: `F${i}`,
        data_type: 'boolean',
      });
    }
    const res = await send(
      'POST',
      URL_DEFS,
      { data: { attributes: { entity_type: 'Shipment', api_slug: 'one_more', display_name: 'One more', data_type: 'boolean' } } },
      other.auth,
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ source: { pointer: '/data' }, detail: expect.stringMatching(/at most 200/) });
  });
});

describe('options', () => {
  it('are added to enum definitions only, unique by value, listed by position then value, value fixed, deleted with 200 {}', async () => {
    const def = await define({ entity_type: 'Shipment', api_slug: 'colour', display_name: 'Colour', data_type: 'enum' });
    const base = `${URL_DEFS}/${def.id}/options`;
    const red = await option(def.id, { label: 'Red', value: 'red', position: 2 });
    await option(def.id, { label: 'Blue', value: 'blue', position: 1 });
    await option(def.id, { label: 'Amber', value: 'amber' });
    await option(def.id, { label: 'Green', value: 'green', position: 2 });

    const dup = await send('POST', base, { data: { attributes: { label: 'Red again', value: 'red' } } });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors[0]).toMatchObject({
      source: { pointer: '/data/attributes/value' },
      detail: "Value 'red' has already been taken",
    });
    const blank = await send('POST', base, { data: { attributes: { label: ' ', value: '' } } });
    expect(pointers(blank)).toEqual(['/data/attributes/label', '/data/attributes/value']);

    const list = await send('GET', `${base}?page%5Bnumber%5D=1&page%5Bsize%5D=3`);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((o: { attributes: { value: string } }) => o.attributes.value)).toEqual(['blue', 'green', 'red']);
    expect(list.json().meta).toEqual({ size: 3, total: 4 });
    expect(list.json().links.next).toBe(`http://tidemark.test${base}?page[number]=2&page[size]=3`);

    const withOptions = await send('GET', `${URL_DEFS}/${def.id}?include=options`);
    expect(withOptions.json().data.relationships.options.data.map((r: { id: string }) => r.id)).toHaveLength(4);
    expect(
      withOptions.json().included.map((o: { type: string; attributes: { value: string } }) => `${o.type}:${o.attributes.value}`),
    ).toEqual(['custom_field_option:blue', 'custom_field_option:green', 'custom_field_option:red', 'custom_field_option:amber']);

    const got = await send('GET', `${base}/${red.id}`);
    expect(got.json().data).toEqual({
      id: red.id,
      type: 'custom_field_option',
      attributes: { label: 'Red', value: 'red', position: 2 },
      relationships: {},
      links: { self: `${base}/${red.id}` },
    });
    const relabel = await send('PATCH', `${base}/${red.id}`, { data: { attributes: { label: 'Crimson', position: null } } });
    expect(relabel.statusCode, relabel.body).toBe(200);
    expect(relabel.json().data.attributes).toEqual({ label: 'Crimson', value: 'red', position: null });
    const revalue = await send('PATCH', `${base}/${red.id}`, { data: { attributes: { value: 'scarlet' } } });
    expect(revalue.statusCode).toBe(422);
    expect(pointers(revalue)).toEqual(['/data/attributes/value']);

    const gone = await send('DELETE', `${base}/${red.id}`);
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toEqual({});
    expect((await send('GET', `${base}/${red.id}`)).json().errors[0].detail).toBe("Couldn't find CustomFieldOption");

    const text = await define({ entity_type: 'Shipment', api_slug: 'notes', display_name: 'Notes', data_type: 'short_text' });
    const refused = await send('POST', `${URL_DEFS}/${text.id}/options`, { data: { attributes: { label: 'A', value: 'a' } } });
    expect(refused.statusCode).toBe(422);
    expect(pointers(refused)).toEqual(['/data']);
    expect((await send('GET', `${URL_DEFS}/${newId()}/options`)).statusCode).toBe(404);
  });
});

describe('values of each data type on a shipment', () => {
  const OPTIONS = [
    { label: 'Red', value: 'red' },
    { label: 'Blue', value: 'blue' },
  ];
  const cases: {
    data_type: string;
    extra?: Record<string, unknown>;
    good: unknown;
    stored: unknown;
    shown: string;
    bad: unknown;
    says: RegExp;
  }[] = [
    { data_type: 'short_text', good: 'PO-1', stored: 'PO-1', shown: 'PO-1', bad: 12, says: /must be a string/ },
    {
      data_type: 'short_text',
      extra: { validation: { pattern: '^PO-\\d+$', required: true } },
      good: 'PO-22',
      stored: 'PO-22',
      shown: 'PO-22',
      bad: 'X-1',
      says: /does not match the pattern/,
    },
    {
      data_type: 'number',
      extra: { default_format: '%,.2f' },
      good: 1234.5,
      stored: 1234.5,
      shown: '1,234.50',
      bad: '1234.5',
      says: /must be a number/,
    },
    { data_type: 'number', extra: { validation: { min: 0 } }, good: 0, stored: 0, shown: '0', bad: -1, says: /at least 0/ },
    {
      data_type: 'date',
      extra: { default_format: '%d/%m/%Y' },
      good: '05/03/2026',
      stored: '2026-03-05',
      shown: '05/03/2026',
      bad: '2026-02-30',
      says: /date that exists/,
    },
    {
      data_type: 'datetime',
      good: '2026-03-05T10:00:00+02:00',
      stored: '2026-03-05T08:00:00Z',
      shown: '2026-03-05 08:00:00',
      bad: '2026-03-05 10:00',
      says: /ISO 8601/,
    },
    { data_type: 'boolean', good: false, stored: false, shown: 'No', bad: 'false', says: /true or false/ },
    { data_type: 'enum', good: 'blue', stored: 'blue', shown: 'Blue', bad: 'Blue', says: /not one of its options/ },
    {
      data_type: 'enum_multi',
      good: ['red', 'blue'],
      stored: ['red', 'blue'],
      shown: 'Red, Blue',
      bad: ['red', 'red'],
      says: /more than once/,
    },
  ];

  it.each(cases.map((c, i) => [`${c.data_type} #${i}`, c, i] as const))(
    '%s: a good value is stored and shown, a bad one is a 422 naming the field',
    async (_n, c, i) => {
      const slug = `v_${c.data_type}_${i}`;
      const def = await define({ entity_type: 'Shipment', api_slug: slug, display_name: `Field ${i}`, data_type: c.data_type, ...c.extra });
      if (c.data_type.startsWith('enum')) for (const o of OPTIONS) await option(def.id, o);
      const path = `/v2/shipments/${shipmentId}`;
      const good = await setOn(path, slug, c.good);
      expect(good.statusCode, good.body).toBe(201);
      expect(good.json().data).toMatchObject({
        type: 'custom_field',
        attributes: { api_slug: slug, value: c.stored, display_value: c.shown },
        relationships: {
          entity: { data: { type: 'shipment', id: shipmentId } },
          definition: { data: { type: 'custom_field_definition', id: def.id } },
        },
      });
      const bad = await setOn(path, slug, c.bad);
      expect(bad.statusCode, bad.body).toBe(422);
      expect(bad.json().errors).toEqual([
        expect.objectContaining({ status: '422', source: { pointer: '/data/attributes/value' }, detail: expect.stringMatching(c.says) }),
      ]);
      expect(bad.json().errors[0].detail).toContain(`Field ${i} (${slug})`);
      // Nothing half-written: the good value is still there.
      const list = await send('GET', `/v2/custom_fields?filter[definition_id]=${def.id}`);
      expect(list.json().data.map((f: { attributes: { value: unknown } }) => f.attributes.value)).toEqual([c.stored]);
    },
  );

  it('references: a record of the account, of the definition’s reference type', async () => {
    await define({
      entity_type: 'Shipment',
      api_slug: 'related',
      display_name: 'Related',
      data_type: 'reference',
      reference_type: 'container',
    });
    const path = `/v2/shipments/${shipmentId}`;
    const good = await setOn(path, 'related', { type: 'container', id: containerIds[0] });
    expect(good.statusCode, good.body).toBe(201);
    expect(good.json().data.attributes).toMatchObject({
      value: { type: 'container', id: containerIds[0] },
      display_value: containerIds[0],
    });
    const other = await t.account();
    const theirs = await seedShipment(t, other.account.id, { bl: 'MAEU000000009', containers: [{ number: 'MSCU7777770' }] });
    for (const [value, says] of [
      [{ type: 'container', id: theirs.containerIds[0] }, /does not have/],
      [{ type: 'shipment', id: shipmentId }, /must name a container/],
      [containerIds[0], /an object \{type, id\}/],
    ] as const) {
      const res = await setOn(path, 'related', value);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors[0]).toMatchObject({ source: { pointer: '/data/attributes/value' }, detail: expect.stringMatching(says) });
    }

    // A default names a record of the account too: on create and on update.
    const base = { entity_type: 'Shipment', display_name: 'Linked', data_type: 'reference', reference_type: 'container' };
    const foreign = { type: 'container', id: theirs.containerIds[0] };
    const created = await send('POST', URL_DEFS, { data: { attributes: { ...base, api_slug: 'linked', default_value: foreign } } });
    expect(created.statusCode).toBe(422);
    expect(created.json().errors[0]).toMatchObject({
      source: { pointer: '/data/attributes/default_value' },
      detail: 'Default value of Linked (linked) names a container the account does not have',
    });
    const mine = await define({ ...base, api_slug: 'linked', default_value: { type: 'container', id: containerIds[1] } });
    expect(mine.attributes.default_value).toEqual({ type: 'container', id: containerIds[1] });
    const updated = await send('PATCH', `${URL_DEFS}/${mine.id}`, { data: { attributes: { default_value: foreign } } });
    expect(updated.statusCode).toBe(422);
    expect(pointers(updated)).toEqual(['/data/attributes/default_value']);
    const kept = await send('GET', `${URL_DEFS}/${mine.id}`);
    expect(kept.json().data.attributes.default_value).toEqual({ type: 'container', id: containerIds[1] });
  });
});

describe('the database keeps values in their account (migration 0033)', () => {
  it("refuses a value or an option naming another account's definition, and a value on another account's record", async () => {
    const db = t.services.db;
    const mine = await define({ entity_type: 'Shipment', api_slug: 'keyed', display_name: 'Keyed', data_type: 'enum' });
    const other = await t.account();
    const theirs = await seedShipment(t, other.account.id, { bl: 'MAEU000000033', containers: [{ number: 'MSCU3333330' }] });
    const now = t.clock.now();
    const value = (account: string, shipment: string) =>
      db.query(
        `INSERT INTO custom_fields (id, account_id, definition_id, entity_type, shipment_id, value, created_at, updated_at)
         VALUES ($1, $2, $3, 'shipment', $4, '"x"', $5, $5)`,
        [newId(), account, mine.id, shipment, now],
      );
    // The other account's row naming this account's definition; this account's row on the other's shipment.
    await expect(value(other.account.id, theirs.id)).rejects.toThrow(/custom_fields_definition_fkey/);
    await expect(value(accountId, theirs.id)).rejects.toThrow(/custom_fields_shipment_fkey/);
    await expect(
      db.query(
        `INSERT INTO custom_field_options (id, account_id, definition_id, label, value, created_at, updated_at)
         VALUES ($1, $2, $3, 'X', 'x', $4, $4)`,
        [newId(), other.account.id, mine.id, now],
      ),
    ).rejects.toThrow(/custom_field_options_definition_fkey/);
    // Within the account it holds, and deleting the record still takes the value.
    await value(accountId, shipmentId);
    expect(await db.query('SELECT 1 FROM custom_fields WHERE definition_id = $1', [mine.id])).toHaveLength(1);
  });
});

describe('numbers as sent', () => {
  /** A body with a number written as given (JSON.stringify would round it first). */
  const raw = (method: 'POST' | 'PATCH', url: string, body: string) => {
    t.clock.advance(1000);
    return t.app.inject({ method, url, headers: { ...auth, ...json }, payload: body });
  };

  it('refuses a number a double does not hold as sent, where it is sent, and takes 15 significant digits', async () => {
    const def = await define({ entity_type: 'Shipment', api_slug: 'amount', display_name: 'Amount', data_type: 'number' });
    const path = `/v2/shipments/${shipmentId}/custom_fields`;
    const set = (n: string) => raw('POST', path, `{"data":{"type":"custom_field","attributes":{"api_slug":"amount","value":${n}}}}`);
    const rounded = await set('123456789012.000001');
    expect(rounded.statusCode, rounded.body).toBe(422);
    expect(rounded.json().errors[0]).toMatchObject({
      source: { pointer: '/data/attributes/value' },
      detail:
        'Value 123456789012.000001 has more than 15 significant digits: a JSON number holds 15 exactly, and it would be stored as 123456789012',
    });
    const good = await set('123456789012.125');
    expect(good.statusCode, good.body).toBe(201);
    expect(good.json().data.attributes.value).toBe(123456789012.125);
    const id = good.json().data.id as string;
    // A long number elsewhere in the body (a string) is not the value's.
    const patched = await raw(
      'PATCH',
      `/v2/custom_fields/${id}`,
      '{"data":{"type":"custom_field","id":"1234567890123456789","attributes":{"value":-1.5}}}',
    );
    expect(patched.statusCode, patched.body).toBe(200);
    const bySlug = await raw('PATCH', `${path}/amount`, '{"data":{"attributes":{"value":1.00000000000000001}}}');
    expect(bySlug.statusCode).toBe(422);
    expect(pointers(bySlug)).toEqual(['/data/attributes/value']);
    const defaultValue = await raw(
      'PATCH',
      `${URL_DEFS}/${def.id}`,
      '{"data":{"attributes":{"default_value":99999999999.9999999,"validation":{"min":0.1234567890123456}}}}',
    );
    expect(defaultValue.statusCode).toBe(422);
    expect(pointers(defaultValue)).toEqual(['/data/attributes/default_value', '/data/attributes/validation/min']);
  });
});

// Races need a second connection: PostgreSQL only (PGlite runs one transaction at a time).
describe.skipIf(!onServer())('writes racing deletes (PostgreSQL)', () => {
  /** Runs `sql` in an open transaction of another connection, starts `request`, commits once it waits on a lock. */
  async function whileDeleting(sql: string, params: unknown[], request: () => Promise<{ statusCode: number; body: string }>) {
    const other = new pg.Client({ connectionString: t.database.url! });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(sql, params);
      const pending = request();
      for (let i = 0; i < 200; i++) {
        const waiting = await other.query(
          "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
        );
        if (waiting.rowCount) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      await other.query('COMMIT');
      return await pending;
    } finally {
      await other.end();
    }
  }

  it('a PATCH of a value deleted meanwhile answers 404 and does not bring it back', async () => {
    await define({ entity_type: 'Shipment', api_slug: 'race_note', display_name: 'Race note', data_type: 'short_text' });
    const path = `/v2/shipments/${shipmentId}`;
    for (const url of [(id: string) => `/v2/custom_fields/${id}`, () => `${path}/custom_fields/race_note`]) {
      const set = await setOn(path, 'race_note', 'before');
      expect(set.statusCode).toBe(201);
      const id = set.json().data.id as string;
      const res = await whileDeleting('DELETE FROM custom_fields WHERE id = $1', [id], () =>
        send('PATCH', url(id), { data: { type: 'custom_field', attributes: { value: 'after' } } }),
      );
      expect(res.statusCode, res.body).toBe(404);
      const left = await t.services.db.query(
        'SELECT f.id FROM custom_fields f JOIN custom_field_definitions d ON d.id = f.definition_id WHERE d.api_slug = $1',
        ['race_note'],
      );
      expect(left).toEqual([]);
    }
  });

  it('a value written while its definition is deleted answers 404/422, never 500', async () => {
    const path = `/v2/shipments/${shipmentId}`;
    const post = await define({ entity_type: 'Shipment', api_slug: 'race_post', display_name: 'Race post', data_type: 'short_text' });
    const res = await whileDeleting('DELETE FROM custom_field_definitions WHERE id = $1', [post.id], () => setOn(path, 'race_post', 'x'));
    expect(res.statusCode, res.body).toBe(422);
    expect(pointers(res as never)).toEqual(['/data/attributes/api_slug']);

    const patch = await define({ entity_type: 'Shipment', api_slug: 'race_patch', display_name: 'Race patch', data_type: 'short_text' });
    const id = (await setOn(path, 'race_patch', 'x')).json().data.id as string;
    const res2 = await whileDeleting('DELETE FROM custom_field_definitions WHERE id = $1', [patch.id], () =>
      send('PATCH', `/v2/custom_fields/${id}`, { data: { type: 'custom_field', attributes: { value: 'y' } } }),
    );
    expect(res2.statusCode, res2.body).toBe(404);
  });
});

describe('per-entity routes', () => {
  it('set is an upsert answering 201 both times; list, update by slug, delete by slug (204)', async () => {
    await define({ entity_type: 'Container', api_slug: 'seal', display_name: 'Seal', data_type: 'short_text' });
    const path = `/v2/containers/${containerIds[0]}`;
    const first = await setOn(path, 'seal', 'S-1');
    const second = await setOn(path, 'seal', 'S-2');
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(second.json().data.id).toBe(first.json().data.id);
    expect(second.json().links.self).toBe(`http://tidemark.test/v2/custom_fields/${first.json().data.id}`);

    const list = await send('GET', `${path}/custom_fields`);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((f: { attributes: { value: string } }) => f.attributes.value)).toEqual(['S-2']);
    expect(list.json().meta).toEqual({ size: 1, total: 1 });
    expect((await send('GET', `/v2/containers/${containerIds[1]}/custom_fields`)).json().data).toEqual([]);

    const patched = await send('PATCH', `${path}/custom_fields/seal?include=definition`, {
      data: { type: 'custom_field', attributes: { value: 'S-3' } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().data.attributes.value).toBe('S-3');
    expect(patched.json().included.map((r: { type: string }) => r.type)).toEqual(['custom_field_definition']);

    const deleted = await send('DELETE', `${path}/custom_fields/seal`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await send('DELETE', `${path}/custom_fields/seal`)).statusCode).toBe(404);
    expect((await send('PATCH', `${path}/custom_fields/seal`, { data: { attributes: { value: 'x' } } })).statusCode).toBe(404);
  });

  it('an unknown slug for the entity type is a 422 at api_slug; an unknown record a 404; a missing value a 422', async () => {
    await define({ entity_type: 'Shipment', api_slug: 'only_shipments', display_name: 'Only shipments', data_type: 'boolean' });
    const onContainer = await setOn(`/v2/containers/${containerIds[0]}`, 'only_shipments', true);
    expect(onContainer.statusCode).toBe(422);
    expect(onContainer.json().errors[0]).toMatchObject({
      source: { pointer: '/data/attributes/api_slug' },
      detail: expect.stringMatching(/no Container custom field definition/),
    });
    const patch = await send('PATCH', `/v2/containers/${containerIds[0]}/custom_fields/only_shipments`, {
      data: { attributes: { value: true } },
    });
    expect(pointers(patch)).toEqual(['/data/attributes/api_slug']);
    for (const id of [newId(), 'not-a-uuid']) {
      const res = await setOn(`/v2/shipments/${id}`, 'only_shipments', true);
      expect(res.statusCode).toBe(404);
      expect(res.json().errors[0].detail).toBe("Couldn't find Shipment");
    }
    const missing = await send('POST', `/v2/shipments/${shipmentId}/custom_fields`, {
      data: { type: 'custom_field', attributes: { api_slug: 'only_shipments' } },
    });
    expect(missing.statusCode).toBe(422);
    expect(pointers(missing)).toEqual(['/data/attributes/value']);
  });

  it('tracking requests hold values of TrackingRequest definitions', async () => {
    await define({ entity_type: 'tracking_request', api_slug: 'requested_by', display_name: 'Requested by', data_type: 'short_text' });
    const path = `/v2/tracking_requests/${trackingRequestId}`;
    expect((await setOn(path, 'requested_by', 'Ana')).statusCode).toBe(201);
    const list = await send('GET', `${path}/custom_fields`);
    expect(list.json().data).toEqual([
      expect.objectContaining({
        attributes: { api_slug: 'requested_by', value: 'Ana', display_value: 'Ana' },
        relationships: expect.objectContaining({ entity: { data: { type: 'tracking_request', id: trackingRequestId } } }),
      }),
    ]);
    expect((await send('DELETE', `${path}/custom_fields/requested_by`)).statusCode).toBe(204);
  });
});

describe('/v2/custom_fields', () => {
  it('creates (an upsert, 201), lists with filters, reads with include=definition, updates, deletes with 200 {}', async () => {
    const def = await define({
      entity_type: 'Container',
      api_slug: 'temp',
      display_name: 'Temperature',
      data_type: 'number',
      default_format: '%.1f',
    });
    const create = (id: string, value: unknown) =>
      send('POST', '/v2/custom_fields', {
        data: {
          type: 'custom_field',
          attributes: { api_slug: 'temp', value },
          relationships: { entity: { data: { type: 'container', id } } },
        },
      });
    const a = await create(containerIds[0]!, -18);
    const again = await create(containerIds[0]!, -20);
    const b = await create(containerIds[1]!, 4);
    expect([a.statusCode, again.statusCode, b.statusCode]).toEqual([201, 201, 201]);
    expect(again.json().data.id).toBe(a.json().data.id);
    expect(again.json().data.attributes.display_value).toBe('-20.0');

    const ids = async (query: string) =>
      (await send('GET', `/v2/custom_fields?filter[definition_id]=${def.id}${query}`)).json().data.map((f: { id: string }) => f.id);
    expect(await ids('')).toEqual([a.json().data.id, b.json().data.id]);
    expect(await ids(`&filter[entity_id]=${containerIds[1]}`)).toEqual([b.json().data.id]);
    expect(await ids('&filter[entity_type]=Cargo')).toHaveLength(2);
    expect(await ids('&filter[entity_type]=Shipment')).toEqual([]);
    const badFilter = await send('GET', '/v2/custom_fields?filter[entity_id]=nope');
    expect(badFilter.statusCode).toBe(400);
    expect(badFilter.json().errors[0].source).toEqual({ parameter: 'filter[entity_id]' });

    const id = b.json().data.id;
    const got = await send('GET', `/v2/custom_fields/${id}?include=definition`);
    expect(got.json().included).toEqual([expect.objectContaining({ type: 'custom_field_definition', id: def.id })]);
    const patched = await send('PATCH', `/v2/custom_fields/${id}`, { data: { type: 'custom_field', id, attributes: { value: 5.25 } } });
    expect(patched.json().data.attributes).toEqual({ api_slug: 'temp', value: 5.25, display_value: '5.3' });
    const badPatch = await send('PATCH', `/v2/custom_fields/${id}`, { data: { attributes: { value: 'warm' } } });
    expect(pointers(badPatch)).toEqual(['/data/attributes/value']);

    const deleted = await send('DELETE', `/v2/custom_fields/${id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({});
    expect((await send('GET', `/v2/custom_fields/${id}`)).json().errors[0].detail).toBe("Couldn't find CustomField");
    expect((await send('GET', `${URL_DEFS}/${def.id}`)).statusCode).toBe(200);

    const wrongType = await send('POST', '/v2/custom_fields', {
      data: { attributes: { api_slug: 'temp', value: 1 }, relationships: { entity: { data: { type: 'vessel', id: containerIds[0] } } } },
    });
    expect(wrongType.statusCode).toBe(422);
    expect(pointers(wrongType)).toEqual(['/data/relationships/entity/data/type']);
  });
});

describe('cascades', () => {
  it('deleting a definition deletes its values; deleting an option leaves values showing the raw value', async () => {
    const def = await define({ entity_type: 'Shipment', api_slug: 'tags_multi', display_name: 'Tags', data_type: 'enum_multi' });
    const hot = await option(def.id, { label: 'Hot', value: 'hot' });
    await option(def.id, { label: 'Fragile', value: 'fragile' });
    const set = await setOn(`/v2/shipments/${shipmentId}`, 'tags_multi', ['hot', 'fragile']);
    const fieldId = set.json().data.id;
    expect(set.json().data.attributes.display_value).toBe('Hot, Fragile');

    expect((await send('DELETE', `${URL_DEFS}/${def.id}/options/${hot.id}`)).statusCode).toBe(200);
    const after = await send('GET', `/v2/custom_fields/${fieldId}`);
    expect(after.json().data.attributes).toEqual({ api_slug: 'tags_multi', value: ['hot', 'fragile'], display_value: 'hot, Fragile' });

    expect((await send('DELETE', `${URL_DEFS}/${def.id}`)).statusCode).toBe(200);
    expect((await send('GET', `/v2/custom_fields/${fieldId}`)).statusCode).toBe(404);
    const rows = await t.services.db.query('SELECT id FROM custom_field_options WHERE definition_id = $1', [def.id]);
    expect(rows).toEqual([]);
  });
});

describe('tenant isolation', () => {
  it('another account gets 404 for every id of this one, and never sees a row', async () => {
    const def = await define({ entity_type: 'Shipment', api_slug: 'secret', display_name: 'Secret', data_type: 'enum' });
    const opt = await option(def.id, { label: 'Yes', value: 'yes' });
    const field = (await setOn(`/v2/shipments/${shipmentId}`, 'secret', 'yes')).json().data.id;
    const other = await t.account();
    await define({ entity_type: 'Shipment', api_slug: 'secret', display_name: 'Their secret', data_type: 'enum' }, other.auth);
    const o = other.auth;
    const attempts: [string, string, unknown?][] = [
      ['GET', `${URL_DEFS}/${def.id}`],
      ['PATCH', `${URL_DEFS}/${def.id}`, { data: { attributes: { display_name: 'Mine' } } }],
      ['DELETE', `${URL_DEFS}/${def.id}`],
      ['GET', `${URL_DEFS}/${def.id}/options`],
      ['POST', `${URL_DEFS}/${def.id}/options`, { data: { attributes: { label: 'No', value: 'no' } } }],
      ['GET', `${URL_DEFS}/${def.id}/options/${opt.id}`],
      ['PATCH', `${URL_DEFS}/${def.id}/options/${opt.id}`, { data: { attributes: { label: 'No' } } }],
      ['DELETE', `${URL_DEFS}/${def.id}/options/${opt.id}`],
      ['GET', `/v2/custom_fields/${field}`],
      ['PATCH', `/v2/custom_fields/${field}`, { data: { attributes: { value: 'yes' } } }],
      ['DELETE', `/v2/custom_fields/${field}`],
      ['GET', `/v2/shipments/${shipmentId}/custom_fields`],
      ['POST', `/v2/shipments/${shipmentId}/custom_fields`, { data: { attributes: { api_slug: 'secret', value: null } } }],
      ['PATCH', `/v2/shipments/${shipmentId}/custom_fields/secret`, { data: { attributes: { value: null } } }],
      ['DELETE', `/v2/shipments/${shipmentId}/custom_fields/secret`],
      ['GET', `/v2/containers/${containerIds[0]}/custom_fields`],
      ['GET', `/v2/tracking_requests/${trackingRequestId}/custom_fields`],
      [
        'POST',
        '/v2/custom_fields',
        {
          data: {
            attributes: { api_slug: 'secret', value: null },
            relationships: { entity: { data: { type: 'shipment', id: shipmentId } } },
          },
        },
      ],
    ];
    for (const [method, url, payload] of attempts) {
      const res = await send(method as 'GET', url, payload, o);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    for (const url of [
      URL_DEFS,
      '/v2/custom_fields',
      `/v2/custom_fields?filter[entity_id]=${shipmentId}`,
      `/v2/custom_fields?filter[definition_id]=${def.id}`,
    ]) {
      const res = await send('GET', url, undefined, o);
      const { data, included } = res.json();
      expect(JSON.stringify({ data, included }), url).not.toContain(def.id);
      expect(JSON.stringify({ data, included }), url).not.toContain('"Secret"');
      expect(JSON.stringify({ data, included }), url).not.toContain(field);
    }
    // Nothing of this account changed.
    const mine = await send('GET', `/v2/custom_fields/${field}?include=definition`);
    expect(mine.json().data.attributes.value).toBe('yes');
    expect(mine.json().included[0].attributes.display_name).toBe('Secret');
    expect((await send('GET', `${URL_DEFS}/${def.id}/options`)).json().meta.total).toBe(1);
  });
});
