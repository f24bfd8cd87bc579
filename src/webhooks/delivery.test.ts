// Delivery in batches and as a running pipeline, through the real seams: a database (PGlite, or the server with
// TEST_DATABASE_URL), the outbox written by insertAccountEvent, a receiver on loopback, a fixed wall clock.
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { makeServices, openSandbox } from '../compose.js';
import { newId } from '../lib/ids.js';
import { PgDb } from '../storage/pg.js';
import { insertAccountEvent } from '../storage/repositories/tracking.js';
import { testApp, testConfig, type TestApp } from '../../test/kit/app.js';
import { onServer } from '../../test/kit/databases.js';
import { type Receiver, startReceiver } from '../../test/kit/receiver.js';
import { seedShipment } from '../../test/kit/seed.js';
import { endpointOutcomes, type Finished } from './delivery.js';
import { DeliveryRunner } from './delivery-runner.js';
import { until } from '../../test/kit/wait.js';

const ALLOW = { TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: '1' };
const EVENT = 'container.transport.available';

let t: TestApp | null = null;
let receiver: Receiver | null = null;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await t?.close();
  await receiver?.close();
  t = null;
  receiver = null;
});

/** An app with a webhook to a local receiver; `commit(n)` writes n account events (each with its notification). */
async function setup(env: Record<string, string> = {}) {
  receiver = await startReceiver();
  t = await testApp({ env: { ...ALLOW, ...env } });
  const app = t;
  const { account, auth } = await app.account();
  const hook = await app.app.inject({
    method: 'POST',
    url: '/v2/webhooks',
    headers: auth,
    payload: { data: { type: 'webhook', attributes: { url: receiver.url, events: [EVENT] } } },
  });
  expect(hook.statusCode, hook.body).toBe(201);
  const { id: shipmentId, containerIds } = await seedShipment(app, account.id, { bl: 'MAEU1', containers: [{ number: 'MSKU9070323' }] });
  const commit = async (n: number) => {
    for (let i = 0; i < n; i++) {
      await app.services.db.transaction((tx) =>
        insertAccountEvent(
          tx,
          {
            id: newId(),
            account_id: account.id,
            event: EVENT,
            tracking_request_id: null,
            shipment_id: shipmentId,
            container_id: containerIds[0]!,
            transport_event_id: null,
            estimated_event_id: null,
            payload: { type: EVENT, container_number: 'MSKU9070323' },
            occurred_at: app.clock.now(),
          },
          app.clock.now(),
        ),
      );
    }
  };
  const state = () =>
    app.services.db.query<{ id: string; delivery_status: string; attempts: number; lease_until: Date | null; logs: number }>(
      `SELECT n.id, n.delivery_status, n.attempts, n.lease_until,
         (SELECT count(*)::int FROM webhook_notification_logs l WHERE l.notification_id = n.id) AS logs
       FROM webhook_notifications n WHERE n.account_id = $1 ORDER BY n.id`,
      [account.id],
    );
  return { t: app, receiver, hookId: hook.json().data.id as string, accountId: account.id, commit, state };
}

describe('a delivery round', () => {
  it('records every attempt of the batch: a log each, and each notification’s outcome', async () => {
    const { t, receiver, state, commit } = await setup({ TIDEMARK_WEBHOOKS_RETRY_SCHEDULE: '1m' });
    const failed = new Set<string>();
    receiver.respond = (r, i) => {
      if (i % 2 === 0) return { status: 200 };
      failed.add(r.json.data.id);
      return { status: 500 };
    };
    await commit(40);
    expect(await t.services.webhookDelivery.deliverDue()).toBe(40);
    const rows = await state();
    expect(rows).toHaveLength(40);
    expect(receiver.received).toHaveLength(40);
    for (const row of rows) {
      expect(row.logs, row.id).toBe(1);
      expect(row.attempts).toBe(1);
      expect(row.lease_until).toBeNull();
      expect(row.delivery_status).toBe(failed.has(row.id) ? 'pending' : 'succeeded');
    }
    // The failed ones are due again a minute later, and only they.
    expect(await t.services.webhookDelivery.deliverDue()).toBe(0);
    t.clock.advance(60_000);
    expect(await t.services.webhookDelivery.deliverDue()).toBe(failed.size);
  });

  it('keeps each document as first sent, for every attempt', async () => {
    const { t, receiver, commit } = await setup({ TIDEMARK_WEBHOOKS_RETRY_SCHEDULE: '1m' });
    receiver.respond = (_r, i) => ({ status: i < 5 ? 503 : 204 });
    await commit(5);
    await t.services.webhookDelivery.deliverDue();
    t.clock.advance(60_000);
    await t.services.webhookDelivery.deliverDue();
    expect(receiver.received).toHaveLength(10);
    const bodies = new Map<string, Set<string>>();
    for (const r of receiver.received) bodies.set(r.json.data.id, (bodies.get(r.json.data.id) ?? new Set()).add(r.body));
    expect([...bodies.values()].map((b) => b.size)).toEqual([1, 1, 1, 1, 1]);
    const stored = await t.services.db.query<{ id: string; body: string }>('SELECT id, body FROM webhook_notifications');
    for (const s of stored) expect(bodies.get(s.id)).toEqual(new Set([s.body]));
  });

  it('gives a notification back unsent when its lease would end before the attempt is recorded', async () => {
    const { t, receiver, state, commit } = await setup();
    await commit(1);
    const delivery = t.services.webhookDelivery;
    const {
      claimed: [claimed],
    } = await delivery.claim(10);
    expect(claimed).toBeDefined();
    // Claimed long ago (it waited in its endpoint's lane): another worker may take it any moment now.
    t.clock.advance(delivery.leaseMs - 1000);
    const finished = await delivery.send(claimed!);
    expect(finished).toEqual({ kind: 'released', id: claimed!.row.id });
    await delivery.record([finished]);
    expect(receiver.received).toHaveLength(0);
    expect(await state()).toMatchObject([{ delivery_status: 'pending', attempts: 0, lease_until: null, logs: 0 }]);
    expect(await delivery.deliverDue()).toBe(1);
    expect(receiver.received).toHaveLength(1);
  });
});

describe('endpoint outcomes of a batch', () => {
  const at = (s: number) => new Date(Date.UTC(2026, 2, 1, 12, 0, s));
  const attempt = (webhookId: string, s: number, succeeded: boolean | null): Finished => ({
    kind: 'attempt',
    record: {
      log: { notification_id: newId(), attempt: 1, started_at: at(s), duration_ms: 1, status_code: 200, error: null, response_body: null },
      outcome: { status: 'succeeded', nextAttemptAt: null },
      at: at(s),
    },
    endpoint: succeeded === null ? null : { webhookId, succeeded, error: succeeded ? 'HTTP 200' : `HTTP 50${s}` },
  });

  it('sums up each endpoint in the order its attempts ended', () => {
    expect(
      endpointOutcomes([
        attempt('a', 1, true),
        attempt('b', 1, false),
        attempt('a', 2, false),
        attempt('c', 1, false),
        attempt('b', 2, false),
        attempt('a', 3, false),
        attempt('c', 2, true),
        attempt('d', 4, null),
        { kind: 'released', id: 'x' },
      ]),
    ).toEqual([
      // A success, then failures: the streak starts again at the first of them.
      { webhookId: 'a', at: at(3), failingSince: at(2), restarted: true, lastError: 'HTTP 503' },
      // Failures only: the streak goes on from wherever it began.
      { webhookId: 'b', at: at(2), failingSince: at(1), restarted: false, lastError: 'HTTP 502' },
      // Ended with a success: no streak.
      { webhookId: 'c', at: at(2), failingSince: null, restarted: false, lastError: 'HTTP 501' },
    ]);
  });

  it('a success after failures in the same batch ends the endpoint’s failure streak', async () => {
    const { t, receiver, hookId, commit } = await setup({ TIDEMARK_WEBHOOKS_RETRY_SCHEDULE: '1m' });
    receiver.respond = () => ({ status: 500 });
    await commit(3);
    await t.services.webhookDelivery.deliverDue();
    const failing = await t.services.db.query<{ failing_since: Date | null }>('SELECT failing_since FROM webhooks WHERE id = $1', [hookId]);
    expect(failing[0]!.failing_since).not.toBeNull();
    receiver.respond = () => ({ status: 200 });
    t.clock.advance(60_000);
    await t.services.webhookDelivery.deliverDue();
    const after = await t.services.db.query<{ failing_since: Date | null; active: boolean }>(
      'SELECT failing_since, active FROM webhooks WHERE id = $1',
      [hookId],
    );
    expect(after[0]).toEqual({ failing_since: null, active: true });
  });
});

describe('the delivery runner', () => {
  it('is woken by the commit: delivers without waiting for the poll', async () => {
    const { t, receiver, commit } = await setup();
    // The poll would come in an hour: only the wake-up on commit can deliver within the test.
    const runner = new DeliveryRunner(t.services.webhookDelivery, pino({ level: 'silent' }), { idleMs: 3_600_000 });
    runner.start();
    cleanups.push(() => runner.stop());
    await commit(1);
    await until('the first attempt', 10_000, () => receiver.received.length === 1, 10);
    // Idle again (nothing due); the next commit wakes it too.
    await commit(1);
    await until('the second attempt', 10_000, () => receiver.received.length === 2, 10);
    expect(new Set(receiver.received.map((r) => r.json.data.id)).size).toBe(2);
  });

  it('drains a backlog larger than an endpoint’s share of a claim, each notification once, every attempt recorded', async () => {
    const { t, receiver, state, commit } = await setup();
    await commit(150);
    const runner = new DeliveryRunner(t.services.webhookDelivery, pino({ level: 'silent' }), { idleMs: 3_600_000 });
    runner.start();
    await until('150 deliveries', 20_000, () => receiver.received.length >= 150, 10);
    await runner.stop();
    expect(receiver.received).toHaveLength(150);
    expect(new Set(receiver.received.map((r) => r.json.data.id)).size).toBe(150);
    const rows = await state();
    expect(rows.every((r) => r.delivery_status === 'succeeded' && r.logs === 1 && r.lease_until === null)).toBe(true);
  });

  it('stopping lets the attempts in flight end and records them, and gives back what was not started', async () => {
    const { t, receiver, state, commit } = await setup();
    receiver.respond = () => ({ status: 200, delayMs: 50 });
    await commit(40);
    const runner = new DeliveryRunner(t.services.webhookDelivery, pino({ level: 'silent' }), { idleMs: 3_600_000 });
    runner.start();
    await until('a delivery', 10_000, () => receiver.received.length >= 1, 10);
    await runner.stop();
    const rows = await state();
    // Nothing is left leased; what was sent is recorded, what was not is pending without an attempt.
    expect(rows.every((r) => r.lease_until === null)).toBe(true);
    const sent = new Set(receiver.received.map((r) => r.json.data.id));
    for (const r of rows) {
      if (sent.has(r.id)) expect(r).toMatchObject({ delivery_status: 'succeeded', logs: 1 });
      else expect(r).toMatchObject({ delivery_status: 'pending', attempts: 0, logs: 0 });
    }
  });

  it.skipIf(!onServer())('two worker processes on one database deliver each notification once (server only)', async () => {
    const { t, receiver, state, commit } = await setup();
    receiver.respond = () => ({ status: 200, delayMs: 2 });
    // A second "process": its own pool and services on the same database.
    const db2 = new PgDb(t.database.url!, { max: 5 });
    cleanups.push(() => db2.close());
    const config = testConfig({ ...ALLOW, TIDEMARK_SANDBOX: 'off' });
    const { clocks } = await openSandbox(config, db2, t.clock);
    const other = makeServices(config, db2, clocks, null);
    const runners = [t.services.webhookDelivery, other.webhookDelivery].map(
      (d) => new DeliveryRunner(d, pino({ level: 'silent' }), { idleMs: 3_600_000 }),
    );
    for (const r of runners) r.start();
    cleanups.push(async () => {
      for (const r of runners) await r.stop();
    });
    await commit(300);
    await until('300 deliveries', 20_000, () => receiver.received.length >= 300, 10);
    for (const r of runners) await r.stop();
    expect(receiver.received).toHaveLength(300);
    expect(new Set(receiver.received.map((r) => r.json.data.id)).size).toBe(300);
    expect((await state()).every((r) => r.delivery_status === 'succeeded' && r.logs === 1)).toBe(true);
  });
});
