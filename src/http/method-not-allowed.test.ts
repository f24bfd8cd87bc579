import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/kit/app.js';
import { allowedMethods } from './app.js';

describe('allowedMethods', () => {
  const routes = [
    { method: 'GET', url: '/v2/shipments' },
    { method: 'GET', url: '/v2/shipments/:id' },
    { method: 'PATCH', url: '/v2/shipments/:id' },
    { method: 'PATCH', url: '/v2/shipments/:id/stop_tracking' },
    { method: 'GET', url: '/*' },
    { method: 'POST', url: '/auth/signin' },
  ];
  it.each([
    ['/v2/shipments/0190c5a0-0000-7000-8000-000000000001', ['GET', 'HEAD', 'PATCH']],
    ['/v2/shipments/abc/?include=containers', ['GET', 'HEAD', 'PATCH']],
    ['/v2/shipments', ['GET', 'HEAD']],
    ['/v2/shipments/abc/stop_tracking', ['PATCH']],
    ['/v2/shipments/abc/nothing', []],
    ['/v2/nothing', []],
    ['/auth/signin', []],
    ['/anything/the/web/app/serves', []],
  ])('%s → %j', (url, methods) => {
    expect(allowedMethods(routes, url)).toEqual(methods);
  });
});

describe('a known path asked with a method it does not take', () => {
  let t: TestApp;
  let auth: { authorization: string };
  beforeAll(async () => {
    t = await testApp();
    ({ auth } = await t.account());
  });
  afterAll(() => t.close());

  it('is a JSON:API 405 naming the methods it takes in Allow; an unknown path stays a 404', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/v2/shipments/0190c5a0-0000-7000-8000-000000000001', headers: auth });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, PATCH');
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
    expect(res.json().errors[0]).toMatchObject({
      status: '405',
      title: 'Method Not Allowed',
      detail: 'DELETE is not allowed here; this path takes GET, HEAD, PATCH',
    });
    const put = await t.app.inject({ method: 'PUT', url: '/v2/webhooks', headers: auth });
    expect([put.statusCode, put.headers.allow]).toEqual([405, 'GET, HEAD, POST']);
    const unknown = await t.app.inject({ method: 'DELETE', url: '/v2/nothing_here', headers: auth });
    expect(unknown.statusCode).toBe(404);
  });
});
