// The reference's wire, operation by operation, for everything but custom fields (custom-fields.test.ts): each
// served operation of test/compat/operations.ts gets the request the reference's SDK, CLI or MCP server sends
// (api-wire-notes.md §1–2, §9.3), against the real app on a sandbox world, and its answer must validate against the
// schema written by hand from the wire notes (test/compat/schemas). The other request shapes the notes list (raw
// and percent-encoded brackets, `%2C` in include, the CLI's string ref_numbers, webhooks without events, Bearer,
// vnd.api+json bodies…) must be accepted too. The last test fails when a served operation of this file's scope got
// no request here.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Receiver, startReceiver } from '../kit/receiver.js';
import { type SandboxWorld, sandboxWorld, shipmentOf, type WorldAccount } from '../kit/sandbox-world.js';
import * as S from './schemas/index.js';
import { type Answer, type CallOptions, client, coverage, expectAnswer, problems } from './wire.js';

const ops = coverage((o) => o.section !== 'A');

let world: SandboxWorld;
let receiver: Receiver;
let A: WorldAccount;
let call: (method: string, url: string, options?: CallOptions) => Promise<Answer>;
/** The answer to the SDK-shaped POST /v2/webhooks the world was made with (no `events`). */
let firstWebhook: Answer;
/** The party the succeeded scenario's request names as its customer (made with the SDK's POST /v2/parties). */
let customerParty: Answer;
let ids: {
  shipment: string;
  railShipment: string;
  container: string;
  railContainer: string;
  containerNumber: string;
  bl: string;
  trackingRequest: string;
  pol: string;
  pod: string;
  podTerminal: string;
  vesselImo: string;
  vesselId: string;
  notification: string;
};

/** SDK defaults (§1.6), commas encoded as the SDK encodes them. */
const SDK_SHIPMENT_INCLUDE = 'containers%2Cpod_terminal%2Cport_of_lading%2Cport_of_discharge%2Cdestination%2Cdestination_terminal';
const SDK_CONTAINER_INCLUDE = 'shipment%2Cpod_terminal%2Cpickup_facility';
const writeLinks = S.stringLinks.optional();

beforeAll(async () => {
  receiver = await startReceiver();
  world = await sandboxWorld({
    accounts: 1,
    scenarios: (e) => e.scenario === 'succeeded' || e.scenario === 'rail',
    env: {
      // The webhooks and the trigger point at a loopback receiver; the reference's header is sent too.
      TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: '1',
      TIDEMARK_WEBHOOKS_REFERENCE_HEADER: 'on',
      TIDEMARK_WEBHOOKS_EGRESS_IPS: '203.0.113.7',
    },
    beforeTracking: async (t, a) => {
      const sdk = client(t, a.auth);
      // The reference requires only url; its clients omit events (§2.4).
      firstWebhook = await sdk('POST', '/v2/webhooks', {
        body: { data: { type: 'webhook', attributes: { url: receiver.url, active: true } } },
      });
      customerParty = await sdk('POST', '/v2/parties', { body: { data: { type: 'party', attributes: { company_name: 'Acme Imports' } } } });
      return (e) => (e.scenario === 'succeeded' && customerParty.status === 201 ? customerParty.json.data.id : null);
    },
  });
  A = world.accounts[0]!;
  call = client(world.t, A.auth);
  // Eight days on: the rail box is on the train, the direct sailing still at sea (its vessel has a position ahead of it).
  await world.walk(8);
  await world.t.services.vessels.gatherPositions();
  const shipment = await shipmentOf(world, A, 'succeeded');
  const railShipment = await shipmentOf(world, A, 'rail');
  const db = world.t.database.db;
  const box = async (s: string) =>
    (
      await db.query<{ id: string; number: string }>('SELECT id, number FROM containers WHERE shipment_id = $1 ORDER BY number LIMIT 1', [
        s,
      ])
    )[0]!;
  const got = (await call('GET', `/v2/shipments/${shipment}`)).json.data;
  const [notification] = await db.query<{ id: string }>(
    'SELECT id FROM webhook_notifications WHERE account_id = $1 ORDER BY created_at LIMIT 1',
    [A.account.id],
  );
  ids = {
    shipment,
    railShipment,
    container: (await box(shipment)).id,
    containerNumber: (await box(shipment)).number,
    railContainer: (await box(railShipment)).id,
    bl: got.attributes.bill_of_lading_number,
    trackingRequest: A.requests.get('succeeded')!,
    pol: got.relationships.port_of_lading.data.id,
    pod: got.relationships.port_of_discharge.data.id,
    podTerminal: got.relationships.pod_terminal.data.id,
    vesselImo: got.attributes.pod_vessel_imo,
    vesselId: '',
    notification: notification!.id,
  };
  ids.vesselId = (await call('GET', `/v2/vessels/${ids.vesselImo}`)).json.data.id;
}, 120_000);

afterAll(async () => {
  await world?.close();
  await receiver?.close();
});

describe('shipments', () => {
  it('get-shipments: the SDK list (raw brackets, its default include with %2C), paged by links.next', async () => {
    ops.op('get-shipments');
    const url = `/v2/shipments?page[number]=1&page[size]=1&include=${SDK_SHIPMENT_INCLUDE}`;
    const res = await call('GET', url);
    expectAnswer(res, 200, S.list(S.shipment, 'sizeTotal'), url);
    expect(res.json.meta).toMatchObject({ size: 1, total: 2 });
    // The SDK's iterate() goes on while the page is not empty and links.next exists.
    expect(res.json.links.next).toMatch(/page\[number\]=2/);
    const types = new Set((res.json.included ?? []).map((r: { type: string }) => r.type));
    expect([...types]).toEqual(expect.arrayContaining(['container', 'port', 'terminal']));
  });

  it('get-shipments: the MCP list_shipments filters (number, filter[tracking_stopped]) and the deprecated q', async () => {
    ops.op('get-shipments');
    for (const [url, count] of [
      [`/v2/shipments?number=${ids.bl}&filter[tracking_stopped]=false&page[number]=1&page[size]=25`, 1],
      [`/v2/shipments?filter%5Btracking_stopped%5D=true`, 0],
      [`/v2/shipments?q=${ids.containerNumber}`, 1],
      [`/v2/shipments?filter[customer_id]=${customerParty.json.data.id}`, 1],
    ] as const) {
      const res = await call('GET', url);
      expectAnswer(res, 200, S.list(S.shipment, 'sizeTotal'), url);
      expect(res.json.data.length, url).toBe(count);
    }
  });

  it("get-shipments: a wrong date filter is the reference's 422 with the top-level `error` key", async () => {
    ops.op('get-shipments');
    const res = await call('GET', '/v2/shipments?arrival_from=2026-02-30');
    expectAnswer(res, 422, S.shipmentFilterErrors, 'arrival_from=2026-02-30');
    expect(res.json.error[0].title).toBe('Invalid arrival_date_from');
  });

  it('get-shipment-id: the SDK get with its default include; links.self absolute, echoing the request', async () => {
    ops.op('get-shipment-id');
    const url = `/v2/shipments/${ids.shipment}?include=${SDK_SHIPMENT_INCLUDE}`;
    const res = await call('GET', url);
    expectAnswer(res, 200, S.single(S.shipment), url);
    expect(res.json.links.self).toMatch(new RegExp(`/v2/shipments/${ids.shipment}\\?include=containers(%2C|,)pod_terminal`));
    // The MCP get_shipment_details without containers.
    const bare = `/v2/shipments/${ids.shipment}?include=pod_terminal,port_of_lading,port_of_discharge`;
    expectAnswer(await call('GET', bare), 200, S.single(S.shipment), bare);
  });

  it('patch-shipments-id: ref_numbers and tags as lists (SDK), and one string (the CLI --attr ref_numbers=X)', async () => {
    ops.op('patch-shipments-id');
    const url = `/v2/shipments/${ids.shipment}`;
    let res = await call('PATCH', url, {
      body: { data: { type: 'shipment', id: ids.shipment, attributes: { ref_numbers: ['PO-1', 'PO-2'], tags: ['hot'] } } },
    });
    expectAnswer(res, 200, S.single(S.shipment, writeLinks), `PATCH ${url}`);
    expect(res.json.data.attributes).toMatchObject({ ref_numbers: ['PO-1', 'PO-2'], tags: ['hot'] });
    res = await call('PATCH', url, { body: { data: { type: 'shipment', attributes: { ref_numbers: 'PO-CLI' } } } });
    expectAnswer(res, 200, S.single(S.shipment, writeLinks), `PATCH ${url} (string ref_numbers)`);
    expect(res.json.data.attributes.ref_numbers).toEqual(['PO-CLI']);
  });

  it('patch-shipments-id-stop-tracking and -resume-tracking: with the SDK body {data:{type,id}} and with none', async () => {
    ops.op('patch-shipments-id-stop-tracking');
    ops.op('patch-shipments-id-resume-tracking');
    const base = `/v2/shipments/${ids.railShipment}`;
    let res = await call('PATCH', `${base}/stop_tracking`, { body: { data: { type: 'shipment', id: ids.railShipment } } });
    expectAnswer(res, 200, S.single(S.shipment, writeLinks), 'stop_tracking (SDK body)');
    expect(res.json.data.attributes.line_tracking_stopped_reason).toBe('cancelled_by_user');
    expect(res.json.data.attributes.line_tracking_stopped_at).not.toBeNull();
    res = await call('PATCH', `${base}/resume_tracking`);
    expectAnswer(res, 200, S.single(S.shipment, writeLinks), 'resume_tracking (no body)');
    expect(res.json.data.attributes.line_tracking_stopped_at).toBeNull();
    res = await call('PATCH', `${base}/stop_tracking`);
    expectAnswer(res, 200, S.single(S.shipment, writeLinks), 'stop_tracking (no body)');
    res = await call('PATCH', `${base}/resume_tracking`, { body: { data: { type: 'shipment', id: ids.railShipment } } });
    expectAnswer(res, 200, S.single(S.shipment, writeLinks), 'resume_tracking (SDK body)');
  });
});

describe('tracking requests', () => {
  const created = S.single(S.trackingRequest, writeLinks);

  /** The answer to the SDK create with a customer (the first test below). */
  let sdkCreate: Answer;

  it('post-track: the SDK create with a customer; 201 pending, tracked_object null', async () => {
    ops.op('post-track');
    sdkCreate = await call('POST', '/v2/tracking_requests', {
      body: {
        data: {
          type: 'tracking_request',
          attributes: {
            request_type: 'bill_of_lading',
            request_number: 'MEDU240200002',
            scac: 'MSCU',
            ref_numbers: ['REF-1'],
            shipment_tags: ['sdk'],
          },
          relationships: { customer: { data: { id: customerParty.json.data.id, type: 'party' } } },
        },
      },
    });
    const res = sdkCreate;
    expectAnswer(res, 201, created, 'POST /v2/tracking_requests');
    expect(res.json.data.attributes.status).toBe('pending');
    expect(res.json.data.relationships.tracked_object).toEqual({ data: null });
    expect(res.json.data.relationships.customer.data.id).toBe(customerParty.json.data.id);
  });

  it("post-track: the 201 includes the account and the shipping line, as the reference's does (§2.2)", () => {
    ops.op('post-track');
    const types = (sdkCreate.json.included ?? []).map((r: { type: string }) => r.type).sort();
    expect(types).toEqual(['account', 'shipping_line']);
  });

  it('post-track: auto-detect without scac, the CLI string ref_numbers and shipment_tags, a vnd.api+json body with an Idempotency-Key', async () => {
    ops.op('post-track');
    let res = await call('POST', '/v2/tracking_requests', {
      body: {
        data: {
          type: 'tracking_request',
          attributes: { request_type: 'bill_of_lading', request_number: 'CMDU240300003', auto_detect_vocc_scac: true },
        },
      },
    });
    expectAnswer(res, 201, created, 'auto_detect_vocc_scac without scac');
    res = await call('POST', '/v2/tracking_requests', {
      body: {
        data: {
          type: 'tracking_request',
          attributes: {
            request_type: 'bill_of_lading',
            request_number: 'ONEY240500005',
            scac: 'ONEY',
            ref_numbers: 'PO-CLI',
            shipment_tags: 'cli',
          },
        },
      },
    });
    expectAnswer(res, 201, created, 'ref_numbers as one string (CLI)');
    expect(res.json.data.attributes).toMatchObject({ ref_numbers: ['PO-CLI'], shipment_tags: ['cli'] });
    // The SDK retries a write only when it carries an Idempotency-Key (§1.2).
    res = await call('POST', '/v2/tracking_requests', {
      headers: { 'content-type': 'application/vnd.api+json; charset=utf-8', 'idempotency-key': 'compat-1' },
      body: {
        data: { type: 'tracking_request', attributes: { request_type: 'bill_of_lading', request_number: 'COSU240600006', scac: 'COSU' } },
      },
    });
    expectAnswer(res, 201, created, 'Content-Type: application/vnd.api+json, with an Idempotency-Key');
  });

  it('post-track: the SDK\'s "scac": "" without auto-detect is the reference\'s 422 blank, pointed at scac', async () => {
    ops.op('post-track');
    const res = await call('POST', '/v2/tracking_requests', {
      body: {
        data: { type: 'tracking_request', attributes: { request_type: 'bill_of_lading', request_number: 'OOLU240700007', scac: '' } },
      },
    });
    expectAnswer(res, 422, S.pointedErrors(), 'scac ""');
    expect(res.json.errors).toContainEqual(
      expect.objectContaining({ code: 'blank', source: expect.objectContaining({ pointer: '/data/attributes/scac' }) }),
    );
  });

  it('get-tracking-requests: the reference filters and q, raw and encoded, and the MCP filter[request_type]', async () => {
    ops.op('get-tracking-requests');
    for (const url of [
      '/v2/tracking_requests?page[number]=1&page[size]=25',
      '/v2/tracking_requests?filter[status]=created&filter[request_type]=bill_of_lading&page[number]=1&page[size]=25',
      // Clients may send `succeeded` for created (§3).
      '/v2/tracking_requests?filter%5Bstatus%5D=succeeded',
      `/v2/tracking_requests?filter[request_number]=${ids.bl}&filter[scac]=MAEU`,
      '/v2/tracking_requests?filter[created_at][start]=2026-01-01T00:00:00Z&filter[created_at][end]=2027-01-01T00:00:00Z',
      '/v2/tracking_requests?filter%5Bupdated_at%5D%5Bstart%5D=2026-01-01T00%3A00%3A00Z&filter%5Bupdated_at%5D%5Bend%5D=2027-01-01T00%3A00%3A00Z',
      `/v2/tracking_requests?q=${ids.bl}&include=tracked_object`,
    ]) {
      const res = await call('GET', url);
      expectAnswer(res, 200, S.list(S.trackingRequest, 'paginated'), url);
      expect(res.json.data.length, `${url}: nothing found`).toBeGreaterThan(0);
    }
  });

  it('post-infer-number: plain JSON {number} for a container and a bill of lading', async () => {
    ops.op('post-infer-number');
    for (const number of ['MSKU9070323', ids.bl]) {
      const res = await call('POST', '/v2/tracking_requests/infer_number', { body: { number } });
      expectAnswer(res, 200, S.inferNumberResult, `infer_number ${number}`);
    }
    const res = await call('POST', '/v2/tracking_requests/infer_number', { body: { number: '--//--' } });
    expectAnswer(res, 422, S.errorEnvelope(422), 'infer_number of a number that is none');
    expect(res.json.errors[0].detail).toBe('This reference number is not valid.');
  });

  it('get-track-request-by-id: tracked_object included by default and on request', async () => {
    ops.op('get-track-request-by-id');
    for (const url of [
      `/v2/tracking_requests/${ids.trackingRequest}`,
      `/v2/tracking_requests/${ids.trackingRequest}?include=tracked_object,customer`,
    ]) {
      const res = await call('GET', url);
      expectAnswer(res, 200, S.single(S.trackingRequest), url);
      expect(
        res.json.included?.some((r: { type: string }) => r.type === 'shipment'),
        url,
      ).toBe(true);
    }
  });

  it("patch-track-request-by-id: the schema's singular ref_number, without a type", async () => {
    ops.op('patch-track-request-by-id');
    const url = `/v2/tracking_requests/${ids.trackingRequest}`;
    const res = await call('PATCH', url, { body: { data: { attributes: { ref_number: 'REF-PATCHED' } } } });
    expectAnswer(res, 200, S.single(S.trackingRequest, writeLinks), `PATCH ${url}`);
    expect(res.json.data.attributes.ref_numbers).toContain('REF-PATCHED');
  });
});

describe('containers', () => {
  it('get-containers: the SDK list with its default include, and the lookup by number', async () => {
    ops.op('get-containers');
    let url = `/v2/containers?page[number]=1&page[size]=30&include=${SDK_CONTAINER_INCLUDE}`;
    let res = await call('GET', url);
    expectAnswer(res, 200, S.list(S.container, 'total'), url);
    expect(res.json.meta.total).toBe(2);
    url = `/v2/containers?filter[number]=${ids.containerNumber}&include=shipment`;
    res = await call('GET', url);
    expectAnswer(res, 200, S.list(S.container, 'total'), url);
    expect(res.json.data.map((c: { id: string }) => c.id)).toEqual([ids.container]);
    url = `/v2/containers?filter%5Bcustomer_id%5D=${customerParty.json.data.id}&page%5Bsize%5D=1`;
    expectAnswer(await call('GET', url), 200, S.list(S.container, 'total'), url);
  });

  it("patch-containers-id: the schema's id-less PATCH /containers naming the box in data.id, and PATCH /containers/{id}", async () => {
    ops.op('patch-containers-id');
    let res = await call('PATCH', '/v2/containers', {
      body: { data: { type: 'container', id: ids.container, attributes: { ref_numbers: ['BOX-1'] } } },
    });
    expectAnswer(res, 200, S.single(S.container, writeLinks), 'PATCH /v2/containers');
    expect(res.json.data.attributes.ref_numbers).toEqual(['BOX-1']);
    res = await call('PATCH', `/v2/containers/${ids.container}`, {
      body: { data: { type: 'container', attributes: { ref_numbers: ['BOX-2'] } } },
    });
    expectAnswer(res, 200, S.single(S.container, writeLinks), 'PATCH /v2/containers/{id}');
    expect(res.json.data.attributes.ref_numbers).toEqual(['BOX-2']);
    // The CLI's --attr ref_numbers=X: one string.
    res = await call('PATCH', `/v2/containers/${ids.container}`, {
      body: { data: { type: 'container', attributes: { ref_numbers: 'BOX-CLI' } } },
    });
    expectAnswer(res, 200, S.single(S.container, writeLinks), 'PATCH /v2/containers/{id} (string ref_numbers)');
    expect(res.json.data.attributes.ref_numbers).toEqual(['BOX-CLI']);
  });

  it('get-containers-id: the SDK include, and the MCP get_container include (with transport_events)', async () => {
    ops.op('get-containers-id');
    for (const url of [
      `/v2/containers/${ids.railContainer}?include=${SDK_CONTAINER_INCLUDE}`,
      `/v2/containers/${ids.railContainer}?include=shipment,pod_terminal,transport_events`,
      // The MCP tool's fallback when the events route answers 404.
      `/v2/containers/${ids.container}?include=transport_events`,
    ]) {
      const res = await call('GET', url);
      expectAnswer(res, 200, S.single(S.container), url);
    }
  });

  it('get-containers-id-transport_events: the SDK/MCP include=location,terminal', async () => {
    ops.op('get-containers-id-transport_events');
    const url = `/v2/containers/${ids.railContainer}/transport_events?include=location,terminal`;
    const res = await call('GET', url);
    expectAnswer(res, 200, S.list(S.transportEvent, 'optional'), url);
    expect(res.json.data.length).toBeGreaterThan(3);
    const types = new Set((res.json.included ?? []).map((r: { type: string }) => r.type));
    expect(types.has('port')).toBe(true);
  });

  it('get-containers-id-raw_events: raw events with their places and vessels included', async () => {
    ops.op('get-containers-id-raw_events');
    const url = `/v2/containers/${ids.railContainer}/raw_events`;
    const res = await call('GET', url);
    expectAnswer(res, 200, S.list(S.rawEvent, 'optional', S.stringLinks.optional()), url);
    expect(res.json.data.length).toBeGreaterThan(3);
  });

  it('get-containers-id-map-geojson: a FeatureCollection with the ports of the journey', async () => {
    ops.op('get-containers-id-map-geojson');
    const url = `/v2/containers/${ids.container}/map_geojson`;
    const res = await call('GET', url);
    expectAnswer(res, 200, S.mapGeojson, url);
    const ports = res.json.features.filter((f: { properties: { feature_type: string } }) => f.properties.feature_type === 'port');
    expect(ports.length).toBeGreaterThanOrEqual(2);
    for (const p of ports) expect(problems(S.portFeatureProperties, p.properties)).toEqual([]);
  });

  it('patch-containers-id-refresh: no body; the plain {message}', async () => {
    ops.op('patch-containers-id-refresh');
    const res = await call('PATCH', `/v2/containers/${ids.container}/refresh`);
    expectAnswer(res, 200, S.refreshMessage, 'refresh');
  });

  it('the removed GET /containers/{id}/route the SDK and MCP still call answers JSON, not a page', async () => {
    const res = await call('GET', `/v2/containers/${ids.container}/route?include=port,vessel,route_location`);
    expect([403, 404], res.text).toContain(res.status);
    expect(problems(S.errorEnvelope(res.status), res.json)).toEqual([]);
  });
});

describe('webhooks', () => {
  it('post-webhooks: without events (as the clients send it) → 201, subscribed to every event, with a secret', async () => {
    ops.op('post-webhooks');
    expectAnswer(firstWebhook, 201, S.single(S.webhook, writeLinks), 'POST /v2/webhooks without events');
    expect(firstWebhook.json.data.attributes.events.length).toBeGreaterThan(30);
  });

  it('get-webhooks: percent-encoded page parameters (the SDK builds this call by hand)', async () => {
    ops.op('get-webhooks');
    const url = '/v2/webhooks?page%5Bnumber%5D=1&page%5Bsize%5D=25';
    const res = await call('GET', url);
    expectAnswer(res, 200, S.list(S.webhook, 'optional'), url);
    expect(res.json.data.length).toBe(1);
  });

  it('get-webhooks-id, patch-webhooks-id and delete-webhooks-id (200 with a JSON body the SDK parses)', async () => {
    ops.op('get-webhooks-id');
    ops.op('patch-webhooks-id');
    ops.op('delete-webhooks-id');
    const made = await call('POST', '/v2/webhooks', {
      body: { data: { type: 'webhook', attributes: { url: receiver.url, events: ['container.transport.vessel_arrived'], active: true } } },
    });
    expectAnswer(made, 201, S.single(S.webhook, writeLinks), 'POST /v2/webhooks with events');
    const id = made.json.data.id;
    expectAnswer(await call('GET', `/v2/webhooks/${id}`), 200, S.single(S.webhook), 'GET /v2/webhooks/{id}');
    const patched = await call('PATCH', `/v2/webhooks/${id}`, {
      body: { data: { type: 'webhook', attributes: { active: false, headers: [{ name: 'X-Env', value: 'test' }] } } },
    });
    expectAnswer(patched, 200, S.single(S.webhook, writeLinks), 'PATCH /v2/webhooks/{id}');
    expect(patched.json.data.attributes).toMatchObject({ active: false, headers: [{ name: 'X-Env', value: 'test' }] });
    expectAnswer(await call('DELETE', `/v2/webhooks/${id}`), 200, S.emptyObject, 'DELETE /v2/webhooks/{id}');
    expectAnswer(await call('GET', `/v2/webhooks/${id}`), 404, S.errorEnvelope(404), 'GET of a deleted webhook');
  });

  it('get-webhooks-events: categories with slug ids', async () => {
    ops.op('get-webhooks-events');
    expectAnswer(await call('GET', '/v2/webhooks/events'), 200, S.webhookEventCategories, 'GET /v2/webhooks/events');
  });

  it("get-webhooks-ips: the plain list, here the operator's TIDEMARK_WEBHOOKS_EGRESS_IPS", async () => {
    ops.op('get-webhooks-ips');
    const res = await call('GET', '/v2/webhooks/ips');
    expectAnswer(res, 200, S.webhookIps, 'GET /v2/webhooks/ips');
    expect(res.json.webhook_notification_ips).toEqual(['203.0.113.7']);
  });

  it('post-webhooks-trigger: the signed sample reaches the receiver with both signature headers (hex HMAC of the body)', async () => {
    ops.op('post-webhooks-trigger');
    const before = receiver.received.length;
    const res = await call('POST', '/v2/webhooks/trigger', {
      body: { url: receiver.url, event: 'container.transport.vessel_arrived', secret: 'receiver-secret' },
    });
    expectAnswer(res, 200, S.triggerResult, 'POST /v2/webhooks/trigger');
    expect(res.json.succeeded).toBe(true);
    const got = receiver.received[before]!;
    const hmac = createHmac('sha256', 'receiver-secret').update(got.body).digest('hex');
    expect(got.headers['x-tidemark-webhook-signature']).toBe(hmac);
    // TIDEMARK_WEBHOOKS_REFERENCE_HEADER=on: the reference's own header, the same value.
    expect(got.headers['x-t49-webhook-signature']).toBe(hmac);
    const missing = await call('POST', '/v2/webhooks/trigger', { body: { event: 'container.transport.vessel_arrived' } });
    expectAnswer(missing, 422, S.errorEnvelope(422), 'trigger without url');
  });
});

describe('webhook notifications', () => {
  it('get-webhook-notifications: include=webhook,reference_object, encoded page size', async () => {
    ops.op('get-webhook-notifications');
    const url = '/v2/webhook_notifications?include=webhook%2Creference_object&page%5Bsize%5D=5';
    const res = await call('GET', url);
    expectAnswer(res, 200, S.list(S.webhookNotification, 'paginated'), url);
    expect(res.json.data.length).toBe(5);
  });

  it('get-webhook-notification-id', async () => {
    ops.op('get-webhook-notification-id');
    const url = `/v2/webhook_notifications/${ids.notification}?include=webhook,reference_object`;
    expectAnswer(await call('GET', url), 200, S.single(S.webhookNotification), url);
  });

  it('get-webhook-notifications-example: a sample per event; 400 on `event` without one', async () => {
    ops.op('get-webhook-notifications-example');
    for (const event of [
      'container.transport.vessel_arrived',
      'tracking_request.succeeded',
      'shipment.estimated.arrival',
      'container.updated',
    ]) {
      const url = `/v2/webhook_notifications/examples?event=${event}`;
      const res = await call('GET', url);
      const data = Array.isArray(res.json?.data) ? z.array(S.webhookNotification).min(1) : S.webhookNotification;
      expectAnswer(res, 200, z.looseObject({ data, included: z.array(z.unknown()).optional() }), url);
      expect(problems(S.single(data, S.stringLinks.optional()), res.json), url).toEqual([]);
    }
    const res = await call('GET', '/v2/webhook_notifications/examples');
    expectAnswer(res, 400, S.errorEnvelope(400), 'examples without event');
    expect(res.json.errors[0].source?.parameter).toBe('event');
  });
});

describe('reference data', () => {
  it('get-shipping_lines: with the search the SDK sends; get-shipping_lines-id', async () => {
    ops.op('get-shipping_lines');
    ops.op('get-shipping_lines-id');
    let res = await call('GET', '/v2/shipping_lines?search=maersk');
    expectAnswer(res, 200, S.list(S.shippingLine, 'optional'), 'GET /v2/shipping_lines?search=maersk');
    res = await call('GET', '/v2/shipping_lines?page[size]=100');
    expectAnswer(res, 200, S.list(S.shippingLine, 'optional'), 'GET /v2/shipping_lines');
    const maeu = res.json.data.find((l: { attributes: { scac: string } }) => l.attributes.scac === 'MAEU');
    expectAnswer(await call('GET', `/v2/shipping_lines/${maeu.id}`), 200, S.single(S.shippingLine), 'GET /v2/shipping_lines/{id}');
  });

  it('get-port-id and get-metro-area-id: by UUID and by UN/LOCODE, the self link echoing the key used', async () => {
    ops.op('get-port-id');
    ops.op('get-metro-area-id');
    let res = await call('GET', '/v2/ports/USLAX?include=terminals');
    expectAnswer(res, 200, S.single(S.port), 'GET /v2/ports/USLAX');
    expect(res.json.links.self).toMatch(/\/v2\/ports\/USLAX/);
    expectAnswer(await call('GET', `/v2/ports/${ids.pod}`), 200, S.single(S.port), 'GET /v2/ports/{uuid}');
    res = await call('GET', '/v2/metro_areas/USCHI');
    expectAnswer(res, 200, S.single(S.metroArea), 'GET /v2/metro_areas/USCHI');
    expect(res.json.links.self).toMatch(/\/v2\/metro_areas\/USCHI$/);
    expectAnswer(await call('GET', `/v2/metro_areas/${res.json.data.id}`), 200, S.single(S.metroArea), 'GET /v2/metro_areas/{uuid}');
  });

  it('get-terminal-id', async () => {
    ops.op('get-terminal-id');
    expectAnswer(await call('GET', `/v2/terminals/${ids.podTerminal}`), 200, S.single(S.terminal), 'GET /v2/terminals/{id}');
  });

  it('get-vessels-id and get-vessels-imo: show_positions percent-encoded (hand-built SDK call); the self link echoes the IMO', async () => {
    ops.op('get-vessels-id');
    ops.op('get-vessels-imo');
    const url = `/v2/vessels/${ids.vesselId}?show_positions%5Bfrom_timestamp%5D=2026-02-20T00%3A00%3A00Z&show_positions%5Bto_timestamp%5D=2026-03-09T12%3A00%3A00Z`;
    let res = await call('GET', url);
    expectAnswer(res, 200, S.single(S.vessel), url);
    expect(res.json.data.attributes.positions?.length, 'positions asked for').toBeGreaterThan(0);
    res = await call('GET', `/v2/vessels/${ids.vesselImo}`);
    expectAnswer(res, 200, S.single(S.vessel), 'GET /v2/vessels/{imo}');
    expect(res.json.links.self).toMatch(new RegExp(`/v2/vessels/${ids.vesselImo}$`));
  });

  it('get-vessels-id-future-positions and -with-coordinates: estimated positions to the POD', async () => {
    ops.op('get-vessels-id-future-positions');
    ops.op('get-vessels-id-future-positions-with-coordinates');
    const base = `/v2/vessels/${ids.vesselId}`;
    let url = `${base}/future_positions?port_id=${ids.pod}&previous_port_id=${ids.pol}`;
    expectAnswer(await call('GET', url), 200, S.single(S.vesselWithFuturePositions), url);
    url = `${base}/future_positions_with_coordinates?port_id=${ids.pod}&previous_port_id=${ids.pol}&latitude=30.5&longitude=-140.25`;
    const res = await call('GET', url);
    expectAnswer(res, 200, S.single(S.vesselWithFuturePositions), url);
    // Exactly one minute apart (§2.6).
    const times = res.json.data.attributes.positions.slice(0, 3).map((p: { timestamp: string }) => Date.parse(p.timestamp));
    expect(times[1] - times[0]).toBe(60_000);
  });

  it("the SDK's future-position calls without port_id get a JSON 4xx, not a page", async () => {
    const res = await call('GET', `/v2/vessels/${ids.vesselId}/future_positions`);
    expect(res.status === 200 || (res.status >= 400 && res.status < 500), res.text).toBe(true);
    if (res.status !== 200) expect(problems(S.errorEnvelope(res.status), res.json)).toEqual([]);
  });
});

describe('parties', () => {
  it('post-party: 201 with links.self; without the optional type too; a duplicate is a 422 pointed at the body', async () => {
    ops.op('post-party');
    expectAnswer(customerParty, 201, S.single(S.party, writeLinks), 'POST /v2/parties');
    const res = await call('POST', '/v2/parties', { body: { data: { attributes: { company_name: 'Globex' } } } });
    expectAnswer(res, 201, S.single(S.party, writeLinks), 'POST /v2/parties without type');
    const dup = await call('POST', '/v2/parties', { body: { data: { type: 'party', attributes: { company_name: 'Acme Imports' } } } });
    expectAnswer(dup, 422, S.pointedErrors(), 'a duplicate party');
    const blank = await call('POST', '/v2/parties', { body: { data: { type: 'party', attributes: { company_name: '' } } } });
    expectAnswer(blank, 422, S.pointedErrors(), 'a blank company_name');
    expect(blank.json.errors[0].source.pointer).toBe('/data/attributes/company_name');
  });

  it('list-parties (percent-encoded page, as the SDK sends it), get-parties-id, edit-party', async () => {
    ops.op('list-parties');
    ops.op('get-parties-id');
    ops.op('edit-party');
    const url = '/v2/parties?page%5Bnumber%5D=1&page%5Bsize%5D=1';
    const res = await call('GET', url);
    expectAnswer(res, 200, S.list(S.party, 'paginated'), url);
    expect(res.json.links.next).toBeDefined();
    const id = customerParty.json.data.id;
    expectAnswer(await call('GET', `/v2/parties/${id}`), 200, S.single(S.party), 'GET /v2/parties/{id}');
    const patched = await call('PATCH', `/v2/parties/${id}`, {
      body: { data: { type: 'party', attributes: { company_name: 'Acme Imports Ltd' } } },
    });
    expectAnswer(patched, 200, S.single(S.party, writeLinks), 'PATCH /v2/parties/{id}');
    expect(patched.json.data.attributes.company_name).toBe('Acme Imports Ltd');
  });
});

describe('search', () => {
  it('searchAll: by bill of lading and by container number; 400 without query', async () => {
    ops.op('searchAll');
    for (const query of [ids.bl, ids.containerNumber]) {
      const url = `/v2/search?query=${query}`;
      const res = await call('GET', url);
      expectAnswer(res, 200, S.list(S.searchResult, 'none', S.selfCurrentLinks), url);
      expect(res.json.data.length, url).toBeGreaterThan(0);
    }
    const res = await call('GET', '/v2/search');
    expectAnswer(res, 400, S.errorEnvelope(400), 'search without query');
  });
});

describe('what every request shares (api-wire-notes §1, §6)', () => {
  it('no key is a 401 with a JSON:API body; a wrong one too', async () => {
    expectAnswer(await call('GET', '/v2/shipments', { auth: null }), 401, S.errorEnvelope(401), 'no key');
    expectAnswer(await call('GET', '/v2/shipments', { auth: { authorization: 'Token nope' } }), 401, S.errorEnvelope(401), 'a wrong key');
  });

  it('the key as Bearer (passed through by the SDK) and the x-account-id the SDK may add are accepted', async () => {
    const key = A.auth.authorization.replace(/^Token /, '');
    const res = await call('GET', '/v2/shipments?page[size]=1', {
      auth: { authorization: `Bearer ${key}` },
      headers: { 'x-account-id': A.account.id },
    });
    expectAnswer(res, 200, S.list(S.shipment, 'sizeTotal'), 'Bearer key with x-account-id');
  });

  it('an unknown id is the JSON 404 {status: "404", title: "Not Found"}; an unknown include a 400 on include', async () => {
    const res = await call('GET', '/v2/shipments/00000000-0000-4000-8000-000000000000');
    expectAnswer(res, 404, S.errorEnvelope(404), 'unknown shipment');
    expect(res.json.errors[0]).toMatchObject({ status: '404', title: 'Not Found' });
    const bad = await call('GET', `/v2/shipments/${ids.shipment}?include=nothing`);
    expectAnswer(bad, 400, S.errorEnvelope(400), 'unknown include');
    expect(bad.json.errors[0].source.parameter).toBe('include');
  });

  it('a list asked for more than 100 a page gets at most 100 (the SDK and MCP clamp to 100)', async () => {
    const res = await call('GET', '/v2/shipping_lines?page[size]=500');
    expectAnswer(res, 200, S.list(S.shippingLine, 'optional'), 'page[size]=500');
    expect(res.json.data.length).toBeLessThanOrEqual(100);
  });
});

describe('the hand-written schemas', () => {
  it('refuse what a client of the reference trips over (each change to a real answer is caught)', async () => {
    const res = await call('GET', `/v2/shipments?page[size]=1&include=${SDK_SHIPMENT_INCLUDE}`);
    const schema = S.list(S.shipment, 'sizeTotal');
    expect(problems(schema, res.json)).toEqual([]);
    // biome-ignore lint/suspicious/noExplicitAny: documents changed by hand
    const changed = (change: (doc: any) => void) => {
      const doc = structuredClone(res.json);
      change(doc);
      return problems(schema, doc);
    };
    // biome-ignore lint/suspicious/noExplicitAny: documents changed by hand
    const cases: [string, (doc: any) => void][] = [
      ['a null link (the MCP tools validate links as strings)', (d) => (d.links.prev = null)],
      ['a relationship left out', (d) => delete d.data[0].relationships.containers],
      ['an IMO as a number', (d) => (d.data[0].attributes.pod_vessel_imo = 9301809)],
      ['a timestamp with milliseconds', (d) => (d.data[0].attributes.created_at = '2026-03-01T12:00:00.500Z')],
      ['an absolute resource self link', (d) => (d.data[0].links.self = `http://x/v2/shipments/${d.data[0].id}`)],
      ['meta without total', (d) => delete d.meta.total],
      ['a stopped reason the reference does not have', (d) => (d.data[0].attributes.line_tracking_stopped_reason = 'bored')],
      [
        'an included port with numeric coordinates',
        (d) => (d.included.find((r: { type: string }) => r.type === 'port').attributes.latitude = 33.7),
      ],
      [
        'an included container whose height says `high cube`',
        (d) => (d.included.find((r: { type: string }) => r.type === 'container').attributes.equipment_height = 'high cube'),
      ],
    ];
    for (const [what, change] of cases) expect(changed(change), what).not.toEqual([]);
  });
});

describe('coverage', () => {
  it('every served operation outside custom fields got a request here', () => {
    expect(ops.missing()).toEqual([]);
  });
});
