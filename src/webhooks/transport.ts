// The HTTP of webhook delivery: one POST, classified, never thrown. Built on an undici Agent whose DNS lookup goes
// through the SSRF guard, so a hostname that passed the create-time check but now resolves to a private address
// (DNS rebinding) is refused when the connection is made, not only when the URL was saved.
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Agent } from 'undici';
import { parseRetryAfter } from './retry-schedule.js';
import { ipLiteral, isForbiddenAddress, isLocalhostName, type Resolver, systemResolver } from './ssrf.js';

export interface DeliveryRequest {
  url: string;
  /** Signatures and the webhook's custom headers; they win over the transport's content-type and user-agent. */
  headers: Record<string, string>;
  body: string;
  /** For the whole attempt: connection, request, response headers and the (truncated) body. */
  timeoutMs: number;
}

export interface DeliveryResult {
  /** 200, 201, 202 or 204: nothing else counts as delivered (wire notes §5.2). */
  succeeded: boolean;
  /** Null when no response arrived (refused, timed out, connection failed). */
  statusCode: number | null;
  /** Lower-case names; repeated headers joined with `, `. */
  responseHeaders: Record<string, string>;
  /** At most 2048 bytes (UTF-8 safe); null when no response arrived. */
  responseBody: string | null;
  /** A short readable reason for a failed attempt; null when it succeeded. */
  error: string | null;
  startedAt: Date;
  durationMs: number;
  /** The response's Retry-After in seconds from `startedAt`'s clock, whatever the status. */
  retryAfterSeconds: number | null;
}

export interface TransportOptions {
  /** `TIDEMARK_WEBHOOKS_ALLOW_PRIVATE`: http and every address allowed (development, tests). */
  allowPrivate: boolean;
  /** Resolves hostnames at connect time; the system resolver by default. */
  resolver?: Resolver;
  userAgent: string;
  /** Wall clock for `startedAt` and HTTP-date Retry-After; durations use a monotonic timer whatever it says. */
  now?: () => Date;
  /** Open connections per origin; further deliveries to the same receiver wait for one (default 10). */
  maxConnectionsPerOrigin?: number;
}

export interface Transport {
  post(req: DeliveryRequest): Promise<DeliveryResult>;
  /** Waits for attempts in flight (each bounded by its timeout), then closes every connection. */
  close(): Promise<void>;
}

export const MAX_RESPONSE_BODY_BYTES = 2048;
const SUCCESS = new Set([200, 201, 202, 204]);
const DEFAULT_CONNECTIONS_PER_ORIGIN = 10;

/**
 * Headers the transport owns: framing and routing come from the URL and the body, and a custom header must not be
 * able to change them (undici would also throw on some of them).
 */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
  'te',
  'trailer',
]);

/** The refusal raised inside the connect-time lookup; recognised again in the error chain of a failed request. */
class RefusedAddressError extends Error {
  readonly code = 'ERR_TIDEMARK_REFUSED_ADDRESS';
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`refused: ${hostname} resolves to ${address}, a private, loopback, link-local or reserved address`);
    this.name = 'RefusedAddressError';
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `net.connect` lookup that resolves with `resolver` and refuses the connection when any answer is forbidden
 * (the same rule as the create-time check). net calls it with `all: true` when it may try several addresses.
 */
function guardedLookup(resolver: Resolver, allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolver(hostname).then(
      (addresses) => {
        if (!allowPrivate) {
          const forbidden = isLocalhostName(hostname) ? (addresses[0] ?? '127.0.0.1') : addresses.find(isForbiddenAddress);
          if (forbidden !== undefined) return callback(new RefusedAddressError(hostname, forbidden), '');
        }
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter((a) => a.family !== 0 && (wanted === 0 || a.family === wanted));
        const first = usable[0];
        if (!first) {
          const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          error.code = 'ENOTFOUND';
          return callback(error, '');
        }
        if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), ''),
    );
  };
}

export function createTransport(opts: TransportOptions): Transport {
  const now = opts.now ?? (() => new Date());
  const agent = new Agent({
    connections: opts.maxConnectionsPerOrigin ?? DEFAULT_CONNECTIONS_PER_ORIGIN,
    connect: { lookup: guardedLookup(opts.resolver ?? systemResolver, opts.allowPrivate) },
  });

  async function post(req: DeliveryRequest): Promise<DeliveryResult> {
    const startedAt = now();
    const t0 = performance.now();
    const base = { responseHeaders: {}, responseBody: null, retryAfterSeconds: null };
    const fail = (error: string, extra: Partial<DeliveryResult> = {}): DeliveryResult => ({
      succeeded: false,
      statusCode: null,
      ...base,
      error,
      startedAt,
      durationMs: elapsed(t0),
      ...extra,
    });

    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return fail('refused: not a valid absolute URL');
    }
    const refusal = refuseBeforeConnecting(url, opts.allowPrivate);
    if (refusal) return fail(refusal);

    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': opts.userAgent };
    for (const [name, value] of Object.entries(req.headers)) {
      const lower = name.toLowerCase();
      if (!RESERVED_HEADERS.has(lower)) headers[lower] = value;
    }

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`timed out after ${req.timeoutMs} ms`));
    }, req.timeoutMs);
    try {
      let res: Awaited<ReturnType<Agent['request']>>;
      try {
        res = await agent.request({
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers,
          body: req.body,
          signal: controller.signal,
        });
      } catch (error) {
        return fail(timedOut ? `timed out after ${req.timeoutMs} ms` : describeError(error, url.hostname));
      }

      // The status decides: a body that cannot be read in time is kept as far as it came, not a second verdict.
      const responseBody = await readLimited(res.body);
      const responseHeaders = flattenHeaders(res.headers);
      const status = res.statusCode;
      const succeeded = SUCCESS.has(status);
      return {
        succeeded,
        statusCode: status,
        responseHeaders,
        responseBody,
        error: succeeded ? null : statusError(status, responseHeaders),
        startedAt,
        durationMs: elapsed(t0),
        retryAfterSeconds: parseRetryAfter(responseHeaders['retry-after'], now()),
      };
    } catch (error) {
      // Never thrown to the worker: anything unexpected is still one failed attempt with a reason.
      return fail(describeError(error, url.hostname));
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    post,
    close: () => agent.close(),
  };
}

/** Refusals that need no network: scheme, credentials, and IP literals (net.connect does no lookup for those). */
function refuseBeforeConnecting(url: URL, allowPrivate: boolean): string | null {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `refused: ${url.protocol} URLs are not delivered to`;
  if (url.protocol === 'http:' && !allowPrivate) return 'refused: only https URLs are allowed';
  if (url.username || url.password) return 'refused: the URL contains credentials';
  if (allowPrivate) return null;
  const literal = ipLiteral(url.hostname);
  if (literal && isForbiddenAddress(literal)) return `refused: ${literal} is a private, loopback, link-local or reserved address`;
  if (isLocalhostName(url.hostname)) return `refused: ${url.hostname} is the local machine`;
  return null;
}

/** Reads up to 2 KB and drops the rest (destroying the stream closes that connection rather than draining it). */
async function readLimited(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= MAX_RESPONSE_BODY_BYTES) break;
    }
  } catch {
    // Aborted by the timeout or reset by the receiver: keep what arrived.
  } finally {
    body.destroy();
  }
  return truncateUtf8(Buffer.concat(chunks), MAX_RESPONSE_BODY_BYTES);
}

/**
 * The first `limit` bytes as text, never splitting a character. NUL becomes U+FFFD because PostgreSQL text cannot
 * hold it; invalid UTF-8 becomes U+FFFD too, which can grow the text, so the byte count is checked once more.
 */
export function truncateUtf8(bytes: Buffer, limit: number): string {
  let end = Math.min(bytes.length, limit);
  // A continuation byte (10xxxxxx) right after the cut means the cut is inside a character: back up to its start.
  if (end < bytes.length) while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  let text = bytes.subarray(0, end).toString('utf8').replaceAll('\u0000', '\uFFFD');
  while (Buffer.byteLength(text, 'utf8') > limit) text = [...text].slice(0, -1).join('');
  return text;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function statusError(status: number, headers: Record<string, string>): string {
  if (status >= 300 && status < 400) {
    const to = headers['location'] ? ` to ${headers['location']}` : '';
    return `redirected (HTTP ${status})${to}; redirects are not followed, use the final URL`;
  }
  if (status >= 200 && status < 300) return `HTTP ${status}: only 200, 201, 202 and 204 count as delivered`;
  return `HTTP ${status}`;
}

const TLS_CODE = /^(?:ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

/** One short sentence for a request that got no response, from the first error in the chain with a known code. */
function describeError(error: unknown, hostname: string): string {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof RefusedAddressError) return e.message;
    const code = (e as NodeJS.ErrnoException).code ?? '';
    switch (code) {
      case 'ECONNREFUSED':
        return 'connection refused';
      case 'ECONNRESET':
      case 'EPIPE':
      case 'UND_ERR_SOCKET':
        return 'connection closed by the receiver before it answered';
      case 'ENOTFOUND':
      case 'EAI_NONAME':
        return `host ${hostname} not found`;
      case 'EAI_AGAIN':
        return `DNS lookup of ${hostname} failed temporarily`;
      case 'ETIMEDOUT':
      case 'UND_ERR_CONNECT_TIMEOUT':
        return 'connection timed out';
      case 'UND_ERR_HEADERS_TIMEOUT':
      case 'UND_ERR_BODY_TIMEOUT':
        return 'timed out waiting for the receiver';
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
        return `host ${hostname} unreachable`;
    }
    if (TLS_CODE.test(code)) return `TLS: ${e.message}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 200 ? `${message.slice(0, 199)}…` : message;
}

function elapsed(t0: number): number {
  return Math.round(performance.now() - t0);
}
