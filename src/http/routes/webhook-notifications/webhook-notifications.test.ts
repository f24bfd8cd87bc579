import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../../test/kit/app.js';
import { routeSuite, type SuiteContext } from '../../../../test/kit/route-suite.js';
import { seedShipment } from '../../../../test/kit/seed.js';
import { newId } from '../../../lib/ids.js';
import { seal } from '../../../lib/sealed.js';
import { terminalByFirmsCode } from '../../../sources/reference/index.js';
import { insertTrackingRequest } from '../../../storage/repositories/tracking-requests.js';
import { insertAccountEvent, insertEstimatedEvent, upsertTransportEvent } from '../../../storage/repositories/tracking.js';
import { insertWebhook, recordAttempt } from '../../../storage/repositories/webhooks.js';
import { EVENT_NAMES } from '../../../domain/event-catalogue.js';
import { notificationDocument } from '../../../render/webhook-notification.js';

const KEY_TEXT = Buffer.alloc(32, 7).toString('base64');
const KEY = Buffer.from(KEY_TEXT, 'base64');
const SECRET = 'whsec_dGVzdC1zZWNyZXQtZm9yLXRoZS1yZWFkLWFwaQ==';
const LA = 'America/Los_Angeles';
const ets = terminalByFirmsCode('Y124')!;
const ETS_REF = { kind: 'terminal', id: ets.id, code: 'Y124', codeList: 'firms', firmsCode: 'Y124', name: ets.name };
const VESSEL = { name: 'EVER ACE', imo: '9893890' };

let t: TestApp;
let fx: SuiteContext & { notification: string };
beforeAll(async () => {
  t = await testApp({ env: { TIDEMARK_SECRET_KEY: KEY_TEXT } });
  // The shared route checks: an owner with notifications (one delivered, with its attempt), another account with one.
  const owner = await world();
  const first = await owner.transportEvent('container.transport.vessel_arrived', { at: '2026-02-24T13:30:00Z', vessel: true });
  await owner.transportEvent('container.transport.vessel_discharged', { at: '2026-02-25T09:48:00Z', terminal: ETS_REF, vessel: true });
  await recordAttempt(
    t.services.db,
    {
      notification_id: first.notificationId!,
      attempt: 1,
      started_at: t.clock.now(),
      duration_ms: 80,
      status_code: 200,
      error: null,
      response_body: 'ok',
    },
    { status: 'succeeded', nextAttemptAt: null },
    t.clock.now(),
  );
  const other = await world();
  await other.transportEvent('container.transport.vessel_arrived', { at: '2026-02-24T13:30:00Z', vessel: true });
  fx = { t, owner: owner.key, other: other.key, notification: first.notificationId! };
});
afterAll(() => t.close());

routeSuite(() => fx, {
  method: 'GET',
  route: '/v2/webhook_notifications',
  owner: 'account',
  list: true,
  include: 'webhook,reference_object,reference_object.shipment,reference_object.location,webhook_notification_logs',
});
routeSuite(() => fx, {
  method: 'GET',
  route: '/v2/webhook_notifications/:id',
  owner: 'account',
  id: (f) => f.notification,
  include:
    'webhook,reference_object,reference_object.container,reference_object.terminal,reference_object.vessel,webhook_notification_logs',
});
routeSuite(() => fx, {
  method: 'GET',
  route: '/v2/webhook_notifications/examples',
  owner: 'global',
  query: () => 'event=container.pickup_lfd.changed',
});

const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });

function transportRecord(event: string, o: { container: string; at: string; terminal?: unknown; vessel?: boolean; value?: string | null }) {
  return {
    key: `${event}:${o.container}`,
    event,
    milestone: null,
    classifier: 'actual',
    container_number: o.container,
    timestamp: o.at,
    timezone: LA,
    location_locode: 'USLAX',
    location_type: 'port',
    terminal: o.terminal ?? null,
    vessel_name: o.vessel ? VESSEL.name : null,
    vessel_imo: o.vessel ? VESSEL.imo : null,
    voyage_number: o.vessel ? '1215-038E' : null,
    rail_carrier_scac: null,
    data_source: 'shipping_line',
    value: o.value ?? null,
    source_id: null,
    source_event_id: null,
    source_code: null,
    reported_at: null,
    observed_at: o.at,
  };
}

/**
 * An account with a webhook subscribed to every event, a shipment at Los Angeles with one container, and its
 * notifications as the engine's commits leave them (the account event writes them).
 */
async function world(opts: { webhookActive?: boolean } = {}) {
  const key = await t.account();
  const { account, auth } = key;
  const db = t.services.db;
  const now = t.clock.now();
  const shipment = await seedShipment(t, account.id, {
    bl: 'EGLV142300123456',
    pol: 'CNSHA',
    pod: 'USLAX',
    podTimezone: LA,
    containers: [{ number: 'EGHU9123457', snapshot: { pod_terminal: ETS_REF as never, pod_timezone: LA } }],
  });
  const containerId = shipment.containerIds[0]!;
  const webhook = await insertWebhook(db, {
    id: newId(),
    account_id: account.id,
    url: 'https://receiver.example/hooks',
    active: opts.webhookActive ?? true,
    events: [...EVENT_NAMES],
    headers: [{ name: 'X-Env', value: 'test' }],
    secret_sealed: seal(KEY, SECRET),
    previous_secret_sealed: null,
    previous_secret_expires_at: null,
    created_at: now,
    updated_at: now,
  });

  async function accountEvent(event: string, refs: Record<string, string | null>, payload: Record<string, unknown>, occurredAt: string) {
    t.clock.advance(1000);
    const id = newId();
    await insertAccountEvent(
      db,
      {
        id,
        account_id: account.id,
        event,
        tracking_request_id: refs.tracking_request_id ?? null,
        shipment_id: refs.shipment_id ?? shipment.id,
        container_id: refs.container_id ?? null,
        transport_event_id: refs.transport_event_id ?? null,
        estimated_event_id: refs.estimated_event_id ?? null,
        payload,
        occurred_at: new Date(occurredAt),
      },
      t.clock.now(),
    );
    const rows = await db.query<{ id: string }>('SELECT id FROM webhook_notifications WHERE account_event_id = $1', [id]);
    return { accountEventId: id, notificationId: rows[0]?.id ?? null };
  }

  async function transportEvent(event: string, o: { at: string; terminal?: unknown; vessel?: boolean; value?: string | null }) {
    const record = transportRecord(event, { container: 'EGHU9123457', ...o });
    const teId = await upsertTransportEvent(
      db,
      {
        id: newId(),
        account_id: account.id,
        shipment_id: shipment.id,
        container_id: containerId,
        event,
        key: record.key,
        timestamp: record.timestamp,
        record,
      },
      t.clock.now(),
    );
    const made = await accountEvent(
      event,
      { container_id: containerId, transport_event_id: teId },
      { type: event, container_number: 'EGHU9123457', transport_event: record },
      o.at,
    );
    return { ...made, transportEventId: teId };
  }

  return { key, account, auth, shipment, containerId, webhook, accountEvent, transportEvent };
}

describe('GET /v2/webhook_notifications', () => {
  it('lists the account’s notifications newest first, with the webhook and reference object included by default', async () => {
    const w = await world();
    const discharged = await w.transportEvent('container.transport.vessel_discharged', {
      at: '2026-02-25T09:48:00Z',
      terminal: ETS_REF,
      vessel: true,
    });
    const available = await w.transportEvent('container.transport.available', { at: '2026-02-26T15:40:00Z', terminal: ETS_REF });
    const res = await get('/v2/webhook_notifications', w.auth);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.data.map((n: { id: string }) => n.id)).toEqual([available.notificationId, discharged.notificationId]);
    expect(body.data[1]).toEqual({
      id: discharged.notificationId,
      type: 'webhook_notification',
      attributes: {
        id: discharged.notificationId,
        event: 'container.transport.vessel_discharged',
        delivery_status: 'pending',
        created_at: expect.stringMatching(/Z$/),
      },
      relationships: {
        webhook: { data: { id: w.webhook.id, type: 'webhook' } },
        reference_object: { data: { id: discharged.transportEventId, type: 'transport_event' } },
        webhook_notification_logs: { data: [] },
      },
    });
    const types = body.included.map((r: { type: string; id: string }) => `${r.type}:${r.id}`).sort();
    expect(types).toEqual(
      [`webhook:${w.webhook.id}`, `transport_event:${discharged.transportEventId}`, `transport_event:${available.transportEventId}`].sort(),
    );
    const webhook = body.included.find((r: { type: string }) => r.type === 'webhook');
    expect(webhook.attributes).toMatchObject({
      url: 'https://receiver.example/hooks',
      active: true,
      secret: SECRET,
      headers: [{ name: 'X-Env', value: 'test' }],
      deactivated_at: null,
      deactivated_reason: null,
    });
    expect(body.meta).toEqual({ size: 2, total: 2, pagination: { current: 1, last: 1, records: 2 } });
    expect(body.links.self).toBe('http://tidemark.test/v2/webhook_notifications');
    expect(body.links.current).toBe('http://tidemark.test/v2/webhook_notifications?page[number]=1&page[size]=30');
    expect(body.links).not.toHaveProperty('next');
  });

  it('pages, and filters by webhook, event and delivery status', async () => {
    const w = await world();
    await w.transportEvent('container.transport.vessel_arrived', { at: '2026-02-24T13:30:00Z', vessel: true });
    const discharged = await w.transportEvent('container.transport.vessel_discharged', { at: '2026-02-25T09:48:00Z', vessel: true });
    await w.transportEvent('container.transport.full_out', { at: '2026-03-02T18:12:00Z', terminal: ETS_REF });
    await recordAttempt(
      t.services.db,
      {
        notification_id: discharged.notificationId!,
        attempt: 1,
        started_at: t.clock.now(),
        duration_ms: 112,
        status_code: 200,
        error: null,
        response_body: 'ok',
      },
      { status: 'succeeded', nextAttemptAt: null },
      t.clock.now(),
    );

    const page = await get('/v2/webhook_notifications?page[number]=2&page[size]=2&include=', w.auth);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().data).toHaveLength(1);
    expect(page.json()).not.toHaveProperty('included.0');
    expect(page.json().meta).toEqual({ size: 1, total: 3, pagination: { current: 2, last: 2, records: 3 } });
    expect(page.json().links.prev).toBe('http://tidemark.test/v2/webhook_notifications?include=&page[number]=1&page[size]=2');

    const byEvent = await get('/v2/webhook_notifications?filter[event]=container.transport.full_out', w.auth);
    expect(byEvent.json().data.map((n: { attributes: { event: string } }) => n.attributes.event)).toEqual(['container.transport.full_out']);

    const succeeded = await get('/v2/webhook_notifications?filter%5Bdelivery_status%5D=succeeded', w.auth);
    expect(succeeded.json().data.map((n: { id: string }) => n.id)).toEqual([discharged.notificationId]);

    const byWebhook = await get(`/v2/webhook_notifications?filter[webhook_id]=${w.webhook.id}`, w.auth);
    expect(byWebhook.json().meta.total).toBe(3);
    const otherWebhook = await get(`/v2/webhook_notifications?filter[webhook_id]=${newId()}`, w.auth);
    expect(otherWebhook.json()).toMatchObject({ data: [], meta: { size: 0, total: 0, pagination: { current: 1, records: 0 } } });
    expect(otherWebhook.json().meta.pagination).not.toHaveProperty('last');
  });

  it.each([
    ['filter[event]=container.teleported', 'filter[event]'],
    ['filter[delivery_status]=lost', 'filter[delivery_status]'],
    ['filter[webhook_id]=12', 'filter[webhook_id]'],
    ['filter[colour]=red', 'filter[colour]'],
    ['include=reference_object.captain', 'include'],
  ])('answers 400 naming the parameter for %s', async (query, parameter) => {
    const { auth } = await t.account();
    const res = await get(`/v2/webhook_notifications?${query}`, auth);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ status: '400', title: 'Bad Request', source: { parameter } });
  });

  it('needs an API key, and shows only the account’s own notifications', async () => {
    const a = await world();
    await a.transportEvent('container.transport.vessel_arrived', { at: '2026-02-24T13:30:00Z', vessel: true });
    const { auth } = await t.account();
    const other = await get('/v2/webhook_notifications', auth);
    expect(other.statusCode).toBe(200);
    expect(other.json().data).toEqual([]);
    const none = await get('/v2/webhook_notifications', {});
    expect(none.statusCode).toBe(401);
    expect(none.json().errors[0]).toMatchObject({ status: '401' });
  });

  it('has no notification for an event no active webhook subscribes to', async () => {
    const w = await world({ webhookActive: false });
    const made = await w.transportEvent('container.transport.vessel_arrived', { at: '2026-02-24T13:30:00Z', vessel: true });
    expect(made.notificationId).toBeNull();
    expect((await get('/v2/webhook_notifications', w.auth)).json().data).toEqual([]);
  });
});

describe('GET /v2/webhook_notifications/{id}', () => {
  it('includes the reference object’s shipment, container, location, terminal and vessel, and every delivery attempt', async () => {
    const w = await world();
    const made = await w.transportEvent('container.transport.vessel_discharged', {
      at: '2026-02-25T09:48:00Z',
      terminal: ETS_REF,
      vessel: true,
    });
    for (const [attempt, status_code, error] of [
      [1, 503, 'HTTP 503'],
      [2, null, 'timed out after 15000 ms'],
      [3, 204, null],
    ] as const) {
      t.clock.advance(60_000);
      await recordAttempt(
        t.services.db,
        {
          notification_id: made.notificationId!,
          attempt,
          started_at: t.clock.now(),
          duration_ms: 40 * attempt,
          status_code,
          error,
          response_body: status_code === 503 ? 'upstream busy' : null,
        },
        { status: status_code === 204 ? 'succeeded' : 'pending', nextAttemptAt: status_code === 204 ? null : t.clock.now() },
        t.clock.now(),
      );
    }
    const include =
      'webhook,reference_object,reference_object.shipment,reference_object.container,reference_object.location,reference_object.terminal,reference_object.vessel,webhook_notification_logs';
    const res = await get(`/v2/webhook_notifications/${made.notificationId}?include=${include}`, w.auth);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.data.attributes.delivery_status).toBe('succeeded');
    const logIds = body.data.relationships.webhook_notification_logs.data;
    expect(logIds).toHaveLength(3);
    const byType = (type: string) => body.included.filter((r: { type: string }) => r.type === type);
    expect(byType('webhook_notification_log').map((l: { attributes: unknown }) => l.attributes)).toEqual([
      { attempt: 1, started_at: expect.any(String), duration_ms: 40, status_code: 503, error: 'HTTP 503', response_body: 'upstream busy' },
      {
        attempt: 2,
        started_at: expect.any(String),
        duration_ms: 80,
        status_code: null,
        error: 'timed out after 15000 ms',
        response_body: null,
      },
      { attempt: 3, started_at: expect.any(String), duration_ms: 120, status_code: 204, error: null, response_body: null },
    ]);
    expect(byType('webhook_notification_log')[0].relationships).toEqual({
      webhook_notification: { data: { id: made.notificationId, type: 'webhook_notification' } },
    });
    expect(byType('transport_event')[0].attributes).toMatchObject({
      event: 'container.transport.vessel_discharged',
      timestamp: '2026-02-25T09:48:00Z',
      observed_at: '2026-02-25T09:48:00Z',
    });
    expect(byType('shipment')[0].id).toBe(w.shipment.id);
    expect(byType('container')[0].attributes.number).toBe('EGHU9123457');
    expect(byType('port')[0].attributes.code).toBe('USLAX');
    expect(byType('terminal')[0].attributes.firms_code).toBe('Y124');
    expect(byType('vessel')[0].attributes).toMatchObject({ imo: '9893890', name: 'EVER ACE' });
    expect(byType('webhook')).toHaveLength(1);
    expect(body.links.self).toBe(`http://tidemark.test/v2/webhook_notifications/${made.notificationId}?include=${include}`);
    expect(body.meta).toEqual({ sequence: expect.any(Number), occurred_at: '2026-02-25T09:48:00Z' });
  });

  it('answers 404 JSON for another account’s notification, an unknown id and a malformed one', async () => {
    const w = await world();
    const made = await w.transportEvent('container.transport.vessel_arrived', { at: '2026-02-24T13:30:00Z', vessel: true });
    const { auth } = await t.account();
    for (const id of [made.notificationId, newId(), 'not-a-uuid']) {
      const res = await get(`/v2/webhook_notifications/${id}`, auth);
      expect(res.statusCode, String(id)).toBe(404);
      expect(res.json().errors[0]).toMatchObject({ status: '404', title: 'Not Found' });
    }
    expect((await get(`/v2/webhook_notifications/${made.notificationId}`, w.auth)).statusCode).toBe(200);
    expect((await get(`/v2/webhook_notifications/${made.notificationId}`, {})).statusCode).toBe(401);
  });
});

describe('GET /v2/webhook_notifications/examples', () => {
  it('answers the sample document of the event, its links.self the request', async () => {
    const { auth } = await t.account();
    const res = await get('/v2/webhook_notifications/examples?event=container.transport.vessel_arrived', auth);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.data).toMatchObject({ type: 'webhook_notification', attributes: { event: 'container.transport.vessel_arrived' } });
    expect(body.included.map((r: { type: string }) => r.type).sort()).toEqual([
      'container',
      'port',
      'shipment',
      'transport_event',
      'vessel',
    ]);
    expect(body.links.self).toBe('http://tidemark.test/v2/webhook_notifications/examples?event=container.transport.vessel_arrived');
    const again = await get('/v2/webhook_notifications/examples?event=container.transport.vessel_arrived', auth);
    expect(again.json()).toEqual(body);
  });

  it('answers 400 on the parameter without event, and names an unknown event', async () => {
    const { auth } = await t.account();
    const missing = await get('/v2/webhook_notifications/examples', auth);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([
      { status: '400', source: { parameter: 'event' }, title: 'Bad Request', detail: null, meta: { request_id: expect.any(String) } },
    ]);
    const unknown = await get('/v2/webhook_notifications/examples?event=container.teleported', auth);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0]).toMatchObject({
      source: { parameter: 'event' },
      detail: expect.stringContaining('container.teleported'),
    });
    expect((await get('/v2/webhook_notifications/examples?event=container.updated', {})).statusCode).toBe(401);
  });
});

describe('notificationDocument', () => {
  const typesOf = (doc: { included?: { type: string }[] }) => doc.included?.map((r) => r.type).sort();

  it('a transport event: the notification pending, its event, shipment, container, port, terminal and vessel', async () => {
    const w = await world();
    const made = await w.transportEvent('container.transport.vessel_discharged', {
      at: '2026-02-25T09:48:00Z',
      terminal: ETS_REF,
      vessel: true,
    });
    await recordAttempt(
      t.services.db,
      {
        notification_id: made.notificationId!,
        attempt: 1,
        started_at: t.clock.now(),
        duration_ms: 9,
        status_code: 500,
        error: 'HTTP 500',
        response_body: null,
      },
      { status: 'pending', nextAttemptAt: t.clock.now() },
      t.clock.now(),
    );
    const row = await t.services.notifications.get(w.account.id, made.notificationId!);
    const doc = await notificationDocument(t.services, row, 'https://tidemark.example.com');
    expect(Object.keys(doc)).toEqual(['data', 'included', 'links', 'meta']);
    expect(doc.data.attributes).toMatchObject({ delivery_status: 'pending', event: 'container.transport.vessel_discharged' });
    expect(doc.data.relationships.webhook_notification_logs).toEqual({ data: [] });
    expect(typesOf(doc)).toEqual(['container', 'port', 'shipment', 'terminal', 'transport_event', 'vessel']);
    expect(doc.links).toEqual({ self: `https://tidemark.example.com/v2/webhook_notifications/${made.notificationId}` });
    const seq = await t.services.db.query<{ seq: string }>('SELECT seq::text FROM account_events WHERE id = $1', [made.accountEventId]);
    expect(doc.meta).toEqual({ sequence: Number(seq[0]!.seq), occurred_at: '2026-02-25T09:48:00Z' });
    const shipment = doc.included!.find((r) => r.type === 'shipment')!;
    // Included shipments carry the reference API's 32 attributes and more.
    expect(Object.keys(shipment.attributes).length).toBeGreaterThanOrEqual(32);
    expect(shipment.attributes).toMatchObject({ bill_of_lading_number: 'EGLV142300123456', port_of_discharge_locode: 'USLAX' });
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it('a minimal event has no included key at all', async () => {
    const w = await world();
    const made = await w.transportEvent('container.transport.available', { at: '2026-02-26T15:40:00Z', terminal: ETS_REF });
    const row = await t.services.notifications.get(w.account.id, made.notificationId!);
    const doc = await notificationDocument(t.services, row, 'https://tidemark.example.com');
    expect(Object.keys(doc)).toEqual(['data', 'links', 'meta']);
    expect(doc.data.relationships.reference_object).toEqual({ data: { id: made.transportEventId, type: 'transport_event' } });
  });

  it('a pickup change includes its transport event only', async () => {
    const w = await world();
    const made = await w.transportEvent('container.pickup_appointment.changed', {
      at: '2026-03-02T17:30:00Z',
      terminal: ETS_REF,
      value: '2026-03-02T17:30:00Z',
    });
    const row = await t.services.notifications.get(w.account.id, made.notificationId!);
    const doc = await notificationDocument(t.services, row, '');
    expect(typesOf(doc)).toEqual(['transport_event']);
    expect(doc.included![0]!.attributes.value).toBe('2026-03-02T17:30:00Z');
  });

  it('tracking_request.succeeded: the request, its shipment and the shipment’s containers', async () => {
    const w = await world();
    const request = await insertTrackingRequest(t.services.db, {
      id: newId(),
      account_id: w.account.id,
      request_type: 'bill_of_lading',
      request_number: 'EGLV142300123456',
      scac: 'EGLV',
      auto_detect_scac: false,
      ref_numbers: [],
      shipment_tags: [],
      customer_id: null,
      next_attempt_at: null,
      created_at: t.clock.now(),
      updated_at: t.clock.now(),
    });
    await t.services.db.query(`UPDATE tracking_requests SET status = 'created', shipment_id = $2 WHERE id = $1`, [
      request.id,
      w.shipment.id,
    ]);
    const made = await w.accountEvent(
      'tracking_request.succeeded',
      { tracking_request_id: request.id },
      { tracking_request_id: request.id, shipment_id: w.shipment.id },
      '2026-02-02T09:15:30Z',
    );
    const row = await t.services.notifications.get(w.account.id, made.notificationId!);
    const doc = await notificationDocument(t.services, row, '');
    expect(doc.data.relationships.reference_object).toEqual({ data: { id: request.id, type: 'tracking_request' } });
    expect(typesOf(doc)).toEqual(['container', 'shipment', 'tracking_request']);
    const tr = doc.included!.find((r) => r.type === 'tracking_request')!;
    expect(tr.attributes).toMatchObject({ status: 'created', request_number: 'EGLV142300123456' });
    expect(tr.relationships.tracked_object).toEqual({ data: { id: w.shipment.id, type: 'shipment' } });
    expect(doc.included!.find((r) => r.type === 'container')!.id).toBe(w.containerId);
  });

  it('container.updated: the event from its payload, with container, shipment, terminal and port', async () => {
    const w = await world();
    const payload = {
      type: 'container.updated',
      container_number: 'EGHU9123457',
      changeset: { available_for_pickup: [false, true], pickup_lfd: [null, '2026-03-03T08:00:00Z'] },
      timestamp: '2026-02-26T15:40:00Z',
      timezone: LA,
      data_source: 'terminal',
      terminal: ETS_REF,
    };
    const made = await w.accountEvent('container.updated', { container_id: w.containerId }, payload, '2026-02-26T15:40:00Z');
    const row = await t.services.notifications.get(w.account.id, made.notificationId!);
    const doc = await notificationDocument(t.services, row, '');
    expect(doc.data.relationships.reference_object).toEqual({ data: { id: made.accountEventId, type: 'container_updated_event' } });
    expect(typesOf(doc)).toEqual(['container', 'container_updated_event', 'port', 'shipment', 'terminal']);
    const event = doc.included!.find((r) => r.type === 'container_updated_event')!;
    expect(event).toEqual({
      id: made.accountEventId,
      type: 'container_updated_event',
      attributes: { changeset: payload.changeset, timestamp: '2026-02-26T15:40:00Z', timezone: LA, data_source: 'terminal' },
      relationships: {
        container: { data: { id: w.containerId, type: 'container' } },
        terminal: { data: { id: ets.id, type: 'terminal' } },
        shipment: { data: { id: w.shipment.id, type: 'shipment' } },
      },
    });
    expect(doc.included!.find((r) => r.type === 'port')!.attributes.code).toBe('USLAX');
  });

  it('shipment.estimated.arrival: the estimated event with its shipment and port', async () => {
    const w = await world();
    const record = {
      key: 'eta:USLAX:1215-038E',
      event: 'shipment.estimated.arrival',
      estimated_timestamp: '2026-02-24T14:00:00Z',
      location_locode: 'USLAX',
      timezone: LA,
      voyage_number: '1215-038E',
      vessel_name: VESSEL.name,
      vessel_imo: VESSEL.imo,
      data_source: 'shipping_line',
      reported_at: null,
    };
    const estimatedId = newId();
    await insertEstimatedEvent(
      t.services.db,
      {
        id: estimatedId,
        account_id: w.account.id,
        shipment_id: w.shipment.id,
        event: record.event,
        estimated_timestamp: record.estimated_timestamp,
        record,
      },
      t.clock.now(),
    );
    const made = await w.accountEvent(
      'shipment.estimated.arrival',
      { estimated_event_id: estimatedId },
      { type: 'shipment.estimated.arrival', estimated_event: record, previous_estimated_timestamp: null },
      '2026-02-20T04:12:00Z',
    );
    const row = await t.services.notifications.get(w.account.id, made.notificationId!);
    const doc = await notificationDocument(t.services, row, '');
    expect(typesOf(doc)).toEqual(['estimated_event', 'port', 'shipment']);
    const event = doc.included!.find((r) => r.type === 'estimated_event')!;
    expect(event.id).toBe(estimatedId);
    expect(event.attributes).toMatchObject({
      event: 'shipment.estimated.arrival',
      estimated_timestamp: '2026-02-24T14:00:00Z',
      location_locode: 'USLAX',
      voyage_number: '1215-038E',
      data_source: 'shipping_line',
    });
    expect(event.relationships.port!.data).toEqual({ id: doc.included!.find((r) => r.type === 'port')!.id, type: 'port' });
  });
});
