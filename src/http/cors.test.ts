import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/kit/app.js';

const ALLOWED = 'https://app.example.com';

describe('CORS for /v2 (TIDEMARK_CORS_ORIGINS)', () => {
  let t: TestApp;
  let auth: { authorization: string };
  beforeAll(async () => {
    t = await testApp({ env: { TIDEMARK_CORS_ORIGINS: `${ALLOWED}, http://localhost:3000` } });
    ({ auth } = await t.account());
  });
  afterAll(() => t.close());

  it('answers a preflight from a listed origin with what the API takes', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/v2/shipments',
      headers: { origin: ALLOWED, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, PATCH, DELETE');
    expect(res.headers['access-control-allow-headers']).toBe('Authorization, Content-Type, Accept');
    expect(res.headers['access-control-max-age']).toBe('600');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('lets a listed origin read an answer and its request id; not another origin, nor outside /v2', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/v2/shipments', headers: { ...auth, origin: ALLOWED } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(ok.headers['access-control-expose-headers']).toContain('X-Request-Id');
    const other = await t.app.inject({ method: 'GET', url: '/v2/shipments', headers: { ...auth, origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const auth2 = await t.app.inject({ method: 'GET', url: '/auth/config', headers: { origin: ALLOWED } });
    expect(auth2.headers['access-control-allow-origin']).toBeUndefined();
    const preflightElsewhere = await t.app.inject({
      method: 'OPTIONS',
      url: '/auth/signin',
      headers: { origin: ALLOWED, 'access-control-request-method': 'POST' },
    });
    expect(preflightElsewhere.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('opens nothing when no origin is listed (the default): a preflight is the 405 of a method /v2 does not take', async () => {
    const closed = await testApp({ database: t.database });
    try {
      const res = await closed.app.inject({
        method: 'OPTIONS',
        url: '/v2/shipments',
        headers: { origin: ALLOWED, 'access-control-request-method': 'GET' },
      });
      expect(res.statusCode).toBe(405);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await closed.close();
    }
  });
});
