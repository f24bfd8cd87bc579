import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/kit/app.js';
import { FixedClock } from '../domain/clock.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ clock: new FixedClock('2026-03-01T12:00:10Z') });
});
afterAll(() => t.close());

describe('rate limits', () => {
  it('answers the 101st request in a minute with 429 and Retry-After; other accounts are unaffected', async () => {
    const a = await t.account();
    const b = await t.account();
    for (let i = 0; i < 100; i++) {
      const res = await t.app.inject({ url: '/v2/shipments', headers: a.auth });
      expect(res.statusCode).toBe(200);
    }
    const over = await t.app.inject({ url: '/v2/shipments', headers: a.auth });
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(65);
    expect(over.json().errors[0]).toMatchObject({ status: '429', title: 'Too Many Requests' });
    expect(over.json().errors[0].detail).toMatch(/webhooks/);
    expect((await t.app.inject({ url: '/v2/parties', headers: a.auth })).statusCode).toBe(429);
    expect((await t.app.inject({ url: '/v2/shipments', headers: b.auth })).statusCode).toBe(200);

    // After the advised wait, requests are accepted again.
    t.clock.advance(Number(over.headers['retry-after']) * 1000);
    expect((await t.app.inject({ url: '/v2/shipments', headers: a.auth })).statusCode).toBe(200);
  });

  it('honours a per-account limit', async () => {
    const a = await t.account();
    await t.services.accounts.update(t.services.db, a.account.name, { rateLimits: { default: 3 } });
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await t.app.inject({ url: '/v2/shipments', headers: a.auth })).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
  });

  it('rolls: a minute-old burst counts until it slides out of the last 60 s', async () => {
    const a = await t.account();
    await t.services.accounts.update(t.services.db, a.account.name, { rateLimits: { default: 10 } });
    const clock = t.clock;
    clock.set('2026-03-01T12:10:50Z');
    for (let i = 0; i < 10; i++) expect((await t.app.inject({ url: '/v2/shipments', headers: a.auth })).statusCode).toBe(200);
    for (const when of ['2026-03-01T12:11:05Z', '2026-03-01T12:11:31Z', '2026-03-01T12:11:49Z']) {
      clock.set(when);
      expect((await t.app.inject({ url: '/v2/shipments', headers: a.auth })).statusCode, when).toBe(429);
    }
    // At :51 a fifth of the 12:10:50–55 bucket lies outside the window: two requests fit, not three.
    clock.set('2026-03-01T12:11:51Z');
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await t.app.inject({ url: '/v2/shipments', headers: a.auth })).statusCode);
    expect(codes).toEqual([200, 200, 429]);
  });
});
