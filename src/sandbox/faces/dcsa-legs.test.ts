// The DCSA face's legs as a real DCSA carrier sends them: VESSEL for every ship (mother or feeder), BARGE for a
// barge only, a berth arrival as an ARRI at a BRTH transport call; and what the adapter makes of them.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { itWithReference, reference } from '../../../test/kit/reference.js';
import { parseDcsaEvents } from '../../sources/carriers/dcsa/parse.js';
import type { CanonicalFacts, MilestoneFact } from '../../sources/contract.js';
import type { CarrierAnswer } from '../answers.js';
import { carrierAnswer } from '../world/answers.js';
import { tellStory } from '../world/story.js';
import { dcsaCarriableFacts, renderDcsaEvents } from './dcsa.js';
import { CARRIER_TRANSSHIPMENT_RAIL } from './examples.js';

const SPEC = reference('data/dcsa/tnt-2.2/TNT_v2.2.0-resolved.yaml');
const BL = { numberType: 'bill_of_lading' as const, number: 'TEST0412345' };

function render(answer: CarrierAnswer, scac = 'TEST', number = BL.number): Record<string, unknown>[] {
  const face = renderDcsaEvents(
    answer,
    { scac, numberType: 'bill_of_lading', number, limit: 1000 },
    { pageSelfUrl: `http://sandbox.test/sandbox/carriers/${scac}/v2/events?transportDocumentReference=${number}` },
  );
  expect(face.status).toBe(200);
  return face.body as Record<string, unknown>[];
}

function bySet(facts: CanonicalFacts): CanonicalFacts {
  const key = (m: MilestoneFact) => JSON.stringify([m.sourceEventId, m.milestone, m.when, m.containerNumber]);
  return { ...facts, milestones: [...facts.milestones].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)) };
}

const modesOf = (events: Record<string, unknown>[]) =>
  new Set(events.flatMap((e) => (e.transportCall ? [(e.transportCall as { modeOfTransport: string }).modeOfTransport] : [])));

/** Per vessel, the milestone families of its leg moves: main (vessel_/transshipment_), feeder, rail. */
function familiesByVessel(milestones: MilestoneFact[]): Map<string, Set<string>> {
  const family: Record<string, string> = { vessel: 'main', transshipment: 'main', feeder: 'feeder', rail: 'rail' };
  const out = new Map<string, Set<string>>();
  for (const m of milestones) {
    const f = family[m.milestone.split('_')[0]!];
    if (f && m.vessel?.imo) out.set(m.vessel.imo, new Set([...(out.get(m.vessel.imo) ?? []), f]));
  }
  return out;
}

describe('DCSA face: the transshipment story through the DCSA adapter', () => {
  // `tidemark` (the default seed) gives a feeder from Jakarta to Singapore, `scenario-seed` a relay at Busan.
  it.each(['tidemark', 'scenario-seed'])(
    'seed %s: VESSEL legs, one leg kind per ship, transshipment at the hub, berthing at the POD',
    (seed) => {
      const anchorAt = new Date('2026-05-10T09:00:00Z');
      const story = tellStory({ seed, scac: 'CMDU', numberType: 'bill_of_lading', number: 'CMDU240300003', anchorAt });
      const answer = carrierAnswer(story, new Date(anchorAt.getTime() + 60 * 86_400_000));
      if (answer.status !== 'ok') throw new Error(answer.status);
      // The world tells what a DCSA carrier can say about its legs: nothing of them is lost or renamed.
      const carriable = dcsaCarriableFacts(answer.facts, 'CMDU');
      expect(carriable.dropped.filter((d) => /feeder|berth|mode/.test(d))).toEqual([]);

      const events = render(answer, 'CMDU', 'CMDU240300003');
      expect(modesOf(events)).toEqual(new Set(['VESSEL', 'TRUCK']));
      const facts = parseDcsaEvents(events, { carrierScac: 'CMDU', target: { numberType: 'bill_of_lading', number: 'CMDU240300003' } });
      expect(bySet(facts).milestones).toEqual(bySet(carriable.facts).milestones);

      for (const [imo, families] of familiesByVessel(facts.milestones)) expect([...families], imo).toEqual(['main']);
      const hub = story.legs[0]!.to;
      const atHub = facts.milestones.filter((m) => m.place?.locode === hub);
      expect(new Set(atHub.map((m) => m.milestone))).toEqual(
        new Set(['transshipment_arrived', 'transshipment_discharged', 'transshipment_loaded', 'transshipment_departed']),
      );
      expect(facts.shipment?.portOfLading?.locode).toBe(story.pol!.locode);
      expect(facts.shipment?.portOfDischarge?.locode).toBe(story.pod!.locode);
      expect(facts.milestones.filter((m) => m.milestone === 'vessel_berthed').map((m) => m.place?.locode)).toEqual([story.pod!.locode]);
    },
  );
});

describe('DCSA face: feeders', () => {
  const base = CARRIER_TRANSSHIPMENT_RAIL;
  /** The transshipment example with its leg from Singapore told as a feeder vessel's (as the world once told it). */
  const asFeeder = (): CarrierAnswer & { status: 'ok' } => ({
    status: 'ok',
    facts: {
      ...base,
      milestones: base.milestones.map((m) => {
        if (!/^transshipment_(loaded|departed)$/.test(m.milestone) && !/^vessel_(arrived|discharged)$/.test(m.milestone)) return m;
        const renamed = m.milestone.replace(/^(transshipment|vessel)_/, 'feeder_') as MilestoneFact['milestone'];
        return { ...m, milestone: renamed };
      }),
    },
  });

  it('sends a feeder vessel as VESSEL (DCSA has no FEEDER mode) and says it comes back named like the mother vessel', () => {
    const answer = asFeeder();
    const events = render(answer);
    expect(modesOf(events).has('FEEDER')).toBe(false);
    const carriable = dcsaCarriableFacts(answer.facts, 'TEST');
    expect(carriable.dropped).toEqual([
      'feeder_arrived by a vessel: DCSA has no feeder mode; it comes back as vessel_arrived',
      'feeder_departed by a vessel: DCSA has no feeder mode; it comes back as transshipment_departed',
      'feeder_discharged by a vessel: DCSA has no feeder mode; it comes back as vessel_discharged',
      'feeder_loaded by a vessel: DCSA has no feeder mode; it comes back as transshipment_loaded',
    ]);
    const facts = parseDcsaEvents(events, { carrierScac: 'TEST', target: BL });
    expect(bySet(facts)).toEqual(bySet(carriable.facts));
    expect(bySet(facts).milestones.map((m) => m.milestone)).toEqual(bySet({ ...base, yard: [] }).milestones.map((m) => m.milestone));
  });

  it('sends a barge feeder as BARGE, and the adapter gives the feeder back', () => {
    // Shanghai to Singapore by barge (pre-carriage), then the sea-going legs from Singapore, the POL.
    const RENAME: Record<string, MilestoneFact['milestone']> = {
      vessel_loaded: 'feeder_loaded',
      vessel_departed: 'feeder_departed',
      transshipment_arrived: 'feeder_arrived',
      transshipment_discharged: 'feeder_discharged',
      transshipment_loaded: 'vessel_loaded',
      transshipment_departed: 'vessel_departed',
    };
    const barge = { name: 'Yangtze Barge 7', imo: null, mmsi: null };
    const sin = base.milestones.find((m) => m.milestone === 'transshipment_loaded')!.place!;
    const answer: CarrierAnswer = {
      status: 'ok',
      facts: {
        ...base,
        shipment: { ...base.shipment!, portOfLading: sin },
        milestones: base.milestones
          .filter((m) => m.milestone !== 'full_in')
          .map((m) => {
            const renamed = RENAME[m.milestone];
            if (!renamed) return m;
            return renamed.startsWith('feeder_')
              ? { ...m, milestone: renamed, mode: 'barge' as const, vessel: barge }
              : { ...m, milestone: renamed };
          }),
      },
    };
    const events = render(answer);
    expect(modesOf(events)).toEqual(new Set(['VESSEL', 'BARGE', 'RAIL', 'TRUCK']));
    const carriable = dcsaCarriableFacts(answer.facts, 'TEST');
    expect(carriable.dropped).toEqual([]);
    const facts = parseDcsaEvents(events, { carrierScac: 'TEST', target: BL });
    expect(bySet(facts)).toEqual(bySet(carriable.facts));
    expect(facts.milestones.filter((m) => m.milestone.startsWith('feeder_')).map((m) => m.mode)).toEqual([
      'barge',
      'barge',
      'barge',
      'barge',
    ]);
  });
});

describe('DCSA face: berthing', () => {
  const berthed: MilestoneFact = {
    ...CARRIER_TRANSSHIPMENT_RAIL.milestones.find((m) => m.milestone === 'vessel_arrived')!,
    milestone: 'vessel_berthed',
    when: { at: '2026-02-01T14:00:00-08:00', localDateTime: null, localDate: null },
    sourceEventId: '5a9d0000-0000-4000-8000-000000000999',
    reportedAt: '2026-02-01T22:30:00Z',
  };
  const answer: CarrierAnswer = {
    status: 'ok',
    facts: { ...CARRIER_TRANSSHIPMENT_RAIL, milestones: [...CARRIER_TRANSSHIPMENT_RAIL.milestones, berthed] },
  };

  it('sends vessel_berthed as an ARRI at a BRTH transport call, and the adapter gives it back', () => {
    const events = render(answer);
    const berth = events.find((e) => e.eventID === berthed.sourceEventId)!;
    expect(berth).toMatchObject({ eventType: 'TRANSPORT', transportEventTypeCode: 'ARRI', transportCall: { facilityTypeCode: 'BRTH' } });
    const carriable = dcsaCarriableFacts(answer.facts, 'TEST');
    expect(carriable.dropped).toEqual([]);
    const facts = parseDcsaEvents(events, { carrierScac: 'TEST', target: BL });
    expect(bySet(facts)).toEqual(bySet(carriable.facts));
    expect(facts.milestones.filter((m) => /vessel_(arrived|berthed)/.test(m.milestone)).map((m) => m.milestone)).toEqual([
      'vessel_arrived',
      'vessel_berthed',
    ]);
  });

  it('drops a berthing away from the POD: DCSA has no berthing milestone there', () => {
    const away = { ...berthed, place: { ...berthed.place!, locode: 'SGSIN' } };
    const carriable = dcsaCarriableFacts(
      { ...CARRIER_TRANSSHIPMENT_RAIL, milestones: [...CARRIER_TRANSSHIPMENT_RAIL.milestones, away] },
      'TEST',
    );
    expect(carriable.dropped).toEqual(['vessel_berthed away from the port of discharge: DCSA has no berthing milestone elsewhere']);
  });

  itWithReference(SPEC, 'renders a berth arrival valid against TNT 2.2 but for BRTH, which DCSA lists only in its facility types', () => {
    const spec = parseYaml(readFileSync(SPEC.path, 'utf8')) as { components: { schemas: Record<string, unknown> } };
    const ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/);
    ajv.addFormat('uuid', /^[0-9a-f-]{36}$/i);
    const valid = ajv.compile({ $ref: '#/components/schemas/transportEvent', components: spec.components });
    const berth = render(answer).find((e) => e.eventID === berthed.sourceEventId)!;
    expect(valid(berth)).toBe(false);
    expect(new Set((valid.errors ?? []).map((e) => e.instancePath))).toEqual(new Set(['/transportCall/facilityTypeCode']));
    const call = berth.transportCall as Record<string, unknown>;
    expect(valid({ ...berth, transportCall: { ...call, facilityTypeCode: 'POTE' } }), JSON.stringify(valid.errors)).toBe(true);
  });
});
