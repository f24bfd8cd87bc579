import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkWebhookUrl, type Resolver } from './ssrf.js';
import { createTransport, MAX_RESPONSE_BODY_BYTES, type Transport, truncateUtf8 } from './transport.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local webhook receiver on 127.0.0.1; `respond` decides each answer (it may also never answer). */
class Receiver {
  readonly requests: Received[] = [];
  connections = 0;
  respond: (req: Received, res: ServerResponse) => void = (_req, res) => res.writeHead(200).end('ok');
  readonly server: Server;

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const received = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        this.requests.push(received);
        this.respond(received, res);
      });
    });
    this.server.on('connection', () => this.connections++);
  }

  async start(): Promise<void> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  reset(): void {
    this.requests.length = 0;
    this.connections = 0;
    this.respond = (_req, res) => res.writeHead(200).end('ok');
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }
}

/** A resolver with fixed answers per call; records every hostname asked. */
function sequenceResolver(answers: string[][]): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolver = async (hostname: string) => {
    asked.push(hostname);
    return answers[Math.min(asked.length - 1, answers.length - 1)]!;
  };
  return Object.assign(resolver, { asked });
}

const body = JSON.stringify({
  data: { id: 'n-1', type: 'webhook_notification', attributes: { event: 'container.transport.vessel_arrived' } },
});
const fixedNow = new Date('2025-03-04T10:00:00Z');

describe('transport with a local receiver (allowPrivate)', () => {
  const receiver = new Receiver();
  let transport: Transport;

  beforeAll(async () => {
    await receiver.start();
    transport = createTransport({ allowPrivate: true, userAgent: 'Tidemark-Webhooks/test', now: () => fixedNow });
  });
  afterEach(() => receiver.reset());
  afterAll(async () => {
    await transport.close();
    await receiver.stop();
  });

  const post = (path = '/hook', extra: Partial<{ headers: Record<string, string>; timeoutMs: number; url: string }> = {}) =>
    transport.post({ url: extra.url ?? receiver.url(path), headers: extra.headers ?? {}, body, timeoutMs: extra.timeoutMs ?? 5_000 });

  it.each([200, 201, 202, 204])('%d is delivered', async (status) => {
    receiver.respond = (_req, res) => res.writeHead(status).end(status === 204 ? undefined : 'thanks');
    const result = await post();
    expect(result).toMatchObject({ succeeded: true, statusCode: status, error: null, retryAfterSeconds: null, startedAt: fixedNow });
    expect(result.responseBody).toBe(status === 204 ? '' : 'thanks');
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it.each([
    [500, 'HTTP 500'],
    [404, 'HTTP 404'],
    [429, 'HTTP 429'],
    [203, 'HTTP 203: only 200, 201, 202 and 204 count as delivered'],
  ])('%d is a failed attempt', async (status, error) => {
    receiver.respond = (_req, res) => res.writeHead(status, { 'content-type': 'text/plain' }).end('nope');
    const result = await post();
    expect(result).toMatchObject({ succeeded: false, statusCode: status, error, responseBody: 'nope' });
    expect(result.responseHeaders['content-type']).toBe('text/plain');
  });

  it('does not follow a redirect', async () => {
    receiver.respond = (req, res) =>
      req.url === '/moved' ? res.writeHead(301, { location: receiver.url('/target') }).end() : res.writeHead(200).end();
    const result = await post('/moved');
    expect(result).toMatchObject({ succeeded: false, statusCode: 301 });
    expect(result.error).toBe(`redirected (HTTP 301) to ${receiver.url('/target')}; redirects are not followed, use the final URL`);
    expect(receiver.requests.map((r) => r.url)).toEqual(['/moved']);
  });

  it('times out on a receiver that never answers', async () => {
    receiver.respond = () => undefined;
    const result = await post('/hook', { timeoutMs: 200 });
    expect(result).toMatchObject({ succeeded: false, statusCode: null, responseBody: null, error: 'timed out after 200 ms' });
    expect(result.durationMs).toBeGreaterThanOrEqual(190);
    expect(result.durationMs).toBeLessThan(3_000);
  });

  it('keeps at most 2 KB of the body, never splitting a character', async () => {
    // 'a' then 'é' (2 bytes) repeated: byte 2048 falls inside a character.
    receiver.respond = (_req, res) => res.writeHead(500).end(`a${'é'.repeat(100_000)}`);
    const result = await post();
    expect(result.statusCode).toBe(500);
    expect(Buffer.byteLength(result.responseBody!, 'utf8')).toBe(2047);
    expect(result.responseBody).toBe(`a${'é'.repeat(1023)}`);
  });

  it('captures Retry-After in seconds or as an HTTP date', async () => {
    receiver.respond = (_req, res) => res.writeHead(503, { 'retry-after': '120' }).end();
    expect((await post()).retryAfterSeconds).toBe(120);
    receiver.respond = (_req, res) => res.writeHead(429, { 'retry-after': 'Tue, 04 Mar 2025 10:10:00 GMT' }).end();
    expect((await post()).retryAfterSeconds).toBe(600);
  });

  it('sends the body and headers as given, with content type and user agent', async () => {
    const headers = {
      'X-Tidemark-Webhook-Signature': 'abc123',
      'webhook-id': 'n-1',
      'X-Custom': 'custom value',
      // Owned by the transport: a custom header cannot change framing or routing.
      Host: 'evil.example',
      'Content-Length': '1',
    };
    const result = await post('/hook?token=1', { headers });
    expect(result.succeeded).toBe(true);
    const [got] = receiver.requests;
    expect(got).toMatchObject({ method: 'POST', url: '/hook?token=1', body });
    expect(got!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Tidemark-Webhooks/test',
      'x-tidemark-webhook-signature': 'abc123',
      'webhook-id': 'n-1',
      'x-custom': 'custom value',
      host: `127.0.0.1:${receiver.port}`,
      'content-length': String(Buffer.byteLength(body)),
    });
  });

  it('reports a refused connection', async () => {
    const gone = new Receiver();
    await gone.start();
    const url = gone.url();
    await gone.stop();
    const result = await post('/hook', { url });
    expect(result).toMatchObject({ succeeded: false, statusCode: null, error: 'connection refused' });
  });

  it('resolves hostnames with the injected resolver', async () => {
    const resolver = sequenceResolver([['127.0.0.1']]);
    const t = createTransport({ allowPrivate: true, resolver, userAgent: 'x' });
    try {
      const result = await t.post({ url: `http://receiver.test:${receiver.port}/hook`, headers: {}, body, timeoutMs: 5_000 });
      expect(result).toMatchObject({ succeeded: true, statusCode: 200 });
      expect(resolver.asked).toEqual(['receiver.test']);
      expect(receiver.requests[0]!.headers.host).toBe(`receiver.test:${receiver.port}`);
    } finally {
      await t.close();
    }
  });

  it('reports a host that does not resolve', async () => {
    const t = createTransport({ allowPrivate: true, resolver: async () => [], userAgent: 'x' });
    try {
      const result = await t.post({ url: 'http://nowhere.test/hook', headers: {}, body, timeoutMs: 5_000 });
      expect(result).toMatchObject({ succeeded: false, statusCode: null, error: 'host nowhere.test not found' });
    } finally {
      await t.close();
    }
  });

  it('never throws, even for a malformed request', async () => {
    expect(await post('/hook', { url: 'not a url' })).toMatchObject({ succeeded: false, error: 'refused: not a valid absolute URL' });
    const result = await post('/hook', { headers: { 'x-bad': 'line\nbreak' } });
    expect(result.succeeded).toBe(false);
    expect(result.error).toBeTruthy();
  });
});

describe('transport SSRF guard (allowPrivate off)', () => {
  const receiver = new Receiver();
  beforeAll(() => receiver.start());
  afterEach(() => receiver.reset());
  afterAll(() => receiver.stop());

  async function attempt(url: string, resolver: Resolver) {
    const t = createTransport({ allowPrivate: false, resolver, userAgent: 'x' });
    try {
      return await t.post({ url, headers: {}, body, timeoutMs: 2_000 });
    } finally {
      await t.close();
    }
  }

  it('refuses a forbidden IP literal without resolving or connecting', async () => {
    const resolver = sequenceResolver([['127.0.0.1']]);
    for (const host of ['127.0.0.1', '[::1]', '169.254.169.254', '10.0.0.5']) {
      const result = await attempt(`https://${host}:${receiver.port}/hook`, resolver);
      expect(result).toMatchObject({ succeeded: false, statusCode: null });
      expect(result.error).toMatch(/^refused: .* is a private, loopback, link-local or reserved address$/);
    }
    expect(resolver.asked).toEqual([]);
    expect(receiver.connections).toBe(0);
  });

  it('refuses http://', async () => {
    const resolver = sequenceResolver([['93.184.215.14']]);
    const result = await attempt('http://hooks.example.com/hook', resolver);
    expect(result).toMatchObject({ succeeded: false, error: 'refused: only https URLs are allowed' });
    expect(resolver.asked).toEqual([]);
  });

  it('refuses localhost by name', async () => {
    const result = await attempt(`https://localhost:${receiver.port}/hook`, sequenceResolver([['127.0.0.1']]));
    expect(result.error).toBe('refused: localhost is the local machine');
    expect(receiver.connections).toBe(0);
  });

  it('refuses a hostname that resolves to a private address', async () => {
    const resolver = sequenceResolver([['10.0.0.5']]);
    const result = await attempt('https://internal.example.com/hook', resolver);
    expect(result).toMatchObject({ succeeded: false, statusCode: null });
    expect(result.error).toBe('refused: internal.example.com resolves to 10.0.0.5, a private, loopback, link-local or reserved address');
    expect(resolver.asked).toEqual(['internal.example.com']);
  });

  it('refuses when any of the answers is forbidden', async () => {
    const result = await attempt('https://mixed.example.com/hook', sequenceResolver([['93.184.215.14', 'fd00:ec2::254']]));
    expect(result.error).toBe('refused: mixed.example.com resolves to fd00:ec2::254, a private, loopback, link-local or reserved address');
  });

  it('refuses DNS rebinding: public when the URL was saved, loopback at connect time', async () => {
    const resolver = sequenceResolver([['93.184.215.14'], ['127.0.0.1']]);
    const url = `https://rebind.example.com:${receiver.port}/hook`;
    expect(await checkWebhookUrl(url, { allowPrivate: false, resolver })).toEqual({ ok: true });
    const result = await attempt(url, resolver);
    expect(result).toMatchObject({ succeeded: false, statusCode: null });
    expect(result.error).toBe('refused: rebind.example.com resolves to 127.0.0.1, a private, loopback, link-local or reserved address');
    expect(resolver.asked).toEqual(['rebind.example.com', 'rebind.example.com']);
    expect(receiver.connections).toBe(0);
    expect(receiver.requests).toEqual([]);
  });
});

describe('truncateUtf8', () => {
  it.each([
    ['short', 10, 'short'],
    ['abcdef', 3, 'abc'],
    ['aé', 2, 'a'],
    ['a€b', 3, 'a'],
    ['a€b', 4, 'a€'],
    ['🚢🚢', 7, '🚢'],
    ['nul\u0000byte', 100, 'nul\uFFFDbyte'],
  ])('%o cut at %d bytes → %o', (text, limit, expected) => {
    expect(truncateUtf8(Buffer.from(text, 'utf8'), limit)).toBe(expected);
  });

  it('stays within the limit when invalid bytes become U+FFFD', () => {
    const text = truncateUtf8(Buffer.alloc(MAX_RESPONSE_BODY_BYTES, 0xff), MAX_RESPONSE_BODY_BYTES);
    expect(Buffer.byteLength(text, 'utf8')).toBeLessThanOrEqual(MAX_RESPONSE_BODY_BYTES);
  });
});
