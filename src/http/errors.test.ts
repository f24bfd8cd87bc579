// The error renderer on a bare Fastify app (no database): each kind of error, whatever raises it, becomes a JSON:API
// errors document with the request id in the body and the X-Request-Id header, and says nothing internal.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TidemarkError } from '../domain/errors.js';
import { clientError, frameworkError, sendError } from './errors.js';

const app = Fastify({ frameworkErrors: frameworkError, clientErrorHandler: clientError, bodyLimit: 64 });

beforeAll(async () => {
  app.setErrorHandler((err, req, reply) => sendError(reply, err, req));
  app.get('/things/:id', async () => ({ ok: true }));
  app.post('/things', async () => ({ ok: true }));
  app.get('/tidemark', async () => {
    throw new TidemarkError('conflict', 'Already stopped');
  });
  app.get('/unavailable', async () => {
    throw new TidemarkError('unavailable', 'connection reset by the database', { retryAfterSeconds: 3 });
  });
  app.get('/crash', async () => {
    throw Object.assign(new Error('relation "secret_table" does not exist'), { code: '42P01' });
  });
  app.get('/library-4xx', async () => {
    throw Object.assign(new Error('internal detail of some library'), { statusCode: 409 });
  });
  await app.ready();
});
afterAll(() => app.close());

function check(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, status: number) {
  expect(res.statusCode).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/vnd\.api\+json/);
  const doc = res.json() as { errors: { status: string; title: string; detail?: string | null; meta: { request_id: string } }[] };
  expect(doc.errors[0]!.status).toBe(String(status));
  expect(doc.errors[0]!.title).toBeTruthy();
  expect(doc.errors[0]!.meta.request_id).toBe(res.headers['x-request-id']);
  return doc.errors[0]!;
}

describe('sendError and frameworkError', () => {
  it('a path parameter over the router limit is a 404', async () => {
    check(await app.inject({ url: `/things/${'a'.repeat(101)}` }), 404);
  });

  it('a percent-escape that does not decode is a 400', async () => {
    expect(check(await app.inject({ url: '/things/%' }), 400).detail).toMatch(/percent-escape/);
  });

  it('TidemarkErrors keep their words below 500; a 503 keeps Retry-After and says nothing internal', async () => {
    expect(check(await app.inject({ url: '/tidemark' }), 409).detail).toBe('Already stopped');
    const res = await app.inject({ url: '/unavailable' });
    expect(check(res, 503).detail).toBeNull();
    expect(res.headers['retry-after']).toBe('3');
  });

  it('anything else is a 500 without detail', async () => {
    const res = await app.inject({ url: '/crash' });
    expect(check(res, 500).detail).toBeNull();
    expect(res.body).not.toContain('secret_table');
  });

  it("another library's 4xx keeps its status, not its message; Fastify's own 4xx messages are for clients", async () => {
    const res = await app.inject({ url: '/library-4xx' });
    expect(check(res, 409).detail).toBeNull();
    expect(res.body).not.toContain('internal detail');
    const big = await app.inject({
      method: 'POST',
      url: '/things',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ a: 'x'.repeat(100) }),
    });
    expect(check(big, 413).detail).toBe('Request body is too large');
    expect(
      check(await app.inject({ method: 'POST', url: '/things', headers: { 'content-type': 'application/json' }, payload: '{' }), 400)
        .detail,
    ).toBe('The request body is not valid JSON');
  });
});
