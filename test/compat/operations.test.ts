// test/compat/operations.ts stays true: it holds the reference's whole inventory (83 operations on 56 paths), every
// /v2 route Tidemark registers is either one of them or one of Tidemark's own listed in docs/extensions.md, an
// operation marked served is routed (and a request to it is not refused as a wrong method), and one marked not
// served is not routed and answers the reference-style JSON 404.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../kit/app.js';
import { CUSTOM_FIELD_OPERATIONS, OPERATIONS, type Operation, routePattern, SERVED, templateKey } from './operations.js';
import * as S from './schemas/index.js';
import { client, problems } from './wire.js';

const EXTENSIONS = readFileSync(resolve(import.meta.dirname, '../../docs/extensions.md'), 'utf8');

let t: TestApp;
let auth: { authorization: string };

beforeAll(async () => {
  t = await testApp();
  ({ auth } = await t.account());
});

afterAll(() => t?.close());

/** The app's /v2 routes, by template (parameter names dropped). */
function routedTemplates(): Set<string> {
  return new Set(t.app.routeTable.filter((r) => /^\/v2(\/|$)/.test(r.url)).map((r) => templateKey(r.method, r.url)));
}

/** Whether docs/extensions.md names the route's path (`/v2/party_roles/{id}`), as a whole path (not a prefix of one). */
function listedAsExtension(pattern: string): boolean {
  const path = pattern.replace(/:([a-z_]+)/g, '{$1}').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`${path}(?![a-z0-9_/{])`).test(EXTENSIONS);
}

/** A concrete path for an operation: ids that name nothing, an IMO for the vessel, a slug. */
function concrete(o: Operation): string {
  return routePattern(o.path)
    .replace(':imo', '9301809')
    .replace(':api_slug', 'po_number')
    .replace(/:[a-z_]+/g, '00000000-0000-4000-8000-000000000000');
}

describe('the inventory', () => {
  it('holds the 83 operations on 56 paths of the reference, 27 of them custom fields, each once', () => {
    expect(OPERATIONS.length).toBe(83);
    expect(new Set(OPERATIONS.map((o) => o.path)).size).toBe(56);
    expect(CUSTOM_FIELD_OPERATIONS.length).toBe(27);
    const ids = OPERATIONS.map((o) => o.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const keys = OPERATIONS.map((o) => `${o.method} ${o.path}`);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it('says why for each operation not served, and nothing for the served', () => {
    for (const o of OPERATIONS) expect(Boolean(o.reason), `${o.operationId}`).toBe(o.status === 'not served');
  });
});

describe('the list against the app', () => {
  it("has every /v2 route the app registers, unless it is Tidemark's own and docs/extensions.md lists it", () => {
    const listed = new Set(OPERATIONS.map((o) => templateKey(o.method, routePattern(o.path))));
    const routes = t.app.routeTable.filter((r) => /^\/v2(\/|$)/.test(r.url));
    expect(routes.length).toBeGreaterThan(40);
    const unaccounted = routes
      .filter((r) => !listed.has(templateKey(r.method, r.url)))
      // Tidemark's own routes: docs/extensions.md names their paths (`/v2/party_roles/{id}`).
      .filter((r) => !listedAsExtension(r.url))
      .map((r) => `${r.method} ${r.url}`);
    expect(unaccounted, 'routes neither in test/compat/operations.ts nor in docs/extensions.md').toEqual([]);
  });

  it.each(SERVED.map((o) => [`${o.method} ${o.path}`, o] as const))('serves %s', async (_name, o) => {
    expect(routedTemplates().has(templateKey(o.method, routePattern(o.path))), `${o.method} ${routePattern(o.path)} is not routed`).toBe(
      true,
    );
    const res = await client(t, auth)(o.method, concrete(o), o.method === 'GET' || o.method === 'DELETE' ? {} : { body: { data: {} } });
    expect(res.status, `${o.method} ${concrete(o)}: ${res.text.slice(0, 300)}`).not.toBe(405);
  });

  it.each(OPERATIONS.filter((o) => o.status === 'not served').map((o) => [`${o.method} ${o.path}`, o] as const))(
    'does not serve %s, and answers it with the JSON 404',
    async (_name, o) => {
      expect(routedTemplates().has(templateKey(o.method, routePattern(o.path))), `${o.method} ${o.path} is routed: mark it served`).toBe(
        false,
      );
      const res = await client(t, auth)(o.method, concrete(o), o.method === 'GET' || o.method === 'DELETE' ? {} : { body: { data: {} } });
      expect(res.status, res.text).toBe(404);
      expect(problems(S.errorEnvelope(404), res.json)).toEqual([]);
    },
  );
});
