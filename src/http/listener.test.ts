import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { listen } from './listener.js';

describe('the listener bound before the app', () => {
  it('knows its address at once, answers 503 until the app serves, then hands every request to the app', async () => {
    const listener = await listen('127.0.0.1', 0);
    try {
      expect(listener.address).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
      const early = await fetch(`${listener.address}/healthz`);
      expect(early.status).toBe(503);
      expect(early.headers.get('retry-after')).toBe('1');
      expect(((await early.json()) as { errors: { status: string }[] }).errors[0]?.status).toBe('503');

      const app = Fastify({ serverFactory: (handler) => listener.serve(handler) });
      app.get('/healthz', async () => ({ ok: true }));
      await app.ready();
      expect(app.server).toBe(listener.server);
      const served = await fetch(`${listener.address}/healthz`);
      expect(served.status).toBe(200);
      expect(await served.json()).toEqual({ ok: true });
      await app.close();
    } finally {
      await listener.close();
    }
    expect(listener.server.listening).toBe(false);
  });
});
