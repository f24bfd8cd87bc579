// Plans and the API trial through the HTTP app (docs/api.md "Plans and the API trial"): every tracking-data route
// answers a free account's API key 403 api_trial_required without a trial, its usual answer during one, 403 again
// once it ended on the (injected) wall clock; unlimited accounts, the operator's first account, TIDEMARK_API_TRIAL=off
// and the web app's session are never gated; tracking requests, webhooks and deliveries keep working meanwhile.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_BUCKETS } from '../../src/domain/account.js';
import { refusalSentence } from '../../src/domain/api-trial.js';
import { OPEN_ROUTES, routeClass, TRACKING_DATA_ROUTES } from '../../src/http/api-trial-gate.js';
import { TRACKING_DATA_TOOLS } from '../../src/mcp/api-trial.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { newId } from '../../src/lib/ids.js';
import { insertAccountEvent } from '../../src/storage/repositories/tracking.js';
import { manualDeliveryEvent } from '../../src/tracking/manual-delivery.js';
import { emptyContainer } from '../../src/tracking/snapshot.js';
import { type TestApp, testApp } from '../kit/app.js';
import { checkResponse } from '../kit/openapi.js';
import { type Receiver, startReceiver } from '../kit/receiver.js';
import { seedShipment } from '../kit/seed.js';

const BOX = 'MSKU9070323';

let t: TestApp;
let off: TestApp;
let receiver: Receiver;

interface Holder {
  name: string;
  auth: Record<string, string>;
  shipment: string;
  container: string;
  notification: string;
}

/** An account with a shipment, a webhook to the receiver and one notification (delivered or not). */
async function holder(app: TestApp, opts: { plan: 'free' | 'unlimited'; firstAccount?: boolean }): Promise<Holder> {
  const account = await app.services.accounts.create(app.database.db, {
    name: `trial-${newId().slice(-12)}`,
    plan: opts.plan,
    features: ['routing', 'refresh'],
    ...(opts.firstAccount ? { firstAccount: true } : {}),
  });
  const { token } = await app.services.accounts.issueKey(app.database.db, account.id);
  const auth = { authorization: `Token ${token}` };
  // Webhooks are managed while gated.
  const hook = await app.app.inject({
    method: 'POST',
    url: '/v2/webhooks',
    headers: auth,
    payload: { data: { type: 'webhook', attributes: { url: receiver.url, events: ['container.transport.available'] } } },
  });
  expect(hook.statusCode, hook.body).toBe(201);
  const { id: shipment, containerIds } = await seedShipment(app, account.id, {
    bl: `MAEU${newId().slice(-8)}`,
    containers: [{ number: BOX }],
  });
  const record = { ...manualDeliveryEvent(emptyContainer(BOX), '2026-03-01T10:00:00Z', '2026-03-01T10:00:00Z'), data_source: 'terminal' };
  const accountEvent = newId();
  await insertAccountEvent(
    app.database.db,
    {
      id: accountEvent,
      account_id: account.id,
      event: 'container.transport.available',
      tracking_request_id: null,
      shipment_id: shipment,
      container_id: containerIds[0]!,
      transport_event_id: null,
      estimated_event_id: null,
      payload: {
        type: 'container.transport.available',
        container_number: BOX,
        transport_event: { ...record, event: 'container.transport.available' },
      },
      occurred_at: new Date('2026-03-01T10:00:00Z'),
    },
    app.clock.now(),
  );
  const [n] = await app.database.db.query<{ id: string }>('SELECT id FROM webhook_notifications WHERE account_event_id = $1', [
    accountEvent,
  ]);
  return { name: account.name, auth, shipment, container: containerIds[0]!, notification: n!.id };
}

/** Each tracking-data route (TRACKING_DATA_ROUTES) as a request of `h`'s, with its answer when the account may read. */
function requests(h: Holder) {
  const attrs = (attributes: object) => ({ data: { attributes } });
  return [
    { route: 'GET /v2/shipments', url: '/v2/shipments', ok: 200 },
    { route: 'GET /v2/shipments/:id', url: `/v2/shipments/${h.shipment}`, ok: 200 },
    { route: 'PATCH /v2/shipments/:id', url: `/v2/shipments/${h.shipment}`, payload: attrs({ ref_numbers: ['PO-1'] }), ok: 200 },
    { route: 'GET /v2/shipments/:id/estimated_events', url: `/v2/shipments/${h.shipment}/estimated_events`, ok: 200 },
    { route: 'PATCH /v2/shipments/:id/stop_tracking', url: `/v2/shipments/${h.shipment}/stop_tracking`, ok: 200 },
    { route: 'PATCH /v2/shipments/:id/resume_tracking', url: `/v2/shipments/${h.shipment}/resume_tracking`, ok: 200 },
    { route: 'GET /v2/containers', url: '/v2/containers', ok: 200 },
    { route: 'GET /v2/containers/board', url: '/v2/containers/board', ok: 200 },
    { route: 'GET /v2/containers/:id', url: `/v2/containers/${h.container}`, ok: 200 },
    { route: 'PATCH /v2/containers/:id', url: `/v2/containers/${h.container}`, payload: attrs({ ref_numbers: ['C-1'] }), ok: 200 },
    // The reference schema's form: the container's id in the body.
    {
      route: 'PATCH /v2/containers',
      url: '/v2/containers',
      payload: { data: { id: h.container, attributes: { ref_numbers: ['C-2'] } } },
      ok: 200,
    },
    { route: 'GET /v2/containers/:id/transport_events', url: `/v2/containers/${h.container}/transport_events`, ok: 200 },
    { route: 'GET /v2/containers/:id/raw_events', url: `/v2/containers/${h.container}/raw_events`, ok: 200 },
    { route: 'GET /v2/containers/:id/map_geojson', url: `/v2/containers/${h.container}/map_geojson`, ok: 200 },
    { route: 'PATCH /v2/containers/:id/refresh', url: `/v2/containers/${h.container}/refresh`, ok: 200 },
    { route: 'GET /v2/search', url: `/v2/search?query=${BOX}`, ok: 200 },
    { route: 'GET /v2/webhook_notifications', url: '/v2/webhook_notifications', ok: 200 },
    { route: 'GET /v2/webhook_notifications/:id', url: `/v2/webhook_notifications/${h.notification}`, ok: 200 },
    // Queued again, it answers the notification with its body.
    {
      route: 'POST /v2/webhook_notifications/:id/redeliver',
      url: `/v2/webhook_notifications/${h.notification}/redeliver`,
      ok: 202,
    },
  ].map((r) => ({ ...r, method: r.route.split(' ')[0] as 'GET' | 'PATCH' | 'POST' }));
}

/** Every tracking-data route's status for `h` on `app`. */
async function statuses(app: TestApp, h: Holder, headers: Record<string, string> = h.auth) {
  const out: Record<string, number> = {};
  for (const r of requests(h)) {
    const res = await app.app.inject({ method: r.method, url: r.url, headers, ...(r.payload ? { payload: r.payload } : {}) });
    out[r.route] = res.statusCode;
  }
  return out;
}

const expected = (h: Holder, status?: number) => Object.fromEntries(requests(h).map((r) => [r.route, status ?? r.ok]));

const startTrial = (name: string, app = t) =>
  app.services.apiTrial.change(app.database.db, app.services.accounts, name, { action: 'start', days: 7 });

beforeAll(async () => {
  receiver = await startReceiver();
  t = await testApp({ queue: true, env: { TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: '1' } });
  // The same database served by an app whose operator turned the gate off.
  off = await testApp({ database: t.database, clock: t.clock, env: { TIDEMARK_API_TRIAL: 'off', TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: '1' } });
});
afterAll(async () => {
  await off?.close();
  await t?.close();
  await receiver?.close();
});

describe('the API trial gate on /v2', () => {
  it('covers exactly the routes of its table, each one served by the app', async () => {
    const h = await holder(t, { plan: 'unlimited' });
    expect(requests(h).map((r) => r.route)).toEqual([...TRACKING_DATA_ROUTES]);
    const served = new Set(t.app.routeTable.map((r) => `${r.method} ${r.url}`));
    expect(TRACKING_DATA_ROUTES.filter((r) => !served.has(r))).toEqual([]);
  });

  it('classifies every /v2 route and method, HEAD included: tracking data gated, the rest open for a stated reason', async () => {
    const listed = t.app.routeTable.filter((r) => /^\/v2(\/|$)/.test(r.url));
    // routeTable leaves out the HEAD Fastify adds beside each GET: those are asked for here.
    const heads = listed.filter((r) => r.method === 'GET' && t.app.hasRoute({ method: 'HEAD', url: r.url }));
    expect(heads.length).toBeGreaterThan(30);
    const routes = [...listed, ...heads.map((r) => ({ ...r, method: 'HEAD' }))].map((r) => ({ method: r.method, url: r.url }));
    expect(routes.length).toBeGreaterThan(100);
    const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

    // Each route is in exactly one table; a new one must be put in one of them (src/http/api-trial-gate.ts).
    const unclassified = routes.filter((r) => routeClass(r.method, r.url) === undefined).map(key);
    expect(unclassified, 'routes in neither TRACKING_DATA_ROUTES nor OPEN_ROUTES').toEqual([]);
    const open = OPEN_ROUTES.flatMap((g) => g.routes);
    expect(
      open.filter((r) => TRACKING_DATA_ROUTES.includes(r)),
      'gated and open at once',
    ).toEqual([]);
    expect(new Set(open).size, 'an open route listed twice').toBe(open.length);
    const served = new Set(routes.map(key));
    expect(
      open.filter((r) => !served.has(r)),
      'open routes the app does not serve',
    ).toEqual([]);

    // The tracking-data resources are gated whatever the method, save their custom fields (the account's own data) and
    // the notification examples (made up).
    const tracking = (url: string) =>
      /^\/v2\/(shipments|containers|search|webhook_notifications)(\/|$)/.test(url) &&
      !/\/custom_fields(\/|$)/.test(url) &&
      url !== '/v2/webhook_notifications/examples';
    const leaks = routes.filter((r) => tracking(r.url) && routeClass(r.method, r.url) !== 'gated').map(key);
    expect(leaks, 'tracking-data routes left open').toEqual([]);
    const extra = routes.filter((r) => !tracking(r.url) && routeClass(r.method, r.url) === 'gated').map(key);
    expect(extra, 'gated routes outside the tracking-data resources').toEqual([]);

    // And the app does as the tables say: a gated key's request is refused exactly on the gated ones (HEAD has no body:
    // its 403; the account's rate limits raised so that no 429 stands in for an answer).
    const h = await holder(t, { plan: 'free' });
    await t.services.accounts.update(t.database.db, h.name, {
      rateLimits: Object.fromEntries(RATE_BUCKETS.map((b) => [b, 1_000_000])),
    });
    const refused: string[] = [];
    for (const r of routes) {
      const url = r.url
        .replace(':imo', '9301809')
        .replace(':api_slug', 'po_number')
        .replace(/:[a-z_]+/g, '00000000-0000-4000-8000-000000000000');
      const withBody = !['GET', 'HEAD', 'DELETE'].includes(r.method);
      const res = await t.app.inject({
        method: r.method as 'GET',
        url,
        headers: h.auth,
        ...(withBody ? { payload: { data: {} } } : {}),
      });
      expect(res.statusCode, `${key(r)}: ${res.body.slice(0, 200)}`).not.toBe(429);
      const trialRequired = r.method === 'HEAD' ? res.statusCode === 403 : res.json().errors?.[0]?.code === 'api_trial_required';
      if (trialRequired) refused.push(key(r));
    }
    expect(refused.sort()).toEqual(
      routes
        .filter((r) => routeClass(r.method, r.url) === 'gated')
        .map(key)
        .sort(),
    );
  });

  it('gates PATCH /v2/containers (the id in the body) like PATCH /v2/containers/{id}', async () => {
    const h = await holder(t, { plan: 'free' });
    const patch = () =>
      t.app.inject({
        method: 'PATCH',
        url: '/v2/containers',
        headers: h.auth,
        payload: { data: { id: h.container, attributes: { ref_numbers: ['PATCHED-1'] } } },
      });
    const refused = await patch();
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().errors[0].code).toBe('api_trial_required');
    expect(refused.body).not.toContain(BOX);
    await startTrial(h.name);
    const during = await patch();
    expect(during.statusCode, during.body).toBe(200);
    expect(during.json().data).toMatchObject({ id: h.container, type: 'container', attributes: { number: BOX } });
  });

  it('refuses a free account without a trial, lets it read during one, and refuses it again once the trial ended', async () => {
    const h = await holder(t, { plan: 'free' });
    expect(await statuses(t, h)).toEqual(expected(h, 403));
    const refused = await t.app.inject({ url: '/v2/shipments', headers: h.auth });
    expect(refused.json().errors).toEqual([
      {
        status: '403',
        title: 'API access not enabled',
        code: 'api_trial_required',
        detail: expect.stringMatching(/free plan and has no API trial\. .*ask the operator of this Tidemark to start one/),
        meta: { trial_ends_at: null, request_id: expect.any(String) },
      },
    ]);
    // Documented: every tracking-data route declares its 403.
    for (const r of requests(h)) {
      const res = await t.app.inject({ method: r.method, url: r.url, headers: h.auth, ...(r.payload ? { payload: r.payload } : {}) });
      const checked = await checkResponse(t.app, {
        method: r.method,
        url: r.url,
        status: 403,
        contentType: String(res.headers['content-type']),
        body: res.body,
      });
      expect(checked.kind, r.route).toBe('valid');
    }

    // HEAD is refused like the GET it stands for.
    expect((await t.app.inject({ method: 'HEAD', url: `/v2/containers/${h.container}`, headers: h.auth })).statusCode).toBe(403);

    const trial = await startTrial(h.name);
    expect(await statuses(t, h)).toEqual(expected(h));

    t.clock.set(trial.apiTrial!.endsAt);
    expect(await statuses(t, h)).toEqual(expected(h, 403));
    const ended = (await t.app.inject({ url: `/v2/containers/${h.container}`, headers: h.auth })).json().errors[0];
    const endsAt = trial.apiTrial!.endsAt.toISOString().replace(/\.\d{3}Z$/, 'Z');
    expect(ended.detail).toContain(`The API trial of this account ended at ${endsAt}.`);
    expect(ended.detail).toMatch(/extend the trial/);
    expect(ended.meta.trial_ends_at).toBe(endsAt);
  });

  it('never gates an unlimited account, nor the operator’s first account on the free plan', async () => {
    const unlimited = await holder(t, { plan: 'unlimited' });
    expect(await statuses(t, unlimited)).toEqual(expected(unlimited));
    const first = await holder(t, { plan: 'free', firstAccount: true });
    expect(await statuses(t, first)).toEqual(expected(first));
  });

  it('never gates anyone with TIDEMARK_API_TRIAL=off', async () => {
    const h = await holder(off, { plan: 'free' });
    expect(await statuses(off, h)).toEqual(expected(h));
    // The same account is refused by a process with the gate on.
    expect((await t.app.inject({ url: '/v2/shipments', headers: h.auth })).statusCode).toBe(403);
  });

  it('never gates the web app’s session: a free account reads through it, and keys it makes are gated', async () => {
    const signup = await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: { email: `trial-${newId().slice(-8)}@example.com`, password: 'a long enough password', company_name: 'Free Co' },
    });
    expect(signup.statusCode, signup.body).toBe(201);
    expect(signup.json().account.plan).toBe('free');
    const cookie = String([signup.headers['set-cookie']].flat()[0]).split(';')[0]!;
    const csrf = signup.json().csrf_token as string;
    for (const url of ['/v2/shipments', '/v2/containers', '/v2/search?query=X', '/v2/webhook_notifications', '/v2/containers/board']) {
      expect((await t.app.inject({ url, headers: { cookie } })).statusCode, url).toBe(200);
    }
    const account = await t.app.inject({ url: '/v2/account', headers: { cookie } });
    expect(account.json().data.attributes).toMatchObject({ plan: 'free', api_access: 'trial_required', trial_ends_at: null });
    const key = await t.app.inject({
      method: 'POST',
      url: '/v2/api_keys',
      headers: { cookie, 'x-csrf-token': csrf },
      payload: { data: { type: 'api_key', attributes: { name: 'ci' } } },
    });
    expect(key.statusCode, key.body).toBe(201);
    const gated = await t.app.inject({ url: '/v2/shipments', headers: { authorization: `Token ${key.json().data.attributes.key}` } });
    expect(gated.statusCode).toBe(403);
  });
});

describe('what keeps working while gated', () => {
  let h: Holder;
  beforeAll(async () => {
    h = await holder(t, { plan: 'free' });
  });

  it('creates tracking requests and reads them, without their tracked_object', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v2/tracking_requests',
      headers: h.auth,
      payload: {
        data: { type: 'tracking_request', attributes: { request_type: 'bill_of_lading', request_number: 'MAEU261000001', scac: 'MAEU' } },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    // A request whose shipment exists (as the engine links it once the carrier answered).
    await t.database.db.query('UPDATE tracking_requests SET shipment_id = $2, status = $3 WHERE id = $1', [
      created.json().data.id,
      h.shipment,
      'created',
    ]);
    for (const url of [
      '/v2/tracking_requests',
      `/v2/tracking_requests/${created.json().data.id}`,
      `/v2/tracking_requests/${created.json().data.id}?include=tracked_object,customer`,
      '/v2/tracking_requests?include=tracked_object.containers',
    ]) {
      const res = await t.app.inject({ url, headers: h.auth });
      expect(res.statusCode, url).toBe(200);
      const doc = res.json();
      const data = [doc.data].flat()[0];
      expect(data.relationships.tracked_object.data, url).toEqual({ id: h.shipment, type: 'shipment' });
      expect(doc.included ?? [], url).toEqual([]);
    }
    // With a trial, the shipment is included again (by default).
    const other = await holder(t, { plan: 'free' });
    await t.database.db.query('UPDATE tracking_requests SET account_id = $1 WHERE id = $2', [
      (await t.services.accounts.get(t.database.db, other.name)).id,
      created.json().data.id,
    ]);
    await t.database.db.query('UPDATE tracking_requests SET shipment_id = $2 WHERE id = $1', [created.json().data.id, other.shipment]);
    await startTrial(other.name);
    const withTrial = await t.app.inject({ url: `/v2/tracking_requests/${created.json().data.id}`, headers: other.auth });
    expect(withTrial.json().included.map((r: { type: string; id: string }) => [r.type, r.id])).toEqual([['shipment', other.shipment]]);
  });

  it('serves webhooks, parties, reference data and the account, which says what to do', async () => {
    for (const url of [
      '/v2/webhooks',
      '/v2/parties',
      '/v2/shipping_lines',
      '/v2/ports/USLAX',
      '/v2/webhooks/events',
      '/v2/webhook_notifications/examples?event=container.created',
    ]) {
      expect((await t.app.inject({ url, headers: h.auth })).statusCode, url).toBe(200);
    }
    const account = await t.app.inject({ url: '/v2/account', headers: h.auth });
    expect(account.statusCode).toBe(200);
    expect(account.json().data).toMatchObject({
      type: 'account',
      attributes: {
        name: h.name,
        plan: 'free',
        trial_ends_at: null,
        api_access: 'trial_required',
        api_access_detail: expect.stringMatching(/no API trial/),
      },
      links: { self: '/v2/account' },
    });
    const checked = await checkResponse(t.app, {
      method: 'GET',
      url: '/v2/account',
      status: 200,
      contentType: String(account.headers['content-type']),
      body: account.body,
    });
    expect(checked.kind).toBe('valid');
  });

  it('delivers the account’s webhook notifications', async () => {
    const before = receiver.received.length;
    while ((await t.services.webhookDelivery.deliverDue()) > 0) {}
    const mine = receiver.received.slice(before).filter((r) => r.json.data.id === h.notification);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.json.data.attributes.event).toBe('container.transport.available');
  });
});

describe('the API trial on MCP (in-process client)', () => {
  /** An MCP client acting for `name`'s account as it is now (a server is made per request, as the endpoint does). */
  async function mcp(name: string): Promise<Client> {
    const account = await t.services.accounts.get(t.database.db, name);
    const server = createMcpServer({ deps: t.services, account });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 'api-trial', version: '1.0.0' });
    await client.connect(b);
    return client;
  }
  const call = async (c: Client, name: string, args: Record<string, unknown>) =>
    (await c.callTool({ name, arguments: args })) as CallToolResult;
  const textOf = (r: CallToolResult) => r.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');

  it('answers the tracking-data tools with the REST API’s sentence while gated, and lets track_container work', async () => {
    const h = await holder(t, { plan: 'free' });
    const args: Record<string, Record<string, unknown>> = {
      search_container: { query: BOX },
      get_container: { id: h.container },
      get_shipment_details: { id: h.shipment },
      get_container_transport_events: { id: h.container },
      get_container_route: { id: h.container },
      list_shipments: {},
      list_containers: {},
    };
    expect(Object.keys(args).sort()).toEqual([...TRACKING_DATA_TOOLS].sort());
    const gated = await mcp(h.name);
    const sentence = refusalSentence({ allowed: false, reason: 'no_trial', trialEndsAt: null });
    for (const [tool, input] of Object.entries(args)) {
      const result = await call(gated, tool, input);
      expect(result.isError, tool).toBe(true);
      expect(textOf(result), tool).toBe(sentence);
    }
    const resource = gated.readResource({ uri: `tidemark://container/${h.container}` });
    await expect(resource).rejects.toThrow(/no API trial/);

    // track_container: a new number becomes a tracking request; a tracked one is said to be tracked, without its data.
    const created = await call(gated, 'track_container', { number: 'MAEU261000002', numberType: 'bill_of_lading', scac: 'MAEU' });
    expect(created.isError, textOf(created)).toBeFalsy();
    expect(created.structuredContent).toMatchObject({ result: 'tracking_request_created' });
    const tracked = await call(gated, 'track_container', { number: BOX });
    expect(tracked.isError, textOf(tracked)).toBeFalsy();
    expect(tracked.structuredContent).toEqual({ result: 'already_tracked', included: [] });
    expect(textOf(tracked)).toContain(`Container ${BOX} is already tracked. ${sentence}`);
    const requests = await call(gated, 'list_tracking_requests', {});
    expect(requests.isError, textOf(requests)).toBeFalsy();

    // During a trial the same tools answer.
    await startTrial(h.name);
    const reading = await mcp(h.name);
    for (const [tool, input] of Object.entries(args)) {
      const result = await call(reading, tool, input);
      expect(result.isError, `${tool}: ${textOf(result)}`).toBeFalsy();
    }
    expect((await call(reading, 'track_container', { number: BOX })).structuredContent).toMatchObject({
      result: 'already_tracked',
      container: { id: h.container },
    });
    await gated.close();
    await reading.close();
  });
});
