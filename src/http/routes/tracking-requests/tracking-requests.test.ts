import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../../test/kit/app.js';
import { newId } from '../../../lib/ids.js';

let t: TestApp;
let auth: { authorization: string };
let accountId: string;
beforeAll(async () => {
  t = await testApp({ queue: true });
  const a = await t.account();
  auth = a.auth;
  accountId = a.account.id;
});
afterAll(() => t.close());

const json = { 'content-type': 'application/json' };

function post(attributes: Record<string, unknown>, headers = auth, relationships?: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/v2/tracking_requests',
    headers: { ...headers, ...json },
    payload: { data: { type: 'tracking_request', attributes, ...(relationships ? { relationships } : {}) } },
  });
}

async function count(table: string, where = 'TRUE', values: unknown[] = []): Promise<number> {
  const [row] = await t.database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, values);
  return row!.n;
}

const jobs = () => count('pgboss.job', "name = 'tracking.attempt'");

describe('POST /v2/tracking_requests', () => {
  it('accepts a request at once: 201, pending, no tracked object, its carrier included, one attempt queued', async () => {
    const before = await jobs();
    const res = await post({
      request_type: 'bill_of_lading',
      request_number: ' maeu240100001 ',
      scac: 'maeu',
      ref_numbers: ['PO-1', ' ', 'PO-1', 'PO-2'],
      shipment_tags: ['urgent'],
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.data).toMatchObject({
      type: 'tracking_request',
      attributes: {
        request_number: 'MAEU240100001',
        request_type: 'bill_of_lading',
        scac: 'MAEU',
        ref_numbers: ['PO-1', 'PO-2'],
        shipment_tags: ['urgent'],
        status: 'pending',
        failed_reason: null,
        is_retrying: false,
        retry_count: null,
      },
      relationships: { tracked_object: { data: null }, customer: { data: null }, user: { data: null } },
      links: { self: `/v2/tracking_requests/${body.data.id}` },
    });
    expect(body.data.attributes.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    // As the reference's 201: the account, then the shipping line.
    expect(body.included).toEqual([
      expect.objectContaining({
        type: 'account',
        id: accountId,
        attributes: expect.objectContaining({ company_name: expect.any(String) }),
      }),
      expect.objectContaining({ type: 'shipping_line', attributes: expect.objectContaining({ scac: 'MAEU' }) }),
    ]);
    expect(await jobs()).toBe(before + 1);
  });

  it('takes the canonical SCAC for an alternative one, TEST, and no SCAC with auto-detect', async () => {
    expect((await post({ request_type: 'bill_of_lading', request_number: 'MEDU1', scac: 'MEDU' })).json().data.attributes.scac).toBe(
      'MSCU',
    );
    expect((await post({ request_type: 'bill_of_lading', request_number: 'TEST-TR-SUCCEEDED', scac: 'TEST' })).statusCode).toBe(201);
    const auto = await post({ request_type: 'bill_of_lading', request_number: 'MAEU240100099', auto_detect_vocc_scac: true });
    expect(auto.statusCode).toBe(201);
    expect(auto.json().data.attributes.scac).toBe('');
    expect(auto.json().included.map((r: { type: string }) => r.type)).toEqual(['account']);
  });

  it('links a customer party of the account', async () => {
    const party = await t.app.inject({
      method: 'POST',
      url: '/v2/parties',
      headers: { ...auth, ...json },
      payload: { data: { attributes: { company_name: `Cust ${newId()}` } } },
    });
    const id = party.json().data.id;
    const res = await post({ request_type: 'container', request_number: 'MSKU 907032-3', scac: 'MAEU' }, auth, {
      customer: { data: { id, type: 'party' } },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.attributes.request_number).toBe('MSKU9070323');
    expect(res.json().data.relationships.customer.data).toEqual({ id, type: 'party' });
  });

  const invalid: [string, Record<string, unknown>, string, string, Record<string, unknown>?][] = [
    [
      'a blank number',
      { request_type: 'bill_of_lading', request_number: '  ', scac: 'MAEU' },
      '/data/attributes/request_number',
      "can't be blank",
    ],
    ['a missing number', { request_type: 'bill_of_lading', scac: 'MAEU' }, '/data/attributes/request_number', ''],
    ['an unknown request type', { request_type: 'vessel', request_number: 'X1', scac: 'MAEU' }, '/data/attributes/request_type', ''],
    ['no SCAC without auto-detect', { request_type: 'bill_of_lading', request_number: 'MAEU1' }, '/data/attributes/scac', "can't be blank"],
    [
      'a blank SCAC without auto-detect',
      { request_type: 'bill_of_lading', request_number: 'MAEU1', scac: ' ' },
      '/data/attributes/scac',
      "can't be blank",
    ],
    [
      'an unknown SCAC',
      { request_type: 'bill_of_lading', request_number: 'ZZZZ1', scac: 'ZZZZ' },
      '/data/attributes/scac',
      'not recognized',
    ],
    [
      'a carrier the account may not track',
      { request_type: 'bill_of_lading', request_number: 'SMLU1', scac: 'SMLU' },
      '/data/attributes/scac',
      'not enabled',
    ],
    [
      'a bad check digit',
      { request_type: 'container', request_number: 'MSKU9070324', scac: 'MAEU' },
      '/data/attributes/request_number',
      'check digit',
    ],
    [
      'a malformed container number',
      { request_type: 'container', request_number: 'MSK9070323', scac: 'MAEU' },
      '/data/attributes/request_number',
      'not a valid container number',
    ],
    [
      'ref numbers that are not strings',
      { request_type: 'bill_of_lading', request_number: 'MAEU1', scac: 'MAEU', ref_numbers: [1] },
      '/data/attributes/ref_numbers/0',
      '',
    ],
    [
      'an unknown customer',
      { request_type: 'bill_of_lading', request_number: 'MAEU1', scac: 'MAEU' },
      '/data/relationships/customer/data/id',
      'not found',
      { customer: { data: { id: newId(), type: 'party' } } },
    ],
  ];
  it.each(invalid)(
    'refuses %s with 422 naming the field, and writes nothing',
    async (_name, attributes, pointer, detail, relationships) => {
      const before = [await count('tracking_requests'), await jobs()];
      const res = await post(attributes, auth, relationships);
      expect(res.statusCode).toBe(422);
      const errors = res.json().errors as { detail: string; source: { pointer: string } }[];
      const error = errors.find((e) => e.source?.pointer === pointer);
      expect(error, JSON.stringify(errors)).toBeDefined();
      expect(error!.detail).toContain(detail);
      expect([await count('tracking_requests'), await jobs()]).toEqual(before);
    },
  );

  it('refuses a track-by the carrier does not offer', async () => {
    // Carriers that take no container numbers: pick one from the reference table.
    const lines = (await t.app.inject({ method: 'GET', url: '/v2/shipping_lines?page[size]=100', headers: auth })).json().data as {
      attributes: { scac: string; supports_container_number?: boolean; [k: string]: unknown };
    }[];
    const { carrierByScac } = await import('../../../sources/reference/index.js');
    const noContainers = lines.map((l) => carrierByScac(l.attributes.scac)!).find((c) => !c.trackByContainer);
    if (!noContainers) return;
    const res = await post({ request_type: 'container', request_number: 'MSKU9070323', scac: noContainers.scac });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ source: { pointer: '/data/attributes/request_type' } });
    expect(res.json().errors[0].detail).toContain('does not support tracking by container number');
  });

  it('refuses a free account at its cap of 10 active containers with plan_limit_reached, queueing nothing', async () => {
    const free = await t.account({ plan: 'free' });
    const db = t.database.db;
    const shipment = newId();
    const now = new Date();
    await db.query(
      `INSERT INTO shipments (id, account_id, bill_of_lading_number, created_at, updated_at) VALUES ($1, $2, 'CAP1', $3, $3)`,
      [shipment, free.account.id, now],
    );
    for (let i = 0; i < 10; i++) {
      await db.query(
        `INSERT INTO containers (id, account_id, shipment_id, number, current_status, snapshot, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'new', '{}', $5, $5)`,
        [newId(), free.account.id, shipment, `CAPU000000${i}`, now],
      );
    }
    const before = [await count('tracking_requests'), await jobs()];
    const res = await post({ request_type: 'bill_of_lading', request_number: 'MAEU1', scac: 'MAEU' }, free.auth);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ code: 'plan_limit_reached' });
    expect([await count('tracking_requests'), await jobs()]).toEqual(before);
    // A stopped shipment's containers no longer count.
    await db.query('UPDATE shipments SET line_tracking_stopped_at = now() WHERE id = $1', [shipment]);
    expect((await post({ request_type: 'bill_of_lading', request_number: 'MAEU1', scac: 'MAEU' }, free.auth)).statusCode).toBe(201);
  });
});

describe('GET /v2/tracking_requests', () => {
  it('lists the account’s requests newest first, with filters, paging and the shipment included by default', async () => {
    const other = await t.account();
    const mine = [];
    for (const n of ['OOLU1000', 'OOLU2000', 'OOLU3000']) {
      mine.push(
        (await post({ request_type: 'booking_number', request_number: n, scac: 'OOLU', ref_numbers: [`REF-${n}`] }, other.auth)).json()
          .data,
      );
      t.clock.advance(1000);
    }
    const list = async (query: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/v2/tracking_requests${query}`, headers: other.auth });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const all = await list('');
    expect(all.data.map((d: { id: string }) => d.id)).toEqual(mine.map((d) => d.id).reverse());
    expect(all.meta).toMatchObject({ size: 3, total: 3 });
    expect(all.included).toEqual([]);

    expect((await list('?q=ref-oolu2')).data.map((d: { id: string }) => d.id)).toEqual([mine[1].id]);
    expect((await list('?filter[request_number]=oolu3000')).data.map((d: { id: string }) => d.id)).toEqual([mine[2].id]);
    expect((await list('?filter[status]=pending,succeeded')).meta.total).toBe(3);
    expect((await list('?filter[status]=failed')).meta.total).toBe(0);
    expect((await list('?filter[scac]=oolu')).meta.total).toBe(3);
    expect((await list('?filter[request_type]=container')).meta.total).toBe(0);
    const created = mine[1].attributes.created_at as string;
    expect((await list(`?filter[created_at][start]=${created}`)).meta.total).toBe(2);
    expect((await list(`?filter[created_at][end]=${created}`)).meta.total).toBe(2);

    const page = await list('?page[size]=2');
    expect(page.data.length).toBe(2);
    expect(decodeURIComponent(page.links.next)).toContain('page[number]=2');
    const last = await list('?page[size]=2&page[number]=2');
    expect(last.data.map((d: { id: string }) => d.id)).toEqual([mine[0].id]);
    expect(last.links.next).toBeUndefined();
  });

  it.each([
    ['filter[status]=bogus', 'filter[status]'],
    ['filter[created_at][start]=yesterday', 'filter[created_at][start]'],
    ['filter[request_type]=ship', 'filter[request_type]'],
    ['include=nonsense', 'include'],
  ])('answers 400 naming the parameter for %s', async (query, parameter) => {
    const res = await t.app.inject({ method: 'GET', url: `/v2/tracking_requests?${query}`, headers: auth });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].source).toEqual({ parameter });
  });

  it('includes the tracked shipment once the request has one', async () => {
    const created = (await post({ request_type: 'bill_of_lading', request_number: 'HLCU1', scac: 'HLCU' })).json().data;
    const shipment = newId();
    const now = new Date();
    await t.database.db.query(
      `INSERT INTO shipments (id, account_id, bill_of_lading_number, created_at, updated_at) VALUES ($1, $2, 'HLCU1', $3, $3)`,
      [shipment, accountId, now],
    );
    await t.database.db.query(`UPDATE tracking_requests SET status = 'created', shipment_id = $2 WHERE id = $1`, [created.id, shipment]);
    const res = await t.app.inject({ method: 'GET', url: `/v2/tracking_requests/${created.id}`, headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.relationships.tracked_object.data).toEqual({ id: shipment, type: 'shipment' });
    expect(res.json().included).toEqual([expect.objectContaining({ id: shipment, type: 'shipment' })]);
    const listed = await t.app.inject({ method: 'GET', url: '/v2/tracking_requests?filter[request_number]=HLCU1', headers: auth });
    expect(listed.json().included.map((r: { id: string }) => r.id)).toEqual([shipment]);
  });
});

describe('GET and PATCH /v2/tracking_requests/{id}', () => {
  it('reads and edits the account’s own request; another account’s or an unknown id is 404', async () => {
    const created = (await post({ request_type: 'bill_of_lading', request_number: 'CMDU1', scac: 'CMDU' })).json().data;
    const url = `/v2/tracking_requests/${created.id}`;
    const got = await t.app.inject({ method: 'GET', url, headers: auth });
    expect(got.statusCode).toBe(200);
    expect(got.json().data.id).toBe(created.id);

    const patched = await t.app.inject({
      method: 'PATCH',
      url,
      headers: { ...auth, ...json },
      payload: { data: { type: 'tracking_request', attributes: { ref_number: 'PO-77' } } },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data.attributes.ref_numbers).toEqual(['PO-77']);
    const many = await t.app.inject({
      method: 'PATCH',
      url,
      headers: { ...auth, ...json },
      payload: { data: { attributes: { ref_numbers: ['A', 'B'] } } },
    });
    expect(many.json().data.attributes.ref_numbers).toEqual(['A', 'B']);
    // One string is a list of one (the reference's CLI sends `--attr ref_numbers=X` so).
    const one = await t.app.inject({
      method: 'PATCH',
      url,
      headers: { ...auth, ...json },
      payload: { data: { attributes: { ref_numbers: 'C' } } },
    });
    expect(one.json().data.attributes.ref_numbers).toEqual(['C']);
    const empty = await t.app.inject({ method: 'PATCH', url, headers: { ...auth, ...json }, payload: { data: { attributes: {} } } });
    expect(empty.statusCode).toBe(422);

    const stranger = await t.account();
    expect((await t.app.inject({ method: 'GET', url, headers: stranger.auth })).statusCode).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url,
          headers: { ...stranger.auth, ...json },
          payload: { data: { attributes: { ref_number: 'X' } } },
        })
      ).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/v2/tracking_requests/nope', headers: auth })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/v2/tracking_requests/${newId()}`, headers: auth })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
  });
});
