// A delivery runner asked to stop by a deadline (a process stopping must be gone in seconds): attempts still waiting
// on a receiver that hangs are given back at the deadline, for another worker, instead of holding the stop for the
// whole delivery timeout. Through the real seams: a database, the outbox, a receiver on loopback.
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { newId } from '../lib/ids.js';
import { insertAccountEvent } from '../storage/repositories/tracking.js';
import { testApp, type TestApp } from '../../test/kit/app.js';
import { type Receiver, startReceiver } from '../../test/kit/receiver.js';
import { seedShipment } from '../../test/kit/seed.js';
import { DeliveryRunner } from './delivery-runner.js';
import { until } from '../../test/kit/wait.js';

const EVENT = 'container.transport.available';
let t: TestApp | null = null;
let receiver: Receiver | null = null;
afterEach(async () => {
  await t?.close();
  await receiver?.close();
  t = null;
  receiver = null;
});

describe('stopping the delivery runner by a deadline', () => {
  it('gives back, at the deadline, the attempts still waiting on a receiver that hangs; records those that ended', async () => {
    receiver = await startReceiver();
    // A 60 s delivery timeout: without a deadline the stop would wait for it.
    t = await testApp({ env: { TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: '1', TIDEMARK_WEBHOOKS_TIMEOUT_MS: '60000' } });
    const app = t;
    const { account, auth } = await app.account();
    const hook = await app.app.inject({
      method: 'POST',
      url: '/v2/webhooks',
      headers: auth,
      payload: { data: { type: 'webhook', attributes: { url: receiver.url, events: [EVENT] } } },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const { id: shipmentId, containerIds } = await seedShipment(app, account.id, { bl: 'MAEU2', containers: [{ number: 'MSKU9070323' }] });
    for (let i = 0; i < 12; i++) {
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
    // The first two are answered; every later one is held for ten minutes.
    receiver.respond = (_r, i) => (i < 2 ? { status: 200 } : { status: 200, delayMs: 600_000 });
    const runner = new DeliveryRunner(app.services.webhookDelivery, pino({ level: 'silent' }), { idleMs: 3_600_000 });
    runner.start();
    // One endpoint's lane sends 8 at once: the 2 answered make room for 2 more, then 8 hang and 2 wait behind them.
    const hooks = receiver;
    await until('ten deliveries sent', 10_000, () => hooks.received.length >= 10, 10);
    expect(receiver.received).toHaveLength(10);
    const asked = Date.now();
    await runner.stop(300);
    expect(Date.now() - asked).toBeLessThan(2_000);

    const rows = await app.services.db.query<{ id: string; delivery_status: string; attempts: number; lease_until: Date | null }>(
      'SELECT id, delivery_status, attempts, lease_until FROM webhook_notifications WHERE account_id = $1',
      [account.id],
    );
    expect(rows).toHaveLength(12);
    // Nothing is left leased: every notification is free for another worker at once.
    expect(rows.filter((r) => r.lease_until !== null)).toEqual([]);
    // The two answered were recorded; the hanging and the queued ones are pending, with no attempt recorded.
    const answered = new Set(receiver.received.slice(0, 2).map((r) => r.json.data.id));
    for (const r of rows) {
      if (answered.has(r.id)) expect(r).toMatchObject({ delivery_status: 'succeeded', attempts: 1 });
      else expect(r).toMatchObject({ delivery_status: 'pending', attempts: 0 });
    }
  });
});
