// The Arrival Notice face: valid against DCSA's own AN 1.0.1 OpenAPI document (../shared/reference), and, with
// the TNT 2.2 face, read back by the DCSA adapter to exactly the answer's facts.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { describeWithReference, reference } from '../../../test/kit/reference.js';
import { FixedClock } from '../../domain/clock.js';
import { dcsaCarrierSource } from '../../sources/carriers/dcsa/index.js';
import { parseDcsaEvents } from '../../sources/carriers/dcsa/parse.js';
import type { CanonicalFacts, FetchContext, MilestoneFact, NumberType, TrackTarget } from '../../sources/contract.js';
import type { CarrierAnswer } from '../answers.js';
import { renderArrivalNotices } from './arrival-notice.js';
import { DCSA_REFERENCE_PARAMETER, dcsaCarriableFacts, renderDcsaEvents } from './dcsa.js';
import { C1, C2, C3, CARRIER_ANSWERS, CARRIER_DATE_ONLY, CARRIER_TRANSSHIPMENT_RAIL } from './examples.js';
import type { FaceResponse } from './types.js';

const SPEC = reference('data/dcsa/arrival-notice-1.0.1/an-v1.0.1-openapi.yaml');
const BL = 'TEST0412345';
const clock = new FixedClock('2026-03-01T12:00:00Z');
const ctx = (): FetchContext => ({ signal: new AbortController().signal, now: () => clock.now() });

/** Transshipment and rail, plus a second container no event names yet, weights, seals and the line's LFD. */
const WITH_NOTICE: CanonicalFacts = {
  ...CARRIER_TRANSSHIPMENT_RAIL,
  containers: [
    { number: C1, isoSizeType: '45G1', sealNumber: 'SH2024031', weightLbs: 41_230, weightIsShipmentAverage: false },
    { number: C2, isoSizeType: '22G1', sealNumber: 'SH2024032', weightLbs: 18_004, weightIsShipmentAverage: false },
  ].sort((a, b) => (a.number < b.number ? -1 : 1)),
  yard: [
    {
      containerNumber: C1,
      facility: CARRIER_TRANSSHIPMENT_RAIL.shipment!.portOfDischarge!,
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

/** Date-only, two containers carrying the shipment's average weight. */
const AVERAGE: CanonicalFacts = {
  ...CARRIER_DATE_ONLY,
  containers: CARRIER_DATE_ONLY.containers.map((c) => ({ ...c, weightLbs: 30_500, weightIsShipmentAverage: true })),
};

const ANSWERS = {
  withNotice: { status: 'ok', facts: WITH_NOTICE },
  average: { status: 'ok', facts: AVERAGE },
} satisfies Record<string, CarrierAnswer>;

const query = (refs: { bl?: string[]; eq?: string[] } = { bl: [BL] }) => ({
  scac: 'TEST',
  transportDocumentReferences: refs.bl ?? [],
  equipmentReferences: refs.eq ?? [],
});

function notices(face: FaceResponse): Record<string, unknown>[] {
  return (face.body as { arrivalNotices: Record<string, unknown>[] }).arrivalNotices;
}

describe('arrival notice face', () => {
  it('renders one notice per matching ok answer; nothing (200, empty list) for every other answer', () => {
    expect(notices(renderArrivalNotices([ANSWERS.withNotice], query()))).toHaveLength(1);
    expect(notices(renderArrivalNotices([ANSWERS.withNotice], query({ eq: [C2] })))).toHaveLength(1);
    expect(notices(renderArrivalNotices([ANSWERS.withNotice], query({ bl: [BL], eq: [C3] })))).toEqual([]);
    expect(notices(renderArrivalNotices([ANSWERS.withNotice], query({ bl: ['TEST0499999'] })))).toEqual([]);
    for (const answer of Object.values(CARRIER_ANSWERS)) {
      if (answer.status === 'ok') continue;
      const face = renderArrivalNotices([answer], query());
      expect(face).toMatchObject({ status: 200, headers: { 'api-version': '1.0.1' }, body: { arrivalNotices: [] } });
    }
  });

  it('answers 400 with feedback elements when no filter is given', () => {
    expect(renderArrivalNotices([ANSWERS.withNotice], query({}))).toMatchObject({
      status: 400,
      body: { feedbackElements: [{ severity: 'ERROR' }] },
    });
  });

  it('gives weights in pounds as the carrier holds them, the line LFD as a DEM free time, and every container', () => {
    const [notice] = notices(renderArrivalNotices([ANSWERS.withNotice], query()));
    expect(notice).toMatchObject({
      transportDocumentReference: BL,
      issueDateTime: expect.any(String),
      freeTimes: [{ typeCodes: ['DEM'], equipmentReferences: [C1], lastFreeDate: { value: '2026-02-09' } }],
      consignmentItems: [
        { cargoItems: expect.arrayContaining([{ equipmentReference: C2, cargoGrossWeight: { value: 18_004, unit: 'LBR' } }]) },
      ],
    });
    expect((notice!.utilizedTransportEquipments as unknown[]).length).toBe(2);
  });

  describeWithReference(SPEC, 'against the AN 1.0.1 schema', () => {
    const spec = parseYaml(readFileSync(SPEC.path, 'utf8')) as { components: { schemas: Record<string, unknown> } };
    const ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/);
    ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
    ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) });
    ajv.addFormat('float', { type: 'number', validate: () => true });
    const response = ajv.compile({ $ref: '#/components/schemas/GetArrivalNoticesResponse', components: spec.components });
    const error = ajv.compile({ $ref: '#/components/schemas/GetArrivalNoticesError', components: spec.components });

    it.each(Object.keys(ANSWERS) as (keyof typeof ANSWERS)[])('%s renders a valid response', (name) => {
      const face = renderArrivalNotices([ANSWERS[name]], query({ bl: [ANSWERS[name].facts.shipment!.billOfLadingNumber!] }));
      expect(notices(face)).toHaveLength(1);
      expect(response(face.body), JSON.stringify(response.errors?.slice(0, 3))).toBe(true);
    });

    it('renders a valid error body', () => {
      const face = renderArrivalNotices([], query({}));
      expect(error(face.body), JSON.stringify(error.errors?.slice(0, 3))).toBe(true);
    });
  });
});

// ---------------------------------------------------------------------------------------------------------

const REFERENCES = Object.entries(DCSA_REFERENCE_PARAMETER) as [NumberType, string][];

/** Both faces of one simulated carrier, served from one answer as the sandbox routes serve them. */
function carrierFetch(answer: CarrierAnswer) {
  return (async (input: string | URL | Request) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    let face: FaceResponse;
    if (url.pathname === '/sandbox/carriers/TEST/v1/arrival-notices') {
      const list = (p: string) => (url.searchParams.get(p) ?? '').split(',').filter(Boolean);
      face = renderArrivalNotices([answer], {
        scac: 'TEST',
        transportDocumentReferences: list('transportDocumentReferences'),
        equipmentReferences: list('equipmentReferences'),
      });
    } else {
      const [numberType, parameter] = REFERENCES.find(([, p]) => url.searchParams.has(p))!;
      face = renderDcsaEvents(answer, { scac: 'TEST', numberType, number: url.searchParams.get(parameter)! }, { pageSelfUrl: url.href });
    }
    return new Response(JSON.stringify(face.body), { status: face.status, headers: face.headers });
  }) as typeof globalThis.fetch;
}

function adapter(answer: CarrierAnswer) {
  const source = dcsaCarrierSource({ scac: 'TEST', name: 'Test carrier', fetch: carrierFetch(answer) });
  const base = 'http://sandbox.test/sandbox/carriers/TEST';
  return source.create(source.configSchema.parse({ baseUrl: base, arrivalNoticeUrl: `${base}/v1` }));
}

function comparable(facts: CanonicalFacts): CanonicalFacts {
  const key = (m: MilestoneFact) => JSON.stringify([m.sourceEventId, m.milestone, m.when, m.containerNumber]);
  const milestones = facts.milestones
    .map((m) => ({ ...m, sourceCode: '' }))
    .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return { ...facts, milestones };
}

describe('DCSA TNT + arrival notice faces → DCSA adapter', () => {
  it.each([
    ['withNotice', ANSWERS.withNotice, { numberType: 'bill_of_lading', number: BL, scac: 'TEST' }],
    ['withNotice, asked by container', ANSWERS.withNotice, { numberType: 'container', number: C1, scac: 'TEST' }],
    ['average', ANSWERS.average, { numberType: 'bill_of_lading', number: 'TEST0412346', scac: 'TEST' }],
  ] as [string, CarrierAnswer & { status: 'ok' }, TrackTarget][])(
    '%s: gives back exactly the answer’s facts',
    async (_name, answer, target) => {
      const carriable = dcsaCarriableFacts(answer.facts, 'TEST', { arrivalNotices: true });
      expect(carriable.dropped).toEqual([]);
      const observation = await adapter(answer).fetch(target, ctx());
      expect(comparable(observation.facts)).toEqual(comparable(answer.facts));
      expect(comparable(observation.facts)).toEqual(comparable(carriable.facts));
      expect(parseDcsaEvents(observation.payload, { carrierScac: 'TEST', target })).toEqual(observation.facts);
    },
  );

  it('says what an arrival notice cannot carry either', () => {
    const single = { ...AVERAGE, containers: [AVERAGE.containers[0]!] };
    expect(dcsaCarriableFacts(single, 'TEST', { arrivalNotices: true }).dropped).toContain(
      'weightIsShipmentAverage: an arrival notice shows an average only as equal weights on two or more containers',
    );
    const withHold = { ...WITH_NOTICE, yard: [{ ...WITH_NOTICE.yard[0]!, available: true }] };
    expect(dcsaCarriableFacts(withHold, 'TEST', { arrivalNotices: true }).dropped).toEqual([
      'yard facts other than the line’s last free day (availability, holds, fees, terminal LFD): neither TNT 2.2 nor the arrival notice has them',
    ]);
  });
});
