// The real service as users start it (one process, embedded PGlite, the sandbox on): SIGKILL in the middle of a
// burst of webhook deliveries, start again on the same data: every notification ends delivered at least once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EVENT_NAMES } from '../../src/domain/event-catalogue.js';
import { callServer, type Server, startServer } from '../kit/cli.js';
import { startReceiver } from '../kit/receiver.js';
import { until } from '../kit/wait.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const call = (server: Server, auth: string, method: string, path: string, body?: unknown) =>
  callServer(server, { authorization: auth }, method, path, body);

describe('webhook delivery with the real service', () => {
  it('a SIGKILL in the middle of a burst of deliveries loses no notification', { timeout: 240_000 }, async () => {
    const receiver = await startReceiver();
    // Until the kill, answers are held back: deliveries are in flight when the process dies, and however long the
    // clock advance takes, the first process cannot finish the burst before it.
    let holdBack = true;
    receiver.respond = () => (holdBack ? { status: 200, delayMs: 20_000 } : { status: 200 });
    const dir = mkdtempSync(join(tmpdir(), 'tidemark-webhooks-'));
    dirs.push(dir);
    const env = { TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: '1' };
    const first = await startServer(['--data-dir', dir], env);
    const key = `Token ${first.apiKey!}`;
    let second: Server | null = null;
    try {
      const hook = await call(first, key, 'POST', '/v2/webhooks', {
        data: { type: 'webhook', attributes: { url: receiver.url, events: [...EVENT_NAMES] } },
      });
      expect(hook.status).toBe(201);
      for (const [number, scac] of [
        ['MEDU240200002', 'MSCU'],
        ['CMDU240300003', 'CMDU'],
        ['HLCU240400004', 'HLCU'],
        ['ONEY240500005', 'ONEY'],
        ['COSU240600006', 'COSU'],
      ]) {
        const res = await call(first, key, 'POST', '/v2/tracking_requests', {
          data: { type: 'tracking_request', attributes: { request_type: 'bill_of_lading', request_number: number, scac } },
        });
        expect(res.status).toBe(201);
      }
      // The journeys move on: many events, many deliveries at once.
      const advance = await call(first, `Bearer ${first.adminToken!}`, 'POST', '/sandbox/clock/advance', { days: 6 });
      expect(advance.status).toBe(200);
      await until('first deliveries', 60_000, async () => (receiver.received.length >= 3 ? true : null));
      expect(await first.stop('SIGKILL')).toBeNull();
      const beforeRestart = receiver.received.length;
      holdBack = false;

      second = await startServer(['--data-dir', dir], env);
      const server = second;
      const notifications = await until(
        'every notification delivered',
        120_000,
        async () => {
          const all: { id: string; attributes: { delivery_status: string } }[] = [];
          for (let page = 1; ; page++) {
            const res = await call(server, key, 'GET', `/v2/webhook_notifications?page[size]=100&page[number]=${page}&include=`);
            expect(res.status, JSON.stringify(res.body)).toBe(200);
            all.push(...(res.body.data as typeof all));
            if (!(res.body.links as { next?: string }).next) break;
          }
          return all.length > 0 && all.every((n) => n.attributes.delivery_status === 'succeeded') ? all : null;
        },
        2000,
      );
      const received = new Set(receiver.received.map((r) => r.json.data.id));
      const missing = notifications.filter((n) => !received.has(n.id)).map((n) => n.id);
      expect(missing).toEqual([]);
      // The kill really happened mid-burst: work was left for the second process.
      expect(notifications.length).toBeGreaterThan(beforeRestart);
    } finally {
      await second?.stop();
      await receiver.close();
    }
  });
});
