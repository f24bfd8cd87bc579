// The JSON:API document rules (test/kit/route-suite.ts validateDocument) on real data: one account tracks
// every sandbox scenario that ends created, the world walks ~20 days (arrivals, holds, rail legs, empty
// returns), and every read endpoint of every resource is fetched with the widest include list it takes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_NAMES } from '../../src/domain/event-catalogue.js';
import { boardContainerResource, RESOURCE_SCHEMAS, type ResourceType } from '../../src/render/schemas.js';
import { type Answer, includeOf, send, validateDocument } from '../kit/route-suite.js';
import { type SandboxWorld, sandboxWorld, type WorldAccount } from '../kit/sandbox-world.js';

let world: SandboxWorld;
let A: WorldAccount;

beforeAll(async () => {
  world = await sandboxWorld({
    accounts: 1,
    days: 20,
    // The webhook below points at a closed loopback port: its deliveries fail, so attempt logs exist too.
    env: { TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: '1', TIDEMARK_WEBHOOKS_EGRESS_IPS: '203.0.113.7' },
    beforeTracking: async (t, a) => {
      const hook = await send(t, 'POST', '/v2/webhooks', a.auth, {
        data: { type: 'webhook', attributes: { url: 'http://127.0.0.1:9/hooks', events: [...EVENT_NAMES] } },
      });
      expect(hook.status, hook.text).toBe(201);
      const party = await t.services.parties.create(a.account.id, 'Acme Imports');
      await t.services.parties.create(a.account.id, 'Globex');
      return (e) => (e.scenario === 'succeeded' || e.scenario === 'rail' ? party.id : null);
    },
  });
  A = world.accounts[0]!;
  const { t } = world;
  await t.services.webhookDelivery.deliverDue();
  const db = t.database.db;
  // Party roles on a shipment and on a container, so that party roles have something to show.
  const [party] = await db.query<{ id: string }>('SELECT id FROM parties WHERE account_id = $1 ORDER BY company_name LIMIT 1', [
    A.account.id,
  ]);
  const [box] = await db.query<{ id: string; shipment_id: string }>(
    'SELECT id, shipment_id FROM containers WHERE account_id = $1 ORDER BY id LIMIT 1',
    [A.account.id],
  );
  const rel = (type: string, id: string) => ({ data: { type, id } });
  for (const relationships of [
    { party: rel('party', party!.id), shipment: rel('shipment', box!.shipment_id) },
    { party: rel('party', party!.id), container: rel('container', box!.id) },
  ]) {
    const res = await send(t, 'POST', '/v2/party_roles', A.auth, {
      data: { type: 'party_role', attributes: { role: 'consignee' }, relationships },
    });
    expect(res.status, res.text).toBe(201);
  }
  // Custom fields of every kind of record, so that their routes and includes have something to show.
  const definition = async (attributes: Record<string, unknown>, options: string[] = []) => {
    const res = await send(t, 'POST', '/v2/custom_field_definitions', A.auth, { data: { type: 'custom_field_definition', attributes } });
    expect(res.status, res.text).toBe(201);
    for (const [i, value] of options.entries()) {
      const option = await send(t, 'POST', `/v2/custom_field_definitions/${res.json.data.id}/options`, A.auth, {
        data: { type: 'custom_field_option', attributes: { label: value.toUpperCase(), value, position: i } },
      });
      expect(option.status, option.text).toBe(201);
    }
  };
  await definition({ entity_type: 'Shipment', api_slug: 'po_number', display_name: 'PO number', data_type: 'short_text' });
  await definition({ entity_type: 'Shipment', api_slug: 'priority', display_name: 'Priority', data_type: 'enum' }, ['low', 'high']);
  await definition({
    entity_type: 'Container',
    api_slug: 'dock_door',
    display_name: 'Dock door',
    data_type: 'number',
    default_format: '%.1f',
  });
  await definition({ entity_type: 'Container', api_slug: 'flags', display_name: 'Flags', data_type: 'enum_multi' }, ['hazmat', 'reefer']);
  await definition({ entity_type: 'TrackingRequest', api_slug: 'received', display_name: 'Received', data_type: 'date' });
  const values: [string, string, string, unknown][] = [];
  for (const { id } of await db.query<{ id: string }>('SELECT id FROM shipments WHERE account_id = $1', [A.account.id])) {
    values.push(['shipments', id, 'po_number', `PO-${id.slice(0, 6)}`], ['shipments', id, 'priority', 'high']);
  }
  for (const { id } of await db.query<{ id: string }>('SELECT id FROM containers WHERE account_id = $1', [A.account.id])) {
    values.push(['containers', id, 'dock_door', 7], ['containers', id, 'flags', ['hazmat', 'reefer']]);
  }
  for (const { id } of await db.query<{ id: string }>('SELECT id FROM tracking_requests WHERE account_id = $1', [A.account.id])) {
    values.push(['tracking_requests', id, 'received', '2026-03-01']);
  }
  for (const [parent, id, api_slug, value] of values) {
    const res = await send(t, 'POST', `/v2/${parent}/${id}/custom_fields`, A.auth, {
      data: { type: 'custom_field', attributes: { api_slug, value } },
    });
    expect(res.status, res.text).toBe(201);
  }
}, 300_000);

afterAll(() => {
  // Every response went through the OpenAPI check (route-suite `send`): an undocumented one has failed already.
  return world?.close();
});

/**
 * Every resource object of a document parsed strictly with the zod schema of its type (src/render/schemas.ts): an
 * attribute the renderer emits that the schema lacks, a null it says never, a value outside an enum — each a problem.
 */
function schemaProblems(doc: { data?: unknown; included?: unknown[] }, url: string): string[] {
  // The board's containers carry what they need in `meta.attention`.
  const board = url.startsWith('/v2/containers/board');
  const problems: string[] = [];
  const data = doc.data === undefined || doc.data === null ? [] : Array.isArray(doc.data) ? doc.data : [doc.data];
  for (const [where, list] of [
    ['data', data],
    ['included', doc.included ?? []],
  ] as const) {
    for (const r of list as { type?: string; id?: string }[]) {
      const schema = board && where === 'data' ? boardContainerResource : RESOURCE_SCHEMAS[r.type as ResourceType];
      if (!schema) {
        problems.push(`${where} ${r.type}: no schema for this type`);
        continue;
      }
      const result = schema.safeParse(r);
      if (!result.success) {
        for (const issue of result.error.issues.slice(0, 5)) {
          problems.push(`${where} ${r.type}:${r.id} ${issue.path.join('.')}: ${issue.message}`);
        }
      }
    }
  }
  return problems;
}

/** The widest include lists, per route (api-wire-notes §1.6 and what Tidemark adds). */
const SHIPMENT_INCLUDE = [
  'containers',
  'pod_terminal',
  'port_of_lading',
  'port_of_discharge',
  'destination',
  'destination_terminal',
  'customer',
  'party_roles',
  'party_roles.party',
];
const CONTAINER_INCLUDE = ['shipment', 'pod_terminal', 'pickup_facility', 'transport_events', 'raw_events', 'shipment.port_of_discharge'];
const EVENT_INCLUDE = ['location', 'terminal', 'vessel', 'shipment', 'container'];
const REQUEST_INCLUDE = ['tracked_object', 'customer'];
/** Include names a route may refuse (400, `source.parameter: include`) without failing: not built yet everywhere. */
const OPTIONAL_INCLUDES = new Set(['party_roles']);

describe('JSON:API documents of every read endpoint', () => {
  it('keep every document rule, with the widest includes, for every record of every scenario', async () => {
    const { t } = world;
    const problems: string[] = [];
    /** Resource objects that do not parse with their type's schema (de-duplicated by the ids left out). */
    const schemaIssues = new Set<string>();
    const visited = new Set<string>();
    const dropped = new Set<string>();
    const primaryTypes = new Set<string>();
    const includedTypes = new Set<string>();
    /** Reference objects met in `included`, by type, for fetching through their own routes. */
    const references = new Map<string, Set<string>>();
    let documents = 0;

    /** GETs the URL (and every page after it), checks each document; answers the first page. */
    const read = async (route: string, url: string): Promise<Answer> => {
      visited.add(route);
      let res = await send(t, 'GET', url, A.auth);
      const first = res;
      for (let page = 0; ; page++) {
        expect(res.status, `${url}: ${res.text.slice(0, 500)}`).toBe(200);
        documents++;
        for (const p of validateDocument(res.json, includeOf(url))) problems.push(`${url}: ${p}`);
        for (const p of schemaProblems(res.json, url)) schemaIssues.add(p.replace(/[0-9a-f-]{36}/g, ':id'));
        const data = res.json.data;
        for (const r of (Array.isArray(data) ? data : [data]) as { type: string }[]) primaryTypes.add(r.type);
        for (const r of (res.json.included ?? []) as { type: string; id: string }[]) {
          includedTypes.add(r.type);
          if (!references.has(r.type)) references.set(r.type, new Set());
          references.get(r.type)!.add(r.id);
        }
        const next = res.json.links?.next;
        if (typeof next !== 'string' || page > 20) return first;
        const link = new URL(next);
        res = await send(t, 'GET', link.pathname + link.search, A.auth);
      }
    };
    /**
     * The include list the route takes: the wanted paths, less those whose names the route refuses with a 400
     * on `include` (only names in OPTIONAL_INCLUDES may be refused).
     */
    const widest = async (path: string, wanted: string[], extra = ''): Promise<string> => {
      let paths = [...wanted];
      for (;;) {
        const query = [extra, `include=${paths.join(',')}`].filter(Boolean).join('&');
        const res = await send(t, 'GET', `${path}?${query}`, A.auth);
        if (res.status !== 400 || res.json?.errors?.[0]?.source?.parameter !== 'include') return query;
        const name = /^(\S+) is not specified/.exec(res.json.errors[0].detail ?? '')?.[1];
        expect(name && OPTIONAL_INCLUDES.has(name), `${path} refuses include: ${res.text}`).toBe(true);
        dropped.add(`${path.replace(/[0-9a-f-]{36}/, ':id')} ${name}`);
        paths = paths.filter((p) => !p.split('.').includes(name!));
      }
    };
    const ids = async (url: string) =>
      ((await read(url.split('?')[0]!.replace(/[0-9a-f-]{36}/g, ':id'), url)).json.data as { id: string }[]).map((r) => r.id);

    // Shipments (with their party roles when the route takes with_party_roles), each one alone too.
    const shipmentQuery = await widest('/v2/shipments', SHIPMENT_INCLUDE, 'with_party_roles=true&page[size]=100');
    const shipments = await ids(`/v2/shipments?${shipmentQuery}`);
    const oneShipmentQuery = await widest(`/v2/shipments/${shipments[0]}`, SHIPMENT_INCLUDE, 'with_party_roles=true');
    for (const id of shipments) {
      await read('/v2/shipments/:id', `/v2/shipments/${id}?${oneShipmentQuery}`);
      await read('/v2/shipments/:id/estimated_events', `/v2/shipments/${id}/estimated_events?include=port,vessel`);
    }
    await read('/v2/containers/board', `/v2/containers/board?include=${CONTAINER_INCLUDE.join(',')}`);

    // Containers, each alone, its transport events and its raw events.
    const containers = await ids(`/v2/containers?page[size]=100&include=${CONTAINER_INCLUDE.join(',')}`);
    for (const id of containers) {
      await read('/v2/containers/:id', `/v2/containers/${id}?include=${CONTAINER_INCLUDE.join(',')}`);
      await read(
        '/v2/containers/:id/transport_events',
        `/v2/containers/${id}/transport_events?page[size]=100&include=${EVENT_INCLUDE.join(',')}`,
      );
      await read('/v2/containers/:id/raw_events', `/v2/containers/${id}/raw_events`);
    }

    // Tracking requests, parties, party roles.
    const requests = await ids(`/v2/tracking_requests?page[size]=100&include=${REQUEST_INCLUDE.join(',')}`);
    for (const id of requests) {
      await read('/v2/tracking_requests/:id', `/v2/tracking_requests/${id}?include=${REQUEST_INCLUDE.join(',')}`);
    }
    for (const id of await ids('/v2/parties?page[size]=100')) await read('/v2/parties/:id', `/v2/parties/${id}`);
    const roles = await t.database.db.query<{ id: string }>('SELECT id FROM party_roles WHERE account_id = $1', [A.account.id]);
    for (const { id } of roles) await read('/v2/party_roles/:id', `/v2/party_roles/${id}?include=party`);

    // Search by every bill of lading and container number.
    const numbers = await t.database.db.query<{ n: string }>(
      `SELECT bill_of_lading_number AS n FROM shipments WHERE account_id = $1 UNION SELECT number FROM containers WHERE account_id = $1`,
      [A.account.id],
    );
    for (const { n } of numbers) await read('/v2/search', `/v2/search?query=${encodeURIComponent(n)}`);

    // Reference data: every shipping line, and every place and vessel the account's records pointed at.
    for (const id of await ids('/v2/shipping_lines?page[size]=100')) await read('/v2/shipping_lines/:id', `/v2/shipping_lines/${id}`);
    const served = new Set(t.app.routeTable.filter((r) => r.method === 'GET').map((r) => r.url.replace(/:[^/]+/g, ':id')));
    const referenceReads: Record<string, string> = {
      port: 'include=terminals',
      terminal: 'include=port',
      metro_area: '',
      vessel: 'show_positions[from_timestamp]=2026-02-01T00:00:00Z',
    };
    for (const [type, query] of Object.entries(referenceReads)) {
      const route = `/v2/${type}s/:id`;
      if (!served.has(route)) continue;
      const found = [...(references.get(type) ?? [])];
      expect(found.length, `no ${type} was referenced by the account's records`).toBeGreaterThan(0);
      for (const id of found) await read(route, `/v2/${type}s/${id}${query ? `?${query}` : ''}`);
    }

    // Routing data: every container's map (plain GeoJSON, not a document), and the future positions of the
    // vessels the account's records named that AIS has located (JSON:API documents).
    visited.add('/v2/containers/:id/map_geojson');
    for (const id of containers) {
      const res = await send(t, 'GET', `/v2/containers/${id}/map_geojson`, A.auth);
      expect(res.status, `map_geojson of ${id}: ${res.text.slice(0, 300)}`).toBe(200);
      expect(res.json.type).toBe('FeatureCollection');
      expect(res.json).not.toHaveProperty('data');
    }
    const located: { id: string; latitude: number; longitude: number }[] = [];
    for (const id of references.get('vessel') ?? []) {
      const v = (await send(t, 'GET', `/v2/vessels/${id}`, A.auth)).json.data;
      if (v.attributes.latitude !== null) located.push({ id, latitude: v.attributes.latitude, longitude: v.attributes.longitude });
    }
    expect(located.length, 'no vessel of the account was located by AIS').toBeGreaterThan(0);
    for (const v of located.slice(0, 3)) {
      await read('/v2/vessels/:id/future_positions', `/v2/vessels/${v.id}/future_positions?port_id=USLAX`);
      await read(
        '/v2/vessels/:id/future_positions_with_coordinates',
        `/v2/vessels/${v.id}/future_positions_with_coordinates?port_id=USLAX&latitude=${v.latitude}&longitude=${v.longitude}`,
      );
    }

    // Custom fields: definitions with their options, values with their definitions, each record's values, and the
    // values included in the shipment and container lists (Tidemark's include=custom_fields).
    for (const id of await ids('/v2/custom_field_definitions?page[size]=100&include=options')) {
      await read('/v2/custom_field_definitions/:id', `/v2/custom_field_definitions/${id}?include=options`);
      for (const option of await ids(`/v2/custom_field_definitions/${id}/options?page[size]=100`)) {
        await read('/v2/custom_field_definitions/:id/options/:id', `/v2/custom_field_definitions/${id}/options/${option}`);
      }
    }
    const fields = await ids('/v2/custom_fields?page[size]=100&include=definition');
    expect(fields.length).toBeGreaterThan(0);
    for (const id of fields.slice(0, 30)) await read('/v2/custom_fields/:id', `/v2/custom_fields/${id}?include=definition`);
    for (const id of shipments) await read('/v2/shipments/:id/custom_fields', `/v2/shipments/${id}/custom_fields`);
    for (const id of containers) await read('/v2/containers/:id/custom_fields', `/v2/containers/${id}/custom_fields`);
    for (const id of requests) await read('/v2/tracking_requests/:id/custom_fields', `/v2/tracking_requests/${id}/custom_fields`);
    await read('/v2/shipments', '/v2/shipments?page[size]=100&include=custom_fields.definition,containers.custom_fields');
    await read('/v2/containers', '/v2/containers?page[size]=100&include=custom_fields.definition');

    // API keys (the account's own, masked).
    await read('/v2/api_keys', '/v2/api_keys');
    // The account itself (plan and API trial).
    await read('/v2/account', '/v2/account');

    // Webhooks and their notifications (with their attempt logs), and a sample of every event.
    for (const id of await ids('/v2/webhooks?page[size]=100')) await read('/v2/webhooks/:id', `/v2/webhooks/${id}`);
    const NOTIFICATION_INCLUDE = 'webhook,webhook_notification_logs,reference_object,reference_object.shipment,reference_object.container';
    const notifications = await ids(`/v2/webhook_notifications?page[size]=100&include=${NOTIFICATION_INCLUDE}`);
    expect(notifications.length).toBeGreaterThan(10);
    for (const id of notifications.slice(0, 40)) {
      await read('/v2/webhook_notifications/:id', `/v2/webhook_notifications/${id}?include=${NOTIFICATION_INCLUDE}`);
    }
    for (const event of EVENT_NAMES) {
      await read('/v2/webhook_notifications/examples', `/v2/webhook_notifications/examples?event=${event}`);
    }
    // Two plain answers as the reference API shapes them: category ids are slugs, the IP list is plain JSON.
    visited.add('/v2/webhooks/events');
    const categories = await send(t, 'GET', '/v2/webhooks/events', A.auth);
    expect(categories.status).toBe(200);
    for (const c of categories.json.data as { id: string; type: string; attributes: { events: { name: string }[] } }[]) {
      expect(c.id).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(c.type).toBe('webhook_event_category');
      expect(c.attributes.events.length).toBeGreaterThan(0);
    }
    visited.add('/v2/webhooks/ips');
    const ips = await send(t, 'GET', '/v2/webhooks/ips', A.auth);
    expect(ips.json).toEqual({ webhook_notification_ips: ['203.0.113.7'], last_updated: expect.stringMatching(/Z$/) });

    // Every GET /v2 route the app serves was read (a new read endpoint must be added above).
    const unread = t.app.routeTable
      .filter((r) => r.method === 'GET' && /^\/v2\//.test(r.url) && r.url !== '/v2/openapi.json')
      .map((r) => r.url.replace(/:[^/]+/g, ':id'))
      .filter((u) => !visited.has(u));
    expect(unread, 'GET /v2 routes this test does not read yet').toEqual([]);

    console.info(
      `${documents} documents from ${visited.size} routes; primary ${[...primaryTypes].sort().join(' ')}; included ${[...includedTypes].sort().join(' ')}` +
        (dropped.size ? `; includes refused: ${[...dropped].join('; ')}` : ''),
    );
    expect(problems.slice(0, 60), `${problems.length} problems in ${documents} documents`).toEqual([]);
    expect([...schemaIssues].slice(0, 60), `${schemaIssues.size} resource objects unlike their schema (src/render/schemas.ts)`).toEqual([]);
    // The data was rich enough for the rules to mean something.
    expect([...includedTypes]).toEqual(
      expect.arrayContaining([
        'shipment',
        'container',
        'transport_event',
        'port',
        'terminal',
        'vessel',
        'party',
        'custom_field',
        'custom_field_definition',
        'custom_field_option',
      ]),
    );
    expect([...primaryTypes]).toEqual(
      expect.arrayContaining([
        'shipment',
        'container',
        'transport_event',
        'raw_event',
        'tracking_request',
        'party',
        'party_role',
        'custom_field_definition',
        'custom_field_option',
        'custom_field',
        'shipping_line',
        'search_result',
      ]),
    );
    expect(documents).toBeGreaterThan(100);
  }, 180_000);
});
