// The app on a listener bound before it was built (http/listener.ts, compose.ts): requests that arrive while the app
// is still being made are answered 503 by the listener, never handed to Fastify before its routes are ready.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/kit/app.js';
import { buildApp } from './app.js';
import { listen } from './listener.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

describe('an app on a bound listener', () => {
  it('answers 503 until the app is ready, then serves; an unknown path while building never reaches Fastify', async () => {
    const listener = await listen('127.0.0.1', 0);
    const app = await buildApp(t.services, { listener });
    try {
      // Built, not ready: the routes' hooks are not made yet. Both a route and an unknown path get the listener's 503.
      for (const path of ['/healthz', '/no/such/path']) {
        const early = await fetch(`${listener.address}${path}`);
        expect(early.status, path).toBe(503);
        expect(early.headers.get('retry-after')).toBe('1');
        await early.arrayBuffer();
      }
      await app.ready();
      const ready = await fetch(`${listener.address}/healthz`);
      expect(ready.status).toBe(200);
      await ready.arrayBuffer();
      const unknown = await fetch(`${listener.address}/no/such/path`);
      expect(unknown.status).toBe(404);
      await unknown.arrayBuffer();
    } finally {
      await app.close();
    }
  });
});
