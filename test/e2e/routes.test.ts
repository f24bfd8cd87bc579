// Every /v2 route through the shared route suite (test/kit/route-suite.ts): authentication, tenant isolation
// or the same answer for every account, unknown and malformed ids, paging, and the JSON:API document rules.
// A route the app serves without an entry here fails the last test, so a new route cannot skip the suite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedResponses } from '../kit/openapi.js';
import { locationRef } from '../../src/render/places.js';
import { vesselId } from '../../src/services/vessels.js';
import { type Receiver, startReceiver } from '../kit/receiver.js';
import { expectNotFound, type RouteSpec, routeKey, routeSuite, type SuiteContext, send } from '../kit/route-suite.js';
import { type SandboxWorld, sandboxWorld } from '../kit/sandbox-world.js';

interface Fx extends SuiteContext {
  world: SandboxWorld;
  /** The owner's records. */
  shipment: string;
  bl: string;
  container: string;
  trackingRequest: string;
  party: string;
  partyRole: string;
  /** A new party role of the owner (for routes that consume one). */
  freshPartyRole(): Promise<string>;
  /** The owner's webhook, one of its notifications, and a new webhook (for routes that consume one). */
  webhook: string;
  notification: string;
  freshWebhook(): Promise<string>;
  /** A new API key of the owner (for the revoke route, which consumes one). */
  freshApiKey(): Promise<string>;
  /** A receiver on loopback: webhooks and trigger point at it (TIDEMARK_WEBHOOKS_ALLOW_PRIVATE is on). */
  receiver: Receiver;
  /** Reference data the owner's shipment points at. */
  port: string;
  terminal: string;
  vessel: string;
  /** Where the vessel was last seen (AIS asked once in the fixture), a start for its future positions. */
  vesselAt: { lat: number; lon: number };
  metroArea: string;
  shippingLine: string;
  /** The owner's custom fields: a short_text and an enum Shipment definition, an option, a value; fresh ones to consume. */
  cf: {
    text: string;
    enum: string;
    option: string;
    field: string;
    /** The records the owner's Container and TrackingRequest values are on. */
    container: string;
    request: string;
    freshDefinition(): Promise<string>;
    freshOption(): Promise<string>;
    freshField(): Promise<string>;
    /** Sets the owner's value of `slug` on a record again (for the per-entity routes that consume it), answers the id. */
    setAgain(path: string, slug: string, id: string): Promise<string>;
  };
}

let fx: Fx;
let receiver: Receiver | undefined;
const fixture = () => fx;
let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;

/** Two scenarios, tracked by both accounts: two shipments each, several containers with their history. */
const SCENARIOS = ['succeeded', 'multi_container'];

/**
 * Events the webhooks the suite itself creates subscribe to: nothing in the suite commits one, so the
 * notification lists keep the fixture's count.
 */
const QUIET_EVENTS = ['document.extracted'];

beforeAll(async () => {
  const hooks = await startReceiver();
  receiver = hooks;
  const world = await sandboxWorld({
    accounts: 2,
    scenarios: (e) => SCENARIOS.includes(e.scenario),
    // Webhooks and trigger may reach the loopback receiver (no delivery worker runs: nothing is delivered).
    env: { TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: '1' },
    // Two parties each (the parties list pages); the succeeded request names the first as its customer. Two
    // webhooks each (the webhooks list pages), subscribed before tracking so the tracking makes notifications.
    beforeTracking: async (t, a) => {
      const acme = await t.services.parties.create(a.account.id, 'Acme Imports');
      await t.services.parties.create(a.account.id, 'Globex');
      for (const events of [['tracking_request.succeeded', 'container.created'], ['tracking_request.succeeded']]) {
        const res = await send(t, 'POST', '/v2/webhooks', a.auth, { data: { type: 'webhook', attributes: { url: hooks.url, events } } });
        if (res.status !== 201) throw new Error(`POST /v2/webhooks answered ${res.status}: ${res.text}`);
      }
      return (e) => (e.scenario === 'succeeded' ? acme.id : null);
    },
  });
  const { t } = world;
  const [owner, other] = world.accounts as [SandboxWorld['accounts'][0], SandboxWorld['accounts'][0]];
  const db = t.database.db;
  const [tr] = await db.query<{ id: string; shipment_id: string; customer_id: string }>(
    'SELECT id, shipment_id, customer_id FROM tracking_requests WHERE id = $1',
    [owner.requests.get('succeeded')],
  );
  if (!tr?.shipment_id) throw new Error('the succeeded scenario made no shipment');
  // The owner's container with the most transport events, so that its events page.
  const [container] = await db.query<{ id: string }>(
    `SELECT c.id FROM containers c LEFT JOIN transport_events e ON e.container_id = c.id
      WHERE c.account_id = $1 GROUP BY c.id ORDER BY count(e.id) DESC, c.id LIMIT 1`,
    [owner.account.id],
  );
  const shipment = (await send(t, 'GET', `/v2/shipments/${tr.shipment_id}`, owner.auth)).json.data;
  const rel = (name: string) => shipment.relationships[name]?.data as { id: string; type: string } | null;
  const places = t.services.places;
  const pod = shipment.attributes.port_of_discharge_locode as string;
  const terminal = rel('pod_terminal')?.type === 'terminal' ? rel('pod_terminal')!.id : places.port(pod).terminalIds[0];
  const lines = (await send(t, 'GET', '/v2/shipping_lines', owner.auth)).json.data as { id: string; attributes: { scac: string } }[];
  const freshPartyRole = async () =>
    (
      await t.services.partyRoles.create(owner.account.id, {
        role: unique('role'),
        partyId: tr.customer_id,
        shipmentId: tr.shipment_id,
        containerId: null,
      })
    ).id;
  const [webhook] = await db.query<{ id: string }>('SELECT id FROM webhooks WHERE account_id = $1 ORDER BY created_at, id LIMIT 1', [
    owner.account.id,
  ]);
  const notifications = await db.query<{ id: string }>('SELECT id FROM webhook_notifications WHERE account_id = $1 AND webhook_id = $2', [
    owner.account.id,
    webhook!.id,
  ]);
  // The notifications list pages through them: at least two, one page of 100 for all.
  if (notifications.length < 2 || notifications.length > 60) throw new Error(`the owner has ${notifications.length} notifications`);
  const freshWebhook = async () => (await t.services.webhooks.create(owner.account, { url: hooks.url, events: QUIET_EVENTS })).id;
  // AIS asked once, as the workers' sweep does: the vessels carrying the tracked shipments get positions.
  await t.services.vessels.gatherPositions();
  const located = await t.services.vessels.get(shipment.attributes.pod_vessel_imo);
  if (located.latitude === null || located.longitude === null) throw new Error('the AIS sweep did not locate the POD vessel');
  const freshApiKey = async () => (await t.services.accounts.issueKey(db, owner.account.id, unique('key'))).key.id;
  // Custom fields of both accounts: definitions of each entity type, an enum's options, values on each record.
  const cfs = t.services.customFields;
  const customFieldsOf = async (accountId: string, shipmentId: string | null) => {
    const [ship] = await db.query<{ id: string; container: string; request: string }>(
      `SELECT s.id, (SELECT c.id FROM containers c WHERE c.shipment_id = s.id ORDER BY c.id LIMIT 1) AS container,
              (SELECT r.id FROM tracking_requests r WHERE r.shipment_id = s.id LIMIT 1) AS request
         FROM shipments s WHERE s.account_id = $1 AND ($2::uuid IS NULL OR s.id = $2) ORDER BY s.created_at, s.id LIMIT 1`,
      [accountId, shipmentId],
    );
    const def = (entity_type: string, api_slug: string, data_type: string) =>
      cfs.createDefinition(accountId, { entity_type, api_slug, display_name: api_slug, data_type });
    const text = await def('Shipment', 'suite_text', 'short_text');
    const enumDef = await def('Shipment', 'suite_enum', 'enum');
    const option = await cfs.createOption(accountId, enumDef.id, { label: 'One', value: 'one' });
    await cfs.createOption(accountId, enumDef.id, { label: 'Two', value: 'two' });
    await def('Container', 'suite_seal', 'short_text');
    await def('TrackingRequest', 'suite_note', 'short_text');
    const field = await cfs.set(accountId, { type: 'shipment', id: ship!.id }, 'suite_text', 'PO-1');
    await cfs.set(accountId, { type: 'shipment', id: ship!.id }, 'suite_enum', 'two');
    await cfs.set(accountId, { type: 'container', id: ship!.container }, 'suite_seal', 'S-1');
    await cfs.set(accountId, { type: 'tracking_request', id: ship!.request }, 'suite_note', 'N-1');
    return {
      text: text.id,
      enum: enumDef.id,
      option: option.id,
      field: field.id,
      shipment: ship!.id,
      container: ship!.container,
      request: ship!.request,
    };
  };
  const ownerCf = await customFieldsOf(owner.account.id, tr.shipment_id);
  await customFieldsOf(other.account.id, null);
  const ownerId = owner.account.id;
  const cf: Fx['cf'] = {
    ...ownerCf,
    freshDefinition: async () =>
      (
        await cfs.createDefinition(ownerId, {
          entity_type: 'Container',
          api_slug: unique('fresh').replace('-', '_'),
          display_name: 'Fresh',
          data_type: 'boolean',
        })
      ).id,
    freshOption: async () => (await cfs.createOption(ownerId, ownerCf.enum, { label: 'Fresh', value: unique('fresh') })).id,
    freshField: async () => (await cfs.set(ownerId, { type: 'shipment', id: tr.shipment_id }, 'suite_text', unique('PO'))).id,
    setAgain: async (path, slug, id) => {
      const type = path === 'shipments' ? 'shipment' : path === 'containers' ? 'container' : 'tracking_request';
      await cfs.set(ownerId, { type, id }, slug, unique('again'));
      return id;
    },
  };
  fx = {
    t,
    cf,
    world,
    owner,
    other,
    freshApiKey,
    webhook: webhook!.id,
    notification: notifications[0]!.id,
    freshWebhook,
    receiver: hooks,
    shipment: tr.shipment_id,
    bl: shipment.attributes.bill_of_lading_number,
    container: container!.id,
    trackingRequest: tr.id,
    party: tr.customer_id,
    partyRole: await freshPartyRole(),
    freshPartyRole,
    port: rel('port_of_discharge')!.id,
    terminal: terminal!,
    vessel: vesselId(shipment.attributes.pod_vessel_imo),
    vesselAt: { lat: located.latitude, lon: located.longitude },
    metroArea: locationRef('USCHI', 'metro_area')!.id,
    shippingLine: lines.find((l) => l.attributes.scac === 'MAEU')!.id,
  };
  // The other account has a party role of its own too.
  const [otherShipment] = await db.query<{ id: string }>('SELECT id FROM shipments WHERE account_id = $1 LIMIT 1', [other.account.id]);
  const [otherParty] = await db.query<{ id: string }>('SELECT id FROM parties WHERE account_id = $1 LIMIT 1', [other.account.id]);
  await t.services.partyRoles.create(other.account.id, {
    role: 'shipper',
    partyId: otherParty!.id,
    shipmentId: otherShipment!.id,
    containerId: null,
  });
}, 120_000);

afterAll(async () => {
  await fx?.world.close();
  await receiver?.close();
});

const SHIPMENT_INCLUDE =
  'containers,pod_terminal,port_of_lading,port_of_discharge,destination,destination_terminal,customer,party_roles,party_roles.party';
const CONTAINER_INCLUDE = 'shipment,pod_terminal,pickup_facility,transport_events,raw_events,shipment.port_of_discharge';

/**
 * Routes left out of the suite altogether, each with the reason. (Checks that do not apply to one route are
 * its `except`, below, and show as skipped tests with their reason.)
 */
const EXCLUDED_ROUTES: Record<string, string> = {
  // The API's own OpenAPI document: served without a key on purpose (auth: none), holds no account data
  // and is not a JSON:API document; src/http/openapi.test.ts covers it.
  'GET /v2/openapi.json': 'public API description, no key, no account data',
};

const SPECS: RouteSpec<Fx>[] = [
  // ---- shipments ----
  { method: 'GET', route: '/v2/shipments', owner: 'account', list: true, query: () => 'with_party_roles=true', include: SHIPMENT_INCLUDE },
  {
    method: 'GET',
    route: '/v2/shipments/:id',
    owner: 'account',
    id: (f) => f.shipment,
    query: () => 'with_party_roles=true',
    include: SHIPMENT_INCLUDE,
  },
  {
    method: 'PATCH',
    route: '/v2/shipments/:id',
    owner: 'account',
    id: (f) => f.shipment,
    body: (_f, id) => ({ data: { type: 'shipment', id, attributes: { ref_numbers: [unique('PO')], tags: ['suite'] } } }),
  },
  // The SDK sends {data:{type, id}} to stop and resume.
  {
    method: 'PATCH',
    route: '/v2/shipments/:id/stop_tracking',
    owner: 'account',
    id: (f) => f.shipment,
    body: (_f, id) => ({ data: { type: 'shipment', id } }),
  },
  {
    method: 'PATCH',
    route: '/v2/shipments/:id/resume_tracking',
    owner: 'account',
    id: (f) => f.shipment,
    body: (_f, id) => ({ data: { type: 'shipment', id } }),
  },

  // ---- containers ----
  { method: 'GET', route: '/v2/containers', owner: 'account', list: true, include: 'shipment,pod_terminal,pickup_facility' },
  // The board pages what needs action; the fixture's boxes may need none yet.
  {
    method: 'GET',
    route: '/v2/containers/board',
    owner: 'account',
    list: true,
    include: 'shipment',
    except: {
      tenant:
        "the fixture's containers need no action yet; src/http/routes/containers/containers.test.ts seeds both accounts' boxes and checks the board keeps to the caller's",
      paging: "the fixture's containers need no action yet; src/http/routes/containers/containers.test.ts pages a seeded board",
    },
  },
  { method: 'GET', route: '/v2/shipments/:id/estimated_events', owner: 'account', id: (f) => f.shipment, list: true, paged: false },
  { method: 'GET', route: '/v2/containers/:id', owner: 'account', id: (f) => f.container, include: CONTAINER_INCLUDE },
  {
    method: 'PATCH',
    route: '/v2/containers/:id',
    owner: 'account',
    id: (f) => f.container,
    body: (_f, id) => ({ data: { type: 'container', id, attributes: { ref_numbers: [unique('BOX')] } } }),
  },
  // The reference schema's form: the container named by data.id.
  {
    method: 'PATCH',
    route: '/v2/containers',
    owner: 'account',
    id: (f) => f.container,
    idIn: 'body',
    body: (_f, id) => ({ data: { type: 'container', id, attributes: { ref_numbers: [unique('BOX')] } } }),
  },
  // Plain JSON answer; the accounts have the refresh feature and no rate limits.
  { method: 'PATCH', route: '/v2/containers/:id/refresh', owner: 'account', id: (f) => f.container, plain: true },
  {
    method: 'GET',
    route: '/v2/containers/:id/transport_events',
    owner: 'account',
    id: (f) => f.container,
    list: true,
    include: 'location,terminal,vessel,shipment,container',
  },
  { method: 'GET', route: '/v2/containers/:id/raw_events', owner: 'account', id: (f) => f.container },
  // Plain GeoJSON (the routing feature: both accounts have it).
  { method: 'GET', route: '/v2/containers/:id/map_geojson', owner: 'account', id: (f) => f.container, plain: true },

  // ---- tracking requests ----
  {
    method: 'POST',
    route: '/v2/tracking_requests',
    owner: 'account',
    status: 201,
    body: (f) => ({
      data: {
        type: 'tracking_request',
        attributes: { request_type: 'bill_of_lading', request_number: f.bl, scac: 'MAEU' },
        relationships: { customer: { data: { type: 'party', id: f.party } } },
      },
    }),
    // The owner's party as the customer of another account's request.
    foreignBody: (f) => ({
      data: {
        type: 'tracking_request',
        attributes: { request_type: 'bill_of_lading', request_number: f.bl, scac: 'MAEU' },
        relationships: { customer: { data: { type: 'party', id: f.party } } },
      },
    }),
  },
  { method: 'GET', route: '/v2/tracking_requests', owner: 'account', list: true, include: 'tracked_object,customer' },
  {
    method: 'GET',
    route: '/v2/tracking_requests/:id',
    owner: 'account',
    id: (f) => f.trackingRequest,
    include: 'tracked_object,customer',
  },
  {
    method: 'PATCH',
    route: '/v2/tracking_requests/:id',
    owner: 'account',
    id: (f) => f.trackingRequest,
    body: (_f, id) => ({ data: { type: 'tracking_request', id, attributes: { ref_number: unique('REF') } } }),
  },
  // Plain JSON; reads no account's records. Each answer has a fresh `req_<uuid>` id, the rest must match.
  {
    method: 'POST',
    route: '/v2/tracking_requests/infer_number',
    owner: 'global',
    plain: true,
    body: () => ({ number: 'MSKU9070323' }),
    normalize: (b) => ({ ...(b as { data: object }), data: { ...(b as { data: object }).data, id: 'req_…' } }),
  },

  // ---- parties and party roles ----
  {
    method: 'POST',
    route: '/v2/parties',
    owner: 'account',
    status: 201,
    body: () => ({ data: { type: 'party', attributes: { company_name: unique('Party') } } }),
    except: { tenant: 'creates a party from a company name alone: the body names no record of any account' },
  },
  { method: 'GET', route: '/v2/parties', owner: 'account', list: true },
  { method: 'GET', route: '/v2/parties/:id', owner: 'account', id: (f) => f.party },
  {
    method: 'PATCH',
    route: '/v2/parties/:id',
    owner: 'account',
    id: (f) => f.party,
    body: (_f, id) => ({ data: { type: 'party', id, attributes: { company_name: unique('Acme Imports') } } }),
  },
  {
    method: 'POST',
    route: '/v2/party_roles',
    owner: 'account',
    status: 201,
    include: 'party',
    body: (f) => ({
      data: {
        type: 'party_role',
        attributes: { role: unique('role') },
        relationships: { party: { data: { type: 'party', id: f.party } }, shipment: { data: { type: 'shipment', id: f.shipment } } },
      },
    }),
    // The owner's party on the owner's shipment, asked for by another account.
    foreignBody: (f) => ({
      data: {
        type: 'party_role',
        attributes: { role: 'notify_party' },
        relationships: { party: { data: { type: 'party', id: f.party } }, shipment: { data: { type: 'shipment', id: f.shipment } } },
      },
    }),
  },
  { method: 'GET', route: '/v2/party_roles/:id', owner: 'account', id: (f) => f.partyRole, include: 'party' },
  { method: 'DELETE', route: '/v2/party_roles/:id', owner: 'account', id: (f) => f.freshPartyRole(), status: 204 },

  // ---- search ----
  { method: 'GET', route: '/v2/search', owner: 'account', list: true, paged: false, query: (f) => `query=${encodeURIComponent(f.bl)}` },

  // ---- custom fields ----
  {
    method: 'POST',
    route: '/v2/custom_field_definitions',
    owner: 'account',
    status: 201,
    body: () => ({
      data: {
        type: 'custom_field_definition',
        attributes: { entity_type: 'Shipment', api_slug: unique('def').replace('-', '_'), display_name: 'Def', data_type: 'number' },
      },
    }),
    except: { tenant: 'creates a definition from its attributes alone: the body names no record of any account' },
  },
  { method: 'GET', route: '/v2/custom_field_definitions', owner: 'account', list: true, include: 'options' },
  { method: 'GET', route: '/v2/custom_field_definitions/:id', owner: 'account', id: (f) => f.cf.enum, include: 'options' },
  {
    method: 'PATCH',
    route: '/v2/custom_field_definitions/:id',
    owner: 'account',
    id: (f) => f.cf.text,
    body: (_f, id) => ({ data: { type: 'custom_field_definition', id, attributes: { description: unique('about') } } }),
  },
  {
    method: 'DELETE',
    route: '/v2/custom_field_definitions/:id',
    owner: 'account',
    id: (f) => f.cf.freshDefinition(),
    status: 200,
    plain: true,
  },
  // The options of the owner's enum definition: the record a request names is the definition (list, create) or the option.
  { method: 'GET', route: '/v2/custom_field_definitions/:definition_id/options', owner: 'account', id: (f) => f.cf.enum },
  {
    method: 'POST',
    route: '/v2/custom_field_definitions/:definition_id/options',
    owner: 'account',
    id: (f) => f.cf.enum,
    status: 201,
    body: () => ({ data: { type: 'custom_field_option', attributes: { label: 'Option', value: unique('opt') } } }),
  },
  {
    method: 'GET',
    route: '/v2/custom_field_definitions/:definition_id/options/:option_id',
    owner: 'account',
    id: (f) => f.cf.option,
    path: (f, id) => `/v2/custom_field_definitions/${f.cf.enum}/options/${id}`,
  },
  {
    method: 'PATCH',
    route: '/v2/custom_field_definitions/:definition_id/options/:option_id',
    owner: 'account',
    id: (f) => f.cf.option,
    path: (f, id) => `/v2/custom_field_definitions/${f.cf.enum}/options/${id}`,
    body: () => ({ data: { type: 'custom_field_option', attributes: { label: unique('Label') } } }),
  },
  {
    method: 'DELETE',
    route: '/v2/custom_field_definitions/:definition_id/options/:option_id',
    owner: 'account',
    id: (f) => f.cf.freshOption(),
    path: (f, id) => `/v2/custom_field_definitions/${f.cf.enum}/options/${id}`,
    status: 200,
    plain: true,
  },
  { method: 'GET', route: '/v2/custom_fields', owner: 'account', list: true, include: 'definition' },
  {
    method: 'POST',
    route: '/v2/custom_fields',
    owner: 'account',
    status: 201,
    include: 'definition',
    body: (f) => ({
      data: {
        type: 'custom_field',
        attributes: { api_slug: 'suite_text', value: unique('PO') },
        relationships: { entity: { data: { type: 'shipment', id: f.shipment } } },
      },
    }),
    foreignBody: (f) => ({
      data: {
        type: 'custom_field',
        attributes: { api_slug: 'suite_text', value: 'theirs' },
        relationships: { entity: { data: { type: 'shipment', id: f.shipment } } },
      },
    }),
  },
  { method: 'GET', route: '/v2/custom_fields/:id', owner: 'account', id: (f) => f.cf.field, include: 'definition' },
  {
    method: 'PATCH',
    route: '/v2/custom_fields/:id',
    owner: 'account',
    id: (f) => f.cf.field,
    body: (_f, id) => ({ data: { type: 'custom_field', id, attributes: { value: unique('PO') } } }),
  },
  { method: 'DELETE', route: '/v2/custom_fields/:id', owner: 'account', id: (f) => f.cf.freshField(), status: 200, plain: true },
  ...(
    [
      ['shipments', 'shipment_id', 'suite_text', (f: Fx) => f.shipment],
      ['containers', 'container_id', 'suite_seal', (f: Fx) => f.cf.container],
      ['tracking_requests', 'tracking_request_id', 'suite_note', (f: Fx) => f.cf.request],
    ] as const
  ).flatMap(([path, param, slug, record]): RouteSpec<Fx>[] => [
    { method: 'GET', route: `/v2/${path}/:${param}/custom_fields`, owner: 'account', id: record, include: 'definition' },
    {
      method: 'POST',
      route: `/v2/${path}/:${param}/custom_fields`,
      owner: 'account',
      id: record,
      status: 201,
      body: () => ({ data: { type: 'custom_field', attributes: { api_slug: slug, value: unique('v') } } }),
    },
    {
      method: 'PATCH',
      route: `/v2/${path}/:${param}/custom_fields/:api_slug`,
      owner: 'account',
      id: record,
      path: (_f, id) => `/v2/${path}/${id}/custom_fields/${slug}`,
      body: () => ({ data: { type: 'custom_field', attributes: { value: unique('v') } } }),
    },
    {
      method: 'DELETE',
      route: `/v2/${path}/:${param}/custom_fields/:api_slug`,
      owner: 'account',
      id: (f) => f.cf.setAgain(path, slug, record(f)),
      path: (_f, id) => `/v2/${path}/${id}/custom_fields/${slug}`,
      status: 204,
    },
  ]),

  // ---- webhooks ----
  {
    method: 'POST',
    route: '/v2/webhooks',
    owner: 'account',
    status: 201,
    body: (f) => ({ data: { type: 'webhook', attributes: { url: f.receiver.url, events: QUIET_EVENTS } } }),
    except: { tenant: 'creates a webhook from a URL and event names: the body names no record of any account' },
  },
  { method: 'GET', route: '/v2/webhooks', owner: 'account', list: true },
  { method: 'GET', route: '/v2/webhooks/:id', owner: 'account', id: (f) => f.webhook },
  {
    method: 'PATCH',
    route: '/v2/webhooks/:id',
    owner: 'account',
    id: (f) => f.webhook,
    body: (_f, id) => ({ data: { type: 'webhook', id, attributes: { headers: [{ name: 'X-Suite', value: unique('run') }] } } }),
  },
  { method: 'DELETE', route: '/v2/webhooks/:id', owner: 'account', id: (f) => f.freshWebhook(), status: 200, plain: true },
  { method: 'POST', route: '/v2/webhooks/:id/rotate_secret', owner: 'account', id: (f) => f.webhook },
  // Plain JSON both ways: {from, to, events?} → 202 {"meta": {"queued": N}}.
  {
    method: 'POST',
    route: '/v2/webhooks/:id/replay',
    owner: 'account',
    id: (f) => f.webhook,
    status: 202,
    plain: true,
    body: () => ({ from: '2000-01-01T00:00:00Z', to: '2100-01-01T00:00:00Z' }),
  },
  // The categories' ids are slugs (`tracking-request-events`, api-wire-notes §1.3), not UUIDs, so the document
  // rules are not checked here; src/http/routes/webhooks/webhooks.test.ts checks its shape. Both accounts have
  // every feature, so both get the whole catalogue.
  { method: 'GET', route: '/v2/webhooks/events', owner: 'global', plain: true },
  { method: 'GET', route: '/v2/webhooks/ips', owner: 'global', plain: true },
  {
    method: 'POST',
    route: '/v2/webhooks/trigger',
    owner: 'account',
    plain: true,
    body: (f) => ({ url: f.receiver.url, event: 'container.transport.vessel_arrived' }),
    except: { tenant: 'sends a sample document to a URL: the body names no record of any account' },
  },

  // ---- API keys ----
  {
    method: 'POST',
    route: '/v2/api_keys',
    owner: 'account',
    status: 201,
    body: () => ({ data: { type: 'api_key', attributes: { name: unique('key') } } }),
    except: { tenant: 'creates a key for the caller: the body names no record of any account' },
  },
  // Every key of the account in one answer (an account has a handful): not paged.
  { method: 'GET', route: '/v2/api_keys', owner: 'account', list: true, paged: false },
  // The caller's own account (plan and API trial): another account's key reads its own.
  {
    method: 'GET',
    route: '/v2/account',
    owner: 'account',
    except: { tenant: 'names no record: a key reads its own account (test/e2e/api-trial.test.ts checks it is the caller’s)' },
  },
  { method: 'DELETE', route: '/v2/api_keys/:id', owner: 'account', id: (f) => f.freshApiKey(), status: 204 },

  // ---- webhook notifications ----
  { method: 'GET', route: '/v2/webhook_notifications', owner: 'account', list: true, include: 'webhook,reference_object' },
  {
    method: 'GET',
    route: '/v2/webhook_notifications/:id',
    owner: 'account',
    id: (f) => f.notification,
    include: 'webhook,reference_object,webhook_notification_logs',
  },
  {
    method: 'GET',
    route: '/v2/webhook_notifications/examples',
    owner: 'global',
    query: () => 'event=container.transport.vessel_arrived',
  },
  { method: 'POST', route: '/v2/webhook_notifications/:id/redeliver', owner: 'account', id: (f) => f.notification, status: 202 },

  // ---- reference data: the same for every account ----
  { method: 'GET', route: '/v2/shipping_lines', owner: 'global', list: true },
  { method: 'GET', route: '/v2/shipping_lines/:id', owner: 'global', id: (f) => f.shippingLine },
  { method: 'GET', route: '/v2/ports/:id', owner: 'global', id: (f) => f.port, include: 'terminals' },
  { method: 'GET', route: '/v2/metro_areas/:id', owner: 'global', id: (f) => f.metroArea },
  { method: 'GET', route: '/v2/terminals/:id', owner: 'global', id: (f) => f.terminal, include: 'port' },
  {
    method: 'GET',
    route: '/v2/vessels/:id',
    owner: 'global',
    id: (f) => f.vessel,
    query: () => 'show_positions[from_timestamp]=2026-02-01T00:00:00Z',
  },
  // Estimated positions to the shipment's POD (the routing feature), from the vessel's AIS position or a given one.
  {
    method: 'GET',
    route: '/v2/vessels/:id/future_positions',
    owner: 'global',
    id: (f) => f.vessel,
    query: (f) => `port_id=${f.port}`,
  },
  {
    method: 'GET',
    route: '/v2/vessels/:id/future_positions_with_coordinates',
    owner: 'global',
    id: (f) => f.vessel,
    query: (f) => `port_id=${f.port}&latitude=${f.vesselAt.lat}&longitude=${f.vesselAt.lon}`,
  },
];

for (const spec of SPECS) routeSuite(fixture, spec);

describe('the route suite', () => {
  it('checked the responses it saw against /v2/openapi.json (test/kit/openapi.ts; an undocumented one fails there)', () => {
    expect(checkedResponses.valid).toBeGreaterThan(500);
  });

  it('has an entry (or a listed exclusion) for every /v2 route the app serves', () => {
    const covered = new Set([
      ...SPECS.map((s) => routeKey(s.method, s.route)),
      ...Object.keys(EXCLUDED_ROUTES).map((k) => routeKey(...split(k))),
    ]);
    const served = fx.t.app.routeTable.filter((r) => /^\/v2(\/|$)/.test(r.url));
    expect(served.length).toBeGreaterThan(20);
    const missing = served.map((r) => `${r.method} ${r.url}`).filter((k) => !covered.has(routeKey(...split(k))));
    expect(missing, 'routes without an entry in SPECS of test/e2e/routes.test.ts: give each one (or an EXCLUDED_ROUTES reason)').toEqual(
      [],
    );
  });

  it('answers paths it does not serve with a JSON:API 404, and a method a path does not take with a 405', async () => {
    for (const [method, url] of [
      ['GET', '/v2/nothing_here'],
      ['GET', `/v2/shipments/${fx.shipment}/nothing_here`],
    ] as const) {
      expectNotFound(await send(fx.t, method, url, fx.owner.auth), `${method} ${url}`);
    }
    const res = await fx.t.app.inject({ method: 'DELETE', url: `/v2/shipments/${fx.shipment}`, headers: fx.owner.auth });
    expect([res.statusCode, res.headers.allow]).toEqual([405, 'GET, HEAD, PATCH']);
  });

  it('has no two entries for one route', () => {
    const keys = SPECS.map((s) => routeKey(s.method, s.route));
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });
});

function split(key: string): [string, string] {
  const [method, url] = key.split(' ');
  return [method!, url!];
}
