import swagger from '@fastify/swagger';
import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/kit/app.js';
import { listDocument, shipmentResource } from '../render/schemas.js';
import { documentResponses, namedComponents } from './app.js';
import { described, errorResponses, shipmentFilterErrors } from './schemas.js';

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

describe('response schemas', () => {
  it('a route with response schemas documents them as $refs to named components, with each status described', async () => {
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(() => (data) => JSON.stringify(data));
    await app.register(swagger, {
      openapi: { openapi: '3.1.0', info: { title: 't', version: '1' } },
      transform: documentResponses,
      transformObject: namedComponents,
    });
    app.get(
      '/v2/things',
      {
        schema: {
          response: {
            200: described(listDocument(shipmentResource), 'The things'),
            422: shipmentFilterErrors,
            ...errorResponses(400, 401, 429),
          },
        },
      },
      async () => ({ data: [], links: { self: 'http://x/v2/things' } }),
    );
    await app.ready();
    // biome-ignore lint/suspicious/noExplicitAny: the generated OpenAPI document
    const doc = app.swagger() as any;
    const responses = doc.paths['/v2/things'].get.responses;
    expect(responses['200'].content['application/vnd.api+json'].schema.properties.data.items).toEqual({
      $ref: '#/components/schemas/Shipment',
    });
    expect(responses['401']).toMatchObject({ description: 'Unauthorized: no API key, or not a valid one' });
    expect(responses['401'].content['application/vnd.api+json'].schema).toMatchObject({ $ref: '#/components/schemas/ErrorDocument' });
    expect(responses['200'].description).toBe('The things');
    expect(responses['422'].content['application/vnd.api+json'].schema).toMatchObject({
      $ref: '#/components/schemas/ShipmentFilterErrorDocument',
    });
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['Shipment', 'Container', 'IncludedResource', 'ErrorDocument']),
    );
    // Not validated at run time: a body unlike the schema is sent as it is (the tests check bodies, not the server).
    const res = await app.inject({ url: '/v2/things' });
    expect(res.json()).toEqual({ data: [], links: { self: 'http://x/v2/things' } });
    await app.close();
  });
});
