// Tenant isolation, swept: two accounts (A and B) track the same sandbox numbers, and B's key is tried on
// every /v2 route the app serves (read from app.routeTable, not from a list) with every per-account id of A.
// B must get a 4xx every time and A's rows must not change by a byte; B's lists and searches never show an
// id of A; reference data (shipping lines, ports, terminals, vessels…) is the same for both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountIds, type Answer, changed, dumpAccount, idsIn, send } from '../kit/route-suite.js';
import { type SandboxWorld, sandboxWorld, type WorldAccount } from '../kit/sandbox-world.js';

let world: SandboxWorld;
let A: WorldAccount;
let B: WorldAccount;
/** A's addressable ids (path sweep), each with where it came from. */
let aIds: Map<string, string>;
/** Every per-account id of A, raw events included (list and search sweep). */
let aAllIds: Set<string>;
/** A's numbers: bills of lading, bookings, container numbers, request and reference numbers. */
let aNumbers: string[];
/** B's own party and shipment, for bodies that mix B's records with A's. */
let bParty: string;
let bShipment: string;

/** The per-account tables whose ids the path sweep substitutes (the brief's list; events come from the API). */
const ADDRESSABLE = [
  'shipments',
  'containers',
  'transport_events',
  'tracking_requests',
  'parties',
  'party_roles',
  'webhooks',
  'webhook_notifications',
  'custom_field_definitions',
  'custom_field_options',
  'custom_fields',
];

const v2 = (url: string) => /^\/v2(\/|$)/.test(url) && url !== '/v2/openapi.json';

beforeAll(async () => {
  world = await sandboxWorld({
    accounts: 2,
    days: 3,
    // The webhooks point at a closed loopback port, allowed by this setting (no delivery worker runs anyway).
    env: { TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: '1' },
    beforeTracking: async (t, a) => {
      const party = await t.services.parties.create(a.account.id, 'Acme Imports');
      // A webhook subscribed before tracking, so the tracking leaves the account notifications.
      const hook = await send(t, 'POST', '/v2/webhooks', a.auth, {
        data: { type: 'webhook', attributes: { url: 'http://127.0.0.1:9/sweep-hooks', events: ['tracking_request.succeeded'] } },
      });
      expect(hook.status, hook.text).toBe(201);
      return (e) => (e.scenario === 'succeeded' ? party.id : null);
    },
  });
  const { t } = world;
  const db = t.database.db;
  [A, B] = world.accounts as [WorldAccount, WorldAccount];

  // Each account: a party role on a shipment and on a container, and reference numbers edited by hand.
  for (const x of [A, B]) {
    const [party] = await db.query<{ id: string }>('SELECT id FROM parties WHERE account_id = $1', [x.account.id]);
    const [tr] = await db.query<{ id: string; shipment_id: string }>('SELECT id, shipment_id FROM tracking_requests WHERE id = $1', [
      x.requests.get('multi_container'),
    ]);
    const [container] = await db.query<{ id: string }>('SELECT id FROM containers WHERE shipment_id = $1 ORDER BY id LIMIT 1', [
      tr!.shipment_id,
    ]);
    const rel = (type: string, id: string) => ({ data: { type, id } });
    const writes: [string, string, unknown, number][] = [
      [
        'POST',
        '/v2/party_roles',
        {
          data: {
            type: 'party_role',
            attributes: { role: 'shipper' },
            relationships: { party: rel('party', party!.id), shipment: rel('shipment', tr!.shipment_id) },
          },
        },
        201,
      ],
      [
        'POST',
        '/v2/party_roles',
        {
          data: {
            type: 'party_role',
            attributes: { role: 'consignee' },
            relationships: { party: rel('party', party!.id), container: rel('container', container!.id) },
          },
        },
        201,
      ],
      [
        'PATCH',
        `/v2/shipments/${tr!.shipment_id}`,
        { data: { type: 'shipment', attributes: { ref_numbers: ['PO-7781'], tags: ['hot'] } } },
        200,
      ],
      ['PATCH', `/v2/containers/${container!.id}`, { data: { type: 'container', attributes: { ref_numbers: ['BOX-9'] } } }, 200],
      ['PATCH', `/v2/tracking_requests/${tr!.id}`, { data: { type: 'tracking_request', attributes: { ref_number: 'TR-REF-1' } } }, 200],
    ];
    for (const [method, url, body, status] of writes) {
      const res = await send(t, method, url, x.auth, body);
      expect(res.status, `${method} ${url}: ${res.text}`).toBe(status);
    }
    // Custom fields: a definition per entity type (one an enum with an option), a value on each record.
    const defs = new Map<string, string>();
    // The same slugs (and values) in both accounts: a filter or include by slug must find each account's own only.
    for (const [entity_type, api_slug, data_type, more] of [
      ['Shipment', 'sweep_text', 'short_text', {}],
      ['Container', 'sweep_enum', 'enum', {}],
      ['TrackingRequest', 'sweep_note', 'short_text', {}],
      ['Shipment', 'sweep_ref', 'reference', { reference_type: 'container' }],
    ] as const) {
      const res = await send(t, 'POST', '/v2/custom_field_definitions', x.auth, {
        data: { type: 'custom_field_definition', attributes: { entity_type, api_slug, display_name: api_slug, data_type, ...more } },
      });
      expect(res.status, res.text).toBe(201);
      defs.set(api_slug, res.json.data.id);
    }
    const opt = await send(t, 'POST', `/v2/custom_field_definitions/${defs.get('sweep_enum')}/options`, x.auth, {
      data: { type: 'custom_field_option', attributes: { label: 'Hot', value: 'hot' } },
    });
    expect(opt.status, opt.text).toBe(201);
    for (const [path, api_slug, value] of [
      [`/v2/shipments/${tr!.shipment_id}`, 'sweep_text', 'PO-1'],
      [`/v2/containers/${container!.id}`, 'sweep_enum', 'hot'],
      [`/v2/tracking_requests/${tr!.id}`, 'sweep_note', 'note'],
      [`/v2/shipments/${tr!.shipment_id}`, 'sweep_ref', { type: 'container', id: container!.id }],
    ] as const) {
      const res = await send(t, 'POST', `${path}/custom_fields`, x.auth, {
        data: { type: 'custom_field', attributes: { api_slug, value } },
      });
      expect(res.status, res.text).toBe(201);
    }
    if (x === B) {
      bParty = party!.id;
      bShipment = tr!.shipment_id;
    }
  }

  aIds = new Map();
  for (const [id, table] of await accountIds(db, A.account.id)) if (ADDRESSABLE.includes(table)) aIds.set(id, table);
  const containers = await db.query<{ id: string }>('SELECT id FROM containers WHERE account_id = $1', [A.account.id]);
  for (const { id } of containers) {
    const res = await send(t, 'GET', `/v2/containers/${id}/raw_events`, A.auth);
    expect(res.status, res.text).toBe(200);
    for (const e of res.json.data as { id: string }[]) aIds.set(e.id, 'raw_events');
  }
  aAllIds = new Set([...(await accountIds(db, A.account.id)).keys(), ...aIds.keys()]);

  const numbers = await db.query<{ n: string }>(
    `SELECT unnest(ARRAY[bill_of_lading_number, booking_number, request_number] || ref_numbers) AS n FROM shipments WHERE account_id = $1
     UNION SELECT unnest(ARRAY[number] || ref_numbers) FROM containers WHERE account_id = $1
     UNION SELECT unnest(ARRAY[request_number] || ref_numbers) FROM tracking_requests WHERE account_id = $1`,
    [A.account.id],
  );
  aNumbers = [...new Set(numbers.map((r) => r.n).filter(Boolean))].sort();
}, 180_000);

afterAll(() => world?.close());

/** Runs `fn` over `items`, `n` at a time. */
async function pool<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

/** Rows no request of B may change: A's, B's, and the tracking state both accounts share. */
async function state(): Promise<string[][]> {
  const db = world.t.database.db;
  const shared = await db.query<{ r: string }>('SELECT row_to_json(x)::text AS r FROM tracked_shipments x ORDER BY 1');
  return [await dumpAccount(db, A.account.id), await dumpAccount(db, B.account.id), shared.map((s) => `tracked_shipments ${s.r}`)];
}

/**
 * What each route is sent: a body it takes (so the request gets past validation to the lookup); `id` is the
 * record the path names. `known`: the route is known to need nothing more, so its answer must be exactly 404.
 * A route added later gets a generic body (writes) or none (reads), and may answer any 4xx (a read that
 * needs a query parameter may say 400 first).
 */
function requestFor(method: string, route: string, id: string): { body: unknown; known: boolean } {
  const known: Record<string, unknown> = {
    'GET /v2/shipments/:id': undefined,
    'GET /v2/containers/:id': undefined,
    'GET /v2/containers/:id/raw_events': undefined,
    'GET /v2/containers/:id/transport_events': undefined,
    'GET /v2/containers/:id/map_geojson': undefined,
    'GET /v2/tracking_requests/:id': undefined,
    'GET /v2/parties/:id': undefined,
    'GET /v2/party_roles/:id': undefined,
    'GET /v2/shipping_lines/:id': undefined,
    'GET /v2/ports/:id': undefined,
    'GET /v2/metro_areas/:id': undefined,
    'GET /v2/terminals/:id': undefined,
    'GET /v2/vessels/:id': undefined,
    'PATCH /v2/shipments/:id': { data: { type: 'shipment', id, attributes: { ref_numbers: ['SWEEP'], tags: ['sweep'] } } },
    'PATCH /v2/shipments/:id/stop_tracking': { data: { type: 'shipment', id } },
    'PATCH /v2/shipments/:id/resume_tracking': { data: { type: 'shipment', id } },
    'PATCH /v2/containers/:id': { data: { type: 'container', id, attributes: { ref_numbers: ['SWEEP'] } } },
    'PATCH /v2/containers/:id/refresh': undefined,
    'PATCH /v2/parties/:id': { data: { type: 'party', id, attributes: { company_name: 'Sweep Co' } } },
    'PATCH /v2/tracking_requests/:id': { data: { type: 'tracking_request', id, attributes: { ref_number: 'SWEEP' } } },
    'DELETE /v2/party_roles/:id': undefined,
    'GET /v2/webhooks/:id': undefined,
    'PATCH /v2/webhooks/:id': { data: { type: 'webhook', id, attributes: { active: false, headers: [{ name: 'X-Sweep', value: '1' }] } } },
    'DELETE /v2/webhooks/:id': undefined,
    'POST /v2/webhooks/:id/rotate_secret': undefined,
    'POST /v2/webhooks/:id/replay': { from: '2000-01-01T00:00:00Z', to: '2100-01-01T00:00:00Z' },
    'GET /v2/webhook_notifications/:id': undefined,
    'POST /v2/webhook_notifications/:id/redeliver': undefined,
    'GET /v2/custom_field_definitions/:id': undefined,
    'PATCH /v2/custom_field_definitions/:id': { data: { type: 'custom_field_definition', attributes: { display_name: 'Sweep' } } },
    'DELETE /v2/custom_field_definitions/:id': undefined,
    'GET /v2/custom_field_definitions/:id/options': undefined,
    'POST /v2/custom_field_definitions/:id/options': {
      data: { type: 'custom_field_option', attributes: { label: 'Sweep', value: 'sweep' } },
    },
    'GET /v2/custom_field_definitions/:id/options/:id': undefined,
    'PATCH /v2/custom_field_definitions/:id/options/:id': { data: { type: 'custom_field_option', attributes: { label: 'Sweep' } } },
    'DELETE /v2/custom_field_definitions/:id/options/:id': undefined,
    'GET /v2/custom_fields/:id': undefined,
    'PATCH /v2/custom_fields/:id': { data: { type: 'custom_field', attributes: { value: 'sweep' } } },
    'DELETE /v2/custom_fields/:id': undefined,
    ...Object.fromEntries(
      ['shipments', 'containers', 'tracking_requests'].flatMap((p) => [
        [`GET /v2/${p}/:id/custom_fields`, undefined],
        [`POST /v2/${p}/:id/custom_fields`, { data: { type: 'custom_field', attributes: { api_slug: 'sweep_text', value: 'sweep' } } }],
        [`PATCH /v2/${p}/:id/custom_fields/:id`, { data: { type: 'custom_field', attributes: { value: 'sweep' } } }],
        [`DELETE /v2/${p}/:id/custom_fields/:id`, undefined],
      ]),
    ),
  };
  const key = `${method} ${route.replace(/:[^/]+/g, ':id')}`;
  if (Object.hasOwn(known, key)) return { body: known[key], known: true };
  if (method === 'GET' || method === 'DELETE') return { body: undefined, known: false };
  const type = (route.split('/')[2] ?? 'resource').replace(/ies$/, 'y').replace(/s$/, '');
  return { body: { data: { type, id, attributes: {} } }, known: false };
}

interface Miss {
  request: string;
  id: string;
  status: number;
  body: string;
}

describe("B's key on A's records", () => {
  it('every /v2 route with a path parameter answers 4xx (exactly 404 on the routes it knows) for every id of A; nothing changes', async () => {
    const { t } = world;
    const routes = t.app.routeTable.filter((r) => v2(r.url) && r.url.includes(':'));
    const before = await state();
    const misses: Miss[] = [];
    const statuses = new Map<number, number>();
    let calls = 0;
    const jobs = routes.flatMap((r) => [...aIds].map(([id, table]) => ({ r, id, table })));
    await pool(jobs, 8, async ({ r, id, table }) => {
      const url = r.url.replace(/:[^/]+/g, id);
      const { body, known } = requestFor(r.method, r.url, id);
      const res = await send(t, r.method, url, B.auth, body);
      calls++;
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const refused = res.status >= 400 && res.status < 500 && Array.isArray(res.json?.errors);
      if (!refused || (known && res.status !== 404)) {
        misses.push({ request: `${r.method} ${url}`, id: `${table} ${id}`, status: res.status, body: res.text.slice(0, 300) });
      }
    });
    expect(misses, "B's requests on A's records that were not refused with 404 (or a 4xx where no body is known)").toEqual([]);
    expect(changed(before, await state()), "rows changed by B's refused requests").toEqual([]);
    // Nothing skipped silently: the sweep saw the routes and ids it should have.
    expect(routes.length, routes.map((r) => `${r.method} ${r.url}`).join(', ')).toBeGreaterThanOrEqual(16);
    const kinds = new Set(aIds.values());
    expect([...kinds].sort()).toEqual([...ADDRESSABLE, 'raw_events'].sort());
    expect(aIds.size).toBeGreaterThanOrEqual(200);
    expect(calls).toBe(routes.length * aIds.size);
    console.info(
      `path sweep: ${routes.length} routes × ${aIds.size} ids of A = ${calls} requests; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
  }, 180_000);

  it("write routes without a path parameter refuse bodies that name A's records, and nothing changes", async () => {
    const { t } = world;
    const rel = (type: string, id: string) => ({ data: { type, id } });
    const of = (table: string) => [...aIds].filter(([, tb]) => tb === table).map(([id]) => id);
    // How each such route names records in its body; a route that names none says why it is not swept.
    const bodies: Record<string, (() => unknown[]) | string> = {
      'PATCH /v2/containers': () =>
        [...aIds.keys()].map((id) => ({ data: { type: 'container', id, attributes: { ref_numbers: ['SWEEP'] } } })),
      'POST /v2/party_roles': () => [
        ...of('parties').map((id) => ({
          data: { attributes: { role: 'sweep' }, relationships: { party: rel('party', id), shipment: rel('shipment', bShipment) } },
        })),
        ...of('shipments').map((id) => ({
          data: { attributes: { role: 'sweep' }, relationships: { party: rel('party', bParty), shipment: rel('shipment', id) } },
        })),
        ...of('containers').map((id) => ({
          data: { attributes: { role: 'sweep' }, relationships: { party: rel('party', bParty), container: rel('container', id) } },
        })),
      ],
      'POST /v2/tracking_requests': () => [
        ...of('parties').map((id) => ({
          data: {
            type: 'tracking_request',
            attributes: { request_type: 'bill_of_lading', request_number: 'MAEU240100001', scac: 'MAEU' },
            relationships: { customer: rel('party', id) },
          },
        })),
        // initial_custom_fields staging a reference to A's container.
        ...of('containers').map((id) => ({
          data: {
            type: 'tracking_request',
            attributes: {
              request_type: 'bill_of_lading',
              request_number: 'MAEU240100001',
              scac: 'MAEU',
              initial_custom_fields: { shipment: [{ api_slug: 'sweep_ref', value: { type: 'container', id } }] },
            },
          },
        })),
      ],
      'POST /v2/custom_fields': () =>
        [
          ...of('shipments').map((id) => ['shipment', id, 'sweep_text']),
          ...of('containers').map((id) => ['container', id, 'sweep_enum']),
          ...of('tracking_requests').map((id) => ['tracking_request', id, 'sweep_note']),
        ]
          .map(([type, id, api_slug]): unknown => ({
            data: { type: 'custom_field', attributes: { api_slug, value: 'hot' }, relationships: { entity: rel(type!, id!) } },
          }))
          // B's own shipment, its reference field naming A's container.
          .concat(
            of('containers').map((id) => ({
              data: {
                type: 'custom_field',
                attributes: { api_slug: 'sweep_ref', value: { type: 'container', id } },
                relationships: { entity: rel('shipment', bShipment) },
              },
            })),
          ),
      // A reference definition whose default names A's record.
      'POST /v2/custom_field_definitions': () =>
        of('containers').map((id, i) => ({
          data: {
            type: 'custom_field_definition',
            attributes: {
              entity_type: 'Shipment',
              api_slug: `sweep_default_${i}`,
              display_name: 'Sweep default',
              data_type: 'reference',
              reference_type: 'container',
              default_value: { type: 'container', id },
            },
          },
        })),
      'POST /v2/parties': 'creates a party from a company name alone',
      'POST /v2/tracking_requests/infer_number': 'reads a number, names no record',
      'POST /v2/webhooks': 'creates a webhook from a URL and event names, names no record',
      'POST /v2/webhooks/trigger': 'sends a sample document to a URL, names no record',
      'POST /v2/api_keys': 'creates a key for the caller from a name, names no record',
    };
    const routes = t.app.routeTable.filter((r) => v2(r.url) && !r.url.includes(':') && r.method !== 'GET');
    const unknown = routes.map((r) => `${r.method} ${r.url}`).filter((k) => !Object.hasOwn(bodies, k));
    expect(unknown, 'write routes without a path parameter this sweep does not know: say how their body names records').toEqual([]);

    const before = await state();
    const misses: Miss[] = [];
    let calls = 0;
    for (const r of routes) {
      const make = bodies[`${r.method} ${r.url}`];
      if (typeof make !== 'function') continue;
      const list = make();
      expect(list.length, `${r.method} ${r.url}: no bodies to send`).toBeGreaterThan(0);
      await pool(list, 8, async (body) => {
        const res: Answer = await send(t, r.method, r.url, B.auth, body);
        calls++;
        // The id-in-body edit looks the container up like PATCH /v2/containers/{id}: 404. Creates may say 422.
        const strict = r.url === '/v2/containers' && r.method === 'PATCH';
        if (!(res.status >= 400 && res.status < 500) || (strict && res.status !== 404)) {
          misses.push({
            request: `${r.method} ${r.url}`,
            id: JSON.stringify(body).slice(0, 200),
            status: res.status,
            body: res.text.slice(0, 300),
          });
        }
      });
    }
    expect(misses, "B's writes naming A's records that were not refused").toEqual([]);
    expect(changed(before, await state()), "rows changed by B's refused writes").toEqual([]);
    expect(calls).toBeGreaterThanOrEqual(aIds.size);
  }, 120_000);
});

describe("B's lists and searches", () => {
  /** Query strings each list route is also read with; a route not listed here is read with `page[size]=100`. */
  const READS: Record<string, string[]> = {
    '/v2/shipments': [
      'include=containers,pod_terminal,port_of_lading,port_of_discharge,destination,destination_terminal,customer',
      // Custom fields: both accounts have these slugs, with the same values.
      'include=custom_fields',
      'include=containers.custom_fields',
      'include=custom_fields.definition',
      'filter[custom_fields][sweep_text]=PO-1',
      'filter[custom_fields][sweep_text]=PO-1&include=custom_fields',
    ],
    '/v2/containers': [
      'include=shipment,pod_terminal,pickup_facility,transport_events',
      'include=custom_fields',
      'include=custom_fields.definition',
      'filter[custom_fields][sweep_enum]=hot&include=custom_fields',
    ],
    '/v2/custom_fields': ['include=definition'],
    '/v2/custom_field_definitions': ['include=options'],
    '/v2/tracking_requests': ['include=tracked_object,customer'],
    '/v2/webhook_notifications': ['include=webhook,reference_object', 'include=webhook,reference_object,webhook_notification_logs'],
  };
  /** Routes that answer only when given a parameter: read with these queries instead of bare. */
  const REQUIRED: Record<string, string[]> = {
    '/v2/search': [],
    '/v2/webhook_notifications/examples': ['event=tracking_request.succeeded', 'event=container.transport.vessel_arrived'],
  };
  /** The parameters each route searches by; a route not listed is tried with `query` and `q`. */
  const SEARCHES: Record<string, string[]> = {
    '/v2/search': ['query'],
    '/v2/shipments': ['q', 'number'],
    '/v2/containers': ['filter[number]'],
    '/v2/tracking_requests': ['q', 'filter[request_number]'],
    '/v2/parties': [],
    '/v2/shipping_lines': ['search'],
    // No search parameter: read as they are.
    '/v2/webhooks': [],
    '/v2/webhooks/events': [],
    '/v2/webhooks/ips': [],
    '/v2/webhook_notifications': [],
    '/v2/webhook_notifications/examples': [],
  };

  it("never show any id of A, whatever A's numbers they are asked for", async () => {
    const { t } = world;
    const routes = t.app.routeTable.filter((r) => v2(r.url) && !r.url.includes(':') && r.method === 'GET');
    const leaks: { request: string; ids: string[] }[] = [];
    const failed: string[] = [];
    let calls = 0;
    /** Reads a URL and every page after it. */
    const read = async (url: string, mustSucceed: boolean): Promise<Answer | null> => {
      let res = await send(t, 'GET', url, B.auth);
      let first: Answer | null = null;
      for (let page = 0; ; page++) {
        calls++;
        if (res.status !== 200) {
          if (mustSucceed) failed.push(`${url} → ${res.status} ${res.text.slice(0, 200)}`);
          return first;
        }
        first ??= res;
        const found = idsIn(res.text, aAllIds);
        if (found.length) leaks.push({ request: url, ids: found });
        const next = res.json?.links?.next;
        if (typeof next !== 'string' || page > 50) return first;
        const link = new URL(next);
        res = await send(t, 'GET', link.pathname + link.search, B.auth);
      }
    };
    for (const r of routes) {
      const reads = REQUIRED[r.url] ?? ['', 'page[size]=100', ...(READS[r.url] ?? [])];
      for (const q of reads) await read(q ? `${r.url}?${q}` : r.url, true);
      const params = SEARCHES[r.url] ?? ['query', 'q'];
      await pool(
        aNumbers.flatMap((n) => params.map((p) => `${r.url}?${p}=${encodeURIComponent(n)}`)),
        8,
        async (url) => void (await read(url, Object.hasOwn(SEARCHES, r.url))),
      );
    }
    // B's values filtered by A's records and by A's definitions: answered, with none of A's rows.
    const byId = [...aIds].flatMap(([id, table]) =>
      table === 'custom_field_definitions'
        ? [`/v2/custom_fields?filter[definition_id]=${id}`, `/v2/custom_fields?filter[definition_id]=${id}&include=definition`]
        : ['shipments', 'containers', 'tracking_requests'].includes(table)
          ? [`/v2/custom_fields?filter[entity_id]=${id}`, `/v2/custom_fields?filter[entity_id]=${id}&include=definition`]
          : [],
    );
    expect(byId.length).toBeGreaterThan(10);
    // (The links echo the filter's id: what must hold is that nothing is found.)
    await pool(byId, 8, async (url) => {
      const res = await send(t, 'GET', url, B.auth);
      calls++;
      if (res.status !== 200) failed.push(`${url} → ${res.status} ${res.text.slice(0, 200)}`);
      else if (res.json.data.length || res.json.included?.length || res.json.meta?.total)
        leaks.push({ request: url, ids: idsIn(JSON.stringify([res.json.data, res.json.included ?? []]), aAllIds) });
    });
    expect(failed, 'reads B should have been answered').toEqual([]);
    expect(leaks, "A's ids in B's answers").toEqual([]);
    // The slug filters were not empty answers: B finds its own records by the slugs A has too.
    for (const url of ['/v2/shipments?filter[custom_fields][sweep_text]=PO-1', '/v2/containers?filter[custom_fields][sweep_enum]=hot']) {
      const res = await send(t, 'GET', url, B.auth);
      expect(res.status, res.text).toBe(200);
      expect(res.json.data.length, url).toBeGreaterThan(0);
    }
    expect(routes.length).toBeGreaterThanOrEqual(6);
    expect(aNumbers.length).toBeGreaterThanOrEqual(30);
    expect(calls).toBeGreaterThan(aNumbers.length * 5);

    // The searches found something: B tracks the same numbers, so it gets its own records for them.
    for (const e of world.tracked) {
      const res = await send(t, 'GET', `/v2/search?query=${encodeURIComponent(e.request_number)}`, B.auth);
      expect(res.status, res.text).toBe(200);
      expect(res.json.data.length, `B's search for ${e.request_number}`).toBeGreaterThan(0);
    }
  }, 180_000);
});

describe("B's reference custom fields naming A's records", () => {
  it('are refused as values, by slug, and as a definition default, and change nothing of A', async () => {
    const { t } = world;
    const db = t.database.db;
    const state = () => dumpAccount(db, A.account.id);
    const before = await state();
    const [def] = await db.query<{ id: string }>(
      "SELECT id FROM custom_field_definitions WHERE account_id = $1 AND api_slug = 'sweep_ref'",
      [B.account.id],
    );
    const aContainers = [...aIds].filter(([, table]) => table === 'containers').map(([id]) => id);
    expect(aContainers.length).toBeGreaterThan(0);
    for (const id of aContainers) {
      const value = { type: 'container', id };
      const writes: [string, string, unknown][] = [
        [
          'PATCH',
          `/v2/custom_field_definitions/${def!.id}`,
          { data: { type: 'custom_field_definition', attributes: { default_value: value } } },
        ],
        [
          'POST',
          `/v2/shipments/${bShipment}/custom_fields`,
          { data: { type: 'custom_field', attributes: { api_slug: 'sweep_ref', value } } },
        ],
        ['PATCH', `/v2/shipments/${bShipment}/custom_fields/sweep_ref`, { data: { type: 'custom_field', attributes: { value } } }],
      ];
      for (const [method, url, body] of writes) {
        const res = await send(t, method, url, B.auth, body);
        expect(res.status, `${method} ${url}: ${res.text}`).toBe(422);
      }
    }
    expect(changed(before, await state())).toEqual([]);
  });
});

describe('reference data', () => {
  /** The reference objects the account's shipments, containers and events point at, by type:id. */
  async function referenced(x: WorldAccount): Promise<Map<string, unknown>> {
    const { t } = world;
    const refs = new Map<string, unknown>();
    const collect = (res: Answer) => {
      expect(res.status, res.text).toBe(200);
      for (const r of (res.json.included ?? []) as { id: string; type: string }[]) {
        if (!['shipment', 'container', 'transport_event', 'party', 'party_role', 'tracking_request'].includes(r.type))
          refs.set(`${r.type}:${r.id}`, r);
      }
    };
    collect(
      await send(
        t,
        'GET',
        '/v2/shipments?page[size]=100&include=pod_terminal,port_of_lading,port_of_discharge,destination,destination_terminal',
        x.auth,
      ),
    );
    const containers = await send(t, 'GET', '/v2/containers?page[size]=100&include=pod_terminal,pickup_facility', x.auth);
    collect(containers);
    for (const c of containers.json.data as { id: string }[]) {
      collect(await send(t, 'GET', `/v2/containers/${c.id}/transport_events?page[size]=100&include=location,terminal,vessel`, x.auth));
    }
    return refs;
  }

  it('both accounts see the same shipping lines, and the same ports, terminals and vessels for the same numbers', async () => {
    const { t } = world;
    const lines = [await send(t, 'GET', '/v2/shipping_lines', A.auth), await send(t, 'GET', '/v2/shipping_lines', B.auth)];
    expect(lines[0]!.status).toBe(200);
    expect(lines[1]!.json).toEqual(lines[0]!.json);

    const [ofA, ofB] = [await referenced(A), await referenced(B)];
    expect([...ofB.keys()].sort()).toEqual([...ofA.keys()].sort());
    for (const [k, obj] of ofA) expect(ofB.get(k), k).toEqual(obj);
    const types = new Set([...ofA.keys()].map((k) => k.split(':')[0]));
    expect([...types]).toEqual(expect.arrayContaining(['port', 'terminal', 'vessel']));

    // Every reference object (and shipping line) through its own route, when the app serves one.
    const served = new Set(t.app.routeTable.filter((r) => r.method === 'GET').map((r) => r.url.replace(/:[^/]+/g, ':')));
    const targets = [
      ...[...ofA.keys()].map((k) => k.split(':') as [string, string]),
      ...(lines[0]!.json.data as { id: string }[]).map((l) => ['shipping_line', l.id] as [string, string]),
    ];
    let fetched = 0;
    const routesSeen = new Set<string>();
    for (const [type, id] of targets) {
      const route = `/v2/${type}s/:`;
      if (!served.has(route)) continue;
      const url = `/v2/${type}s/${id}`;
      const [a, b] = [await send(t, 'GET', url, A.auth), await send(t, 'GET', url, B.auth)];
      expect(a.status, `${url}: ${a.text}`).toBe(200);
      expect(b.json, url).toEqual(a.json);
      fetched++;
      routesSeen.add(route);
    }
    expect(routesSeen.has('/v2/shipping_lines/:')).toBe(true);
    expect(fetched).toBeGreaterThanOrEqual(20);
    console.info(`reference data: ${ofA.size} objects referenced, ${fetched} fetched through ${[...routesSeen].join(', ')}`);
  }, 120_000);
});
