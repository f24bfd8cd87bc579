import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/kit/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

describe('authentication', () => {
  it('answers a missing or invalid key with the reference 401 body', async () => {
    for (const headers of [{}, { authorization: 'Token nope' }, { authorization: 'Basic abc' }, { authorization: 'Token' }]) {
      const res = await t.app.inject({ url: '/v2/shipments', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json().errors).toEqual([
        expect.objectContaining({ status: '401', title: 'Unauthorized', detail: 'Invalid or missing API token.' }),
      ]);
    }
  });

  it('accepts Token and Bearer, and an x-account-id header', async () => {
    const { token } = await t.account();
    for (const authorization of [`Token ${token}`, `Bearer ${token}`, `token ${token}`]) {
      const res = await t.app.inject({
        url: '/v2/shipments',
        headers: { authorization, 'x-account-id': 'whatever', accept: 'application/json' },
      });
      expect(res.statusCode, authorization).toBe(200);
    }
  });

  it('stops accepting a revoked key at once', async () => {
    const { account, token, auth } = await t.account();
    expect((await t.app.inject({ url: '/v2/shipments', headers: auth })).statusCode).toBe(200);
    const [key] = await t.services.accounts.listKeys(t.services.db, account.id);
    await t.services.accounts.revokeKey(t.services.db, key!.id, account.id);
    expect((await t.app.inject({ url: '/v2/shipments', headers: { authorization: `Token ${token}` } })).statusCode).toBe(401);
  });

  it('stores keys only as digests and lists them masked', async () => {
    const { account, token } = await t.account();
    const rows = await t.services.db.query<Record<string, unknown>>('SELECT * FROM api_keys WHERE account_id = $1', [account.id]);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(JSON.stringify(rows)).not.toContain(token.slice(8, 30));
    const [masked] = await t.services.accounts.listKeys(t.services.db, account.id);
    expect(masked!.masked).toBe(`${token.slice(0, 7)}…${token.slice(-4)}`);
  });

  it('records when a key was last used', async () => {
    const { account, auth } = await t.account();
    await t.app.inject({ url: '/v2/shipments', headers: auth });
    const [key] = await t.services.accounts.listKeys(t.services.db, account.id);
    expect(key!.lastUsedAt?.toISOString()).toBe(t.clock.now().toISOString());
  });
});

describe('routing and errors', () => {
  it('answers unknown routes with a JSON 404', async () => {
    for (const url of ['/v2/nope', '/nope', '/v2/containers/123/route']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/json/);
      expect(res.json().errors[0]).toMatchObject({ status: '404', title: 'Not Found' });
    }
  });

  it('puts the request id in error bodies and headers', async () => {
    const res = await t.app.inject({ url: '/v2/shipments' });
    expect(res.json().errors[0].meta.request_id).toBe(res.headers['x-request-id']);
  });

  it('serves health, readiness and metrics', async () => {
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ url: '/readyz' })).json()).toMatchObject({ status: 'ready' });
    await t.app.inject({ url: '/v2/shipments' });
    const metrics = await t.app.inject({ url: '/metrics' });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toMatch(/tidemark_http_requests_total\{method="GET",route="\/v2\/shipments",status="401"\} \d+/);
    expect(metrics.body).toContain('tidemark_db_pool_connections');
    expect(metrics.body).toContain('tidemark_jobs_total');
  });
});
