// The MCP endpoint with the official SDK's client: protocol versions, the tools on seeded data, the routing
// gate, tool errors, authentication, Host/Origin checks and tenant isolation.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeContainerNumber } from '../../src/domain/container-number.js';
import { newId } from '../../src/lib/ids.js';
import { testApp, type TestApp } from '../kit/app.js';
import { seedShipment } from '../kit/seed.js';

let t: TestApp;
let base: string;
let token: string;
let routingToken: string;
let otherToken: string;
let shipmentA: { id: string; containerIds: string[] };
let shipmentB: { id: string; containerIds: string[] };
let foreign: { id: string; containerIds: string[] };
const BOX_A = makeContainerNumber('MSCU', 100001);
const BOX_B = makeContainerNumber('MAEU', 200002);

beforeAll(async () => {
  t = await testApp({ queue: true });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const a = await t.account({ name: 'mcp-a' });
  token = a.token;
  shipmentA = await seedShipment(t, a.account.id, {
    bl: 'MEDUAA1111',
    pol: 'CNSHA',
    pod: 'USLAX',
    eta: '2026-03-10T08:00:00Z',
    containers: [{ number: BOX_A, snapshot: { current_status: 'on_ship' } as never }],
  });
  shipmentB = await seedShipment(t, a.account.id, {
    bl: 'MAEUBB2222',
    pol: 'NLRTM',
    pod: 'SGSIN',
    stopped: true,
    containers: [{ number: BOX_B, snapshot: { current_status: 'available' } as never }],
  });
  await t.services.db.query("UPDATE shipments SET shipping_line_scac = 'MSCU' WHERE id = $1", [shipmentA.id]);
  const r = await t.account({ name: 'mcp-routing', features: ['routing'] });
  routingToken = r.token;
  const routed = await seedShipment(t, r.account.id, { bl: 'RRR1', pol: 'CNSHA', pod: 'USLAX', containers: [{ number: BOX_A }] });
  await t.services.db.query(
    "UPDATE shipments SET pod_vessel_imo = '9811000', pod_vessel_name = 'EVER TEST', pod_voyage_number = '042E' WHERE id = $1",
    [routed.id],
  );
  await t.services.db.query(
    `INSERT INTO vessels (id, imo, name, latitude, longitude, speed_knots, heading_degrees, position_at, created_at, updated_at)
     VALUES ($1, '9811000', 'EVER TEST', 33.1, -140.5, 17.5, 80, '2026-03-01T11:00:00Z', now(), now())`,
    [newId()],
  );
  const o = await t.account({ name: 'mcp-other' });
  otherToken = o.token;
  foreign = await seedShipment(t, o.account.id, { bl: 'SECRET999', containers: [{ number: makeContainerNumber('CMAU', 300003) }] });
});
afterAll(() => t.close());

async function connect(key: string, path = '/mcp'): Promise<Client> {
  const client = new Client({ name: 'tidemark-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}${path}`), { requestInit: { headers: { authorization: `Token ${key}` } } }),
  );
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function data(result: CallToolResult): Record<string, unknown> {
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  expect(result.content[0]?.type).toBe('text');
  return result.structuredContent as Record<string, unknown>;
}

function errorText(result: CallToolResult): string {
  expect(result.isError).toBe(true);
  return (result.content[0] as { text: string }).text;
}

const rpc = (id: number, method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method, params });

async function post(body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Token ${token}`,
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

describe('transport', () => {
  for (const version of [LATEST_PROTOCOL_VERSION, '2025-06-18', '2025-03-26', '2024-11-05']) {
    it(`initializes with protocol ${version} and lists tools under it`, async () => {
      const init = await post(
        rpc(1, 'initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '0' } }),
      );
      expect(init.status).toBe(200);
      expect(init.headers.get('content-type')).toContain('application/json');
      const body = (await init.json()) as {
        result: { protocolVersion: string; serverInfo: { name: string }; capabilities: Record<string, unknown> };
      };
      expect(body.result.protocolVersion).toBe(version);
      expect(body.result.serverInfo.name).toBe('tidemark');
      // Stateless: nothing could ever carry a list_changed notification, so none is announced.
      expect(body.result.capabilities).toMatchObject({
        tools: { listChanged: false },
        prompts: { listChanged: false },
        resources: { listChanged: false },
        completions: {},
      });
      const list = await post(rpc(2, 'tools/list'), { 'mcp-protocol-version': version });
      expect(list.status).toBe(200);
      expect(((await list.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(10);
    });
  }

  it('frames the answer as SSE when the client prefers text/event-stream', async () => {
    const res = await post(rpc(1, 'tools/list'), { accept: 'text/event-stream, application/json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const text = await res.text();
    expect(text).toMatch(/^event: message\ndata: /m);
    expect(text).toContain('search_container');
  });

  it('serves /mcp/ too, and the SDK client connects (newest protocol)', async () => {
    const client = await connect(token, '/mcp/');
    expect(client.getServerVersion()?.name).toBe('tidemark');
    await client.close();
  });

  it('GET is 405 JSON, OPTIONS answers CORS', async () => {
    const get = await fetch(`${base}/mcp`, { headers: { authorization: `Token ${token}` } });
    expect(get.status).toBe(405);
    expect(await get.json()).toEqual({ error: 'Method not allowed', message: 'Only POST requests are accepted' });
    const options = await fetch(`${base}/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' },
    });
    expect(options.status).toBe(204);
    expect(options.headers.get('access-control-allow-methods')).toContain('POST');
    expect(options.headers.get('access-control-allow-headers')).toContain('Authorization');
    expect(options.headers.get('access-control-allow-headers')).toContain('MCP-Protocol-Version');
  });

  it('401 without a key or with a wrong one, with a Bearer challenge', async () => {
    const missing = await post(rpc(1, 'tools/list'), { authorization: '' });
    expect(missing.status).toBe(401);
    // The challenge names the resource metadata, where OAuth clients find the authorization server (mcp-oauth.test.ts).
    expect(missing.headers.get('www-authenticate')).toBe(
      'Bearer realm="mcp", resource_metadata="http://tidemark.test/.well-known/oauth-protected-resource/mcp"',
    );
    expect(((await missing.json()) as { error: string }).error).toBe('Unauthorized');
    const wrong = await post(rpc(1, 'tools/list'), { authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('accepts Bearer as well as Token', async () => {
    const res = await post(rpc(1, 'tools/list'), { authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
  });

  it('403 on a forged Origin or Host; the public origin and localhost are allowed', async () => {
    const forged = await post(rpc(1, 'tools/list'), { origin: 'https://evil.example' });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toEqual({ error: 'Forbidden', message: 'Invalid Origin header: https://evil.example' });
    expect((await post(rpc(1, 'tools/list'), { origin: 'http://tidemark.test' })).status).toBe(200);
    expect((await post(rpc(1, 'tools/list'), { origin: 'http://localhost:6274' })).status).toBe(200);
    const host = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        host: 'evil.example',
        authorization: `Token ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      payload: rpc(1, 'tools/list'),
    });
    expect(host.statusCode).toBe(403);
    expect(host.json().message).toBe('Invalid Host header: evil.example');
  });

  it('counts requests in the default rate bucket (429 with Retry-After)', async () => {
    const limited = await t.account({ name: 'mcp-limited' });
    await t.services.db.query(`UPDATE accounts SET rate_limits = '{"default": 1}'::jsonb WHERE id = $1`, [limited.account.id]);
    expect((await post(rpc(1, 'tools/list'), { authorization: `Token ${limited.token}` })).status).toBe(200);
    const over = await post(rpc(2, 'tools/list'), { authorization: `Token ${limited.token}` });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('tools', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(token);
  });
  afterAll(() => client.close());

  it('lists the ten tools with input and output schemas and annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual(
      [
        'get_container',
        'get_container_route',
        'get_container_transport_events',
        'get_shipment_details',
        'get_supported_shipping_lines',
        'list_containers',
        'list_shipments',
        'list_tracking_requests',
        'search_container',
        'track_container',
      ].sort(),
    );
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(tool.name !== 'track_container');
      expect(tool.annotations?.destructiveHint).toBe(false);
      expect(tool.annotations?.openWorldHint).toBe(false);
    }
  });

  it('search_container finds a container by number', async () => {
    const out = data(await call(client, 'search_container', { query: BOX_A }));
    expect(out.containers).toEqual([expect.objectContaining({ id: shipmentA.containerIds[0], number: BOX_A })]);
    const none = data(await call(client, 'search_container', { query: 'NOTHING-HERE' }));
    expect(none.total_results).toBe(0);
  });

  it('get_container renders the REST attributes with the shipment included', async () => {
    const out = data(await call(client, 'get_container', { id: shipmentA.containerIds[0] }));
    const container = out.container as { id: string; attributes: Record<string, unknown> };
    expect(container.attributes.number).toBe(BOX_A);
    expect(container.attributes.current_status).toBe('on_ship');
    expect(out.included).toEqual([expect.objectContaining({ type: 'shipment', id: shipmentA.id })]);
    const bare = data(await call(client, 'get_container', { id: shipmentA.containerIds[0], include: ['transport_events'] }));
    expect(bare.included).toEqual([]);
  });

  it('get_container states the binding last free day and its days left at the world time, never after pickup', async () => {
    // KKFU1025779's story at the POD terminal in Los Angeles: the terminal's last free day binds, the line's is
    // pickup_lfd (the first given, not the earliest). The world clock is the test's fixed clock: 1 Mar, 04:00 local.
    const la = 'America/Los_Angeles';
    const lfds = {
      pod_timezone: la,
      pickup_lfd_line: '2026-03-06T08:00:00Z',
      pickup_lfd_terminal: '2026-03-01T08:00:00Z',
      pickup_lfd: '2026-03-06T08:00:00Z',
      pickup_lfd_binding: '2026-03-01T08:00:00Z',
      pickup_lfd_binding_party: 'terminal' as const,
      pickup_lfd_binding_timezone: la,
    };
    const own = await t.account({ name: 'mcp-lfd' });
    const seeded = await seedShipment(t, own.account.id, {
      bl: 'KKFULFD0001',
      pod: 'USLAX',
      podTimezone: la,
      containers: [
        { number: 'KKFU1025779', snapshot: { ...lfds, current_status: 'available' } },
        {
          number: makeContainerNumber('KKFU', 102578),
          snapshot: { ...lfds, current_status: 'picked_up', pod_full_out_at: '2026-03-03T19:00:00Z' },
        },
      ],
    });
    const lfdClient = await connect(own.token);
    const waiting = await call(lfdClient, 'get_container', { id: seeded.containerIds[0] });
    const out = data(waiting);
    expect((out.container as { attributes: Record<string, unknown> }).attributes).toMatchObject({
      pickup_lfd: '2026-03-06T08:00:00Z',
      pickup_lfd_binding: '2026-03-01T08:00:00Z',
      pickup_lfd_binding_party: 'terminal',
      pickup_lfd_binding_timezone: la,
    });
    expect(out.last_free_day).toEqual({
      world_time: t.clock.now().toISOString().replace(/\.\d+Z$/, 'Z'),
      binding: { date: '2026-03-01', timestamp: '2026-03-01T08:00:00Z', party: 'terminal', timezone: la },
      state: 'counting',
      days_left: 0,
      picked_up_days_before_lfd: null,
      summary: "Binding: the terminal's last free day, 2026-03-01 (America/Los_Angeles) — today.",
    });
    expect((waiting.content[0] as { text: string }).text).toContain(
      "the terminal's last free day, 2026-03-01 (America/Los_Angeles) — today",
    );
    // Picked up on 3 Mar (local): two days after the date; no days left are counted.
    const picked = data(await call(lfdClient, 'get_container', { id: seeded.containerIds[1] }));
    expect(picked.last_free_day).toMatchObject({ state: 'picked_up', days_left: null, picked_up_days_before_lfd: -2 });
    expect((picked.last_free_day as { summary: string }).summary).toMatch(/^Picked up 2 days after the terminal's last free day/);
    await lfdClient.close();
  });

  it('get_container: an unknown id is a tool error naming the next step', async () => {
    const text = errorText(await call(client, 'get_container', { id: '00000000-0000-4000-8000-000000000000' }));
    expect(text).toContain('track_container first');
  });

  it('tenant isolation: another account’s ids are tool errors, never data', async () => {
    for (const [tool, id] of [
      ['get_container', foreign.containerIds[0]],
      ['get_container_transport_events', foreign.containerIds[0]],
      ['get_shipment_details', foreign.id],
    ] as const) {
      const result = await call(client, tool, { id });
      expect(errorText(result)).not.toContain('SECRET999');
      expect(result.structuredContent).toBeUndefined();
    }
    const search = data(await call(client, 'search_container', { query: 'SECRET999' }));
    expect(search.total_results).toBe(0);
    // The owner sees it.
    const owner = await connect(otherToken);
    const own = data(await call(owner, 'get_container', { id: foreign.containerIds[0] }));
    expect((own.container as { id: string }).id).toBe(foreign.containerIds[0]);
    await owner.close();
  });

  it('get_shipment_details includes containers unless asked not to', async () => {
    const out = data(await call(client, 'get_shipment_details', { id: shipmentA.id }));
    expect((out.shipment as { attributes: Record<string, unknown> }).attributes.port_of_discharge_locode).toBe('USLAX');
    expect((out.included as { type: string }[]).some((r) => r.type === 'container')).toBe(true);
    const without = data(await call(client, 'get_shipment_details', { id: shipmentA.id, include_containers: false }));
    expect((without.included as { type: string }[]).some((r) => r.type === 'container')).toBe(false);
  });

  it('get_container_transport_events answers the container’s events', async () => {
    const out = data(await call(client, 'get_container_transport_events', { id: shipmentA.containerIds[0] }));
    expect(out).toMatchObject({ container_id: shipmentA.containerIds[0], container_number: BOX_A, total: 0, events: [] });
  });

  it('get_supported_shipping_lines lists and searches', async () => {
    const all = data(await call(client, 'get_supported_shipping_lines'));
    expect(all.total_lines as number).toBeGreaterThan(10);
    const msc = data(await call(client, 'get_supported_shipping_lines', { search: 'MSCU' }));
    expect(msc.shipping_lines).toEqual([expect.objectContaining({ scac: 'MSCU' })]);
  });

  it('get_container_route: not enabled without routing; ports and vessel with it', async () => {
    const gated = data(await call(client, 'get_container_route', { id: shipmentA.containerIds[0] }));
    expect(gated).toEqual({ feature_enabled: false, message: 'Routing data feature is not enabled for this account' });
    const routed = await connect(routingToken);
    const list = data(await call(routed, 'list_containers'));
    const id = (list.items as { id: string }[])[0]!.id;
    const out = data(await call(routed, 'get_container_route', { id }));
    expect(out.feature_enabled).toBe(true);
    expect((out.stops as { role: string; locode: string }[]).map((s) => [s.role, s.locode])).toEqual([
      ['port_of_lading', 'CNSHA'],
      ['port_of_discharge', 'USLAX'],
    ]);
    expect(out.vessel).toEqual({
      name: 'EVER TEST',
      imo: '9811000',
      voyage_number: '042E',
      position: { latitude: 33.1, longitude: -140.5, speed_knots: 17.5, heading_degrees: 80, at: '2026-03-01T11:00:00Z' },
    });
    // Another account's container stays not found, with routing or without.
    expect(errorText(await call(routed, 'get_container_route', { id: shipmentA.containerIds[0] }))).toContain('track_container');
    await routed.close();
  });

  it('list_shipments filters by status, port, carrier, updated_after, number and tracking_stopped', async () => {
    const ids = async (args: Record<string, unknown>) =>
      ((data(await call(client, 'list_shipments', args)).items as { id: string }[]) ?? []).map((s) => s.id).sort();
    expect(await ids({})).toEqual([shipmentA.id, shipmentB.id].sort());
    expect(await ids({ status: 'available' })).toEqual([shipmentB.id]);
    expect(await ids({ port: 'uslax' })).toEqual([shipmentA.id]);
    expect(await ids({ port: ['NLRTM', 'XXXXX'] })).toEqual([shipmentB.id]);
    expect(await ids({ carrier: 'MSCU' })).toEqual([shipmentA.id]);
    expect(await ids({ number: 'MAEUBB2222' })).toEqual([shipmentB.id]);
    expect(await ids({ tracking_stopped: true })).toEqual([shipmentB.id]);
    expect(await ids({ tracking_stopped: false })).toEqual([shipmentA.id]);
    expect(await ids({ updated_after: '2000-01-01T00:00:00Z' })).toHaveLength(2);
    expect(await ids({ updated_after: '2100-01-01T00:00:00Z' })).toEqual([]);
    const paged = data(await call(client, 'list_shipments', { page: 2, page_size: 1, include_containers: true }));
    expect(paged.meta).toEqual({ page: 2, page_size: 1, total: 2, total_pages: 2, has_more: false });
    expect((paged.included as { type: string }[])[0]?.type).toBe('container');
    const clamped = data(await call(client, 'list_shipments', { page_size: 500 }));
    expect((clamped.meta as { page_size: number }).page_size).toBe(100);
  });

  it('list_containers filters by status, port, carrier and updated_after', async () => {
    const ids = async (args: Record<string, unknown>) =>
      ((data(await call(client, 'list_containers', args)).items as { id: string }[]) ?? []).map((c) => c.id).sort();
    const [a, b] = [shipmentA.containerIds[0]!, shipmentB.containerIds[0]!];
    expect(await ids({})).toEqual([a, b].sort());
    expect(await ids({ status: 'on_ship' })).toEqual([a]);
    expect(await ids({ status: ['available', 'delivered'] })).toEqual([b]);
    expect(await ids({ port: 'SGSIN' })).toEqual([b]);
    expect(await ids({ carrier: 'mscu' })).toEqual([a]);
    expect(await ids({ updated_after: '2100-01-01T00:00:00Z' })).toEqual([]);
    const withShipment = data(await call(client, 'list_containers', { include: 'shipment', page_size: 1 }));
    expect((withShipment.included as { type: string }[])[0]?.type).toBe('shipment');
    expect((withShipment.meta as { total: number }).total).toBe(2);
  });

  it('track_container returns a tracked container at once, else creates a pending tracking request', async () => {
    const existing = data(await call(client, 'track_container', { number: BOX_A.toLowerCase() }));
    expect(existing.result).toBe('already_tracked');
    expect((existing.container as { id: string }).id).toBe(shipmentA.containerIds[0]);

    const created = data(
      await call(client, 'track_container', {
        number: 'TEST-TR-SUCCEEDED',
        numberType: 'bill_of_lading',
        scac: 'TEST',
        refNumbers: ['PO-1'],
      }),
    );
    expect(created.result).toBe('tracking_request_created');
    const request = created.tracking_request as { id: string; attributes: Record<string, unknown> };
    expect(request.attributes).toMatchObject({
      request_number: 'TEST-TR-SUCCEEDED',
      request_type: 'bill_of_lading',
      status: 'pending',
      scac: 'TEST',
    });

    const again = data(await call(client, 'track_container', { number: 'TEST-TR-SUCCEEDED', numberType: 'bill_of_lading', scac: 'TEST' }));
    expect(again.result).toBe('tracking_request_pending');
    expect((again.tracking_request as { id: string }).id).toBe(request.id);

    const inferred = data(await call(client, 'track_container', { number: makeContainerNumber('MSCU', 777777) }));
    expect(inferred.result).toBe('tracking_request_created');
    expect((inferred.tracking_request as { attributes: Record<string, unknown> }).attributes).toMatchObject({
      request_type: 'container',
      scac: 'MSCU',
    });

    expect(errorText(await call(client, 'track_container', { number: '!!' }))).toContain('check the number');
  });

  it('list_tracking_requests filters by status, request_type and raw filters', async () => {
    const numbers = async (args: Record<string, unknown>) =>
      ((data(await call(client, 'list_tracking_requests', args)).items as { attributes: { request_number: string } }[]) ?? [])
        .map((r) => r.attributes.request_number)
        .sort();
    expect(await numbers({})).toHaveLength(2);
    expect(await numbers({ request_type: 'bill_of_lading' })).toEqual(['TEST-TR-SUCCEEDED']);
    expect(await numbers({ status: 'failed' })).toEqual([]);
    expect(await numbers({ filters: { 'filter[scac]': 'MSCU' } })).toEqual([makeContainerNumber('MSCU', 777777)]);
    expect(await numbers({ filters: { q: 'PO-1' } })).toEqual(['TEST-TR-SUCCEEDED']);
    expect(await numbers({ filters: { 'filter[created_at][start]': '2100-01-01T00:00:00Z' } })).toEqual([]);
    expect(errorText(await call(client, 'list_tracking_requests', { filters: { 'filter[colour]': 'red' } }))).toContain(
      'supported filters',
    );
  });
});
