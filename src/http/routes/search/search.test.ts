import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../../test/kit/app.js';
import { newId } from '../../../lib/ids.js';
import { insertShipment } from '../../../storage/repositories/shipments.js';
import { insertTrackingRequest, type TrackingRequestStatus } from '../../../storage/repositories/tracking-requests.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

interface Hit {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, { data: unknown }>;
}

/** Every row is a second newer than the one before, so recency is the order of creation. */
function tick(): Date {
  t.clock.advance(1000);
  return t.clock.now();
}

async function shipment(
  accountId: string,
  bl: string,
  opts: { refs?: string[]; booking?: string; stopped?: string; pol?: string; pod?: string } = {},
): Promise<string> {
  const id = newId();
  const at = tick();
  await insertShipment(t.services.db, {
    id,
    account_id: accountId,
    bill_of_lading_number: bl,
    request_number: bl,
    ref_numbers: opts.refs ?? [],
    shipping_line_scac: 'MAEU',
    created_at: at,
    updated_at: at,
  });
  await t.services.db.query(
    `UPDATE shipments SET booking_number = $2, port_of_lading_name = $3, port_of_discharge_name = $4,
       line_tracking_stopped_at = $5, line_tracking_stopped_reason = $6 WHERE id = $1`,
    [id, opts.booking ?? null, opts.pol ?? null, opts.pod ?? null, opts.stopped ? at : null, opts.stopped ?? null],
  );
  return id;
}

async function container(
  accountId: string,
  shipmentId: string,
  number: string,
  opts: { refs?: string[]; status?: string } = {},
): Promise<string> {
  const id = newId();
  const at = tick();
  await t.services.db.query(
    `INSERT INTO containers (id, account_id, shipment_id, number, ref_numbers, current_status, snapshot, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, '{}', $7, $7)`,
    [id, accountId, shipmentId, number, opts.refs ?? [], opts.status ?? 'on_ship', at],
  );
  return id;
}

async function request(
  accountId: string,
  number: string,
  opts: { refs?: string[]; status?: TrackingRequestStatus; failedReason?: string; shipmentId?: string; type?: 'container' } = {},
): Promise<string> {
  const id = newId();
  const at = tick();
  await insertTrackingRequest(t.services.db, {
    id,
    account_id: accountId,
    request_type: opts.type ?? 'bill_of_lading',
    request_number: number,
    scac: 'MAEU',
    auto_detect_scac: false,
    ref_numbers: opts.refs ?? [],
    shipment_tags: [],
    customer_id: null,
    next_attempt_at: null,
    created_at: at,
    updated_at: at,
  });
  await t.services.db.query('UPDATE tracking_requests SET status = $2, failed_reason = $3, shipment_id = $4 WHERE id = $1', [
    id,
    opts.status ?? 'pending',
    opts.failedReason ?? null,
    opts.shipmentId ?? null,
  ]);
  return id;
}

async function search(auth: { authorization: string }, query: string): Promise<Hit[]> {
  const res = await t.app.inject({ url: `/v2/search?query=${encodeURIComponent(query)}`, headers: auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

const summary = (hits: Hit[]) => hits.map((h) => `${h.attributes.entity_type}:${h.attributes.number}`);

describe('GET /v2/search', () => {
  it('answers a JSON:API document of search_results with absolute self and current links and no meta', async () => {
    const { account, auth } = await t.account();
    const s = await shipment(account.id, 'MAEU261000001', {
      refs: ['PO-77'],
      pol: 'Shanghai',
      pod: 'Los Angeles',
    });
    const c1 = await container(account.id, s, 'MSKU9070323', { status: 'available', refs: ['CREF-1'] });
    await container(account.id, s, 'MSKU1234565');
    const tr = await request(account.id, 'MAEU261000009', { status: 'failed', failedReason: 'not_found' });

    const res = await t.app.inject({ url: '/v2/search?query=maeu261000001', headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'links']);
    expect(body.links).toEqual({
      self: 'http://tidemark.test/v2/search?query=maeu261000001',
      current: 'http://tidemark.test/v2/search?query=maeu261000001',
    });
    expect(body.data).toEqual([
      {
        id: s,
        type: 'search_result',
        attributes: {
          entity_type: 'shipment',
          number: 'MAEU261000001',
          shipment_id: s,
          scac: 'MAEU',
          port_of_lading_name: 'Shanghai',
          port_of_discharge_name: 'Los Angeles',
          containers_count: 2,
          tracking_stopped: false,
          tracking_stopped_reason: null,
          status: 'created',
          failed_reason: null,
          ref_numbers: ['PO-77'],
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
          updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        },
        relationships: { shipment: { data: { id: s, type: 'shipment' } } },
      },
    ]);

    const cargo = (await search(auth, 'MSKU9070323'))[0]!;
    expect(cargo).toMatchObject({
      id: c1,
      type: 'search_result',
      attributes: {
        entity_type: 'cargo',
        number: 'MSKU9070323',
        shipment_id: s,
        scac: 'MAEU',
        port_of_lading_name: 'Shanghai',
        containers_count: 2,
        status: 'available',
        ref_numbers: ['CREF-1'],
        tracking_stopped: false,
        failed_reason: null,
      },
      relationships: { shipment: { data: { id: s, type: 'shipment' } } },
    });

    const failed = (await search(auth, 'MAEU261000009'))[0]!;
    expect(failed).toMatchObject({
      id: tr,
      attributes: {
        entity_type: 'tracking_request',
        number: 'MAEU261000009',
        shipment_id: null,
        scac: 'MAEU',
        port_of_lading_name: null,
        containers_count: null,
        status: 'failed',
        failed_reason: 'not_found',
        tracking_stopped: false,
      },
      relationships: { shipment: { data: null } },
    });

    // The canonical URL carries only the query, trimmed and encoded, whatever else was sent.
    const messy = await t.app.inject({ url: '/v2/search?query=%20po%2077%20&foo=bar', headers: auth });
    expect(messy.json().links).toEqual({
      self: 'http://tidemark.test/v2/search?query=%20po%2077%20&foo=bar',
      current: 'http://tidemark.test/v2/search?query=po%2077',
    });
  });

  it('ranks shipments, then containers, then tracking requests; exact before partial, then newest first', async () => {
    const { account, auth } = await t.account();
    // Created oldest to newest.
    await request(account.id, 'RANK100');
    const s1 = await shipment(account.id, 'RANK100');
    await container(account.id, s1, 'RANK1000001');
    const s2 = await shipment(account.id, 'XRANK1009');
    await request(account.id, 'RANK1001');
    await container(account.id, s2, 'RANK1000002');
    await shipment(account.id, 'RANK1002');

    expect(summary(await search(auth, 'rank100'))).toEqual([
      'shipment:RANK100', // exact, though older than both partial shipments
      'shipment:RANK1002',
      'shipment:XRANK1009',
      'cargo:RANK1000002',
      'cargo:RANK1000001',
      'tracking_request:RANK1001', // RANK100's request is dropped: its shipment is in the results
    ]);
  });

  it('drops a tracking request whose number is the bill of lading of a shipment in the results, in any case', async () => {
    const { account, auth } = await t.account();
    const s = await shipment(account.id, 'DROP2000001');
    await request(account.id, 'drop2000001', { status: 'created', shipmentId: s });
    await request(account.id, 'DROP2000001', { status: 'created', shipmentId: s });
    const kept = await request(account.id, 'DROP2000002');

    const hits = await search(auth, 'DROP200000');
    expect(summary(hits)).toEqual(['shipment:DROP2000001', 'tracking_request:DROP2000002']);
    expect(hits[1]!.id).toBe(kept);
    // Without the shipment among the results, its requests are results themselves.
    const other = await t.account();
    await request(other.account.id, 'DROP2000001');
    expect(summary(await search(other.auth, 'DROP2000001'))).toEqual(['tracking_request:DROP2000001']);
  });

  it('finds reference numbers of shipments, containers and tracking requests, exactly and in part', async () => {
    const { account, auth } = await t.account();
    const s = await shipment(account.id, 'REFS3000001', { refs: ['PO-4711', 'other'] });
    await container(account.id, s, 'TCNU1111118', { refs: ['po-4711-a'] });
    await request(account.id, 'REFS3000009', { refs: ['Po-4711'] });
    const booked = await shipment(account.id, 'REFS3000002', { booking: 'BKG884411' });

    const hits = await search(auth, 'po-4711');
    expect(summary(hits)).toEqual(['shipment:REFS3000001', 'cargo:TCNU1111118', 'tracking_request:REFS3000009']);
    expect(hits.map((h) => h.attributes.ref_numbers)).toEqual([['PO-4711', 'other'], ['po-4711-a'], ['Po-4711']]);
    expect(summary(await search(auth, '4711-A'))).toEqual(['cargo:TCNU1111118']);
    // Booking numbers find their shipment too.
    expect((await search(auth, 'bkg884411')).map((h) => h.id)).toEqual([booked]);
    expect((await search(auth, '8844')).map((h) => h.id)).toEqual([booked]);
  });

  it('matches % and _ literally', async () => {
    const { account, auth } = await t.account();
    await shipment(account.id, 'WILD_01');
    await shipment(account.id, 'WILDX01');
    await shipment(account.id, 'WILD402', { refs: ['50%OFF'] });
    await shipment(account.id, 'WILD\\03');

    expect(summary(await search(auth, 'WILD_0'))).toEqual(['shipment:WILD_01']);
    expect(summary(await search(auth, '%'))).toEqual(['shipment:WILD402']);
    expect(summary(await search(auth, '0%o'))).toEqual(['shipment:WILD402']);
    expect(summary(await search(auth, '_'))).toEqual(['shipment:WILD_01']);
    expect(summary(await search(auth, 'D\\0'))).toEqual(['shipment:WILD\\03']);
  });

  it('finds container numbers typed in lower case, with spaces and dashes, whole or in part', async () => {
    const { account, auth } = await t.account();
    const s = await shipment(account.id, 'CNTR4000001');
    const c = await container(account.id, s, 'MSKU9070323');
    await container(account.id, s, 'MSKU9070330');
    const tr = await request(account.id, 'MSKU9070323', { type: 'container' });

    const whole = await search(auth, 'msku 907032-3');
    expect(summary(whole)).toEqual(['cargo:MSKU9070323', 'tracking_request:MSKU9070323']);
    expect(whole.map((h) => h.id)).toEqual([c, tr]);
    expect(summary(await search(auth, '9070323'))).toEqual(['cargo:MSKU9070323', 'tracking_request:MSKU9070323']);
    expect(summary(await search(auth, '907032-3'))).toEqual(['cargo:MSKU9070323', 'tracking_request:MSKU9070323']);
    // Exact first, then the partial one (though newer).
    expect(summary(await search(auth, 'MSKU 907 0323')).slice(0, 1)).toEqual(['cargo:MSKU9070323']);
    expect(summary(await search(auth, 'msku 9070'))).toEqual(['cargo:MSKU9070330', 'cargo:MSKU9070323', 'tracking_request:MSKU9070323']);
  });

  it('shows a shipment’s stop, and a tracking request stopped with it', async () => {
    const { account, auth } = await t.account();
    const s = await shipment(account.id, 'STOP5000001', { stopped: 'cancelled_by_user' });
    await container(account.id, s, 'STOP5000009', { status: 'grounded' });
    await request(account.id, 'STOP5000002', { status: 'tracking_stopped', shipmentId: s });

    const hits = await search(auth, 'STOP500000');
    expect(
      hits.map((h) => [h.attributes.entity_type, h.attributes.tracking_stopped, h.attributes.tracking_stopped_reason, h.attributes.status]),
    ).toEqual([
      ['shipment', true, 'cancelled_by_user', 'tracking_stopped'],
      ['cargo', true, 'cancelled_by_user', 'grounded'],
      ['tracking_request', true, 'cancelled_by_user', 'tracking_stopped'],
    ]);
    expect(hits[2]!.attributes).toMatchObject({ shipment_id: s, containers_count: 1, port_of_lading_name: null });
  });

  it('answers at most 25 results, filling from shipments, then containers, then tracking requests', async () => {
    const { account, auth } = await t.account();
    const shipments: string[] = [];
    for (let i = 0; i < 30; i++) shipments.push(await shipment(account.id, `CAP${String(i).padStart(4, '0')}`, { refs: ['BULK'] }));
    const hits = await search(auth, 'bulk');
    expect(hits).toHaveLength(25);
    expect(hits.map((h) => h.id)).toEqual(shipments.slice(5).reverse());

    const mixed = await t.account();
    const s = await shipment(mixed.account.id, 'MIX0001');
    for (let i = 0; i < 20; i++) await shipment(mixed.account.id, `MIX1${String(i).padStart(3, '0')}`);
    for (let i = 0; i < 10; i++) await container(mixed.account.id, s, `MIXU${String(i).padStart(7, '0')}`);
    for (let i = 0; i < 5; i++) await request(mixed.account.id, `MIX9${i}`);
    const page = await search(mixed.auth, 'mix');
    expect(page).toHaveLength(25);
    expect(page.filter((h) => h.attributes.entity_type === 'shipment')).toHaveLength(21);
    expect(page.slice(21).map((h) => h.attributes.number)).toEqual(['MIXU0000009', 'MIXU0000008', 'MIXU0000007', 'MIXU0000006']);
  });

  it('sees only the caller’s account', async () => {
    const a = await t.account();
    const b = await t.account();
    const sa = await shipment(a.account.id, 'TENANT600001', { refs: ['SECRET-REF'] });
    await container(a.account.id, sa, 'TNTU6000018', { refs: ['SECRET-REF'] });
    await request(a.account.id, 'TENANT600002', { refs: ['SECRET-REF'] });

    for (const q of ['TENANT6000', 'TENANT600001', 'secret-ref', 'TNTU 600001-8', '6000']) {
      expect(await search(b.auth, q), q).toEqual([]);
    }
    const sb = await shipment(b.account.id, 'TENANT600001');
    expect((await search(b.auth, 'TENANT600001')).map((h) => h.id)).toEqual([sb]);
    expect((await search(a.auth, 'TENANT600001')).map((h) => h.id)).toEqual([sa]);
  });

  it('answers 400 with source.parameter query when query is missing, blank, repeated or not text', async () => {
    const { auth } = await t.account();
    for (const url of [
      '/v2/search',
      '/v2/search?query=',
      '/v2/search?query=%20%20',
      '/v2/search?query=a&query=b',
      '/v2/search?query[x]=a',
      '/v2/search?q=MAEU',
      `/v2/search?query=${'x'.repeat(201)}`,
    ]) {
      const res = await t.app.inject({ url, headers: auth });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().errors, url).toEqual([
        expect.objectContaining({ status: '400', title: 'Bad Request', detail: expect.any(String), source: { parameter: 'query' } }),
      ]);
    }
    const blank = await t.app.inject({ url: '/v2/search', headers: auth });
    expect(blank.json().errors[0].detail).toBe("query can't be blank");
  });

  it('answers 401 without a valid key', async () => {
    const none = await t.app.inject({ url: '/v2/search?query=MAEU' });
    expect(none.statusCode).toBe(401);
    const bad = await t.app.inject({ url: '/v2/search?query=MAEU', headers: { authorization: 'Token nope' } });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().errors[0]).toMatchObject({ status: '401' });
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/v2/openapi.json' })).json();
    const op = doc.paths['/v2/search'].get;
    expect(op.tags).toEqual(['search']);
    expect(op.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toContain('query:query');
  });
});
