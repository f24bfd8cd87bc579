// Every route declares its responses: each documented operation of /v2/openapi.json has a schema for a 2xx and for
// the errors it can answer (decision 0015); a route without them fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../kit/app.js';
import { openApiChecker } from '../kit/openapi.js';

let t: TestApp;
// biome-ignore lint/suspicious/noExplicitAny: the parsed OpenAPI document
let doc: any;
beforeAll(async () => {
  // With the sandbox on: its clock and examples routes are documented operations too (its carrier faces are hidden).
  t = await testApp({ sandbox: true });
  doc = (await t.app.inject({ url: '/v2/openapi.json' })).json();
});
afterAll(() => t.close());

/** A response object with a body schema (or a 204's documented emptiness). */
// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI response object
const described = (status: string, response: any) => status === '204' || Object.values(response?.content ?? {}).some((m: any) => m?.schema);

/**
 * The error statuses a route answers whatever it does, by the app's hooks (app.ts). Every route, open ones too,
 * answers 503 while the server shuts down, and refuses text PostgreSQL cannot store (http/text-guard.ts): 400 in
 * the query, and 404 in a path parameter (as does a parameter its schema refuses). Routes an account's key opens
 * (every /v2 route, and the sandbox clock and examples; the advance takes the admin token too) add a missing or
 * bad key and a rate limit. The operator API adds a missing or wrong admin token, and has no rate limit (it is no
 * account's). The probes (/healthz, /readyz, /metrics) are open: no key, no rate limit, so 401 and 429 are not
 * theirs to declare.
 */
function requiredErrors(url: string): string[] {
  const every = ['400', '503', ...(url.includes('/:') ? ['404'] : [])];
  if (url.startsWith('/v2/') || url.startsWith('/sandbox/')) return [...every, '401', '429'];
  if (url.startsWith('/admin/')) return [...every, '401'];
  return every;
}

describe('response schemas in /v2/openapi.json', () => {
  it('names the resource, document and error schemas as components instead of inlining them', () => {
    const names = Object.keys(doc.components?.schemas ?? {});
    for (const name of [
      'Shipment',
      'Container',
      'TransportEvent',
      'TrackingRequest',
      'IncludedResource',
      'PageLinks',
      'Error',
      'ErrorDocument',
    ]) {
      expect(names).toContain(name);
    }
    expect(
      names.filter((n) => n.endsWith('Input')),
      'request copies of response schemas',
    ).toEqual([]);
  });

  it('compiles every documented response schema (a broken $ref or keyword fails here, not in a client)', () => {
    const checker = openApiChecker(doc);
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { responses?: Record<string, unknown> }>>)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const status of Object.keys(op.responses ?? {})) {
          // An empty JSON body passes or fails on the schema; either way the schema compiled.
          expect(
            () => checker.check(method.toUpperCase(), path, Number(status), 'application/json', '{}'),
            `${method} ${path} ${status}`,
          ).not.toThrow();
        }
      }
    }
  });

  it('the checker: a documented body unlike its schema is invalid, an undocumented status is undocumented', () => {
    const checker = openApiChecker(doc);
    // infer_number declares its 200 (plain JSON).
    const url = '/v2/tracking_requests/infer_number';
    expect(checker.check('POST', url, 200, 'application/json', '{"data":1}').kind).toBe('invalid');
    expect(checker.check('POST', url, 418, 'application/json', '{}')).toMatchObject({ kind: 'undocumented', status: 418 });
    expect(checker.check('GET', '/v2/no_such_thing', 404, 'application/json', '{}').kind).toBe('unrouted');
    // A static segment wins over a parameter, as in the router.
    expect(checker.operationOf('GET', '/v2/webhook_notifications/examples?event=x')?.path).toBe('/v2/webhook_notifications/examples');
    expect(checker.operationOf('GET', '/v2/webhook_notifications/0190c5a0-0000-7000-8000-000000000001')?.path).toBe(
      '/v2/webhook_notifications/{id}',
    );
  });

  it('every route declares a 2xx and its errors', () => {
    const lacking: string[] = [];
    const routes = t.app.routeTable.filter((r) => r.documented && !r.url.startsWith('/docs'));
    for (const r of routes) {
      const path = r.url.replace(/:(\w+)/g, '{$1}');
      const op = doc.paths?.[path]?.[r.method.toLowerCase()];
      const responses: Record<string, unknown> = op?.responses ?? {};
      const missing: string[] = [];
      const ok = Object.entries(responses).filter(([s]) => /^2/.test(s));
      if (!ok.some(([s, res]) => described(s, res))) missing.push('a 2xx schema');
      const errors = Object.entries(responses).filter(([s]) => /^[45]/.test(s));
      if (!errors.some(([s, res]) => described(s, res))) missing.push('error schemas');
      else {
        const absent = requiredErrors(r.url).filter((s) => !described(s, responses[s]));
        if (absent.length) missing.push(`${absent.join(', ')}`);
      }
      if (missing.length) lacking.push(`${r.method} ${r.url}: ${missing.join('; ')}`);
    }
    expect(lacking, 'routes whose responses /v2/openapi.json does not describe').toEqual([]);
    expect(routes.length).toBeGreaterThan(20);
  });
});
