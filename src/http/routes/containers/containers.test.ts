import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../../test/kit/app.js';
import { seedShipment, seedTransportEvent, transportEventRecord } from '../../../../test/kit/seed.js';
import { newId } from '../../../lib/ids.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const patch = (url: string, headers: Record<string, string>, payload: unknown) =>
  t.app.inject({ method: 'PATCH', url, headers, payload: payload as object });

async function accountEvents(accountId: string) {
  return t.services.db.query<{
    event: string;
    container_id: string;
    transport_event_id: string;
    payload: { transport_event: { timestamp: string } };
  }>('SELECT event, container_id, transport_event_id, payload FROM account_events WHERE account_id = $1 ORDER BY seq', [accountId]);
}

describe('PATCH /v2/containers/{id}', () => {
  it('replaces reference numbers', async () => {
    const { account, auth } = await t.account();
    const { containerIds } = await seedShipment(t, account.id, { bl: 'MAEU1', containers: [{ number: 'MSKU9070323', refs: ['OLD'] }] });
    const id = containerIds[0]!;
    const res = await patch(`/v2/containers/${id}`, auth, {
      data: { type: 'container', id, attributes: { ref_numbers: ['A-1', ' A-1 ', 'B-2'] } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id, type: 'container', attributes: { ref_numbers: ['A-1', 'B-2'], number: 'MSKU9070323' } });
    expect(res.json().links.self).toBe(`http://tidemark.test/v2/containers/${id}`);
    // One string is a list of one (the reference's CLI sends `--attr ref_numbers=X` so).
    const cli = await patch(`/v2/containers/${id}`, auth, { data: { type: 'container', id, attributes: { ref_numbers: 'C-3' } } });
    expect(cli.statusCode, cli.body).toBe(200);
    expect(cli.json().data.attributes.ref_numbers).toEqual(['C-3']);
  });

  it('accepts the reference schema’s id-less form, with the id in the body', async () => {
    const { account, auth } = await t.account();
    const { containerIds } = await seedShipment(t, account.id, { bl: 'MAEU2', containers: [{ number: 'MSKU9070323' }] });
    const id = containerIds[0]!;
    const res = await patch('/v2/containers', auth, { data: { type: 'container', id, attributes: { ref_numbers: ['X'] } } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.attributes.ref_numbers).toEqual(['X']);
    const noId = await patch('/v2/containers', auth, { data: { attributes: { ref_numbers: ['X'] } } });
    expect(noId.statusCode).toBe(422);
    expect(noId.json().errors[0].source).toEqual({ pointer: '/data/id' });
  });

  it('delivered_at marks a delivery by hand: status delivered, one container.transport.delivered, kept across edits; null takes it back', async () => {
    const { account, auth } = await t.account();
    const { id: shipmentId, containerIds } = await seedShipment(t, account.id, {
      bl: 'MAEU3',
      containers: [
        {
          number: 'MSKU9070323',
          snapshot: { current_status: 'picked_up', pod_full_out_at: '2026-02-27T10:00:00Z', pod_timezone: 'America/Los_Angeles' },
        },
      ],
    });
    const id = containerIds[0]!;
    const res = await patch(`/v2/containers/${id}`, auth, { data: { attributes: { delivered_at: '2026-02-28T09:30:15.250-08:00' } } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.attributes).toMatchObject({ current_status: 'delivered', delivered_at: '2026-02-28T17:30:15Z' });

    const events = await t.app.inject({ url: `/v2/containers/${id}/transport_events`, headers: auth });
    const delivered = events
      .json()
      .data.filter((e: { attributes: { event: string } }) => e.attributes.event === 'container.transport.delivered');
    expect(delivered).toHaveLength(1);
    expect(delivered[0].attributes).toMatchObject({
      timestamp: '2026-02-28T17:30:15Z',
      timezone: 'America/Los_Angeles',
      data_source: 'user',
      invalidated_at: null,
      // Tidemark learnt of it when it was marked (domain time: the test clock is both).
      observed_at: t.clock
        .now()
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z'),
    });
    expect(delivered[0].relationships.shipment.data).toEqual({ id: shipmentId, type: 'shipment' });
    let log = await accountEvents(account.id);
    expect(log).toEqual([
      expect.objectContaining({ event: 'container.transport.delivered', container_id: id, transport_event_id: delivered[0].id }),
    ]);

    // Moving the time moves the event; it is not announced again.
    await patch(`/v2/containers/${id}`, auth, { data: { attributes: { delivered_at: '2026-02-28T20:00:00Z' } } });
    log = await accountEvents(account.id);
    expect(log).toHaveLength(1);
    const moved = await t.app.inject({ url: `/v2/containers/${id}/transport_events`, headers: auth });
    expect(moved.json().data.find((e: { id: string }) => e.id === delivered[0].id).attributes.timestamp).toBe('2026-02-28T20:00:00Z');

    // Taken back: the sources' status again, the event invalidated.
    const back = await patch(`/v2/containers/${id}`, auth, { data: { attributes: { delivered_at: null } } });
    expect(back.json().data.attributes).toMatchObject({ current_status: 'picked_up', delivered_at: null });
    const after = await t.app.inject({ url: `/v2/containers/${id}/transport_events`, headers: auth });
    expect(after.json().data.find((e: { id: string }) => e.id === delivered[0].id).attributes.invalidated_at).toMatch(/Z$/);
    expect(await accountEvents(account.id)).toHaveLength(1);
  });

  it('bad edits: 422 with a pointer and nothing written; 409 on an id mismatch; 404 for another account’s container', async () => {
    const { account, auth } = await t.account();
    const other = await t.account();
    const { containerIds } = await seedShipment(t, account.id, { bl: 'MAEU4', containers: [{ number: 'MSKU9070323', refs: ['KEEP'] }] });
    const id = containerIds[0]!;
    const url = `/v2/containers/${id}`;
    const future = await patch(url, auth, { data: { attributes: { ref_numbers: ['NEW'], delivered_at: '2099-01-01T00:00:00Z' } } });
    expect(future.statusCode).toBe(422);
    expect(future.json().errors[0].source).toEqual({ pointer: '/data/attributes/delivered_at' });
    const notDate = await patch(url, auth, { data: { attributes: { delivered_at: 'yesterday' } } });
    expect(notDate.statusCode).toBe(422);
    expect(notDate.json().errors[0].source).toEqual({ pointer: '/data/attributes/delivered_at' });
    const noZone = await patch(url, auth, { data: { attributes: { delivered_at: '2026-02-01T10:00:00' } } });
    expect(noZone.statusCode).toBe(422);
    const badRefs = await patch(url, auth, { data: { attributes: { ref_numbers: [1] } } });
    expect(badRefs.json().errors[0].source).toEqual({ pointer: '/data/attributes/ref_numbers/0' });
    const mismatch = await patch(url, auth, { data: { id: newId(), attributes: { ref_numbers: ['X'] } } });
    expect(mismatch.statusCode).toBe(409);
    const [row] = await t.services.db.query<{ ref_numbers: string[]; manual_delivered_at: Date | null; current_status: string }>(
      'SELECT ref_numbers, manual_delivered_at, current_status FROM containers WHERE id = $1',
      [id],
    );
    expect(row).toEqual({ ref_numbers: ['KEEP'], manual_delivered_at: null, current_status: 'new' });
    expect(await accountEvents(account.id)).toEqual([]);

    const foreign = await patch(url, other.auth, { data: { attributes: { ref_numbers: ['X'] } } });
    expect(foreign.statusCode).toBe(404);
    const foreignIdless = await patch('/v2/containers', other.auth, { data: { id, attributes: { ref_numbers: ['X'] } } });
    expect(foreignIdless.statusCode).toBe(404);
  });
});

describe('GET /v2/containers/{id}/transport_events order', () => {
  it('newest first by timestamp, pickup changes by observed_at, undated last, ties newest stored first; the relationship alike', async () => {
    const { account, auth } = await t.account();
    const number = 'MSKU9070323';
    const { id: shipmentId, containerIds } = await seedShipment(t, account.id, { bl: 'MAEU40', containers: [{ number }] });
    const at = { accountId: account.id, shipmentId, containerId: containerIds[0]! };
    // Stored out of time order (each a second after the one before, by the wall clock).
    const undated = await seedTransportEvent(
      t,
      at,
      transportEventRecord(number, { event: 'container.transport.rail_arrived', timestamp: null }),
    );
    const arrived = await seedTransportEvent(
      t,
      at,
      transportEventRecord(number, { event: 'container.transport.vessel_arrived', timestamp: '2026-03-05T10:00:00Z' }),
    );
    const loaded = await seedTransportEvent(
      t,
      at,
      transportEventRecord(number, { event: 'container.transport.vessel_loaded', timestamp: '2026-02-01T08:00:00Z' }),
    );
    // The new last free day is its timestamp (as in the reference): by it, it would be the newest.
    const lfd = await seedTransportEvent(
      t,
      at,
      transportEventRecord(number, {
        event: 'container.pickup_lfd.changed',
        timestamp: '2026-03-20T07:00:00Z',
        value: '2026-03-20T07:00:00Z',
        observed_at: '2026-03-04T12:00:00Z',
      }),
    );
    const departed = await seedTransportEvent(
      t,
      at,
      transportEventRecord(number, { event: 'container.transport.vessel_departed', timestamp: '2026-02-03T00:00:00Z' }),
    );
    // The same time as the arrival, stored later.
    const discharged = await seedTransportEvent(
      t,
      at,
      transportEventRecord(number, { event: 'container.transport.vessel_discharged', timestamp: '2026-03-05T10:00:00Z' }),
    );
    // An appointment cancelled: no timestamp, seen last.
    const cancelled = await seedTransportEvent(
      t,
      at,
      transportEventRecord(number, { event: 'container.pickup_appointment.changed', timestamp: null, observed_at: '2026-03-06T00:00:00Z' }),
    );
    const expected = [cancelled, discharged, arrived, lfd, departed, loaded, undated];

    const url = `/v2/containers/${containerIds[0]}`;
    const list = await t.app.inject({ url: `${url}/transport_events`, headers: auth });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((e: { id: string }) => e.id)).toEqual(expected);
    const attributes = (id: string) => list.json().data.find((e: { id: string }) => e.id === id).attributes;
    expect(attributes(lfd)).toMatchObject({ timestamp: '2026-03-20T07:00:00Z', observed_at: '2026-03-04T12:00:00Z' });
    expect(attributes(undated)).toMatchObject({ timestamp: null, observed_at: null });

    // Paged, the pages follow the same order.
    const pages: string[] = [];
    for (const n of [1, 2, 3]) {
      const page = await t.app.inject({ url: `${url}/transport_events?page[size]=3&page[number]=${n}`, headers: auth });
      pages.push(...page.json().data.map((e: { id: string }) => e.id));
    }
    expect(pages).toEqual(expected);

    // The container's relationship lists them alike, included or not.
    for (const query of ['', '?include=transport_events']) {
      const container = await t.app.inject({ url: `${url}${query}`, headers: auth });
      expect(container.statusCode, container.body).toBe(200);
      expect(container.json().data.relationships.transport_events.data.map((r: { id: string }) => r.id)).toEqual(expected);
    }
  });
});

describe('GET /v2/containers party filters', () => {
  it('filter[customer_id] and filter[customer_name] find containers by their own customer role or their shipment’s customer', async () => {
    const { account, auth } = await t.account();
    const acme = await t.services.parties.create(account.id, 'Acme Imports');
    const globex = await t.services.parties.create(account.id, 'Globex');
    const s1 = await seedShipment(t, account.id, { bl: 'MAEU5', customerId: acme.id, containers: [{ number: 'MSKU9070323' }] });
    const s2 = await seedShipment(t, account.id, { bl: 'MAEU6', containers: [{ number: 'TGHU1234567' }, { number: 'CMAU1234562' }] });
    const role = await t.app.inject({
      method: 'POST',
      url: '/v2/party_roles',
      headers: auth,
      payload: {
        data: {
          type: 'party_role',
          attributes: { role: 'customer' },
          relationships: {
            party: { data: { type: 'party', id: globex.id } },
            container: { data: { type: 'container', id: s2.containerIds[1] } },
          },
        },
      },
    });
    expect(role.statusCode, role.body).toBe(201);
    const ids = async (q: string) => {
      const res = await t.app.inject({ url: `/v2/containers?${q}`, headers: auth });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.map((c: { id: string }) => c.id);
    };
    expect(await ids(`filter[customer_id]=${acme.id}`)).toEqual(s1.containerIds);
    expect(await ids(`filter[customer_id]=${globex.id}`)).toEqual([s2.containerIds[1]]);
    expect(await ids('filter[customer_name]=GLOB')).toEqual([s2.containerIds[1]]);
    expect(await ids('filter[customer_name]=acme&filter[number]=msku 907032-3')).toEqual(s1.containerIds);
    const bad = await t.app.inject({ url: '/v2/containers?filter[customer_id]=nope', headers: auth });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].source).toEqual({ parameter: 'filter[customer_id]' });
  });
});

describe('GET /v2/containers/board', () => {
  it('lists what needs action today, most urgent first, with counts; nothing of other accounts', async () => {
    // The test clock: 2026-03-01 12:00 UTC, 04:00 in Los Angeles.
    const { account, auth } = await t.account();
    const other = await t.account();
    const LA = 'America/Los_Angeles';
    const { containerIds } = await seedShipment(t, account.id, {
      bl: 'MAEU20',
      containers: [
        {
          number: 'MSKU9070323',
          snapshot: {
            current_status: 'available',
            available_for_pickup: true,
            pod_timezone: LA,
            pickup_lfd: '2026-03-02T08:00:00Z',
            pickup_lfd_binding: '2026-03-02T08:00:00Z',
            pickup_lfd_binding_timezone: LA,
          },
        },
        {
          number: 'TGHU1234567',
          snapshot: {
            current_status: 'not_available',
            pod_timezone: LA,
            holds_at_pod_terminal: [{ name: 'customs', status: 'hold', description: null }],
            pickup_lfd: '2026-02-27T08:00:00Z',
            pickup_lfd_binding: '2026-02-27T08:00:00Z',
            pickup_lfd_binding_timezone: LA,
          },
        },
        {
          number: 'CMAU1234562',
          snapshot: {
            current_status: 'not_available',
            pod_timezone: LA,
            pickup_lfd: '2026-03-20T07:00:00Z',
            pickup_lfd_binding: '2026-03-20T07:00:00Z',
            pickup_lfd_binding_timezone: LA,
          },
        },
        {
          number: 'MSCU1234565',
          snapshot: {
            current_status: 'picked_up',
            pod_timezone: LA,
            pickup_lfd: '2026-02-20T08:00:00Z',
            pickup_lfd_binding: '2026-02-20T08:00:00Z',
            pickup_lfd_binding_timezone: LA,
          },
        },
      ],
    });
    await seedShipment(t, other.account.id, {
      bl: 'MAEU21',
      containers: [{ number: 'MSKU9070323', snapshot: { current_status: 'available', available_for_pickup: true } }],
    });
    const res = await t.app.inject({ url: '/v2/containers/board?include=shipment', headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.data.map((c: { id: string }) => c.id)).toEqual([containerIds[1], containerIds[0]]);
    expect(body.data[0].meta.attention).toEqual({
      holds: ['customs'],
      available: false,
      lfd: 'passed',
      lfd_days_left: -2,
      demurrage_accruing: true,
    });
    expect(body.data[1].meta.attention).toMatchObject({ available: true, lfd: 'tomorrow', lfd_days_left: 1 });
    expect(body.meta.counts).toEqual({
      needs_action: 2,
      on_hold: 1,
      available: 1,
      lfd_today: 0,
      lfd_tomorrow: 1,
      lfd_passed: 1,
      demurrage_accruing: 1,
    });
    expect(body.included.map((o: { type: string }) => o.type)).toEqual(['shipment']);
    expect(body.meta).toMatchObject({ size: 2, total: 2 });

    // A page at a time, most urgent first; the counts stay those of the whole board.
    const page2 = await t.app.inject({ url: '/v2/containers/board?page[size]=1&page[number]=2', headers: auth });
    expect(page2.statusCode, page2.body).toBe(200);
    expect(page2.json().data.map((c: { id: string }) => c.id)).toEqual([containerIds[0]]);
    expect(page2.json().meta).toMatchObject({ size: 1, total: 2, counts: body.meta.counts });
    expect(page2.json().links.prev).toContain('page[number]=1&page[size]=1');
    expect(page2.json().links.next).toBeUndefined();

    // filter[needs] lists one kind; the counts are unchanged.
    const available = await t.app.inject({ url: '/v2/containers/board?filter[needs]=available', headers: auth });
    expect(available.json().data.map((c: { id: string }) => c.id)).toEqual([containerIds[0]]);
    expect(available.json().meta).toMatchObject({ total: 1, counts: body.meta.counts });
    const passed = await t.app.inject({ url: '/v2/containers/board?filter[needs]=lfd_passed', headers: auth });
    expect(passed.json().data.map((c: { id: string }) => c.id)).toEqual([containerIds[1]]);

    for (const [query, parameter] of [
      ['filter[needs]=soon', 'filter[needs]'],
      ['filter[status]=available', 'filter[status]'],
      ['page[size]=0', 'page[size]'],
    ]) {
      const bad = await t.app.inject({ url: `/v2/containers/board?${query}`, headers: auth });
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().errors[0].source).toEqual({ parameter });
    }
  });

  it('leaves out the containers of stopped shipments and those past their pickup', async () => {
    const { account, auth } = await t.account();
    const LA = 'America/Los_Angeles';
    const waiting = { current_status: 'available' as const, available_for_pickup: true, pod_timezone: LA };
    const tracked = await seedShipment(t, account.id, { bl: 'MAEU30', containers: [{ number: 'MSKU9070323', snapshot: waiting }] });
    await seedShipment(t, account.id, { bl: 'MAEU31', stopped: true, containers: [{ number: 'TGHU1234567', snapshot: waiting }] });
    await seedShipment(t, account.id, {
      bl: 'MAEU32',
      containers: [{ number: 'CMAU1234562', snapshot: { current_status: 'empty_returned', available_for_pickup: true, pod_timezone: LA } }],
    });
    const res = await t.app.inject({ url: '/v2/containers/board', headers: auth });
    expect(res.json().data.map((c: { id: string }) => c.id)).toEqual(tracked.containerIds);
    expect(res.json().meta.counts).toMatchObject({ needs_action: 1, available: 1 });
  });
});
