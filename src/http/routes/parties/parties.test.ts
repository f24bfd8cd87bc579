import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../../test/kit/app.js';

let t: TestApp;
let auth: { authorization: string };
beforeAll(async () => {
  t = await testApp();
  ({ auth } = await t.account());
});
afterAll(() => t.close());

const json = { 'content-type': 'application/json' };

describe('POST /v2/parties', () => {
  it('creates a party and answers 201 with the resource and its links', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/parties',
      headers: { ...auth, ...json },
      payload: { data: { type: 'party', attributes: { company_name: 'Acme Imports' } } },
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
    const body = res.json();
    expect(body.data).toMatchObject({ type: 'party', attributes: { company_name: 'Acme Imports' }, relationships: {} });
    expect(body.data.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.data.links.self).toBe(`/v2/parties/${body.data.id}`);
    expect(body.links.self).toBe(`/v2/parties/${body.data.id}`);
  });

  it('accepts application/vnd.api+json with parameters', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/parties',
      headers: { ...auth, 'content-type': 'application/vnd.api+json; charset=utf-8', accept: 'application/json' },
      payload: JSON.stringify({ data: { attributes: { company_name: 'Vnd Co' } } }),
    });
    expect(res.statusCode).toBe(201);
  });

  it.each([
    ['blank', { data: { attributes: { company_name: '   ' } } }, "Company name can't be blank"],
    ['missing', { data: { attributes: {} } }, "Company name can't be blank"],
    ['null', { data: { attributes: { company_name: null } } }, "Company name can't be blank"],
  ])('refuses a %s company name with 422 and a pointer', async (_case, payload, detail) => {
    const res = await t.app.inject({ method: 'POST', url: '/v2/parties', headers: { ...auth, ...json }, payload });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([
      expect.objectContaining({
        status: '422',
        title: 'Unprocessable Entity',
        detail,
        source: { pointer: '/data/attributes/company_name' },
      }),
    ]);
  });

  it('refuses a party the account already has (any case), and writes nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/parties',
      headers: { ...auth, ...json },
      payload: { data: { attributes: { company_name: 'ACME imports' } } },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({
      source: { pointer: '/data/attributes/company_name' },
      detail: "'ACME imports' already exists in Account",
    });
    const list = await t.app.inject({ url: '/v2/parties?page[size]=100', headers: auth });
    expect(list.json().data.filter((p: { attributes: { company_name: string } }) => /acme/i.test(p.attributes.company_name))).toHaveLength(
      1,
    );
  });

  it('lets another account use the same name', async () => {
    const other = await t.account();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/parties',
      headers: { ...other.auth, ...json },
      payload: { data: { attributes: { company_name: 'Acme Imports' } } },
    });
    expect(res.statusCode).toBe(201);
  });

  it('reports every wrong field at once', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/parties',
      headers: { ...auth, ...json },
      payload: { data: { type: 'shipment', attributes: { company_name: 7 } } },
    });
    expect(res.statusCode).toBe(422);
    const pointers = res
      .json()
      .errors.map((e: { source: { pointer: string } }) => e.source.pointer)
      .sort();
    expect(pointers).toEqual(['/data/attributes/company_name', '/data/type']);
  });

  it('answers broken JSON with 400, other media types with 415, no body with 422', async () => {
    const broken = await t.app.inject({ method: 'POST', url: '/v2/parties', headers: { ...auth, ...json }, payload: '{"data":' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().errors[0]).toMatchObject({ status: '400', title: 'Bad Request' });
    const text = await t.app.inject({
      method: 'POST',
      url: '/v2/parties',
      headers: { ...auth, 'content-type': 'text/plain' },
      payload: 'Acme',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().errors[0].status).toBe('415');
    const none = await t.app.inject({ method: 'POST', url: '/v2/parties', headers: auth });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors[0].source.pointer).toBe('/data');
  });
});

describe('GET /v2/parties', () => {
  it('lists newest first, 25 a page by default, with links and pagination meta', async () => {
    const { auth: a } = await t.account();
    for (let i = 0; i < 27; i++) {
      t.clock.advance(1000);
      await t.services.parties.create((await t.services.accounts.list(t.services.db)).at(-1)!.id, `Party ${i}`);
    }
    const res = await t.app.inject({ url: '/v2/parties', headers: a });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toHaveLength(25);
    expect(body.data[0].attributes.company_name).toBe('Party 26');
    expect(body.meta).toEqual({ size: 25, total: 27, pagination: { current: 1, next: 2, last: 2, records: 27 } });
    expect(body.links.next).toBe('http://tidemark.test/v2/parties?page[number]=2&page[size]=25');
    const page2 = await t.app.inject({ url: '/v2/parties?page%5Bnumber%5D=2', headers: a });
    expect(page2.json().data.map((p: { attributes: { company_name: string } }) => p.attributes.company_name)).toEqual([
      'Party 1',
      'Party 0',
    ]);
    expect(page2.json().links).not.toHaveProperty('next');
  });

  it('rejects a bad page size with 400 naming the parameter', async () => {
    const res = await t.app.inject({ url: '/v2/parties?page[size]=zero', headers: auth });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].source).toEqual({ parameter: 'page[size]' });
  });
});

describe('GET and PATCH /v2/parties/{id}', () => {
  it('reads and renames a party; another account sees 404', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v2/parties',
      headers: { ...auth, ...json },
      payload: { data: { attributes: { company_name: 'Before' } } },
    });
    const id = created.json().data.id;
    const got = await t.app.inject({ url: `/v2/parties/${id}`, headers: auth });
    expect(got.statusCode).toBe(200);
    expect(got.json().links.self).toBe(`http://tidemark.test/v2/parties/${id}`);

    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/v2/parties/${id}`,
      headers: { ...auth, ...json },
      payload: { data: { type: 'party', id, attributes: { company_name: 'After' } } },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data.attributes.company_name).toBe('After');

    const other = await t.account();
    const hidden = await t.app.inject({ url: `/v2/parties/${id}`, headers: other.auth });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toMatchObject({ errors: [{ status: '404', title: 'Not Found' }] });
    const hiddenPatch = await t.app.inject({
      method: 'PATCH',
      url: `/v2/parties/${id}`,
      headers: { ...other.auth, ...json },
      payload: { data: { attributes: { company_name: 'Hijack' } } },
    });
    expect(hiddenPatch.statusCode).toBe(404);
    const still = await t.app.inject({ url: `/v2/parties/${id}`, headers: auth });
    expect(still.json().data.attributes.company_name).toBe('After');
  });

  it('refuses renaming to a blank or taken name', async () => {
    const mk = async (name: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/v2/parties',
          headers: { ...auth, ...json },
          payload: { data: { attributes: { company_name: name } } },
        })
      ).json().data.id as string;
    const a = await mk('Rename A');
    await mk('Rename B');
    for (const [name, status] of [
      ['', 422],
      ['rename b', 422],
      ['Rename A', 200],
    ] as const) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/v2/parties/${a}`,
        headers: { ...auth, ...json },
        payload: { data: { attributes: { company_name: name } } },
      });
      expect(res.statusCode, name).toBe(status);
    }
  });

  it('answers 404 for ids that are not UUIDs', async () => {
    const res = await t.app.inject({ url: '/v2/parties/not-a-uuid', headers: auth });
    expect(res.statusCode).toBe(404);
  });
});
