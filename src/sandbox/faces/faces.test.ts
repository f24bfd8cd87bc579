import { describe, expect, it } from 'vitest';
import { FixedClock } from '../../domain/clock.js';
import { aisSandboxSource } from '../../sources/ais/sandbox/index.js';
import { dcsaCarrierSource } from '../../sources/carriers/dcsa/index.js';
import { parseDcsaEvents } from '../../sources/carriers/dcsa/parse.js';
import type { CanonicalFacts, FetchContext, MilestoneFact, NumberType, SourceErrorKind, TrackTarget } from '../../sources/contract.js';
import { SourceError } from '../../sources/contract.js';
import { factsProblems } from '../../sources/facts-schema.js';
import { railSandboxSource } from '../../sources/rail/sandbox/index.js';
import { terminalSandboxSource } from '../../sources/terminals/sandbox/index.js';
import type { AisAnswer, CarrierAnswer, RailAnswer, TerminalAnswer } from '../answers.js';
import { renderAisVessel } from './ais.js';
import { DCSA_REFERENCE_PARAMETER, dcsaCarriableFacts, renderDcsaEvents } from './dcsa.js';
import { AIS_ANSWERS, C1, CARRIER_ANSWERS, CARRIER_TRANSSHIPMENT_RAIL, RAIL_ANSWERS, TERMINAL_ANSWERS } from './examples.js';
import { renderRailContainer } from './rail.js';
import { renderTerminalContainer } from './terminal.js';
import type { FaceResponse } from './types.js';

const SANDBOX = 'http://sandbox.test';
const clock = new FixedClock('2026-03-01T12:00:00Z');
const ctx = (): FetchContext => ({ signal: new AbortController().signal, now: () => clock.now() });

function toResponse(face: FaceResponse): Response {
  return new Response(JSON.stringify(face.body), { status: face.status, headers: face.headers });
}

/** A fetch served by a face renderer, as the lead's routes will serve it; records each URL. */
function faceFetch(route: (url: URL) => FaceResponse) {
  const urls: URL[] = [];
  const fetch = (async (input: string | URL | Request) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    urls.push(url);
    return toResponse(route(url));
  }) as typeof globalThis.fetch;
  return { fetch, urls };
}

const REFERENCES = Object.entries(DCSA_REFERENCE_PARAMETER) as [NumberType, string][];

function dcsaRoute(answer: CarrierAnswer) {
  return (url: URL): FaceResponse => {
    const m = /^\/sandbox\/carriers\/([A-Z]{2,4})\/v2\/events$/.exec(url.pathname);
    if (!m) return { status: 404, headers: {}, body: {} };
    const [numberType, parameter] = REFERENCES.find(([, p]) => url.searchParams.has(p))!;
    const q = url.searchParams;
    return renderDcsaEvents(
      answer,
      {
        scac: m[1]!,
        numberType,
        number: q.get(parameter)!,
        ...(q.has('limit') ? { limit: Number(q.get('limit')) } : {}),
        ...(q.has('cursor') ? { cursor: q.get('cursor')! } : {}),
        ...(q.has('eventType') ? { eventType: q.get('eventType')! } : {}),
      },
      { pageSelfUrl: url.href, now: clock.now() },
    );
  };
}

function dcsaAdapter(answer: CarrierAnswer, pageSize = 100) {
  const served = faceFetch(dcsaRoute(answer));
  const source = dcsaCarrierSource({ scac: 'TEST', name: 'Test carrier', fetch: served.fetch });
  const adapter = source.create(source.configSchema.parse({ baseUrl: `${SANDBOX}/sandbox/carriers/TEST`, pageSize }));
  return { adapter, urls: served.urls };
}

/** Milestones compared as a set: sources sort by their own rules. */
function bySet(facts: CanonicalFacts): CanonicalFacts {
  const key = (m: MilestoneFact) => JSON.stringify([m.sourceEventId, m.milestone, m.when, m.containerNumber, m.railCarrierScac]);
  return { ...facts, milestones: [...facts.milestones].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)) };
}

function withoutSourceCodes(facts: CanonicalFacts): CanonicalFacts {
  return { ...facts, milestones: facts.milestones.map((m) => ({ ...m, sourceCode: '' })) };
}

async function failure(promise: Promise<unknown>): Promise<SourceError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SourceError) return error;
    throw error;
  }
  throw new Error('expected a SourceError');
}

const BL: TrackTarget = { numberType: 'bill_of_lading', number: 'TEST0412345', scac: 'TEST' };

describe('example answers', () => {
  it('are valid canonical facts', () => {
    for (const answer of Object.values(CARRIER_ANSWERS)) if (answer.status === 'ok') expect(factsProblems(answer.facts)).toEqual([]);
    for (const a of Object.values(TERMINAL_ANSWERS)) {
      if (a.status === 'ok')
        expect(factsProblems({ shipment: null, containers: [], milestones: a.milestones, yard: [a.yard], vesselPositions: [] })).toEqual(
          [],
        );
    }
    for (const a of Object.values(RAIL_ANSWERS)) {
      if (a.status === 'ok')
        expect(
          factsProblems({ shipment: null, containers: [], milestones: a.milestones, yard: a.yard ? [a.yard] : [], vesselPositions: [] }),
        ).toEqual([]);
    }
    expect(
      factsProblems({ shipment: null, containers: [], milestones: [], yard: [], vesselPositions: AIS_ANSWERS.underway.positions }),
    ).toEqual([]);
  });
});

describe('DCSA face → DCSA adapter', () => {
  it.each(['transshipmentRail', 'dateOnly'] as const)('%s: gives back exactly the answer’s facts (nothing to drop)', async (name) => {
    const answer = CARRIER_ANSWERS[name];
    const carriable = dcsaCarriableFacts(answer.facts, 'TEST');
    expect(carriable.dropped).toEqual([]);
    const { adapter } = dcsaAdapter(answer);
    const observation = await adapter.fetch(BL, ctx());
    expect(bySet(withoutSourceCodes(observation.facts))).toEqual(bySet(withoutSourceCodes(answer.facts)));
    // The projection also predicts DCSA's own words for each event.
    expect(bySet(observation.facts)).toEqual(bySet(carriable.facts));
    // And the stored payload re-parses to the same facts.
    expect(parseDcsaEvents(observation.payload, { carrierScac: 'TEST', target: BL })).toEqual(observation.facts);
  });

  it('keeps date-only facts as dates: the adapter gives localDate back', async () => {
    const { adapter } = dcsaAdapter(CARRIER_ANSWERS.dateOnly);
    const observation = await adapter.fetch(BL, ctx());
    const payload = observation.payload as { eventDateTime: string }[];
    expect(payload.filter((e) => /^\d{4}-\d{2}-\d{2}$/.test(e.eventDateTime))).toHaveLength(5);
    expect(observation.facts.milestones.find((m) => m.milestone === 'vessel_loaded')?.when).toEqual({
      at: null,
      localDateTime: null,
      localDate: '2026-01-07',
    });
  });

  it('pages with Next-Page honouring limit, and the adapter reads every page', async () => {
    const { adapter, urls } = dcsaAdapter(CARRIER_ANSWERS.transshipmentRail, 5);
    const observation = await adapter.fetch(BL, ctx());
    expect(urls).toHaveLength(4); // 16 events, 5 a page
    expect(urls.slice(1).every((u) => u.searchParams.has('cursor') && u.searchParams.get('limit') === '5')).toBe(true);
    expect(bySet(withoutSourceCodes(observation.facts))).toEqual(bySet(withoutSourceCodes(CARRIER_TRANSSHIPMENT_RAIL)));
  });

  it('renders a page that is a valid relative Next-Page link and no link on the last page', () => {
    const route = dcsaRoute(CARRIER_ANSWERS.transshipmentRail);
    const first = route(new URL(`${SANDBOX}/sandbox/carriers/TEST/v2/events?transportDocumentReference=TEST0412345&limit=10`));
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(10);
    const next = first.headers['next-page']!;
    expect(next).toMatch(/^\/sandbox\/carriers\/TEST\/v2\/events\?transportDocumentReference=TEST0412345&limit=10&cursor=/);
    const second = route(new URL(next, SANDBOX));
    expect(second.body).toHaveLength(6);
    expect(second.headers['next-page']).toBeUndefined();
  });

  it('filters by eventType and refuses unknown types and cursors with a DCSA 400', () => {
    const route = dcsaRoute(CARRIER_ANSWERS.transshipmentRail);
    const base = `${SANDBOX}/sandbox/carriers/TEST/v2/events?transportDocumentReference=TEST0412345`;
    const transport = route(new URL(`${base}&eventType=TRANSPORT`)).body as { eventType: string }[];
    expect(transport.map((e) => e.eventType)).toEqual(Array(6).fill('TRANSPORT'));
    const two = route(new URL(`${base}&eventType=SHIPMENT,EQUIPMENT`)).body as { eventType: string }[];
    expect(new Set(two.map((e) => e.eventType))).toEqual(new Set(['SHIPMENT', 'EQUIPMENT']));
    expect(route(new URL(`${base}&eventType=IOT`))).toMatchObject({ status: 400, body: { errors: [{ property: 'eventType' }] } });
    expect(route(new URL(`${base}&cursor=bm9wZQ`))).toMatchObject({ status: 400, body: { errors: [{ property: 'cursor' }] } });
  });

  it('renders awaiting_manifest as booking-level shipment events only → awaiting_manifest', async () => {
    const face = dcsaRoute(CARRIER_ANSWERS.awaitingManifest)(
      new URL(`${SANDBOX}/sandbox/carriers/TEST/v2/events?carrierBookingReference=SHA0499999`),
    );
    expect(face.body).toEqual([expect.objectContaining({ eventType: 'SHIPMENT', documentTypeCode: 'BKG', documentID: 'SHA0499999' })]);
    const { adapter } = dcsaAdapter(CARRIER_ANSWERS.awaitingManifest);
    const error = await failure(adapter.fetch({ numberType: 'booking_number', number: 'SHA0499999' }, ctx()));
    expect(error).toMatchObject({ kind: 'awaiting_manifest', retryable: true });
  });

  it.each([
    ['cancelled', CARRIER_ANSWERS.cancelled, 'cancelled', false],
    ['not_found', CARRIER_ANSWERS.notFound, 'not_found', false],
    ['invalid_number', CARRIER_ANSWERS.invalidNumber, 'invalid_number', false],
    ['unavailable', CARRIER_ANSWERS.unavailable, 'unavailable', true],
    ['unavailable without Retry-After', CARRIER_ANSWERS.unavailableNoRetryAfter, 'unavailable', true],
  ] as [string, CarrierAnswer, SourceErrorKind, boolean][])(
    'renders %s so that the adapter fails typed',
    async (_name, answer, kind, retryable) => {
      const { adapter } = dcsaAdapter(answer);
      const error = await failure(adapter.fetch(BL, ctx()));
      expect(error).toMatchObject({ kind, retryable });
      if (answer.status === 'unavailable') expect(error.details.retryAfterSeconds).toBe(answer.retryAfterSeconds ?? undefined);
    },
  );

  it('renders the wire of the failures as DCSA does', () => {
    const url = new URL(`${SANDBOX}/sandbox/carriers/TEST/v2/events?transportDocumentReference=bad!`);
    expect(dcsaRoute(CARRIER_ANSWERS.notFound)(url)).toMatchObject({ status: 200, body: [] });
    expect(dcsaRoute(CARRIER_ANSWERS.invalidNumber)(url)).toMatchObject({
      status: 400,
      body: {
        httpMethod: 'GET',
        statusCode: 400,
        errorDateTime: '2026-03-01T12:00:00.000Z',
        errors: [{ reason: 'invalidQuery', property: 'transportDocumentReference', message: CARRIER_ANSWERS.invalidNumber.message }],
      },
    });
    expect(dcsaRoute(CARRIER_ANSWERS.unavailable)(url)).toMatchObject({ status: 503, headers: { 'retry-after': '120' } });
    expect(dcsaRoute(CARRIER_ANSWERS.unavailableNoRetryAfter)(url).headers['retry-after']).toBeUndefined();
    const cancelled = dcsaRoute(CARRIER_ANSWERS.cancelled)(url).body as Record<string, unknown>[];
    expect(cancelled).toEqual([
      expect.objectContaining({ shipmentEventTypeCode: 'CANC', documentTypeCode: 'BKG', eventDateTime: '2026-02-03T11:00:00Z' }),
    ]);
  });

  it('drops what DCSA 2.2 cannot carry, says which, and gives back the rest', async () => {
    const base = CARRIER_TRANSSHIPMENT_RAIL;
    const heavy: CanonicalFacts = {
      ...base,
      containers: base.containers.map((c) => ({ ...c, weightLbs: 52_000, weightIsShipmentAverage: true })),
      milestones: [
        ...base.milestones.map((m) => (m.vessel ? { ...m, vessel: { ...m.vessel, mmsi: '353136000' } } : m)),
        {
          ...base.milestones[0]!,
          milestone: 'available',
          when: { at: '2026-02-03T08:00:00-08:00', localDateTime: null, localDate: null },
          sourceEventId: null,
          reportedAt: null,
        },
      ],
      yard: [
        {
          containerNumber: C1,
          facility: { locode: 'USLAX', name: null, facilityCode: 'W185', facilityCodeList: 'firms' },
          available: null,
          holds: null,
          fees: null,
          lastFreeDay: null,
          lineLastFreeDay: { at: null, localDateTime: null, localDate: '2026-02-09' },
          appointmentAt: null,
          yardLocation: null,
          chassisNumber: null,
        },
      ],
    };
    const carriable = dcsaCarriableFacts(heavy, 'TEST');
    expect(carriable.dropped).toEqual([
      'available: TNT 2.2 has no event for it',
      'container weights: TNT 2.2 has none',
      'vessel MMSI: TNT 2.2 has none',
      'yard facts (availability, holds, fees, last free days): TNT 2.2 has none',
    ]);
    const { adapter } = dcsaAdapter({ status: 'ok', facts: heavy });
    const observation = await adapter.fetch(BL, ctx());
    expect(bySet(observation.facts)).toEqual(bySet(carriable.facts));
    expect(bySet(withoutSourceCodes(observation.facts))).toEqual(bySet(withoutSourceCodes(base)));
  });

  it('gives stable UUID event ids and a report time to facts that have none', () => {
    const facts: CanonicalFacts = {
      ...CARRIER_TRANSSHIPMENT_RAIL,
      milestones: CARRIER_TRANSSHIPMENT_RAIL.milestones.map((m) => ({ ...m, sourceEventId: null, reportedAt: null })),
    };
    const a = dcsaCarriableFacts(facts, 'TEST').facts.milestones;
    const b = dcsaCarriableFacts(facts, 'TEST').facts.milestones;
    expect(a.map((m) => m.sourceEventId)).toEqual(b.map((m) => m.sourceEventId));
    expect(new Set(a.map((m) => m.sourceEventId)).size).toBe(a.length);
    expect(a.every((m) => /^[0-9a-f-]{36}$/.test(m.sourceEventId!) && m.reportedAt !== null)).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------------

function terminalAdapter(answer: TerminalAnswer) {
  const served = faceFetch((url) => {
    const m = /^\/sandbox\/terminals\/([^/]+)\/containers\/([^/]+)$/.exec(url.pathname);
    if (!m) return { status: 404, headers: {}, body: {} };
    return renderTerminalContainer(answer, { facilityCode: decodeURIComponent(m[1]!), containerNumber: decodeURIComponent(m[2]!) });
  });
  const source = terminalSandboxSource({ fetch: served.fetch });
  return { adapter: source.create(source.configSchema.parse({ baseUrl: `${SANDBOX}/sandbox/terminals` })), urls: served.urls };
}

describe('terminal face → terminal adapter', () => {
  it.each(['holdsFees', 'availableLocalLfd', 'flickerNull'] as const)('%s: gives back the answer exactly', async (name) => {
    const answer = TERMINAL_ANSWERS[name];
    const { adapter, urls } = terminalAdapter(answer);
    const code = answer.yard.facility.facilityCode!;
    const observation = await adapter.fetch({ numberType: 'container', number: answer.yard.containerNumber, facilityCode: code }, ctx());
    expect(urls[0]!.pathname).toBe(`/sandbox/terminals/${code}/containers/${answer.yard.containerNumber}`);
    expect(bySet(observation.facts)).toEqual(
      bySet({ shipment: null, containers: [], milestones: answer.milestones, yard: [answer.yard], vesselPositions: [] }),
    );
  });

  it('keeps a total fee line as given, never summed', async () => {
    const { adapter } = terminalAdapter(TERMINAL_ANSWERS.holdsFees);
    const observation = await adapter.fetch({ numberType: 'container', number: C1, facilityCode: 'W185' }, ctx());
    expect(observation.facts.yard[0]!.fees).toEqual(TERMINAL_ANSWERS.holdsFees.yard.fees);
  });

  it('says the facility’s time zone beside its local times', () => {
    const face = renderTerminalContainer(TERMINAL_ANSWERS.availableLocalLfd, { facilityCode: 'E416', containerNumber: 'x' });
    expect(face.body).toMatchObject({ time_zone: 'America/New_York', last_free_day: '2026-01-23T17:00:00' });
  });

  it('answers 404 for not_found → not_found', async () => {
    const { adapter } = terminalAdapter(TERMINAL_ANSWERS.notFound);
    expect(renderTerminalContainer(TERMINAL_ANSWERS.notFound, { facilityCode: 'W185', containerNumber: C1 })).toMatchObject({
      status: 404,
      body: { error: { code: 'not_found' } },
    });
    expect(await failure(adapter.fetch({ numberType: 'container', number: C1, facilityCode: 'W185' }, ctx()))).toMatchObject({
      kind: 'not_found',
    });
  });
});

function railAdapter(answer: RailAnswer) {
  const served = faceFetch((url) => {
    const m = /^\/sandbox\/rail\/([^/]+)\/containers\/([^/]+)$/.exec(url.pathname);
    if (!m) return { status: 404, headers: {}, body: {} };
    return renderRailContainer(answer, { railScac: m[1]!, containerNumber: m[2]! });
  });
  const source = railSandboxSource({ fetch: served.fetch });
  return { adapter: source.create(source.configSchema.parse({ baseUrl: `${SANDBOX}/sandbox/rail` })), urls: served.urls };
}

describe('rail face → rail adapter', () => {
  it.each(['interchange', 'noTerminalYet'] as const)('%s: gives back the answer exactly', async (name) => {
    const answer = RAIL_ANSWERS[name];
    const { adapter, urls } = railAdapter(answer);
    const number = answer.milestones[0]!.containerNumber!;
    const observation = await adapter.fetch({ numberType: 'container', number, scac: answer.railCarrierScac }, ctx());
    expect(urls[0]!.pathname).toBe(`/sandbox/rail/${answer.railCarrierScac}/containers/${number}`);
    expect(bySet(observation.facts)).toEqual(
      bySet({ shipment: null, containers: [], milestones: answer.milestones, yard: answer.yard ? [answer.yard] : [], vesselPositions: [] }),
    );
  });

  it('asks the railroad by SCAC when given a reporting mark', async () => {
    const { adapter, urls } = railAdapter(RAIL_ANSWERS.noTerminalYet);
    await adapter.fetch({ numberType: 'container', number: RAIL_ANSWERS.noTerminalYet.milestones[0]!.containerNumber!, scac: 'up' }, ctx());
    expect(urls[0]!.pathname).toMatch(/^\/sandbox\/rail\/UPRR\//);
  });

  it('answers 404 for not_found → not_found', async () => {
    const { adapter } = railAdapter(RAIL_ANSWERS.notFound);
    expect(await failure(adapter.fetch({ numberType: 'container', number: C1, scac: 'BNSF' }, ctx()))).toMatchObject({ kind: 'not_found' });
  });
});

function aisAdapter(answer: AisAnswer) {
  const served = faceFetch((url) => {
    const m = /^\/sandbox\/ais\/vessels\/(\d{7})$/.exec(url.pathname);
    if (!m) return { status: 404, headers: {}, body: {} };
    return renderAisVessel(answer, { imo: m[1]! });
  });
  const source = aisSandboxSource({ fetch: served.fetch });
  return { adapter: source.create(source.configSchema.parse({ baseUrl: `${SANDBOX}/sandbox/ais` })), urls: served.urls };
}

describe('AIS face → AIS adapter', () => {
  it('gives back the positions exactly, nulls included', async () => {
    const { adapter, urls } = aisAdapter(AIS_ANSWERS.underway);
    const observation = await adapter.fetch({ numberType: 'vessel_imo', number: '9811000' }, ctx());
    expect(urls[0]!.pathname).toBe('/sandbox/ais/vessels/9811000');
    expect(observation.facts).toEqual({
      shipment: null,
      containers: [],
      milestones: [],
      yard: [],
      vesselPositions: AIS_ANSWERS.underway.positions,
    });
    // Name and MMSI have no canonical fact; the stored payload keeps them.
    expect(observation.payload).toMatchObject({ name: 'EVER GIVEN', mmsi: '353136000' });
  });

  it('answers 404 for not_found → not_found', async () => {
    const { adapter } = aisAdapter(AIS_ANSWERS.notFound);
    expect(await failure(adapter.fetch({ numberType: 'vessel_imo', number: '9811000' }, ctx()))).toMatchObject({ kind: 'not_found' });
  });
});
