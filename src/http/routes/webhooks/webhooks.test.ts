// The webhook management API through the app (real database, fixed clock): create with its validation and the
// SSRF guard, read, list, edit, delete, rotate_secret, the event catalogue, the egress addresses, trigger to a
// receiver on 127.0.0.1, and replay/redeliver queueing. No DNS question is asked: URLs are IP literals.
import { eventsAvailableTo } from '../../../domain/event-catalogue.js';
import { createHmac } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../../test/kit/app.js';
import { type Receiver, startReceiver } from '../../../../test/kit/receiver.js';
import { changed, dumpAccount } from '../../../../test/kit/route-suite.js';
import { seedShipment } from '../../../../test/kit/seed.js';
import { DEFAULT_RATE_LIMITS } from '../../../domain/account.js';
import { FixedClock } from '../../../domain/clock.js';
import { newId } from '../../../lib/ids.js';
import { ROTATION_GRACE_MS } from '../../../services/webhooks.js';
import { insertAccountEvent } from '../../../storage/repositories/tracking.js';
import { findWebhook, noteEndpointOutcome, recordAttempt } from '../../../storage/repositories/webhooks.js';
import { EVENT_NAMES } from '../../../domain/event-catalogue.js';
import { signatureHeaders } from '../../../webhooks/signing.js';

/** A public address as a literal: the create-time check needs no DNS, and nothing is ever sent there. */
const URL_A = 'https://93.184.216.34/tidemark/hooks';
const URL_B = 'https://93.184.216.34/other/hooks';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const WHSEC = /^whsec_[A-Za-z0-9+/]{43}=$/;

type Auth = { authorization: string };
// biome-ignore lint/suspicious/noExplicitAny: parsed JSON bodies, read by the checks
type Json = any;

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t?.close());

async function call(app: TestApp, method: string, url: string, auth: Auth, payload?: unknown) {
  const res = await app.app.inject({
    method: method as 'GET',
    url,
    headers: { accept: 'application/json', ...auth, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
  let json: Json;
  try {
    json = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, body: res.body, json, headers: res.headers };
}

const webhookBody = (attributes: Record<string, unknown>) => ({ data: { type: 'webhook', attributes } });

async function create(auth: Auth, attributes: Record<string, unknown> = {}, app = t) {
  const res = await call(
    app,
    'POST',
    '/v2/webhooks',
    auth,
    webhookBody({ url: URL_A, events: ['container.transport.vessel_arrived'], ...attributes }),
  );
  expect(res.status, res.body).toBe(201);
  return res.json.data as { id: string; attributes: Record<string, Json> };
}

const webhookRows = async (accountId: string) =>
  (await t.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks WHERE account_id = $1', [accountId]))[0]!.n;

/** True when a Standard Webhooks receiver holding `secret` accepts the request. */
function standardVerifies(secret: string, body: string, headers: Record<string, unknown>): boolean {
  const h = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)]));
  try {
    new Webhook(secret).verify(body, h);
    return true;
  } catch (err) {
    if (err instanceof WebhookVerificationError) return false;
    throw err;
  }
}

const hex = (secret: string, body: string) => createHmac('sha256', secret).update(body, 'utf8').digest('hex');

describe('POST /v2/webhooks', () => {
  it('answers 201 with the webhook and a generated whsec_ secret a Standard Webhooks receiver can use; active by default', async () => {
    const { account, auth } = await t.account();
    const res = await call(
      t,
      'POST',
      '/v2/webhooks',
      auth,
      webhookBody({
        url: URL_A,
        events: ['container.transport.vessel_arrived', 'tracking_request.succeeded'],
        headers: [{ name: 'X-Team', value: 'ops' }],
      }),
    );
    expect(res.status, res.body).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
    const data = res.json.data;
    expect(data).toEqual({
      id: expect.stringMatching(UUID),
      type: 'webhook',
      attributes: {
        url: URL_A,
        active: true,
        events: ['container.transport.vessel_arrived', 'tracking_request.succeeded'],
        secret: expect.stringMatching(WHSEC),
        headers: [{ name: 'X-Team', value: 'ops' }],
        created_at: '2026-03-01T12:00:00Z',
        updated_at: '2026-03-01T12:00:00Z',
        deactivated_at: null,
        deactivated_reason: null,
      },
      relationships: {},
    });
    expect(res.json.links.self).toBe(`/v2/webhooks/${data.id}`);

    // The secret is a Standard Webhooks key: 32 random bytes, and a signature made with it verifies.
    const secret: string = data.attributes.secret;
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    const body = '{"hello":"receiver"}';
    const now = new Date();
    const signed = {
      'webhook-id': 'msg_2Lx',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign('msg_2Lx', now, body),
    };
    expect(new Webhook(secret).verify(body, signed)).toEqual({ hello: 'receiver' });
    expect(standardVerifies(secret, `${body} `, signed)).toBe(false);

    // Two webhooks never share a secret; reading the webhook back shows the same one.
    const second = await create(auth);
    expect(second.attributes.secret).not.toBe(secret);
    const read = await call(t, 'GET', `/v2/webhooks/${data.id}`, auth);
    expect(read.json.data.attributes.secret).toBe(secret);

    // Not in plain text at rest: neither the sealed column nor any other holds it.
    const [row] = await t.services.db.query<{ secret_sealed: string; r: string }>(
      'SELECT secret_sealed, row_to_json(w)::text AS r FROM webhooks w WHERE id = $1',
      [data.id],
    );
    expect(row!.secret_sealed).toMatch(/^v1\./);
    expect(row!.secret_sealed).not.toContain(secret.slice('whsec_'.length));
    expect(row!.r).not.toContain(secret.slice('whsec_'.length));
    expect(row!.r).toContain(account.id);
  });

  it('keeps active: false, and a migrating receiver’s own secret as given (not stored in plain text either)', async () => {
    const { auth } = await t.account();
    const own = 'legacy-t49-secret-4f7a9c2e81b3';
    const res = await call(
      t,
      'POST',
      '/v2/webhooks',
      auth,
      webhookBody({ url: URL_A, events: ['container.created'], active: false, secret: own }),
    );
    expect(res.status, res.body).toBe(201);
    expect(res.json.data.attributes).toMatchObject({ active: false, secret: own, headers: [] });
    expect((await call(t, 'GET', `/v2/webhooks/${res.json.data.id}`, auth)).json.data.attributes.secret).toBe(own);
    const [row] = await t.services.db.query<{ r: string }>('SELECT row_to_json(w)::text AS r FROM webhooks w WHERE id = $1', [
      res.json.data.id,
    ]);
    expect(row!.r).not.toContain(own);
  });

  it('takes an event its account’s features unlock: container.pickup_lfd_rail.changed with rail_lfd', async () => {
    const { auth } = await t.account({ features: ['rail_lfd'] });
    const hook = await create(auth, { events: ['container.pickup_lfd_rail.changed'] });
    expect(hook.attributes.events).toEqual(['container.pickup_lfd_rail.changed']);
  });

  it('subscribes a webhook created without events to every event the account may receive then, as an explicit list', async () => {
    const plain = await t.account();
    const hook = await create(plain.auth, { events: undefined });
    const catalogue = eventsAvailableTo([]);
    expect(hook.attributes.events).toEqual(catalogue);
    expect(catalogue).toContain('container.transport.vessel_arrived');
    expect(catalogue).not.toContain('container.pickup_lfd_rail.changed');
    // A feature-gated event only with its feature; `events: null` is the same as leaving it out.
    const rail = await t.account({ features: ['rail_lfd'] });
    const railHook = await create(rail.auth, { events: null });
    expect(railHook.attributes.events).toEqual(eventsAvailableTo(['rail_lfd']));
    expect(railHook.attributes.events).toContain('container.pickup_lfd_rail.changed');
    // Stored as the list, not as "all": it reads back the same.
    const again = await call(t, 'GET', `/v2/webhooks/${hook.id}`, plain.auth);
    expect(again.json.data.attributes.events).toEqual(catalogue);
  });

  const INVALID: [string, Record<string, unknown>, string, string?][] = [
    ['a blank url', { url: '  ' }, '/data/attributes/url', 'blank'],
    ['no url', { url: undefined }, '/data/attributes/url', 'blank'],
    ['an http:// url', { url: 'http://93.184.216.34/hooks' }, '/data/attributes/url', 'invalid'],
    ['a url with credentials', { url: 'https://user:hunter2@93.184.216.34/hooks' }, '/data/attributes/url', 'invalid'],
    ['a url that is not one', { url: 'receiver dot example' }, '/data/attributes/url', 'invalid'],
    ['no events', { events: [] }, '/data/attributes/events', 'blank'],
    [
      'an unknown event',
      { events: ['container.transport.vessel_arrived', 'container.teleported'] },
      '/data/attributes/events/1',
      'inclusion',
    ],
    [
      'a duplicate event',
      { events: ['container.created', 'container.updated', 'container.created'] },
      '/data/attributes/events/2',
      'taken',
    ],
    [
      'an event the account’s features do not unlock',
      { events: ['container.pickup_lfd_rail.changed'] },
      '/data/attributes/events/0',
      'not_enabled',
    ],
    [
      'a reserved header (Content-Type)',
      { headers: [{ name: 'Content-Type', value: 'text/plain' }] },
      '/data/attributes/headers/0/name',
      'reserved',
    ],
    [
      'a reserved header (webhook-signature)',
      {
        headers: [
          { name: 'X-Ok', value: '1' },
          { name: 'webhook-signature', value: 'v1,forged' },
        ],
      },
      '/data/attributes/headers/1/name',
      'reserved',
    ],
    [
      'a reserved header (X-T49-Webhook-Signature)',
      { headers: [{ name: 'X-T49-Webhook-Signature', value: 'abc' }] },
      '/data/attributes/headers/0/name',
      'reserved',
    ],
    ['a header name that is not one', { headers: [{ name: 'Bad Name', value: 'x' }] }, '/data/attributes/headers/0/name', 'invalid'],
    [
      'a header value over two lines',
      { headers: [{ name: 'X-Split', value: 'a\r\nX-Injected: 1' }] },
      '/data/attributes/headers/0/value',
      'invalid',
    ],
    ['a kept secret too short to sign with', { secret: 'short' }, '/data/attributes/secret', 'too_short'],
  ];

  it.each(INVALID)('answers 422 with source.pointer for %s, and writes nothing', async (_name, attributes, pointer, code) => {
    const { account, auth } = await t.account();
    const before = await dumpAccount(t.services.db, account.id);
    const res = await call(t, 'POST', '/v2/webhooks', auth, webhookBody({ url: URL_A, events: ['container.created'], ...attributes }));
    expect(res.status, res.body).toBe(422);
    expect(res.json.errors).toEqual([
      expect.objectContaining({
        status: '422',
        title: 'Unprocessable Entity',
        source: { pointer },
        detail: expect.any(String),
        ...(code ? { code } : {}),
      }),
    ]);
    expect(changed(before, await dumpAccount(t.services.db, account.id))).toEqual([]);
  });

  it('answers 422 naming the read-only attribute it was sent (created_at), and writes nothing', async () => {
    const { account, auth } = await t.account();
    const res = await call(
      t,
      'POST',
      '/v2/webhooks',
      auth,
      webhookBody({ url: URL_A, events: ['container.created'], created_at: '2020-01-01T00:00:00Z' }),
    );
    expect(res.status, res.body).toBe(422);
    expect(res.json.errors).toHaveLength(1);
    expect(res.json.errors[0].detail, res.body).toContain('created_at');
    expect(res.json.errors[0].source?.pointer, res.body).toMatch(/^\/data\/attributes/);
    expect(await webhookRows(account.id)).toBe(0);
  });

  it('reports every problem of one request at once', async () => {
    const { account, auth } = await t.account();
    const res = await call(
      t,
      'POST',
      '/v2/webhooks',
      auth,
      webhookBody({ url: 'http://93.184.216.34/x', events: ['nope'], headers: [{ name: 'Host', value: 'evil' }] }),
    );
    expect(res.status, res.body).toBe(422);
    expect(res.json.errors.map((e: Json) => e.source.pointer).sort()).toEqual(
      ['/data/attributes/events/0', '/data/attributes/headers/0/name', '/data/attributes/url'].sort(),
    );
    expect(await webhookRows(account.id)).toBe(0);
  });

  it.each([
    'https://127.0.0.1/x',
    'https://10.1.2.3/x',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/x',
    'https://localhost/x',
    'https://192.168.0.10:8443/x',
    'https://[fd00:ec2::254]/latest',
  ])('SSRF guard (default settings): %s → 422 on /data/attributes/url, nothing written', async (url) => {
    const { account, auth } = await t.account();
    const res = await call(t, 'POST', '/v2/webhooks', auth, webhookBody({ url, events: ['container.created'] }));
    expect(res.status, res.body).toBe(422);
    expect(res.json.errors).toEqual([
      expect.objectContaining({
        status: '422',
        source: { pointer: '/data/attributes/url' },
        detail: expect.stringMatching(/public internet/),
      }),
    ]);
    expect(await webhookRows(account.id)).toBe(0);
  });

  it('needs an API key', async () => {
    const res = await call(t, 'POST', '/v2/webhooks', {} as Auth, webhookBody({ url: URL_A, events: ['container.created'] }));
    expect(res.status).toBe(401);
  });
});

describe('GET, PATCH and DELETE /v2/webhooks', () => {
  it('lists the account’s webhooks newest first, and pages', async () => {
    const { auth } = await t.account();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      t.clock.advance(1000);
      ids.push((await create(auth, { url: `${URL_A}/${i}` })).id);
    }
    const all = await call(t, 'GET', '/v2/webhooks', auth);
    expect(all.status, all.body).toBe(200);
    expect(all.json.data.map((w: Json) => w.id)).toEqual([...ids].reverse());
    expect(all.json.meta).toMatchObject({ size: 3, total: 3 });
    expect(all.json.links.self).toBe('http://tidemark.test/v2/webhooks');

    const first = await call(t, 'GET', '/v2/webhooks?page[size]=2', auth);
    expect(first.json.data.map((w: Json) => w.id)).toEqual([ids[2], ids[1]]);
    expect(first.json.links.next).toEqual(expect.stringContaining('page[number]=2'));
    const second = await call(t, 'GET', '/v2/webhooks?page%5Bnumber%5D=2&page%5Bsize%5D=2', auth);
    expect(second.json.data.map((w: Json) => w.id)).toEqual([ids[0]]);
    expect(second.json.links).not.toHaveProperty('next');

    const other = await t.account();
    const theirs = await call(t, 'GET', '/v2/webhooks', other.auth);
    expect(theirs.status).toBe(200);
    expect(theirs.json.data).toEqual([]);
  });

  it('GET /v2/webhooks/{id} shows one, its links.self the request', async () => {
    const { auth } = await t.account();
    const hook = await create(auth, { headers: [{ name: 'Authorization', value: 'Bearer receiver-token' }] });
    const res = await call(t, 'GET', `/v2/webhooks/${hook.id}`, auth);
    expect(res.status, res.body).toBe(200);
    expect(res.json.data).toEqual({ ...hook });
    expect(res.json.links.self).toBe(`http://tidemark.test/v2/webhooks/${hook.id}`);
  });

  it('PATCH changes url, events, active and headers, and leaves the rest', async () => {
    const { auth } = await t.account();
    const hook = await create(auth, { headers: [{ name: 'X-Team', value: 'ops' }] });
    t.clock.advance(60_000);
    const res = await call(t, 'PATCH', `/v2/webhooks/${hook.id}`, auth, {
      data: {
        type: 'webhook',
        id: hook.id,
        attributes: {
          url: URL_B,
          events: ['container.updated', 'shipment.estimated.arrival'],
          active: false,
          headers: [
            { name: 'X-Team', value: 'billing' },
            { name: 'X-Env', value: 'prod' },
          ],
        },
      },
    });
    expect(res.status, res.body).toBe(200);
    expect(res.json.data.attributes).toEqual({
      ...hook.attributes,
      url: URL_B,
      events: ['container.updated', 'shipment.estimated.arrival'],
      active: false,
      headers: [
        { name: 'X-Team', value: 'billing' },
        { name: 'X-Env', value: 'prod' },
      ],
      updated_at: `${t.clock.now().toISOString().slice(0, 19)}Z`,
    });
    expect((await call(t, 'GET', `/v2/webhooks/${hook.id}`, auth)).json.data).toEqual(res.json.data);

    // One attribute alone; headers: [] clears them.
    const cleared = await call(t, 'PATCH', `/v2/webhooks/${hook.id}`, auth, { data: { type: 'webhook', attributes: { headers: [] } } });
    expect(cleared.status, cleared.body).toBe(200);
    expect(cleared.json.data.attributes).toMatchObject({ url: URL_B, active: false, headers: [] });
  });

  it('PATCH refuses what create refuses, the secret (rotate_secret changes it) and another id in the body; nothing changes', async () => {
    const { account, auth } = await t.account();
    const hook = await create(auth);
    const before = await dumpAccount(t.services.db, account.id);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ url: 'https://10.0.0.1/x' }, '/data/attributes/url', 'invalid'],
      [{ url: '' }, '/data/attributes/url', 'blank'],
      [{ events: [] }, '/data/attributes/events', 'blank'],
      [{ events: ['container.pickup_lfd_rail.changed'] }, '/data/attributes/events/0', 'not_enabled'],
      [{ headers: [{ name: 'webhook-id', value: 'x' }] }, '/data/attributes/headers/0/name', 'reserved'],
      [{ secret: 'whsec_bm90LWEtcmVhbC1zZWNyZXQtYnV0LWxvbmctZW5vdWdo' }, '/data/attributes/secret', 'read_only'],
    ];
    for (const [attributes, pointer, code] of cases) {
      const res = await call(t, 'PATCH', `/v2/webhooks/${hook.id}`, auth, { data: { type: 'webhook', attributes } });
      expect(res.status, `${JSON.stringify(attributes)}: ${res.body}`).toBe(422);
      expect(res.json.errors, JSON.stringify(attributes)).toEqual([expect.objectContaining({ source: { pointer }, code })]);
    }
    const mismatch = await call(t, 'PATCH', `/v2/webhooks/${hook.id}`, auth, {
      data: { type: 'webhook', id: newId(), attributes: { active: false } },
    });
    expect(mismatch.status, mismatch.body).toBe(409);
    expect(mismatch.json.errors[0].source).toEqual({ pointer: '/data/id' });
    expect(changed(before, await dumpAccount(t.services.db, account.id))).toEqual([]);
  });

  it('turning a deactivated webhook back on clears deactivated_at, deactivated_reason and the failure streak', async () => {
    const { account, auth } = await t.account();
    const hook = await create(auth);
    // Deactivated the way the delivery worker does it: every delivery failed for longer than the allowed period.
    await noteEndpointOutcome(t.services.db, hook.id, false, t.clock.now(), 60_000, 'HTTP 502');
    t.clock.advance(120_000);
    await noteEndpointOutcome(t.services.db, hook.id, false, t.clock.now(), 60_000, 'HTTP 502');
    const off = await call(t, 'GET', `/v2/webhooks/${hook.id}`, auth);
    expect(off.json.data.attributes).toMatchObject({
      active: false,
      deactivated_at: expect.stringMatching(/Z$/),
      deactivated_reason: expect.stringMatching(/^Every delivery failed since .*HTTP 502/),
    });

    // Editing something else keeps the record of why it stopped.
    const renamed = await call(t, 'PATCH', `/v2/webhooks/${hook.id}`, auth, { data: { type: 'webhook', attributes: { url: URL_B } } });
    expect(renamed.json.data.attributes).toMatchObject({ active: false, deactivated_reason: expect.any(String) });

    const on = await call(t, 'PATCH', `/v2/webhooks/${hook.id}`, auth, { data: { type: 'webhook', attributes: { active: true } } });
    expect(on.status, on.body).toBe(200);
    expect(on.json.data.attributes).toMatchObject({ active: true, deactivated_at: null, deactivated_reason: null });
    const row = await findWebhook(t.services.db, account.id, hook.id);
    expect(row).toMatchObject({ active: true, failing_since: null, deactivated_at: null, deactivated_reason: null });
  });

  it("DELETE answers 200 with {} (the reference's SDK parses every 2xx body), then the webhook is 404 everywhere, its notifications gone with it", async () => {
    const { account, auth } = await t.account();
    const hook = await create(auth, { events: ['container.transport.delivered'] });
    const n = await notify(account.id, 'container.transport.delivered');
    expect(n).toHaveLength(1);
    const res = await call(t, 'DELETE', `/v2/webhooks/${hook.id}`, auth);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({});
    for (const [method, url] of [
      ['GET', `/v2/webhooks/${hook.id}`],
      ['DELETE', `/v2/webhooks/${hook.id}`],
      ['POST', `/v2/webhooks/${hook.id}/rotate_secret`],
      ['GET', `/v2/webhook_notifications/${n[0]}`],
    ] as const) {
      const again = await call(t, method, url, auth);
      expect(again.status, `${method} ${url}`).toBe(404);
    }
    expect(await webhookRows(account.id)).toBe(0);
    const left = await t.services.db.query('SELECT id FROM webhook_notifications WHERE account_id = $1', [account.id]);
    expect(left).toEqual([]);
  });

  it('another account’s webhook is 404 on every route, and nothing of it changes', async () => {
    const owner = await t.account();
    const hook = await create(owner.auth);
    const other = await t.account();
    const before = await dumpAccount(t.services.db, owner.account.id);
    const requests: [string, string, unknown?][] = [
      ['GET', `/v2/webhooks/${hook.id}`],
      ['PATCH', `/v2/webhooks/${hook.id}`, { data: { type: 'webhook', attributes: { active: false, url: URL_B } } }],
      ['POST', `/v2/webhooks/${hook.id}/rotate_secret`],
      ['POST', `/v2/webhooks/${hook.id}/replay`, { from: '2000-01-01T00:00:00Z', to: '2100-01-01T00:00:00Z' }],
      ['DELETE', `/v2/webhooks/${hook.id}`],
    ];
    for (const [method, url, body] of requests) {
      const res = await call(t, method, url, other.auth, body);
      expect(res.status, `${method} ${url}: ${res.body}`).toBe(404);
      expect(res.json.errors[0]).toMatchObject({ status: '404', title: 'Not Found' });
    }
    expect(changed(before, await dumpAccount(t.services.db, owner.account.id))).toEqual([]);
    expect((await call(t, 'GET', `/v2/webhooks/${hook.id}`, owner.auth)).status).toBe(200);
  });

  it('unknown and malformed ids are 404', async () => {
    const { auth } = await t.account();
    for (const id of [newId(), 'not-a-uuid']) {
      expect((await call(t, 'GET', `/v2/webhooks/${id}`, auth)).status).toBe(404);
      expect((await call(t, 'DELETE', `/v2/webhooks/${id}`, auth)).status).toBe(404);
      expect((await call(t, 'PATCH', `/v2/webhooks/${id}`, auth, { data: { type: 'webhook', attributes: { active: true } } })).status).toBe(
        404,
      );
    }
  });
});

describe('POST /v2/webhooks/{id}/rotate_secret', () => {
  it('gives a new secret; for 24 hours both secrets verify the Standard Webhooks header, then only the new one; hex uses the new one', async () => {
    const { account, auth } = await t.account();
    const hook = await create(auth);
    const oldSecret: string = hook.attributes.secret;
    const rotatedAt = t.clock.now().getTime();
    const res = await call(t, 'POST', `/v2/webhooks/${hook.id}/rotate_secret`, auth);
    expect(res.status, res.body).toBe(200);
    const newSecret: string = res.json.data.attributes.secret;
    expect(newSecret).toMatch(WHSEC);
    expect(newSecret).not.toBe(oldSecret);
    expect(res.json.data.id).toBe(hook.id);
    expect((await call(t, 'GET', `/v2/webhooks/${hook.id}`, auth)).json.data.attributes.secret).toBe(newSecret);

    /** A delivery signed as the worker signs it at the app's wall time (timestamped now, for the receiver's check). */
    const body = JSON.stringify({ data: { id: newId(), type: 'webhook_notification' } });
    const sign = async () => {
      const row = (await findWebhook(t.services.db, account.id, hook.id))!;
      const secrets = await t.services.webhooks.signingSecrets(row, t.clock.now());
      return { secrets, headers: signatureHeaders({ id: newId(), timestamp: new Date(), body, secrets, referenceHeader: true }) };
    };

    const during = await sign();
    expect(during.secrets).toEqual([newSecret, oldSecret]);
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(standardVerifies(oldSecret, body, during.headers)).toBe(true);
    expect(standardVerifies(newSecret, body, during.headers)).toBe(true);
    expect(during.headers['x-tidemark-webhook-signature']).toBe(hex(newSecret, body));
    expect(during.headers['x-t49-webhook-signature']).toBe(hex(newSecret, body));

    t.clock.set(new Date(rotatedAt + ROTATION_GRACE_MS - 1000));
    const late = await sign();
    expect(standardVerifies(oldSecret, body, late.headers)).toBe(true);
    expect(standardVerifies(newSecret, body, late.headers)).toBe(true);

    t.clock.set(new Date(rotatedAt + ROTATION_GRACE_MS));
    const after = await sign();
    expect(after.secrets).toEqual([newSecret]);
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(standardVerifies(oldSecret, body, after.headers)).toBe(false);
    expect(standardVerifies(newSecret, body, after.headers)).toBe(true);
    expect(after.headers['x-tidemark-webhook-signature']).toBe(hex(newSecret, body));
  });

  it('rotating a migrated (non-whsec) secret gives a whsec_ one; the old keeps no Standard Webhooks signature, the hex uses the new', async () => {
    const { account, auth } = await t.account();
    const legacy = 'legacy-t49-secret-0123456789';
    const hook = await create(auth, { secret: legacy });
    const res = await call(t, 'POST', `/v2/webhooks/${hook.id}/rotate_secret`, auth);
    expect(res.status, res.body).toBe(200);
    const fresh: string = res.json.data.attributes.secret;
    expect(fresh).toMatch(WHSEC);
    const row = (await findWebhook(t.services.db, account.id, hook.id))!;
    const secrets = await t.services.webhooks.signingSecrets(row, t.clock.now());
    expect(secrets).toEqual([fresh, legacy]);
    const body = '{"data":{}}';
    const headers = signatureHeaders({ id: newId(), timestamp: new Date(), body, secrets, referenceHeader: false });
    expect(headers['x-tidemark-webhook-signature']).toBe(hex(fresh, body));
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(standardVerifies(fresh, body, headers)).toBe(true);
  });
});

describe('GET /v2/webhooks/events', () => {
  type Category = { id: string; type: string; attributes: { name: string; events: { name: string; description: string }[] } };
  const names = (data: Category[]) => data.flatMap((c) => c.attributes.events.map((e) => e.name));

  it('answers the catalogue by category; container.pickup_lfd_rail.changed only for accounts with rail_lfd', async () => {
    const plain = await t.account();
    const res = await call(t, 'GET', '/v2/webhooks/events', plain.auth);
    expect(res.status, res.body).toBe(200);
    const data = res.json.data as Category[];
    expect(data.map((c) => c.id)).toEqual(
      expect.arrayContaining(['tracking-request-events', 'container-transport-events', 'container-events', 'shipment-events']),
    );
    for (const c of data) {
      expect(c.type).toBe('webhook_event_category');
      expect(c.attributes.name).toEqual(expect.any(String));
      expect(c.attributes.events.length, c.id).toBeGreaterThan(0);
      for (const e of c.attributes.events) expect(e).toEqual({ name: expect.any(String), description: expect.any(String) });
    }
    const tr = data.find((c) => c.id === 'tracking-request-events')!;
    expect(tr.attributes.events.map((e) => e.name).sort()).toEqual(
      [
        'tracking_request.awaiting_manifest',
        'tracking_request.failed',
        'tracking_request.succeeded',
        'tracking_request.tracking_stopped',
      ].sort(),
    );
    expect(names(data)).not.toContain('container.pickup_lfd_rail.changed');
    expect(new Set(names(data)).size).toBe(names(data).length);
    expect(names(data).sort()).toEqual(EVENT_NAMES.filter((n) => n !== 'container.pickup_lfd_rail.changed').sort());
    expect(res.json.links.self).toBe('http://tidemark.test/v2/webhooks/events');

    const rail = await t.account({ features: ['rail_lfd'] });
    const withRail = (await call(t, 'GET', '/v2/webhooks/events', rail.auth)).json.data as Category[];
    expect(names(withRail)).toContain('container.pickup_lfd_rail.changed');
    expect(names(withRail).sort()).toEqual([...EVENT_NAMES].sort());
  });
});

describe('GET /v2/webhooks/ips', () => {
  it('answers plain JSON from TIDEMARK_WEBHOOKS_EGRESS_IPS; last_updated stays put, and moves when the list changes', async () => {
    const clock = new FixedClock('2026-03-01T12:00:00.500Z');
    const first = await testApp({ clock, env: { TIDEMARK_WEBHOOKS_EGRESS_IPS: '35.222.62.171, 3.230.67.145' } });
    let second: TestApp | null = null;
    try {
      const { auth } = await first.account();
      const res = await call(first, 'GET', '/v2/webhooks/ips', auth);
      expect(res.status, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json).toEqual({ webhook_notification_ips: ['35.222.62.171', '3.230.67.145'], last_updated: '2026-03-01T12:00:00Z' });
      clock.advance(3 * 86_400_000);
      expect((await call(first, 'GET', '/v2/webhooks/ips', auth)).json).toEqual(res.json);

      // Another process on the same database, configured with another list.
      second = await testApp({
        clock,
        database: first.database,
        env: { TIDEMARK_WEBHOOKS_EGRESS_IPS: '35.222.62.171,3.230.67.145,44.217.15.129' },
      });
      const changedList = await call(second, 'GET', '/v2/webhooks/ips', auth);
      expect(changedList.json).toEqual({
        webhook_notification_ips: ['35.222.62.171', '3.230.67.145', '44.217.15.129'],
        last_updated: '2026-03-04T12:00:00Z',
      });
      clock.advance(60_000);
      expect((await call(second, 'GET', '/v2/webhooks/ips', auth)).json).toEqual(changedList.json);
    } finally {
      await second?.close();
      await first.close();
    }
  });

  it('answers an empty list when none is configured', async () => {
    const { auth } = await t.account();
    const res = await call(t, 'GET', '/v2/webhooks/ips', auth);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ webhook_notification_ips: [], last_updated: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) });
  });
});

describe('POST /v2/webhooks/trigger', () => {
  // Allowed to reach the loopback receiver; the wall clock at real time so receivers' timestamp checks pass.
  let app: TestApp;
  let receiver: Receiver;
  let auth: Auth;
  beforeAll(async () => {
    receiver = await startReceiver();
    app = await testApp({ clock: new FixedClock(new Date()), env: { TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: '1' } });
  });
  // An account per test: the clock stands still, and the trigger's own bucket allows a few calls a minute.
  beforeEach(async () => {
    auth = (await app.account()).auth;
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  const trigger = (body: unknown, a: TestApp = app, as: Auth = auth) => call(a, 'POST', '/v2/webhooks/trigger', as, body);
  /** The sample document the examples route answers, without its links (they name the request). */
  async function example(event: string) {
    const res = await call(app, 'GET', `/v2/webhook_notifications/examples?event=${event}`, auth);
    expect(res.status, res.body).toBe(200);
    const { links: _links, ...doc } = res.json;
    return doc;
  }

  it.each(['container.transport.vessel_arrived', 'container.transport.available', 'tracking_request.succeeded'])(
    'sends the sample document of %s, signed both ways for a whsec_ secret, and reports what was sent and received',
    async (event) => {
      receiver.received.length = 0;
      receiver.respond = () => ({ status: 200, headers: { 'x-receiver': 'kept' } });
      const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw6xXzn0U5cyM=';
      const res = await trigger({ url: receiver.url, event, secret });
      expect(res.status, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(receiver.received).toHaveLength(1);
      const got = receiver.received[0]!;

      const { links, ...doc } = JSON.parse(got.body);
      expect(doc).toEqual(await example(event));
      expect(links).toEqual({ self: `http://tidemark.test/v2/webhook_notifications/${doc.data.id}` });
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers['user-agent']).toMatch(/Tidemark/);
      expect(got.headers['x-tidemark-webhook-signature']).toBe(hex(secret, got.body));
      expect(got.headers['webhook-id']).toBe(doc.data.id);
      expect(standardVerifies(secret, got.body, got.headers)).toBe(true);

      expect(res.json).toEqual({
        url: receiver.url,
        succeeded: true,
        error: null,
        status_code: 200,
        request_headers: expect.objectContaining({
          'content-type': 'application/json',
          'user-agent': got.headers['user-agent'],
          'x-tidemark-webhook-signature': got.headers['x-tidemark-webhook-signature'],
          'webhook-id': got.headers['webhook-id'],
          'webhook-timestamp': got.headers['webhook-timestamp'],
          'webhook-signature': got.headers['webhook-signature'],
        }),
        request_body: got.body,
        response_headers: expect.objectContaining({ 'content-type': 'application/json', 'x-receiver': 'kept' }),
        response_body: '{"ok":true}',
      });
      // The secret itself is neither sent nor echoed, and nothing was created.
      expect(got.body).not.toContain(secret);
      expect(JSON.stringify(got.headers)).not.toContain(secret);
      expect(res.body).not.toContain(secret);
      expect((await call(app, 'GET', '/v2/webhooks', auth)).json.data).toEqual([]);
    },
  );

  it('signs with the hex header only for a secret that is not whsec_, and not at all without one', async () => {
    receiver.received.length = 0;
    receiver.respond = () => ({ status: 204 });
    const legacy = 'legacy-t49-secret-0123456789';
    const withLegacy = await trigger({ url: receiver.url, event: 'container.created', secret: legacy });
    expect(withLegacy.status, withLegacy.body).toBe(200);
    const a = receiver.received[0]!;
    expect(a.headers['x-tidemark-webhook-signature']).toBe(hex(legacy, a.body));
    for (const h of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) expect(a.headers, h).not.toHaveProperty(h);
    expect(withLegacy.json).toMatchObject({ succeeded: true, status_code: 204, response_body: '' });

    const unsigned = await trigger({ url: receiver.url, event: 'container.created' });
    expect(unsigned.status, unsigned.body).toBe(200);
    const b = receiver.received[1]!;
    for (const h of ['x-tidemark-webhook-signature', 'x-t49-webhook-signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature'])
      expect(b.headers, h).not.toHaveProperty(h);
    expect(Object.keys(unsigned.json.request_headers).sort()).toEqual(['content-type', 'user-agent']);
    expect(receiver.received).toHaveLength(2);
  });

  it('reports a receiver answering 500 as not succeeded, with its status and body', async () => {
    receiver.received.length = 0;
    receiver.respond = () => ({ status: 500 });
    const res = await trigger({ url: receiver.url, event: 'container.transport.vessel_departed' });
    expect(res.status, res.body).toBe(200);
    expect(res.json).toMatchObject({ url: receiver.url, succeeded: false, status_code: 500, response_body: '{"ok":true}' });
    expect(res.json.error).toEqual(expect.any(String));
    expect(receiver.received).toHaveLength(1);
  });

  it('answers 422 "url is required" without a url, and 422 for an unknown event or a feature the account lacks; sends nothing', async () => {
    receiver.received.length = 0;
    const noUrl = await trigger({ event: 'container.created' });
    expect(noUrl.status, noUrl.body).toBe(422);
    expect(noUrl.json.errors).toEqual([expect.objectContaining({ status: '422', detail: 'url is required' })]);

    const blank = await trigger({ url: ' ', event: 'container.created' });
    expect(blank.status).toBe(422);
    expect(blank.json.errors[0].detail).toBe('url is required');

    const nothing = await trigger({});
    expect(nothing.status).toBe(422);
    expect(nothing.json.errors.map((e: Json) => e.detail)).toEqual(['url is required', 'event is required']);

    const unknown = await trigger({ url: receiver.url, event: 'container.teleported' });
    expect(unknown.status, unknown.body).toBe(422);
    expect(unknown.json.errors).toEqual([expect.objectContaining({ source: { pointer: '/event' }, code: 'inclusion' })]);

    const rail = await trigger({ url: receiver.url, event: 'container.pickup_lfd_rail.changed' });
    expect(rail.status, rail.body).toBe(422);
    expect(rail.json.errors).toEqual([expect.objectContaining({ source: { pointer: '/event' }, code: 'not_enabled' })]);

    const badSecret = await trigger({ url: receiver.url, event: 'container.created', secret: 12 });
    expect(badSecret.status, badSecret.body).toBe(422);
    expect(badSecret.json.errors[0].detail).toBe('secret must be a string');
    expect(receiver.received).toEqual([]);
  });

  it('has a rate bucket of its own: the call after the limit in a minute is a 429 with Retry-After and sends nothing, while other routes answer', async () => {
    receiver.received.length = 0;
    receiver.respond = () => ({ status: 204 });
    const limit = DEFAULT_RATE_LIMITS.webhook_trigger;
    expect(limit).toBeLessThan(DEFAULT_RATE_LIMITS.default);
    for (let i = 0; i < limit; i++) {
      const res = await trigger({ url: receiver.url, event: 'container.created' });
      expect(res.status, `call ${i + 1}: ${res.body}`).toBe(200);
    }
    const over = await trigger({ url: receiver.url, event: 'container.created' });
    expect(over.status, over.body).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.json.errors).toEqual([
      expect.objectContaining({ status: '429', title: 'Too Many Requests', detail: expect.stringContaining('webhook trigger limit') }),
    ]);
    expect(receiver.received).toHaveLength(limit);
    // The account's other routes count in their own buckets and still answer.
    expect((await call(app, 'GET', '/v2/webhooks', auth)).status).toBe(200);
    expect((await call(app, 'GET', '/v2/webhook_notifications/examples?event=container.created', auth)).status).toBe(200);
    // Another account has its own budget.
    const other = (await app.account()).auth;
    expect((await trigger({ url: receiver.url, event: 'container.created' }, app, other)).status).toBe(200);
    // A minute later the window has slid past the calls.
    app.clock.advance(61_000);
    expect((await trigger({ url: receiver.url, event: 'container.created' })).status).toBe(200);
  });

  it("counts the web app's calls in the trigger's bucket too, not in the session's larger one", async () => {
    const signup = await app.app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: { email: `trigger-${newId()}@example.com`, password: 'correct horse battery staple', company_name: 'Trigger Co' },
    });
    expect(signup.statusCode, signup.body).toBe(201);
    const cookie = [signup.headers['set-cookie'] ?? []]
      .flat()
      .map((c) => String(c).split(';')[0])
      .join('; ');
    const session = { cookie, 'x-csrf-token': signup.json().csrf_token } as unknown as Auth;
    const statuses: number[] = [];
    for (let i = 0; i <= DEFAULT_RATE_LIMITS.webhook_trigger; i++) {
      statuses.push((await trigger({ url: receiver.url, event: 'container.created' }, app, session)).status);
    }
    expect(statuses).toEqual([...Array(DEFAULT_RATE_LIMITS.webhook_trigger).fill(200), 429]);
    expect((await call(app, 'GET', '/v2/webhooks', session)).status).toBe(200);
  });

  it('without TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: a 127.0.0.1 URL (http or https) is refused with 422, and nothing reaches it', async () => {
    receiver.received.length = 0;
    const { auth: other } = await t.account();
    for (const url of [receiver.url, receiver.url.replace('http:', 'https:')]) {
      const res = await call(t, 'POST', '/v2/webhooks/trigger', other, { url, event: 'container.created' });
      expect(res.status, `${url}: ${res.body}`).toBe(422);
      expect(res.json.errors).toEqual([expect.objectContaining({ source: { pointer: '/url' } })]);
    }
    expect(receiver.received).toEqual([]);
  });
});

// ---------- replay and redeliver ----------

/**
 * One account event committed for the account (the outbox writes a notification per subscribed active webhook
 * in the same transaction), a second later than the last. Returns the notification ids it made.
 */
let shipments = 0;
async function notify(accountId: string, event: string): Promise<string[]> {
  t.clock.advance(1000);
  const { id: shipmentId } = await seedShipment(t, accountId, { bl: `MAEU${++shipments}` });
  const id = newId();
  await insertAccountEvent(
    t.services.db,
    {
      id,
      account_id: accountId,
      event,
      tracking_request_id: null,
      shipment_id: shipmentId,
      container_id: null,
      transport_event_id: null,
      estimated_event_id: null,
      payload: { type: event },
      occurred_at: t.clock.now(),
    },
    t.clock.now(),
  );
  const rows = await t.services.db.query<{ id: string }>('SELECT id FROM webhook_notifications WHERE account_event_id = $1 ORDER BY id', [
    id,
  ]);
  return rows.map((r) => r.id);
}

/** A delivery attempt recorded as the worker records it. */
async function attempted(id: string, status: 'succeeded' | 'failed', attempt = 1) {
  await recordAttempt(
    t.services.db,
    {
      notification_id: id,
      attempt,
      started_at: t.clock.now(),
      duration_ms: 30,
      status_code: status === 'succeeded' ? 200 : 500,
      error: status === 'succeeded' ? null : 'HTTP 500',
      response_body: 'ok',
    },
    { status, nextAttemptAt: null },
    t.clock.now(),
  );
}

type NotificationState = { id: string; delivery_status: string; attempts: number; retry_base: number; next_attempt_at: Date | null };
async function states(ids: string[]): Promise<Map<string, NotificationState>> {
  const rows = await t.services.db.query<NotificationState>(
    'SELECT id, delivery_status, attempts, retry_base, next_attempt_at FROM webhook_notifications WHERE id = ANY($1::uuid[])',
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

describe('POST /v2/webhook_notifications/{id}/redeliver', () => {
  it('answers 202 with the notification pending again, its id unchanged, its attempts kept; the retry schedule starts afresh', async () => {
    const { account, auth } = await t.account();
    await create(auth, { events: ['container.transport.delivered'] });
    const [id] = await notify(account.id, 'container.transport.delivered');
    await attempted(id!, 'failed', 1);
    await attempted(id!, 'failed', 2);
    t.clock.advance(5000);
    const res = await call(t, 'POST', `/v2/webhook_notifications/${id}/redeliver`, auth);
    expect(res.status, res.body).toBe(202);
    expect(res.json.data).toMatchObject({ id, type: 'webhook_notification', attributes: { id, delivery_status: 'pending' } });
    expect(res.json.links.self).toBe(`http://tidemark.test/v2/webhook_notifications/${id}`);
    const row = (await states([id!])).get(id!)!;
    expect(row).toMatchObject({ delivery_status: 'pending', attempts: 2, retry_base: 2 });
    expect(row.next_attempt_at?.getTime()).toBe(t.clock.now().getTime());
    const read = await call(t, 'GET', `/v2/webhook_notifications/${id}`, auth);
    expect(read.json.data.attributes.delivery_status).toBe('pending');
    expect(await t.services.db.query('SELECT id FROM webhook_notifications WHERE account_id = $1', [account.id])).toEqual([{ id }]);
  });

  it('another account’s notification, an unknown id and a malformed one → 404, nothing changes', async () => {
    const owner = await t.account();
    await create(owner.auth, { events: ['container.transport.delivered'] });
    const [id] = await notify(owner.account.id, 'container.transport.delivered');
    await attempted(id!, 'succeeded');
    const other = await t.account();
    await create(other.auth, { events: ['container.transport.delivered'] });
    const before = await dumpAccount(t.services.db, owner.account.id);
    for (const [auth, target] of [
      [other.auth, id],
      [owner.auth, newId()],
      [owner.auth, 'not-a-uuid'],
    ] as const) {
      const res = await call(t, 'POST', `/v2/webhook_notifications/${target}/redeliver`, auth);
      expect(res.status, `${target}: ${res.body}`).toBe(404);
      expect(res.json.errors[0]).toMatchObject({ status: '404', title: 'Not Found' });
    }
    expect(changed(before, await dumpAccount(t.services.db, owner.account.id))).toEqual([]);
    expect((await states([id!])).get(id!)?.delivery_status).toBe('succeeded');
  });
});

describe('POST /v2/webhooks/{id}/replay', () => {
  it('queues again the webhook’s notifications created in the window (events filter optional), ids unchanged; answers 202 {meta:{queued}}', async () => {
    const { account, auth } = await t.account();
    const hook = await create(auth, { events: ['container.transport.delivered', 'container.transport.available'] });
    // A second webhook on the same events: its notifications are not this webhook's to replay.
    const sibling = await create(auth, { url: URL_B, events: ['container.transport.delivered', 'container.transport.available'] });
    t.clock.set('2026-03-05T08:00:00Z');
    const early = await notify(account.id, 'container.transport.delivered');
    t.clock.set('2026-03-06T08:00:00Z');
    const mid = await notify(account.id, 'container.transport.available');
    t.clock.set('2026-03-06T20:00:00Z');
    const late = await notify(account.id, 'container.transport.delivered');
    const all = [...early, ...mid, ...late];
    expect(all).toHaveLength(6);
    for (const id of all) await attempted(id, 'succeeded');
    const of = async (ids: string[], webhookId: string) =>
      (
        await t.services.db.query<{ id: string }>('SELECT id FROM webhook_notifications WHERE id = ANY($1::uuid[]) AND webhook_id = $2', [
          ids,
          webhookId,
        ])
      ).map((r) => r.id);
    const [earlyMine, midMine, lateMine] = [await of(early, hook.id), await of(mid, hook.id), await of(late, hook.id)];
    t.clock.set('2026-03-08T00:00:00Z');

    // A date alone for `to` is the whole day: the 6th, both of its notifications of this webhook.
    const day = await call(t, 'POST', `/v2/webhooks/${hook.id}/replay`, auth, { from: '2026-03-06', to: '2026-03-06' });
    expect(day.status, day.body).toBe(202);
    expect(day.json).toEqual({ meta: { queued: 2 } });
    let now = await states(all);
    for (const id of [...midMine, ...lateMine])
      expect(now.get(id), id).toMatchObject({ delivery_status: 'pending', attempts: 1, retry_base: 1 });
    for (const id of [...earlyMine, ...(await of(all, sibling.id))]) expect(now.get(id)?.delivery_status, id).toBe('succeeded');
    const read = await call(t, 'GET', `/v2/webhook_notifications/${midMine[0]}`, auth);
    expect(read.json.data).toMatchObject({ id: midMine[0], attributes: { delivery_status: 'pending' } });

    // Events filter and a window with offsets.
    for (const id of [...midMine, ...lateMine]) await attempted(id, 'succeeded', 2);
    const filtered = await call(t, 'POST', `/v2/webhooks/${hook.id}/replay`, auth, {
      from: '2026-03-05T00:00:00+01:00',
      to: '2026-03-07T00:00:00Z',
      events: ['container.transport.delivered'],
    });
    expect(filtered.status, filtered.body).toBe(202);
    expect(filtered.json).toEqual({ meta: { queued: 2 } });
    now = await states(all);
    expect([...earlyMine, ...lateMine].map((id) => now.get(id)?.delivery_status)).toEqual(['pending', 'pending']);
    expect(now.get(midMine[0]!)?.delivery_status).toBe('succeeded');

    // An empty window queues nothing.
    const empty = await call(t, 'POST', `/v2/webhooks/${hook.id}/replay`, auth, {
      from: '2026-01-01T00:00:00Z',
      to: '2026-01-31T00:00:00Z',
    });
    expect(empty.status).toBe(202);
    expect(empty.json).toEqual({ meta: { queued: 0 } });
    // The notifications keep their ids: no row was added or removed.
    const ids = await t.services.db.query<{ id: string }>('SELECT id FROM webhook_notifications WHERE account_id = $1 ORDER BY id', [
      account.id,
    ]);
    expect(ids.map((r) => r.id)).toEqual([...all].sort());
  });

  it.each([
    ['a date that is not one', { from: 'yesterday', to: '2026-03-01T00:00:00Z' }, '/from'],
    ['a time without a zone', { from: '2026-03-01T00:00:00', to: '2026-03-02T00:00:00Z' }, '/from'],
    ['to before from', { from: '2026-03-02T00:00:00Z', to: '2026-03-01T00:00:00Z' }, '/to'],
    ['an unknown event', { from: '2026-03-01T00:00:00Z', to: '2026-03-02T00:00:00Z', events: ['container.created', 'nope'] }, '/events/1'],
    ['no from', { to: '2026-03-02T00:00:00Z' }, '/from'],
    ['an unknown member', { from: '2026-03-01T00:00:00Z', to: '2026-03-02T00:00:00Z', since: 'x' }, null],
  ])('answers 422 for %s, and queues nothing', async (_name, body, pointer) => {
    const { account, auth } = await t.account();
    const hook = await create(auth, { events: ['container.transport.delivered'] });
    const [id] = await notify(account.id, 'container.transport.delivered');
    await attempted(id!, 'succeeded');
    const before = await dumpAccount(t.services.db, account.id);
    const res = await call(t, 'POST', `/v2/webhooks/${hook.id}/replay`, auth, body);
    expect(res.status, res.body).toBe(422);
    expect(res.json.errors.length).toBeGreaterThan(0);
    if (pointer)
      expect(
        res.json.errors.map((e: Json) => e.source?.pointer),
        res.body,
      ).toContain(pointer);
    expect(changed(before, await dumpAccount(t.services.db, account.id))).toEqual([]);
  });

  it('answers 422 for an impossible calendar date (2026-02-30), and queues nothing', async () => {
    const { account, auth } = await t.account();
    const hook = await create(auth, { events: ['container.transport.delivered'] });
    const [id] = await notify(account.id, 'container.transport.delivered');
    await attempted(id!, 'succeeded');
    const before = await dumpAccount(t.services.db, account.id);
    // `to` well after the 30th, so that only the date's own validity can make this a 422.
    const res = await call(t, 'POST', `/v2/webhooks/${hook.id}/replay`, auth, { from: '2026-02-30T00:00:00Z', to: '2026-12-31T00:00:00Z' });
    expect(
      res.status,
      `PRODUCT BUG: replay takes from=2026-02-30T00:00:00Z (no such day) and answers ${res.status} ${res.body}; ` +
        'the body schema in src/http/routes/webhooks/replay.ts checks the date with Date.parse, which rolls February 30 over to ' +
        'March 2 instead of refusing it. Expected 422 with source.pointer /from.',
    ).toBe(422);
    expect(res.json.errors.map((e: Json) => e.source?.pointer)).toContain('/from');
    expect(changed(before, await dumpAccount(t.services.db, account.id))).toEqual([]);
  });
});
