import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/kit/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

describe('/v2/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const res = await t.app.inject({ url: '/v2/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists every API route with the schemas that validate it', async () => {
    const doc = (await t.app.inject({ url: '/v2/openapi.json' })).json();
    const documented = new Set(
      Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
      ),
    );
    const served = t.app.routeTable
      .filter((r) => r.documented && !r.url.startsWith('/docs'))
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
    expect(served.length).toBeGreaterThanOrEqual(14);
    for (const r of served) expect(documented, r).toContain(r);
    expect(doc.paths['/v2/parties'].post.requestBody.content['application/json'].schema.properties.data).toBeDefined();
  });
});

describe('/docs', () => {
  it('renders from local assets only', async () => {
    const page = await t.app.inject({ url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/html/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset, 'no external asset').not.toMatch(/^(https?:)?\/\//);
      const url = new URL(asset, 'http://x/docs/').pathname;
      expect((await t.app.inject({ url })).statusCode, url).toBe(200);
    }
    const init = await t.app.inject({ url: '/docs/static/swagger-initializer.js' });
    const code = init.body.split('\n').filter((l) => !l.trim().startsWith('//'));
    expect(code.join('\n')).not.toMatch(/https?:\/\//);
  });
});
