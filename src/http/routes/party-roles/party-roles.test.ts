import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../../test/kit/app.js';
import { seedShipment } from '../../../../test/kit/seed.js';
import { newId } from '../../../lib/ids.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

function body(role: unknown, party: string | null, target: { shipment?: string; container?: string }) {
  return {
    data: {
      type: 'party_role',
      attributes: { role },
      relationships: {
        ...(party ? { party: { data: { type: 'party', id: party } } } : {}),
        ...(target.shipment ? { shipment: { data: { type: 'shipment', id: target.shipment } } } : {}),
        ...(target.container ? { container: { data: { type: 'container', id: target.container } } } : {}),
      },
    },
  };
}

const post = (headers: Record<string, string>, payload: unknown, query = '') =>
  t.app.inject({ method: 'POST', url: `/v2/party_roles${query}`, headers, payload: payload as object });

const customerName = async (headers: Record<string, string>, shipmentId: string) =>
  (await t.app.inject({ url: `/v2/shipments/${shipmentId}`, headers })).json().data.attributes.customer_name;

describe('party roles', () => {
  it('creates, reads and deletes roles; a shipment’s customer role is its customer_name', async () => {
    const { account, auth } = await t.account();
    const acme = await t.services.parties.create(account.id, 'Acme Imports');
    const globex = await t.services.parties.create(account.id, 'Globex');
    const { id: shipmentId } = await seedShipment(t, account.id, { bl: 'MAEU1' });

    const shipper = await post(auth, body('Shipper', globex.id, { shipment: shipmentId }), '?include=party');
    expect(shipper.statusCode, shipper.body).toBe(201);
    const created = shipper.json();
    expect(created.data).toMatchObject({
      type: 'party_role',
      attributes: { role: 'shipper' },
      relationships: {
        party: { data: { id: globex.id, type: 'party' } },
        shipment: { data: { id: shipmentId, type: 'shipment' } },
        container: { data: null },
      },
      links: { self: `/v2/party_roles/${created.data.id}` },
    });
    expect(created.included).toEqual([expect.objectContaining({ id: globex.id, type: 'party' })]);
    expect(await customerName(auth, shipmentId)).toBeNull();

    const customer = await post(auth, body('customer', acme.id, { shipment: shipmentId }));
    expect(customer.statusCode).toBe(201);
    expect(await customerName(auth, shipmentId)).toBe('Acme Imports');
    const other = await post(auth, body('customer', globex.id, { shipment: shipmentId }));
    expect(await customerName(auth, shipmentId)).toBe('Globex');
    const freight = await post(auth, body('Freight Forwarder', acme.id, { shipment: shipmentId }));
    expect(freight.json().data.attributes.role).toBe('Freight Forwarder');

    const got = await t.app.inject({ url: `/v2/party_roles/${customer.json().data.id}`, headers: auth });
    expect(got.statusCode).toBe(200);
    expect(got.json().data.id).toBe(customer.json().data.id);

    // Removing the latest customer role falls back to the one before; removing both leaves no customer.
    const del = await t.app.inject({ method: 'DELETE', url: `/v2/party_roles/${other.json().data.id}`, headers: auth });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect(await customerName(auth, shipmentId)).toBe('Acme Imports');
    await t.app.inject({ method: 'DELETE', url: `/v2/party_roles/${customer.json().data.id}`, headers: auth });
    expect(await customerName(auth, shipmentId)).toBeNull();
    const again = await t.app.inject({ method: 'DELETE', url: `/v2/party_roles/${customer.json().data.id}`, headers: auth });
    expect(again.statusCode).toBe(404);
  });

  it('shipments show their party roles with with_party_roles=true, and include=party_roles.party sideloads them', async () => {
    const { account, auth } = await t.account();
    const acme = await t.services.parties.create(account.id, 'Acme Imports');
    const { id: shipmentId } = await seedShipment(t, account.id, { bl: 'MAEU9' });
    const { id: bare } = await seedShipment(t, account.id, { bl: 'MAEU10' });
    const role = (await post(auth, body('consignee', acme.id, { shipment: shipmentId }))).json().data;

    const plain = await t.app.inject({ url: '/v2/shipments', headers: auth });
    expect(plain.json().data[0].relationships.party_roles).toBeUndefined();
    const listed = await t.app.inject({ url: '/v2/shipments?with_party_roles=true', headers: auth });
    const byId = new Map(listed.json().data.map((s: { id: string }) => [s.id, s]));
    expect((byId.get(shipmentId) as { relationships: unknown }).relationships).toMatchObject({
      party_roles: { data: [{ id: role.id, type: 'party_role' }] },
    });
    expect((byId.get(bare) as { relationships: unknown }).relationships).toMatchObject({ party_roles: { data: [] } });

    const included = await t.app.inject({ url: `/v2/shipments/${shipmentId}?include=party_roles.party`, headers: auth });
    expect(included.statusCode).toBe(200);
    expect(included.json().data.relationships.party_roles.data).toEqual([{ id: role.id, type: 'party_role' }]);
    expect(included.json().included.map((o: { type: string; id: string }) => `${o.type}:${o.id}`).sort()).toEqual(
      [`party:${acme.id}`, `party_role:${role.id}`].sort(),
    );
  });

  it('roles on containers', async () => {
    const { account, auth } = await t.account();
    const party = await t.services.parties.create(account.id, 'Consignee Co');
    const { containerIds } = await seedShipment(t, account.id, { bl: 'MAEU2', containers: [{ number: 'MSKU9070323' }] });
    const res = await post(auth, body('consignee', party.id, { container: containerIds[0] }));
    expect(res.statusCode).toBe(201);
    expect(res.json().data.relationships).toMatchObject({ container: { data: { id: containerIds[0], type: 'container' } }, shipment: { data: null } });
  });

  it('bad input: 422 with pointers, nothing written', async () => {
    const { account, auth } = await t.account();
    const other = await t.account();
    const party = await t.services.parties.create(account.id, 'Acme');
    const theirs = await t.services.parties.create(other.account.id, 'Theirs');
    const { id: shipmentId, containerIds } = await seedShipment(t, account.id, { bl: 'MAEU3', containers: [{ number: 'MSKU9070323' }] });
    const { id: theirShipment } = await seedShipment(t, other.account.id, { bl: 'MAEU3' });

    const cases: [unknown, string[]][] = [
      [body('', party.id, { shipment: shipmentId }), ['/data/attributes/role']],
      [body('x'.repeat(101), party.id, { shipment: shipmentId }), ['/data/attributes/role']],
      [body('shipper', null, { shipment: shipmentId }), ['/data/relationships/party']],
      [body('shipper', party.id, {}), ['/data/relationships']],
      [body('shipper', party.id, { shipment: shipmentId, container: containerIds[0] }), ['/data/relationships']],
      [body('shipper', theirs.id, { shipment: shipmentId }), ['/data/relationships/party/data/id']],
      [body('shipper', party.id, { shipment: theirShipment }), ['/data/relationships/shipment/data/id']],
      [body('shipper', 'not-a-uuid', { container: newId() }), ['/data/relationships/party/data/id', '/data/relationships/container/data/id']],
    ];
    for (const [payload, pointers] of cases) {
      const res = await post(auth, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual(pointers);
    }
    const ok = await post(auth, body('shipper', party.id, { shipment: shipmentId }));
    expect(ok.statusCode).toBe(201);
    const dup = await post(auth, body('SHIPPER', party.id, { shipment: shipmentId }));
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors[0]).toMatchObject({ code: 'taken', source: { pointer: '/data/attributes/role' } });
    const [row] = await t.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM party_roles WHERE account_id = $1', [account.id]);
    const n = row?.n;
    expect(n).toBe(1);

    // Another account can neither read nor delete it.
    const id = ok.json().data.id;
    expect((await t.app.inject({ url: `/v2/party_roles/${id}`, headers: other.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/v2/party_roles/${id}`, headers: other.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/v2/party_roles/${id}` })).statusCode).toBe(401);
  });
});
