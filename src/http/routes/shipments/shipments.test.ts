import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../../test/kit/app.js';
import { newId } from '../../../lib/ids.js';
import { insertShipment } from '../../../storage/repositories/shipments.js';

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
