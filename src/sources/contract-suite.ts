// The shared contract suite: what every source adapter must do, checked the same way for each. An adapter is
// driven through an injected fake fetch (no module mocking): valid, deterministic observations from its
// fixtures; typed failures with the right `retryable`; no request when already aborted; the caller's reason
// when aborted mid-request.
import { describe, expect, it } from 'vitest';
import { FixedClock } from '../domain/clock.js';
import { type FetchContext, type SourceDefinition, SourceError, type SourceErrorKind, type TrackTarget } from './contract.js';
import { observationProblems } from './facts-schema.js';

/** What a fake server answers: a Response, or a plain description of one. */
export type FakeReply = Response | { status?: number; headers?: Record<string, string>; body?: unknown; raw?: string };
export type Responder = (url: URL, init: RequestInit | undefined) => FakeReply;

export interface ContractFixture {
  name: string;
  target: TrackTarget;
  respond: Responder;
  /** The facts this fixture must parse to (a `*.expected.json`), when the suite should check them too. */
  expected?: unknown;
}

export interface ContractErrorCase {
  name: string;
  respond: Responder;
  kind: SourceErrorKind;
  retryAfterSeconds?: number;
  /** Defaults to the first fixture's target. */
  target?: TrackTarget;
}

export interface SourceContractOptions<C> {
  /** The source's definition around an injected fetch (every adapter takes one). */
  source: (fetch: typeof globalThis.fetch) => SourceDefinition<C>;
  /** Configuration as an operator gives it: parsed by the source's own config schema. */
  config: unknown;
  fixtures: ContractFixture[];
  /** Failures particular to this source, on top of the HTTP ones every source shares. */
  errorCases?: ContractErrorCase[];
  /** How this source says "not found" (default: HTTP 404). */
  notFound?: Responder;
}

const CLOCK = new FixedClock('2026-03-01T12:00:00Z');

function toResponse(reply: FakeReply): Response {
  if (reply instanceof Response) return reply;
  const text = reply.raw ?? JSON.stringify(reply.body ?? null);
  return new Response(text, { status: reply.status ?? 200, headers: { 'content-type': 'application/json', ...reply.headers } });
}

/** A fetch that answers from `respond`, records every call and, like the real one, rejects when its signal aborts. */
export function fakeFetch(respond: Responder, options: { hang?: boolean } = {}) {
  const calls: URL[] = [];
  const fetch = ((input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    calls.push(url);
    const signal = init?.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (options.hang) {
      return new Promise<Response>((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    }
    return Promise.resolve(toResponse(respond(url, init)));
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

function context(signal: AbortSignal = new AbortController().signal): FetchContext {
  return { signal, now: () => CLOCK.now() };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the fetch to fail');
}

const SHARED_ERRORS: ContractErrorCase[] = [
  { name: '401', respond: () => ({ status: 401, body: {} }), kind: 'auth' },
  { name: '403', respond: () => ({ status: 403, body: {} }), kind: 'auth' },
  {
    name: '429 with Retry-After seconds',
    respond: () => ({ status: 429, headers: { 'retry-after': '120' }, body: {} }),
    kind: 'rate_limited',
    retryAfterSeconds: 120,
  },
  {
    name: '429 with Retry-After as an HTTP date',
    respond: () => ({ status: 429, headers: { 'retry-after': 'Sun, 01 Mar 2026 12:05:00 GMT' }, body: {} }),
    kind: 'rate_limited',
    retryAfterSeconds: 300,
  },
  {
    name: '503 with Retry-After',
    respond: () => ({ status: 503, headers: { 'retry-after': '30' }, body: {} }),
    kind: 'unavailable',
    retryAfterSeconds: 30,
  },
  { name: '500', respond: () => ({ status: 500, raw: 'oops' }), kind: 'unavailable' },
  { name: 'a body that is not JSON', respond: () => ({ raw: '<html>maintenance</html>' }), kind: 'bad_response' },
  { name: 'JSON of the wrong shape', respond: () => ({ body: { unexpected: true } }), kind: 'bad_response' },
  {
    name: 'a redirect',
    respond: () => ({ status: 302, headers: { location: 'https://elsewhere.example/' }, raw: '' }),
    kind: 'bad_response',
  },
];

/** Registers the contract tests of one source under `name`. */
export function describeSourceContract<C>(name: string, options: SourceContractOptions<C>): void {
  const adapterWith = (fetch: typeof globalThis.fetch) => {
    const definition = options.source(fetch);
    return definition.create(definition.configSchema.parse(options.config));
  };
  const definition = options.source(fakeFetch(() => ({ status: 500 })).fetch);
  const first = options.fixtures[0];
  if (!first) throw new Error(`describeSourceContract(${name}): at least one fixture is needed`);

  describe(`source contract: ${name}`, () => {
    it('declares what it tracks', () => {
      const d = definition;
      expect(d.id).toMatch(/^[a-z]+:[A-Za-z0-9_-]+$/);
      expect(d.tracks.numberTypes.length).toBeGreaterThan(0);
      if (d.kind === 'terminal') expect(d.tracks.facilityCodes?.length).toBeGreaterThan(0);
      if (d.kind === 'carrier' || d.kind === 'rail') expect(d.tracks.scacs?.length).toBeGreaterThan(0);
    });

    describe.each(options.fixtures)('$name', (fixture) => {
      it('parses to a valid observation of this source, fetched at ctx.now()', async () => {
        const { fetch } = fakeFetch(fixture.respond);
        const observation = await adapterWith(fetch).fetch(fixture.target, context());
        expect(observationProblems(observation)).toEqual([]);
        expect(observation.sourceId).toBe(definition.id);
        expect(observation.target).toEqual(fixture.target);
        expect(observation.fetchedAt).toEqual(CLOCK.now());
        if (fixture.expected !== undefined) expect(observation.facts).toEqual(fixture.expected);
      });

      it('is deterministic: two fetches of the same payload give equal facts and hash', async () => {
        const { fetch } = fakeFetch(fixture.respond);
        const adapter = adapterWith(fetch);
        const a = await adapter.fetch(fixture.target, context());
        const b = await adapter.fetch(fixture.target, context());
        expect(b.facts).toEqual(a.facts);
        expect(JSON.stringify(b.facts)).toBe(JSON.stringify(a.facts));
        expect(b.payloadSha256).toBe(a.payloadSha256);
      });
    });

    const notFound: ContractErrorCase = {
      name: 'not found',
      respond: options.notFound ?? (() => ({ status: 404, body: {} })),
      kind: 'not_found',
    };
    const cases = [notFound, ...SHARED_ERRORS, ...(options.errorCases ?? [])];
    it.each(cases)('fails typed on $name: $kind', async (c) => {
      const { fetch } = fakeFetch(c.respond);
      const error = await rejection(adapterWith(fetch).fetch(c.target ?? first.target, context()));
      expect(error).toBeInstanceOf(SourceError);
      const e = error as SourceError;
      expect(e.kind).toBe(c.kind);
      expect(e.retryable).toBe(['awaiting_manifest', 'rate_limited', 'unavailable'].includes(c.kind));
      if (c.retryAfterSeconds !== undefined) expect(e.details.retryAfterSeconds).toBe(c.retryAfterSeconds);
    });

    it('fails typed (unavailable) when the network fails', async () => {
      const fetch = (() => Promise.reject(new TypeError('fetch failed'))) as typeof globalThis.fetch;
      const error = await rejection(adapterWith(fetch).fetch(first.target, context()));
      expect(error).toMatchObject({ kind: 'unavailable', retryable: true });
    });

    it('makes no request at all when the signal is already aborted, and rejects with its reason', async () => {
      const { fetch, calls } = fakeFetch(first.respond);
      const reason = new Error('shutting down');
      const error = await rejection(adapterWith(fetch).fetch(first.target, context(AbortSignal.abort(reason))));
      expect(error).toBe(reason);
      expect(calls).toHaveLength(0);
    });

    it('rejects with the signal reason (not a SourceError) when aborted mid-request', async () => {
      const { fetch, calls } = fakeFetch(first.respond, { hang: true });
      const controller = new AbortController();
      const pending = rejection(adapterWith(fetch).fetch(first.target, context(controller.signal)));
      while (calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
      const reason = new Error('lease lost');
      controller.abort(reason);
      const error = await pending;
      expect(error).toBe(reason);
      expect(error).not.toBeInstanceOf(SourceError);
    });
  });
}
