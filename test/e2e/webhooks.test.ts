// Issue 6's delivery acceptance through the real seams: the sandbox world tracked by the real adapters, the
// outbox written by the engine's commits, the delivery worker POSTing to a receiver on loopback (allowed by
// TIDEMARK_WEBHOOKS_ALLOW_PRIVATE), signatures checked both ways, and the retry schedule on a fixed clock.
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { insertAccountEvent } from '../../src/storage/repositories/tracking.js';
import { manualDeliveryEvent } from '../../src/tracking/manual-delivery.js';
import { emptyContainer } from '../../src/tracking/snapshot.js';
import { EVENT_NAMES } from '../../src/domain/event-catalogue.js';
import { testApp, type TestApp } from '../kit/app.js';
import { type Received, type Receiver, startReceiver } from '../kit/receiver.js';
import { type SandboxWorld, sandboxWorld } from '../kit/sandbox-world.js';
import { seedShipment } from '../kit/seed.js';

const ALLOW = { TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: '1' };

/** Runs delivery rounds until nothing is due at the test's wall time. */
async function deliverAll(t: TestApp): Promise<number> {
  let total = 0;
  for (;;) {
    const made = await t.services.webhookDelivery.deliverDue();
    if (made === 0) return total;
    total += made;
  }
}

/** Both signatures of a delivery, as a receiver checks them. */
function verify(r: Received, secret: string) {
  const hex = createHmac('sha256', secret).update(r.body, 'utf8').digest('hex');
  expect(r.headers['x-tidemark-webhook-signature']).toBe(hex);
  // standardwebhooks' verify() also checks the timestamp against the real clock; the test clock is fixed, so
  // the same library signs what the header should say and the two are compared.
  const id = r.headers['webhook-id'] as string;
  const timestamp = Number(r.headers['webhook-timestamp']);
  expect(id).toBe(r.json.data.id);
  expect(r.headers['webhook-signature']).toBe(new Webhook(secret).sign(id, new Date(timestamp * 1000), r.body));
}

describe('webhooks with the sandbox world', () => {
  let world: SandboxWorld;
  let receiver: Receiver;
  let secret = '';
  let webhookId = '';

  beforeAll(async () => {
    receiver = await startReceiver();
    world = await sandboxWorld({
      scenarios: (e) => e.scenario === 'rail' || e.scenario === 'holds',
      env: ALLOW,
      beforeTracking: async (t, a) => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v2/webhooks',
          headers: a.auth,
          payload: {
            data: {
              type: 'webhook',
              attributes: { url: receiver.url, events: [...EVENT_NAMES], headers: [{ name: 'X-Team', value: 'ops' }] },
            },
          },
        });
        if (res.statusCode !== 201) throw new Error(`POST /v2/webhooks: ${res.statusCode} ${res.body}`);
        secret = res.json().data.attributes.secret;
        webhookId = res.json().data.id;
        return () => null;
      },
    });
    await deliverAll(world.t);
    // Through both journeys (the rail one ends with the empty return within 60 days), delivering as it goes.
    for (let day = 0; day < 64; day += 4) {
      await world.walk(4);
      await deliverAll(world.t);
    }
  }, 300_000);
  afterAll(async () => {
    await world?.close();
    await receiver?.close();
  });

  it('delivers one notification per account event, every event name the journeys produced', async () => {
    const { t, accounts } = world;
    const accountId = accounts[0]!.account.id;
    const events = await t.services.db.query<{ id: string; event: string }>('SELECT id, event FROM account_events WHERE account_id = $1', [
      accountId,
    ]);
    const notifications = await t.services.db.query<{ id: string; event: string; delivery_status: string }>(
      'SELECT id, event, delivery_status FROM webhook_notifications WHERE account_id = $1',
      [accountId],
    );
    expect(notifications).toHaveLength(events.length);
    expect(new Set(notifications.map((n) => n.delivery_status))).toEqual(new Set(['succeeded']));
    const receivedIds = new Set(receiver.received.map((r) => r.json.data.id));
    expect(receivedIds).toEqual(new Set(notifications.map((n) => n.id)));
    const names = new Set(receiver.received.map((r) => r.json.data.attributes.event));
    expect(names).toEqual(new Set(events.map((e) => e.event)));
    for (const name of [
      'tracking_request.succeeded',
      'container.created',
      'container.transport.vessel_arrived',
      'container.transport.vessel_discharged',
      'container.transport.rail_loaded',
      'container.transport.rail_departed',
      'container.transport.rail_arrived',
      'container.transport.rail_unloaded',
      'container.transport.full_out',
      'container.transport.empty_in',
      'container.updated',
    ]) {
      expect(names, name).toContain(name);
    }
  });

  it('signs every delivery both ways and sends the receiver’s own headers', () => {
    expect(receiver.received.length).toBeGreaterThan(20);
    for (const r of receiver.received) {
      verify(r, secret);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['user-agent']).toMatch(/Tidemark/);
      expect(r.headers['x-team']).toBe('ops');
    }
  });

  it('sends the wire shapes: included per event, minimal events without included, meta with sequence and time', () => {
    for (const r of receiver.received) {
      const { data, included, meta } = r.json as unknown as {
        data: {
          type: string;
          relationships: { webhook: { data: { id: string } }; reference_object: { data: { type: string; id: string } } };
        };
        included?: { type: string; id: string }[];
        meta: { sequence: number; occurred_at: string };
      };
      expect(data.type).toBe('webhook_notification');
      expect(data.relationships.webhook.data.id).toBe(webhookId);
      expect(typeof meta.sequence).toBe('number');
      expect(meta.occurred_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const event = r.json.data.attributes.event;
      if (['container.transport.available', 'container.transport.not_available', 'container.transport.delivered'].includes(event)) {
        expect(r.json, event).not.toHaveProperty('included');
      } else {
        const ref = data.relationships.reference_object.data;
        expect(
          included?.some((o) => o.type === ref.type && o.id === ref.id),
          event,
        ).toBe(true);
      }
    }
    const sequences = receiver.received.map((r) => (r.json.meta as { sequence: number }).sequence);
    expect(new Set(sequences).size).toBe(sequences.length);
  });

  it('every notification is retrievable by id: succeeded, with its attempt log', async () => {
    const { t, accounts } = world;
    for (const r of receiver.received.slice(0, 10)) {
      const res = await t.app.inject({
        url: `/v2/webhook_notifications/${r.json.data.id}?include=webhook_notification_logs`,
        headers: accounts[0]!.auth,
      });
      expect(res.statusCode).toBe(200);
      const doc = res.json();
      expect(doc.data.attributes.delivery_status).toBe('succeeded');
      const logs = doc.included.filter((o: { type: string }) => o.type === 'webhook_notification_log');
      expect(logs).toHaveLength(1);
      expect(logs[0].attributes).toMatchObject({ attempt: 1, status_code: 200, error: null });
      expect(logs[0].attributes.response_body).toBe('{"ok":true}');
    }
  });
});

describe('retries on a fixed clock', () => {
  let t: TestApp | null = null;
  let receiver: Receiver | null = null;
  afterEach(async () => {
    await t?.close();
    await receiver?.close();
    t = null;
    receiver = null;
  });

  /** An app with these settings, a webhook to a local receiver for deliveries, and one notification due. */
  async function oneNotification(env: Record<string, string>) {
    receiver = await startReceiver();
    t = await testApp({ env: { ...ALLOW, ...env } });
    const { account, auth } = await t.account();
    const hook = await t.app.inject({
      method: 'POST',
      url: '/v2/webhooks',
      headers: auth,
      payload: { data: { type: 'webhook', attributes: { url: receiver.url, events: ['container.transport.delivered'] } } },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const { containerIds } = await seedShipment(t, account.id, { bl: 'MAEU1', containers: [{ number: 'MSKU9070323' }] });
    const marked = await t.app.inject({
      method: 'PATCH',
      url: `/v2/containers/${containerIds[0]}`,
      headers: auth,
      payload: { data: { attributes: { delivered_at: '2026-02-28T10:00:00Z' } } },
    });
    expect(marked.statusCode).toBe(200);
    const [n] = await t.services.db.query<{ id: string }>('SELECT id FROM webhook_notifications WHERE account_id = $1', [account.id]);
    const app = t;
    const read = async () => {
      const res = await app.app.inject({ url: `/v2/webhook_notifications/${n!.id}?include=webhook_notification_logs`, headers: auth });
      const doc = res.json();
      return {
        status: doc.data.attributes.delivery_status as string,
        logs: (doc.included as { type: string; attributes: { attempt: number; started_at: string; status_code: number | null } }[])
          .filter((o) => o.type === 'webhook_notification_log')
          .map((o) => o.attributes)
          .sort((a, b) => a.attempt - b.attempt),
      };
    };
    return { t, auth, id: n!.id, hookId: hook.json().data.id as string, receiver, read };
  }

  it('a receiver that fails three times then answers 200 gets it on the fourth attempt, on schedule', async () => {
    const { t, receiver, read } = await oneNotification({ TIDEMARK_WEBHOOKS_RETRY_SCHEDULE: '1m,5m,30m' });
    receiver.respond = (_r, i) => ({ status: i < 3 ? 500 : 200 });
    const t0 = t.clock.now().getTime();
    const at = (ms: number) => t.clock.set(new Date(t0 + ms));
    expect(await t.services.webhookDelivery.deliverDue()).toBe(1);
    at(59_000);
    expect(await t.services.webhookDelivery.deliverDue()).toBe(0);
    at(60_000);
    expect(await t.services.webhookDelivery.deliverDue()).toBe(1);
    at(60_000 + 5 * 60_000 - 1000);
    expect(await t.services.webhookDelivery.deliverDue()).toBe(0);
    at(60_000 + 5 * 60_000);
    expect(await t.services.webhookDelivery.deliverDue()).toBe(1);
    at(6 * 60_000 + 30 * 60_000);
    expect(await t.services.webhookDelivery.deliverDue()).toBe(1);
    const { status, logs } = await read();
    expect(status).toBe('succeeded');
    expect(logs.map((l) => l.status_code)).toEqual([500, 500, 500, 200]);
    expect(logs.map((l) => Date.parse(l.started_at) - Math.floor(t0 / 1000) * 1000)).toEqual([0, 60_000, 360_000, 2_160_000]);
    expect(receiver.received).toHaveLength(4);
    // The same notification every time, signed afresh.
    expect(new Set(receiver.received.map((r) => r.json.data.id)).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-timestamp'])).size).toBe(4);
  });

  it('one that always fails ends failed after the configured attempts, and nothing more is sent', async () => {
    const { t, receiver, read } = await oneNotification({ TIDEMARK_WEBHOOKS_RETRY_SCHEDULE: '1m,5m' });
    receiver.respond = () => ({ status: 500 });
    for (const step of [0, 60_000, 5 * 60_000, 3_600_000, 86_400_000]) {
      t.clock.advance(step);
      await t.services.webhookDelivery.deliverDue();
    }
    const { status, logs } = await read();
    expect(status).toBe('failed');
    expect(logs).toHaveLength(3);
    expect(receiver.received).toHaveLength(3);
  });

  it('honours Retry-After up to an hour', async () => {
    const { t, receiver, read } = await oneNotification({ TIDEMARK_WEBHOOKS_RETRY_SCHEDULE: '1m,1m' });
    receiver.respond = (_r, i) => (i === 0 ? { status: 503, headers: { 'retry-after': '600' } } : { status: 204 });
    await t.services.webhookDelivery.deliverDue();
    t.clock.advance(60_000);
    expect(await t.services.webhookDelivery.deliverDue()).toBe(0);
    t.clock.advance(540_000);
    expect(await t.services.webhookDelivery.deliverDue()).toBe(1);
    expect((await read()).status).toBe('succeeded');
  });

  it('deactivates a webhook whose every delivery failed for the configured period, and says why', async () => {
    const { t, auth, hookId, receiver } = await oneNotification({
      TIDEMARK_WEBHOOKS_RETRY_SCHEDULE: '10m,10m,10m,10m,10m,10m,10m',
      TIDEMARK_WEBHOOKS_DISABLE_AFTER: '30m',
    });
    receiver.respond = () => ({ status: 502 });
    for (let i = 0; i < 4; i++) {
      await t.services.webhookDelivery.deliverDue();
      t.clock.advance(10 * 60_000);
    }
    const hook = await t.app.inject({ url: `/v2/webhooks/${hookId}`, headers: auth });
    expect(hook.json().data.attributes.active).toBe(false);
    expect(hook.json().data.attributes.deactivated_reason).toMatch(/Every delivery failed since .*HTTP 502/);
    // Nothing more goes to a deactivated webhook.
    const before = receiver.received.length;
    await t.services.webhookDelivery.deliverDue();
    expect(receiver.received).toHaveLength(before);
  });

  it('redeliver and replay send the stored notification again with its id and body', async () => {
    const { t, auth, id, hookId, receiver, read } = await oneNotification({});
    await t.services.webhookDelivery.deliverDue();
    expect((await read()).status).toBe('succeeded');

    const again = await t.app.inject({ method: 'POST', url: `/v2/webhook_notifications/${id}/redeliver`, headers: auth });
    expect(again.statusCode).toBe(202);
    expect(again.json().data).toMatchObject({ id, attributes: { delivery_status: 'pending' } });
    t.clock.advance(1000);
    expect(await t.services.webhookDelivery.deliverDue()).toBe(1);

    const from = new Date(t.clock.now().getTime() - 3_600_000).toISOString();
    const to = new Date(t.clock.now().getTime() + 1000).toISOString();
    const replay = await t.app.inject({ method: 'POST', url: `/v2/webhooks/${hookId}/replay`, headers: auth, payload: { from, to } });
    expect(replay.statusCode).toBe(202);
    expect(replay.json()).toEqual({ meta: { queued: 1 } });
    t.clock.advance(1000);
    expect(await t.services.webhookDelivery.deliverDue()).toBe(1);

    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.json.data.id))).toEqual(new Set([id]));
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    const { status, logs } = await read();
    expect(status).toBe('succeeded');
    expect(logs.map((l) => l.attempt)).toEqual([1, 2, 3]);
  });
});

describe('fairness across endpoints', () => {
  it('a backlog at one slow receiver does not hold up another receiver’s notification', async () => {
    const slow = await startReceiver();
    const fast = await startReceiver();
    slow.respond = () => ({ status: 200, delayMs: 300 });
    const t = await testApp({ env: ALLOW });
    try {
      const { account, auth } = await t.account();
      for (const [url, event] of [
        [slow.url, 'container.transport.available'],
        [fast.url, 'container.transport.delivered'],
      ]) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v2/webhooks',
          headers: auth,
          payload: { data: { type: 'webhook', attributes: { url, events: [event] } } },
        });
        expect(res.statusCode, res.body).toBe(201);
      }
      const { id: shipmentId, containerIds } = await seedShipment(t, account.id, { bl: 'MAEU7', containers: [{ number: 'MSKU9070323' }] });
      const record = {
        ...manualDeliveryEvent(emptyContainer('MSKU9070323'), '2026-03-01T10:00:00Z', '2026-03-01T10:00:00Z'),
        data_source: 'terminal',
      };
      const event = (name: string) => ({
        id: newId(),
        account_id: account.id,
        event: name,
        tracking_request_id: null,
        shipment_id: shipmentId,
        container_id: containerIds[0]!,
        transport_event_id: null,
        estimated_event_id: null,
        payload: { type: name, container_number: 'MSKU9070323', transport_event: { ...record, event: name } },
        occurred_at: new Date('2026-03-01T10:00:00Z'),
      });
      // 150 notifications for the slow receiver are due first; then one for the fast receiver.
      for (let i = 0; i < 150; i++) await insertAccountEvent(t.services.db, event('container.transport.available'), t.clock.now());
      t.clock.advance(1000);
      await insertAccountEvent(t.services.db, event('container.transport.delivered'), t.clock.now());

      // One round: a few of the slow receiver's, and the fast receiver's at once.
      await t.services.webhookDelivery.deliverDue();
      expect(fast.received).toHaveLength(1);
      expect(slow.received.length).toBeLessThan(150);
      expect(slow.received.length).toBeGreaterThan(0);
    } finally {
      await t.close();
      await slow.close();
      await fast.close();
    }
  });
});
