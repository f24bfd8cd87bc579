// The probes answer as /v2/openapi.json documents them: /healthz, /readyz in each of its three states, /metrics.
import { afterEach, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../../test/kit/app.js';
import { checkerOf, checkResponse } from '../../../../test/kit/openapi.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close().catch(() => {});
  t = undefined;
});

/** Requests `url` and checks the answer against the app's own OpenAPI document. */
async function documented(app: TestApp['app'], url: string, status: number) {
  const res = await app.inject({ url });
  expect(res.statusCode, res.body).toBe(status);
  const contentType = String(res.headers['content-type'] ?? '');
  expect((await checkResponse(app, { method: 'GET', url, status, contentType, body: res.body })).kind, `${url} → ${status}`).toBe('valid');
  return res;
}

describe('the probes, as documented', () => {
  it('/healthz, and /readyz when ready', async () => {
    t = await testApp();
    expect((await documented(t.app, '/healthz', 200)).json()).toEqual({ status: 'ok' });
    expect((await documented(t.app, '/readyz', 200)).json()).toMatchObject({ status: 'ready' });
  });

  it('/readyz while a migration has not run, and when the database does not answer: 503', async () => {
    t = await testApp();
    const { db } = t.database;
    const [latest] = await db.query<{ version: number }>('SELECT max(version)::int AS version FROM schema_migrations');
    await db.query('DELETE FROM schema_migrations WHERE version = $1', [latest!.version]);
    expect((await documented(t.app, '/readyz', 503)).json()).toEqual({ status: 'migrating', pending_migrations: [latest!.version] });
    await db.close();
    expect((await documented(t.app, '/readyz', 503)).json()).toMatchObject({ status: 'unavailable' });
  });

  it('/metrics: the Prometheus text, documented as text/plain (the checker reads JSON bodies only)', async () => {
    t = await testApp();
    const res = await t.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^text\/plain/);
    const op = (await checkerOf(t.app)).operationOf('GET', '/metrics');
    expect(op?.responses['200']?.content).toEqual({ 'text/plain': { schema: expect.objectContaining({ type: 'string' }) } });
    expect(Object.keys(op?.responses['503']?.content ?? {})).toEqual(['application/vnd.api+json']);
  });
});
