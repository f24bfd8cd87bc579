import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../../test/kit/app.js';
import { newId } from '../../../lib/ids.js';
import { insertShipment } from '../../../storage/repositories/shipments.js';
import { insertEstimatedEvent } from '../../../storage/repositories/tracking.js';
import { type ShipmentSpec, seedShipment } from '../../../../test/kit/seed.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

async function addShipments(accountId: string, n: number, customerId: string | null = null) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    t.clock.advance(1000);
    const id = newId();
    await insertShipment(t.services.db, {
      id,
      account_id: accountId,
      bill_of_lading_number: `MAEU${100000 + i}`,
      customer_id: customerId,
      ref_numbers: [`PO-${i}`],
      shipping_line_scac: 'MAEU',
      created_at: t.clock.now(),
      updated_at: t.clock.now(),
    });
    ids.push(id);
  }
  return ids;
}

describe('GET /v2/shipments', () => {
  it('returns an empty JSON:API list for a new account', async () => {
    const { auth } = await t.account();
    const res = await t.app.inject({ url: '/v2/shipments', headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: [], meta: { size: 0, total: 0 }, links: { self: 'http://tidemark.test/v2/shipments' } });
  });

  it('lists the account’s shipments newest first, 30 a page, with every attribute and relationship', async () => {
    const { account, auth } = await t.account();
    const other = await t.account();
    const ids = await addShipments(account.id, 32);
    await addShipments(other.account.id, 2);

    const res = await t.app.inject({ url: '/v2/shipments', headers: auth });
    const body = res.json();
    expect(body.data).toHaveLength(30);
    expect(body.data[0].id).toBe(ids[31]);
    expect(body.meta).toEqual({ size: 30, total: 32 });
    expect(body.links.next).toBe('http://tidemark.test/v2/shipments?page[number]=2&page[size]=30');
    const s = body.data[0];
    expect(s.type).toBe('shipment');
    expect(s.links.self).toBe(`/v2/shipments/${s.id}`);
    expect(s.attributes).toMatchObject({ bill_of_lading_number: 'MAEU100031', ref_numbers: ['PO-31'], tags: [], pod_eta_at: null });
    expect(Object.keys(s.attributes)).toEqual(
      expect.arrayContaining([
        'normalized_number',
        'shipping_line_scac',
        'pol_timezone',
        'pod_vessel_imo',
        'destination_original_eta_at',
        'line_tracking_stopped_reason',
      ]),
    );
    expect(s.attributes.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(s.relationships).toMatchObject({
      containers: { data: [] },
      port_of_lading: { data: null },
      pod_terminal: { data: null },
      destination_terminal: { data: null },
      line_tracking_stopped_by_user: { data: null },
    });

    const page2 = await t.app.inject({ url: '/v2/shipments?page[number]=2', headers: auth });
    expect(page2.json().data.map((x: { id: string }) => x.id)).toEqual([ids[1], ids[0]]);
    expect(page2.json().links.prev).toBe('http://tidemark.test/v2/shipments?page[number]=1&page[size]=30');
  });

  it('accepts the SDK’s default includes, includes the customer party, and rejects unknown names', async () => {
    const { account, auth } = await t.account();
    const party = await t.services.parties.create(account.id, 'Customer Co');
    await addShipments(account.id, 2, party.id);
    const sdk = await t.app.inject({
      url: '/v2/shipments?include=containers%2Cpod_terminal%2Cport_of_lading%2Cport_of_discharge%2Cdestination%2Cdestination_terminal',
      headers: auth,
    });
    expect(sdk.statusCode).toBe(200);
    const withCustomer = await t.app.inject({ url: '/v2/shipments?include=customer', headers: auth });
    expect(withCustomer.json().included).toEqual([expect.objectContaining({ id: party.id, type: 'party' })]);
    expect(withCustomer.json().data[0].attributes.customer_name).toBe('Customer Co');
    const bad = await t.app.inject({ url: '/v2/shipments?include=containers,cargo', headers: auth });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toMatchObject({
      source: { parameter: 'include' },
      detail: 'cargo is not specified as a relationship on shipment',
    });
  });
});

const seed = (accountId: string, spec: ShipmentSpec) => seedShipment(t, accountId, spec);

describe('GET /v2/shipments filters', () => {
  async function fixture() {
    const a = await t.account();
    const b = await t.account();
    const acme = await t.services.parties.create(a.account.id, 'Acme Imports');
    const s1 = await seed(a.account.id, {
      bl: 'MAEU240100001',
      pol: 'CNSHA',
      pod: 'USLAX',
      podTimezone: 'America/Los_Angeles',
      // 2026-03-10 at 02:00 UTC is still 9 March in Los Angeles.
      eta: '2026-03-10T02:00:00Z',
      refs: ['PO-7781'],
      customerId: acme.id,
      containers: [{ number: 'MSKU9070323' }, { number: 'TGHU1234567', refs: ['BOX-REF-9'] }],
    });
    const s2 = await seed(a.account.id, {
      bl: 'HLCU99887766',
      booking: 'BKG-4455',
      pol: 'CNNGB',
      pod: 'USNYC',
      podTimezone: 'America/New_York',
      ata: '2026-03-20T15:00:00Z',
      stopped: true,
    });
    const s3 = await seed(a.account.id, { bl: 'COSU5550001', pol: 'CNSHA', pod: 'USLGB' });
    // Account B tracks the same numbers: never seen by A.
    await seed(b.account.id, { bl: 'MAEU240100001', pol: 'CNSHA', pod: 'USLAX', containers: [{ number: 'MSKU9070323' }] });
    const ids = async (query: string) => {
      const res = await t.app.inject({ url: `/v2/shipments?${query}`, headers: a.auth });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.map((x: { id: string }) => x.id);
    };
    return { a, b, acme, s1, s2, s3, ids };
  }

  it('q finds BL, booking, reference and container numbers, partial and in any case; containers typed with spaces and dashes', async () => {
    const { s1, s2, ids } = await fixture();
    expect(await ids('q=maeu2401')).toEqual([s1.id]);
    expect(await ids('q=bkg-4455')).toEqual([s2.id]);
    expect(await ids('filter[q]=PO-7781')).toEqual([s1.id]);
    expect(await ids('q=msku%20907032-3')).toEqual([s1.id]);
    expect(await ids('q=box-ref')).toEqual([s1.id]);
    expect(await ids('q=%25')).toEqual([]);
  });

  it('number matches the BL or booking it was tracked by exactly, never a container number', async () => {
    const { s1, s2, ids } = await fixture();
    expect(await ids('number=maeu240100001')).toEqual([s1.id]);
    expect(await ids('filter[number]=BKG-4455')).toEqual([s2.id]);
    expect(await ids('number=MAEU2401')).toEqual([]);
    expect(await ids('number=MSKU9070323')).toEqual([]);
  });

  it('tracking_stopped, ports (x[]= and comma lists), arrival window in the POD local calendar, customer', async () => {
    const { s1, s2, s3, acme, ids } = await fixture();
    expect(await ids('filter[tracking_stopped]=true')).toEqual([s2.id]);
    expect(await ids('tracking_stopped=false')).toEqual([s3.id, s1.id]);
    expect(await ids('port_of_lading[]=CNSHA')).toEqual([s3.id, s1.id]);
    expect(await ids('port_of_discharge=USNYC,uslgb')).toEqual([s3.id, s2.id]);
    expect(await ids('filter%5Bport_of_discharge%5D%5B%5D=USLAX')).toEqual([s1.id]);
    expect(await ids('arrival_from=2026-03-09&arrival_to=2026-03-09')).toEqual([s1.id]);
    expect(await ids('arrival_from=2026-03-10')).toEqual([s2.id]);
    expect(await ids('filter[arrival_to]=2026-03-31')).toEqual([s2.id, s1.id]);
    expect(await ids(`filter[customer_id]=${acme.id}`)).toEqual([s1.id]);
    expect(await ids('filter[customer_name]=acme')).toEqual([s1.id]);
    expect(await ids('customer_name=nobody')).toEqual([]);
    expect(await ids('port_of_lading=CNSHA&tracking_stopped=false&q=COSU')).toEqual([s3.id]);
    // The web app's filters: every seeded shipment is MAEU's; only s1 has containers (status new).
    expect(await ids('carrier=MAEU&port_of_discharge=USLAX')).toEqual([s1.id]);
    expect(await ids('carrier=MSCU')).toEqual([]);
    expect(await ids('filter[status]=new')).toEqual([s1.id]);
    expect(await ids('status=available')).toEqual([]);
  });

  it('meta.total and page links count the filtered list', async () => {
    const { a } = await fixture();
    const res = await t.app.inject({ url: '/v2/shipments?port_of_lading=CNSHA&page[size]=1', headers: a.auth });
    expect(res.json().meta).toEqual({ size: 1, total: 2 });
    expect(res.json().links.next).toBe('http://tidemark.test/v2/shipments?port_of_lading=CNSHA&page[number]=2&page[size]=1');
  });

  it('invalid filter values answer 422 with the reference’s `error` array and JSON:API errors', async () => {
    const { a } = await fixture();
    const res = await t.app.inject({ url: '/v2/shipments?arrival_from=2026-13-01&port_of_discharge[]=LA', headers: a.auth });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.error).toEqual([
      { title: 'Invalid arrival_date_from', detail: "filter['arrival_from'] must be in the format 'YYYY-MM-DD' and a valid date" },
      { title: 'Invalid port_of_discharge', detail: expect.stringContaining('UN/LOCODE') },
    ]);
    expect(body.errors.map((e: { source: unknown }) => e.source)).toEqual([
      { parameter: 'arrival_from' },
      { parameter: 'port_of_discharge' },
    ]);
    const malformed = await t.app.inject({ url: '/v2/shipments?q[a]=1', headers: a.auth });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors[0].source).toEqual({ parameter: 'q' });
  });
});

describe('PATCH /v2/shipments/{id}', () => {
  it('replaces reference numbers and tags, trimmed, blanks and repeats dropped', async () => {
    const { account, auth } = await t.account();
    const { id } = await seed(account.id, { bl: 'MAEU1', refs: ['OLD'] });
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v2/shipments/${id}`,
      headers: auth,
      payload: { data: { type: 'shipment', id, attributes: { ref_numbers: [' PO-1 ', 'PO-1', '', 'PO-2'], tags: ['urgent'] } } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.attributes).toMatchObject({ ref_numbers: ['PO-1', 'PO-2'], tags: ['urgent'] });
    expect(res.json().links.self).toBe(`http://tidemark.test/v2/shipments/${id}`);
    // Only what is given changes; null clears.
    const again = await t.app.inject({
      method: 'PATCH',
      url: `/v2/shipments/${id}`,
      headers: { ...auth, 'content-type': 'application/vnd.api+json' },
      payload: JSON.stringify({ data: { attributes: { tags: null } } }),
    });
    expect(again.json().data.attributes).toMatchObject({ ref_numbers: ['PO-1', 'PO-2'], tags: [] });
    // One string is a list of one: the reference's CLI sends `--attr ref_numbers=X` as a string.
    const cli = await t.app.inject({
      method: 'PATCH',
      url: `/v2/shipments/${id}`,
      headers: auth,
      payload: { data: { type: 'shipment', attributes: { ref_numbers: 'PO-9', tags: 'cold-chain' } } },
    });
    expect(cli.statusCode, cli.body).toBe(200);
    expect(cli.json().data.attributes).toMatchObject({ ref_numbers: ['PO-9'], tags: ['cold-chain'] });
  });

  it('422 with pointers for bad edits, nothing written; 409 for a body id that is not the URL’s; 404 for another account’s', async () => {
    const { account, auth } = await t.account();
    const other = await t.account();
    const { id } = await seed(account.id, { bl: 'MAEU2', refs: ['KEEP'] });
    const patch = (payload: unknown, headers = auth, url = `/v2/shipments/${id}`) =>
      t.app.inject({ method: 'PATCH', url, headers, payload: payload as object });

    const notList = await patch({ data: { attributes: { ref_numbers: 5, tags: ['ok'] } } });
    expect(notList.statusCode).toBe(422);
    expect(notList.json().errors[0]).toMatchObject({
      detail: 'ref_numbers must be text or a list, not a number',
      source: { pointer: '/data/attributes/ref_numbers' },
    });
    const longOne = await patch({ data: { attributes: { tags: ['x'.repeat(256)] } } });
    expect(longOne.json().errors[0].source).toEqual({ pointer: '/data/attributes/tags/0' });
    const readOnly = await patch({ data: { attributes: { bill_of_lading_number: 'X' } } });
    expect(readOnly.statusCode).toBe(422);
    const nothing = await patch({ data: { attributes: {} } });
    expect(nothing.statusCode).toBe(422);
    expect(nothing.json().errors[0].source).toEqual({ pointer: '/data/attributes' });
    const conflict = await patch({ data: { id: newId(), attributes: { tags: ['x'] } } });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().errors[0].source).toEqual({ pointer: '/data/id' });
    const [row] = await t.services.db.query<{ ref_numbers: string[]; tags: string[] }>(
      'SELECT ref_numbers, tags FROM shipments WHERE id = $1',
      [id],
    );
    expect(row).toEqual({ ref_numbers: ['KEEP'], tags: [] });

    const foreign = await patch({ data: { attributes: { tags: ['x'] } } }, other.auth);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().errors[0]).toMatchObject({ status: '404', title: 'Not Found' });
    const unknown = await patch({ data: { attributes: { tags: ['x'] } } }, auth, '/v2/shipments/not-a-uuid');
    expect(unknown.statusCode).toBe(404);
  });
});

describe('GET /v2/shipments/{id}/estimated_events', () => {
  it('lists the ETA history newest first, with its port; another account gets 404', async () => {
    const { account, auth } = await t.account();
    const other = await t.account();
    const { id } = await seed(account.id, { bl: 'MAEU30', pod: 'USLAX' });
    for (const eta of ['2026-03-10T15:00:00Z', '2026-03-12T09:00:00Z']) {
      t.clock.advance(3_600_000);
      await insertEstimatedEvent(
        t.services.db,
        {
          id: newId(),
          account_id: account.id,
          shipment_id: id,
          event: 'shipment.estimated.arrival',
          estimated_timestamp: eta,
          record: {
            key: `eta|${eta}`,
            event: 'shipment.estimated.arrival',
            estimated_timestamp: eta,
            location_locode: 'USLAX',
            timezone: 'America/Los_Angeles',
            voyage_number: '012E',
            vessel_name: 'EVER ACE',
            vessel_imo: '9893890',
            data_source: 'shipping_line',
            reported_at: null,
          },
        },
        t.clock.now(),
      );
    }
    const res = await t.app.inject({ url: `/v2/shipments/${id}/estimated_events?include=port`, headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.data.map((e: { attributes: { estimated_timestamp: string } }) => e.attributes.estimated_timestamp)).toEqual([
      '2026-03-12T09:00:00Z',
      '2026-03-10T15:00:00Z',
    ]);
    expect(body.data[0]).toMatchObject({
      type: 'estimated_event',
      attributes: { event: 'shipment.estimated.arrival', location_locode: 'USLAX' },
    });
    expect(body.included.map((o: { type: string; attributes: { code: string } }) => [o.type, o.attributes.code])).toEqual([
      ['port', 'USLAX'],
    ]);
    expect(body.meta).toEqual({ size: 2, total: 2 });
    expect((await t.app.inject({ url: `/v2/shipments/${id}/estimated_events`, headers: other.auth })).statusCode).toBe(404);
  });
});
