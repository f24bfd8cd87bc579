// Text PostgreSQL cannot store (NUL, unpaired surrogates) in every free-text filter and attribute — a 400 naming the
// query parameter, a 422 pointing at the body member, never a 500 and never stored altered — and the errors Fastify
// raises itself (a path parameter too long, a broken percent-escape, body limits, malformed HTTP): every error body
// is JSON:API with the request id.
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeContainerNumber } from '../../src/domain/container-number.js';
import { type TestApp, testApp } from '../kit/app.js';
import { seedShipment } from '../kit/seed.js';

let t: TestApp;
let auth: Record<string, string>;
let shipment: string;
let container: string;
let party: string;

beforeAll(async () => {
  t = await testApp({ env: { TIDEMARK_SIGNUP: 'on' } });
  const owner = await t.account({ name: 'hostile-text' });
  auth = owner.auth;
  const seeded = await seedShipment(t, owner.account.id, {
    bl: 'MAEUTEXT0001',
    containers: [{ number: makeContainerNumber('MSCU', 777001) }],
  });
  shipment = seeded.id;
  container = seeded.containerIds[0]!;
  const res = await t.app.inject({
    method: 'POST',
    url: '/v2/parties',
    headers: { ...auth, 'content-type': 'application/vnd.api+json' },
    payload: { data: { type: 'party', attributes: { company_name: 'Plain Imports' } } },
  });
  party = res.json().data.id;
});
afterAll(() => t.close());

interface ErrorDoc {
  errors: {
    status: string;
    title: string;
    detail?: string;
    source?: { pointer?: string; parameter?: string };
    meta: { request_id: string };
  }[];
}

/** The answer's JSON:API error document, after checking what every error answer must be. */
function errorsOf(res: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number): ErrorDoc['errors'] {
  expect(res.statusCode, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/vnd\.api\+json/);
  const requestId = res.headers['x-request-id'];
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  const doc = JSON.parse(res.body) as ErrorDoc;
  expect(doc.errors.length).toBeGreaterThan(0);
  for (const e of doc.errors) {
    expect(e.status).toBe(String(status));
    expect(e.title).toBeTruthy();
    expect(e.meta.request_id).toBe(requestId);
  }
  expect(res.body).not.toMatch(/FST_ERR|postgres|pglite|invalid byte sequence|syntax error/i);
  return doc.errors;
}

describe('NUL in a query parameter is a 400 naming it', () => {
  const cases: [string, string][] = [
    ['/v2/shipments?q=MAEU%00', 'q'],
    ['/v2/shipments?filter[q]=%00', 'filter[q]'],
    ['/v2/shipments?filter[number]=MAEU%00TEXT', 'filter[number]'],
    ['/v2/shipments?number=%00', 'number'],
    ['/v2/shipments?filter[customer_name]=Plain%00', 'filter[customer_name]'],
    ['/v2/shipments?customer_name=%00', 'customer_name'],
    ['/v2/containers?filter[number]=MSCU%00', 'filter[number]'],
    ['/v2/containers?filter[customer_name]=%00', 'filter[customer_name]'],
    ['/v2/tracking_requests?q=%00', 'q'],
    ['/v2/tracking_requests?filter[request_number]=MAEU%00', 'filter[request_number]'],
    ['/v2/search?query=MAEU%00TEXT', 'query'],
    // Repeated, percent-encoded brackets, and in a parameter's name.
    ['/v2/shipments?q=a&q=b%00', 'q'],
    ['/v2/shipments?filter%5Bnumber%5D=%00', 'filter[number]'],
    ['/v2/shipments?filter[a%00b]=1', 'filter[a\u0000b]'],
  ];
  it.each(cases)('%s', async (url, parameter) => {
    const errors = errorsOf(await t.app.inject({ method: 'GET', url, headers: auth }), 400);
    expect(errors[0]!.source).toEqual({ parameter });
    expect(errors[0]!.detail).toMatch(/NUL character \(U\+0000\), which cannot be stored/);
  });
});

describe('NUL or an unpaired surrogate in a body member is a 422 pointing at it, and nothing is written', () => {
  const write = (method: 'POST' | 'PATCH', url: () => string, type: string, attributes: Record<string, unknown>, pointer: string) => ({
    method,
    url,
    body: () => ({ data: { type, ...(method === 'PATCH' ? { id: url().split('/')[3] } : {}), attributes } }),
    pointer,
  });
  const cases: Record<string, ReturnType<typeof write>> = {
    'party name (create)': write('POST', () => '/v2/parties', 'party', { company_name: 'Acme\u0000' }, '/data/attributes/company_name'),
    'party name, lone surrogate': write(
      'POST',
      () => '/v2/parties',
      'party',
      { company_name: 'Acme \ud800' },
      '/data/attributes/company_name',
    ),
    'party name (update)': write(
      'PATCH',
      () => `/v2/parties/${party}`,
      'party',
      { company_name: '\u0000' },
      '/data/attributes/company_name',
    ),
    'key name': write('POST', () => '/v2/api_keys', 'api_key', { name: 'ci\u0000' }, '/data/attributes/name'),
    'shipment ref number': write(
      'PATCH',
      () => `/v2/shipments/${shipment}`,
      'shipment',
      { ref_numbers: ['PO-1', 'PO\u0000'] },
      '/data/attributes/ref_numbers/1',
    ),
    'shipment tag': write('PATCH', () => `/v2/shipments/${shipment}`, 'shipment', { tags: ['\udfff'] }, '/data/attributes/tags/0'),
    'container ref number': write(
      'PATCH',
      () => `/v2/containers/${container}`,
      'container',
      { ref_numbers: ['\u0000'] },
      '/data/attributes/ref_numbers/0',
    ),
    'tracking request number': write(
      'POST',
      () => '/v2/tracking_requests',
      'tracking_request',
      { request_type: 'bill_of_lading', request_number: 'MAEU\u0000', scac: 'MAEU' },
      '/data/attributes/request_number',
    ),
    'tracking request ref number': write(
      'POST',
      () => '/v2/tracking_requests',
      'tracking_request',
      { request_type: 'bill_of_lading', request_number: 'MAEUTEXT0002', scac: 'MAEU', ref_numbers: ['a\u0000'] },
      '/data/attributes/ref_numbers/0',
    ),
    'tracking request tag': write(
      'POST',
      () => '/v2/tracking_requests',
      'tracking_request',
      { request_type: 'bill_of_lading', request_number: 'MAEUTEXT0003', scac: 'MAEU', shipment_tags: ['\u0000'] },
      '/data/attributes/shipment_tags/0',
    ),
    'member name': write('POST', () => '/v2/parties', 'party', { 'company\u0000name': 'x' }, '/data/attributes/company\u0000name'),
  };
  it.each(Object.entries(cases))('%s', async (_name, c) => {
    const before = await t.services.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM parties) + (SELECT count(*) FROM api_keys) + (SELECT count(*) FROM tracking_requests) AS n`,
    );
    const res = await t.app.inject({
      method: c.method,
      url: c.url(),
      headers: { ...auth, 'content-type': 'application/vnd.api+json' },
      payload: JSON.stringify(c.body()),
    });
    const errors = errorsOf(res, 422);
    expect(errors.map((e) => e.source)).toContainEqual({ pointer: c.pointer });
    expect(errors[0]!.detail).toMatch(/(NUL character|unpaired UTF-16 surrogate).*cannot be stored/);
    const after = await t.services.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM parties) + (SELECT count(*) FROM api_keys) + (SELECT count(*) FROM tracking_requests) AS n`,
    );
    expect(after).toEqual(before);
  });

  it('the party role and the shipment are untouched by refused edits', async () => {
    const role = await t.app.inject({
      method: 'POST',
      url: '/v2/party_roles',
      headers: { ...auth, 'content-type': 'application/vnd.api+json' },
      payload: {
        data: {
          type: 'party_role',
          attributes: { role: 'notify\u0000' },
          relationships: { party: { data: { type: 'party', id: party } }, shipment: { data: { type: 'shipment', id: shipment } } },
        },
      },
    });
    expect(errorsOf(role, 422)[0]!.source).toEqual({ pointer: '/data/attributes/role' });
    const got = await t.app.inject({ method: 'GET', url: `/v2/shipments/${shipment}`, headers: auth });
    expect(got.json().data.attributes.ref_numbers).toEqual([]);
    expect(got.json().data.attributes.tags).toEqual([]);
  });
});

describe('the web app: sign-up and sign-in', () => {
  const cases: [string, Record<string, string>, string][] = [
    ['/auth/signup', { email: 'a\u0000@example.com', password: 'correct horse battery', company_name: 'Acme' }, '/email'],
    ['/auth/signup', { email: 'b@example.com', password: 'correct horse battery', company_name: 'Acme\u0000' }, '/company_name'],
    ['/auth/signup', { email: 'c@example.com', password: 'correct horse\ud800', company_name: 'Acme' }, '/password'],
    ['/auth/signin', { email: 'owner\u0000@example.com', password: 'whatever it is' }, '/email'],
    ['/auth/signin', { email: 'owner@example.com', password: 'what\u0000ever' }, '/password'],
  ];
  it.each(cases)('%s %j', async (url, body, pointer) => {
    const res = await t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    expect(errorsOf(res, 422)[0]!.source).toEqual({ pointer });
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe("Fastify's own errors are JSON:API with the request id", () => {
  it('a path parameter over 100 characters is a 404 on an id route', async () => {
    for (const url of [
      `/v2/shipments/${'a'.repeat(101)}`,
      `/v2/containers/${'f'.repeat(5000)}/transport_events`,
      `/v2/parties/${'1'.repeat(101)}`,
    ]) {
      errorsOf(await t.app.inject({ method: 'GET', url, headers: auth }), 404);
    }
  });

  it('a NUL in a path parameter is a 404', async () => {
    errorsOf(await t.app.inject({ method: 'GET', url: `/v2/shipments/${shipment}%00`, headers: auth }), 404);
    errorsOf(await t.app.inject({ method: 'GET', url: '/auth/tokens/%00', headers: auth }), 404);
  });

  it('a broken percent-escape in the path is a 400', async () => {
    for (const url of ['/v2/shipments/%', '/v2/shipments/%ZZ', '/v2/shipments/%ED%A0%80', '/v2/containers/%E2%82/transport_events']) {
      const errors = errorsOf(await t.app.inject({ method: 'GET', url, headers: auth }), 400);
      expect(errors[0]!.detail).toMatch(/percent-escape/);
    }
  });

  it('body limits, media types and malformed JSON', async () => {
    const post = (payload: string, type?: string) =>
      t.app.inject({ method: 'POST', url: '/v2/parties', headers: { ...auth, ...(type ? { 'content-type': type } : {}) }, payload });
    errorsOf(await post(JSON.stringify({ data: { attributes: { company_name: 'x'.repeat(1024 * 1024) } } }), 'application/json'), 413);
    errorsOf(await post('company_name=x', 'application/x-www-form-urlencoded'), 415);
    errorsOf(await post('{"data":', 'application/vnd.api+json'), 400);
    errorsOf(await post('{"__proto__":{"x":1}}', 'application/json'), 400);
    errorsOf(await post('[1]', 'application/json'), 422);
  });

  it('unknown paths and methods, and errors thrown in onRequest hooks (authentication)', async () => {
    errorsOf(await t.app.inject({ method: 'GET', url: '/v2/nothing-here', headers: auth }), 404);
    errorsOf(await t.app.inject({ method: 'PUT', url: '/v2/shipments', headers: auth }), 405);
    errorsOf(await t.app.inject({ method: 'GET', url: '/v2/shipments' }), 401);
    errorsOf(await t.app.inject({ method: 'GET', url: '/v2/shipments', headers: { authorization: 'Token %00' } }), 401);
    errorsOf(await t.app.inject({ method: 'GET', url: '/auth/session', headers: { cookie: 'tidemark_session=%00' } }), 401);
  });

  it('what the HTTP parser refuses (a malformed request, headers too large) is JSON:API on the socket', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.end(request));
        let out = '';
        socket.on('data', (d) => {
          out += d.toString('latin1');
        });
        socket.on('close', () => resolve(out));
        socket.on('error', reject);
      });
    for (const [request, status] of [
      ['GET /v2/shipments HTTP/1.1\r\nHost: x\r\nBroken header line\r\n\r\n', 400],
      [`GET /v2/shipments HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ] as const) {
      const answer = await raw(request);
      const [head, body] = answer.split('\r\n\r\n');
      expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
      const headers = Object.fromEntries(
        head!
          .split('\r\n')
          .slice(1)
          .map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      errorsOf({ statusCode: status, headers, body: body! }, status);
    }
  });
});

describe('a closing server', () => {
  it('answers a request still arriving (pipelined behind one in flight) with a JSON:API 503', async () => {
    const own = await testApp();
    const { auth: key } = await own.account({ name: 'closing' });
    await own.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = own.app.server.address() as AddressInfo;
    const body = JSON.stringify({ data: { type: 'party', attributes: { company_name: 'Late Imports' } } });
    const socket = connect(port, '127.0.0.1');
    let out = '';
    socket.on('data', (d) => {
      out += d.toString('utf8');
    });
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    // The first request is in flight (its body not all sent) when the app starts to close.
    const seen = new Promise<void>((resolve) => own.app.server.once('request', () => resolve()));
    socket.write(
      `POST /v2/parties HTTP/1.1\r\nHost: x\r\nAuthorization: ${key.authorization}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await seen;
    const closed = own.app.close();
    while (own.app.server.listening) await new Promise((resolve) => setImmediate(resolve));
    // The rest of its body, and a second request behind it on the same connection.
    socket.write(`${body.slice(10)}GET /v2/shipments HTTP/1.1\r\nHost: x\r\nAuthorization: ${key.authorization}\r\n\r\n`);
    await ended;
    await closed;
    await own.close().catch(() => undefined);
    const answers = out.split(/(?=HTTP\/1\.1 )/);
    expect(answers.map((a) => a.slice(0, 12))).toEqual(['HTTP/1.1 201', 'HTTP/1.1 503']);
    const [head, payload] = answers[1]!.split('\r\n\r\n');
    const headers = Object.fromEntries(
      head!
        .split('\r\n')
        .slice(1)
        .map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
    );
    expect(headers['retry-after']).toBe('1');
    expect(headers.connection).toBe('close');
    const errors = errorsOf({ statusCode: 503, headers, body: payload! }, 503);
    expect(errors[0]!.detail).toMatch(/shutting down/);
  });
});
