import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SourceError } from '../../contract.js';
import { DCSA_CODES, dcsaCode } from './codes.js';
import { parseDcsaEvents, stableJson } from './parse.js';

const FIXTURES = path.resolve(import.meta.dirname, 'fixtures');
const SHARED = path.resolve(import.meta.dirname, '../../../../../shared/reference/data/dcsa');
const OPTIONS = { carrierScac: 'TEST' };

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
const parse = (payload: unknown) => parseDcsaEvents(payload, OPTIONS);

/** The same events in the opposite order: DCSA leaves response order unspecified. */
function reversed(payload: unknown): unknown {
  if (Array.isArray(payload)) return [...payload].reverse();
  const p = payload as { events: unknown[] };
  return { ...p, events: [...p.events].reverse() };
}

function parseError(payload: unknown): SourceError {
  try {
    parse(payload);
  } catch (error) {
    if (error instanceof SourceError) return error;
    throw error;
  }
  throw new Error('expected the payload to be rejected');
}

const fixtureNames = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json') && !f.endsWith('.expected.json'))
  .sort();

describe('DCSA fixtures', () => {
  it('has an expected output beside every fixture, and covers every scenario', () => {
    for (const name of fixtureNames) expect(existsSync(path.join(FIXTURES, name.replace(/\.json$/, '.expected.json')))).toBe(true);
    const scenarios = fixtureNames.map((n) => n.split('.')[2]);
    expect(scenarios).toEqual(
      expect.arrayContaining([
        'direct',
        'transshipment',
        'feeder',
        'rail',
        'estimated-planned',
        'date-only',
        'gates',
        'tnt30-full-words',
        'tnt30-codes',
      ]),
    );
  });

  describe.each(fixtureNames)('%s', (name) => {
    const payload = readJson(path.join(FIXTURES, name));
    const expected = readJson(path.join(FIXTURES, name.replace(/\.json$/, '.expected.json')));

    it('parses to the expected facts', () => {
      expect(parse(payload)).toEqual(expected);
    });

    it('parses the same twice, and whatever the event order', () => {
      const first = parse(payload);
      expect(JSON.stringify(parse(payload))).toBe(JSON.stringify(first));
      expect(JSON.stringify(parse(reversed(payload)))).toBe(JSON.stringify(first));
    });
  });
});

describe('DCSA mapping rules', () => {
  const direct = readJson(path.join(FIXTURES, 'events.bill-of-lading.direct.json')) as Record<string, unknown>[];

  it('names transshipment by port: loads away from the POL and discharges away from the POD', () => {
    const facts = parse(readJson(path.join(FIXTURES, 'events.bill-of-lading.transshipment.json')));
    const at = (locode: string) => facts.milestones.filter((m) => m.place?.locode === locode).map((m) => m.milestone);
    expect(at('CNNGB')).toEqual(['full_in', 'vessel_loaded', 'vessel_departed']);
    expect(at('SGSIN')).toEqual(['transshipment_arrived', 'transshipment_discharged', 'transshipment_loaded', 'transshipment_departed']);
    // The second vessel's stop at Colombo is not the cargo's: the container stays on board.
    expect(at('LKCMB')).toEqual([]);
    expect(at('DEHAM')).toEqual(['vessel_arrived', 'vessel_discharged']);
  });

  it.each([
    ['TRUCK', 'truck'],
    ['VESSEL', null],
    [null, null],
  ] as const)('gives a gate move with a %s transport call the mode %s', (mode, expected) => {
    const events = direct.map((e) =>
      e.equipmentEventTypeCode === 'GTIN' && mode
        ? { ...e, transportCall: { transportCallID: 'gate-call', modeOfTransport: mode, UNLocationCode: 'CNSHA' } }
        : e,
    );
    const fullIn = parse(events).milestones.find((m) => m.milestone === 'full_in');
    expect(fullIn?.mode).toBe(expected);
  });

  it('treats BARGE legs as feeders once a VESSEL leg exists, and the vessel leg sets the POL', () => {
    const facts = parse(readJson(path.join(FIXTURES, 'events.booking.feeder.json')));
    expect(facts.shipment?.portOfLading?.locode).toBe('NLRTM');
    expect(facts.milestones.filter((m) => m.milestone.startsWith('feeder_')).map((m) => m.mode)).toEqual([
      'barge',
      'barge',
      'barge',
      'barge',
    ]);
  });

  it('treats a barge-only journey as the main leg', () => {
    const bargeOnly = readJson(path.join(FIXTURES, 'events.booking.feeder.json')) as Record<string, unknown>[];
    const facts = parse(bargeOnly.slice(0, 6));
    expect(facts.milestones.map((m) => m.milestone)).toEqual([
      'empty_out',
      'full_in',
      'vessel_loaded',
      'vessel_departed',
      'vessel_arrived',
      'vessel_discharged',
    ]);
    expect(facts.shipment?.portOfLading?.locode).toBe('DEDUI');
  });

  it('keeps the offset as given, a date alone as localDate, and an offset-less time as localDateTime', () => {
    const facts = parse(readJson(path.join(FIXTURES, 'events.bill-of-lading.date-only.json')));
    const whenOf = (m: string) => facts.milestones.find((f) => f.milestone === m)?.when;
    expect(whenOf('vessel_loaded')).toEqual({ at: null, localDateTime: null, localDate: '2024-11-07' });
    expect(whenOf('vessel_departed')).toEqual({ at: '2024-11-07T23:15:00+01:00', localDateTime: null, localDate: null });
    expect(whenOf('vessel_arrived')).toEqual({ at: null, localDateTime: '2024-11-26T08:00:00', localDate: null });
  });

  it('keeps shipment-level facts container-free and records the source words', () => {
    const facts = parse(direct);
    const departed = facts.milestones.find((m) => m.milestone === 'vessel_departed');
    expect(departed).toMatchObject({ containerNumber: null, sourceCode: 'TRANSPORT/DEPA/ACT', sourceEventId: direct[5]!.eventID });
    expect(facts.milestones.find((m) => m.milestone === 'vessel_loaded')?.sourceCode).toBe('EQUIPMENT/LOAD/ACT');
  });

  it('prefers the asked-for document number when the carrier names several', () => {
    const withSecondBl = [
      ...direct,
      {
        eventID: '000000d1-0000-4000-8000-000000000099',
        eventCreatedDateTime: '2024-03-21T00:00:00Z',
        eventType: 'SHIPMENT',
        eventClassifierCode: 'ACT',
        eventDateTime: '2024-03-21T00:00:00Z',
        shipmentEventTypeCode: 'ISSU',
        documentTypeCode: 'TRD',
        documentID: 'TEST0412346',
      },
    ];
    expect(parse(withSecondBl).shipment?.billOfLadingNumber).toBe('TEST0412345');
    const asked = parseDcsaEvents(withSecondBl, { carrierScac: 'TEST', target: { numberType: 'bill_of_lading', number: 'test0412346' } });
    expect(asked.shipment?.billOfLadingNumber).toBe('TEST0412346');
  });

  it('ties events of one transport call to one vessel even when only some of them name it', () => {
    const payload = readJson(path.join(FIXTURES, 'events.bill-of-lading.transshipment.json')) as {
      eventType: string;
      transportCall?: { vessel?: unknown };
    }[];
    const stripped = structuredClone(payload);
    for (const e of stripped) if (e.eventType === 'EQUIPMENT' && e.transportCall) delete e.transportCall.vessel;
    expect(parse(stripped)).toEqual(parse(payload));
  });

  it('drops an IMO number that fails its check digit but keeps the vessel name', () => {
    const events = structuredClone(direct);
    const call = (events[5] as { transportCall: { vessel: { vesselIMONumber: string } } }).transportCall;
    call.vessel.vesselIMONumber = '9321484';
    const departed = parse(events).milestones.find((m) => m.milestone === 'vessel_departed');
    expect(departed?.vessel).toEqual({ name: 'King of the Seas', imo: null, mmsi: null });
  });

  it('tolerates unknown fields and nulls where the standard allows omission', () => {
    const events = structuredClone(direct) as Record<string, unknown>[];
    events[0] = { ...events[0], carrierSpecificThing: { a: 1 }, ISOEquipmentCode: null, seals: null };
    expect(() => parse(events)).not.toThrow();
  });

  it('gives empty facts for no events', () => {
    const empty = { shipment: null, containers: [], milestones: [], yard: [], vesselPositions: [] };
    expect(parse([])).toEqual(empty);
    expect(parse({ events: [] })).toEqual(empty);
  });

  it.each([
    ['a string', 'oops'],
    ['an object without events', { data: [] }],
    ['null', null],
  ])('rejects %s as bad_response', (_what, payload) => {
    expect(parseError(payload).kind).toBe('bad_response');
  });

  it.each([
    ['a transport event without transportCall', { transportCall: undefined }, 5],
    ['an impossible calendar date', { eventDateTime: '2024-02-30T10:00:00+01:00' }, 5],
    ['a bad UN/LOCODE', { transportCall: { ...(direct[5]!.transportCall as object), UNLocationCode: 'shanghai' } }, 5],
    ['a created time without offset', { eventCreatedDateTime: '2024-03-06T10:04:30' }, 5],
    ['an equipment event without emptyIndicatorCode', { emptyIndicatorCode: undefined }, 4],
  ])('rejects %s', (_what, patch, index) => {
    const events = structuredClone(direct);
    events[index] = JSON.parse(JSON.stringify({ ...events[index], ...patch }));
    const error = parseError(events);
    expect(error.kind).toBe('bad_response');
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(new RegExp(`^DCSA TNT 2\\.2 events: \\[${index}\\]`));
  });
});

describe('DCSA code table', () => {
  it('maps both spellings of every row to the same internal code', () => {
    for (const [category, rows] of Object.entries(DCSA_CODES)) {
      for (const [short, word, internal] of rows) {
        const c = category as keyof typeof DCSA_CODES;
        if (short) expect(dcsaCode(c, short)).toBe(internal);
        if (word) expect(dcsaCode(c, word)).toBe(internal);
      }
    }
  });

  it.each([
    ['transportEvent', 'ARRI', 'ARRIVED', 'arrived'],
    ['transportEvent', 'DEPA', 'DEPARTED', 'departed'],
    ['equipmentEvent', 'LOAD', 'LOADED', 'loaded'],
    ['equipmentEvent', 'DISC', 'DISCHARGED', 'discharged'],
    ['equipmentEvent', 'GTIN', 'GATED_IN', 'gated_in'],
    ['equipmentEvent', 'GTOT', 'GATED_OUT', 'gated_out'],
    ['classifier', 'ACT', 'ACTUAL', 'actual'],
    ['classifier', 'EST', 'ESTIMATED', 'estimated'],
    ['classifier', 'PLN', 'PLANNED', 'planned'],
    ['documentType', 'BKG', 'BOOKING', 'booking'],
    ['documentType', 'TRD', 'TRANSPORT_DOCUMENT', 'transport_document'],
  ] as const)('%s: %s and %s are %s', (category, short, word, internal) => {
    expect(dcsaCode(category, short)).toBe(internal);
    expect(dcsaCode(category, word)).toBe(internal);
    expect(dcsaCode(category, short.toLowerCase())).toBe(internal);
  });

  it('knows nothing it was not told', () => {
    expect(dcsaCode('classifier', 'REQ')).toBeNull();
    expect(dcsaCode('equipmentEvent', 'WAYP')).toBeNull();
    expect(dcsaCode('transportEvent', 'LOAD')).toBeNull();
    expect(dcsaCode('mode', undefined)).toBeNull();
  });
});

describe('stableJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(stableJson({ b: [{ d: 1, c: 2 }], a: null, e: undefined })).toBe('{"a":null,"b":[{"c":2,"d":1}]}');
  });
});

describe.skipIf(!existsSync(SHARED))('DCSA reference data (../shared)', () => {
  const tnt22 = (file: string) => readJson(path.join(SHARED, 'tnt-2.2', file));
  const tnt30 = (file: string) => readJson(path.join(SHARED, 'tnt-3.0.0-conformance', file));

  it('parses the valid TNT 2.2 response to what the sample says', () => {
    const facts = parse(tnt22('tnt-220-response.json'));
    expect(facts.shipment).toEqual({
      billOfLadingNumber: 'reserved-HHL123',
      bookingNumber: 'ABC123123123',
      carrierScac: 'TEST',
      portOfLading: { locode: 'FRPAR', name: null, facilityCode: 'ADT', facilityCodeList: 'smdg' },
      portOfDischarge: null,
      destination: null,
    });
    expect(facts.containers).toEqual([
      { number: 'APZU4812090', isoSizeType: '22GP', sealNumber: 'string', weightLbs: null, weightIsShipmentAverage: false },
    ]);
    // Two estimated loads (…e4, …e7) at Paris on King of the Seas; the two ARRI events are at the stop where
    // the cargo boards, so they are no arrival of the cargo; DRFT shipment events are no milestone.
    expect(facts.milestones).toHaveLength(2);
    const loads = [
      ['3cecb101-7a1a-43a4-9d62-e88a131651e4', '2021-01-23T12:34:56Z'],
      ['3cecb101-7a1a-43a4-9d62-e88a131651e7', '2021-01-09T14:12:56Z'],
    ];
    for (const [i, [id, reportedAt]] of loads.entries()) {
      expect(facts.milestones[i]).toEqual({
        milestone: 'vessel_loaded',
        classifier: 'estimated',
        when: { at: '2019-11-12T07:41:00+08:30', localDateTime: null, localDate: null },
        place: { locode: 'FRPAR', name: 'Eiffel Tower', facilityCode: 'ADT', facilityCodeList: 'smdg' },
        vessel: { name: 'King of the Seas', imo: '9321483', mmsi: null },
        voyage: '2103S',
        mode: 'vessel',
        containerNumber: 'APZU4812090',
        railCarrierScac: null,
        sourceCode: 'EQUIPMENT/LOAD/EST',
        sourceEventId: id,
        reportedAt,
      });
    }
  });

  it.each(['attribute-values', 'date-times', 'event-ids', 'structure'])(
    'rejects tnt-220-response-wrong-%s.json as bad_response',
    (which) => {
      const error = parseError(tnt22(`tnt-220-response-wrong-${which}.json`));
      expect(error).toBeInstanceOf(SourceError);
      expect(error.kind).toBe('bad_response');
    },
  );

  it('rejects each malformed date-time case of the wrong-date-times sample on its own', () => {
    const cases = (tnt22('tnt-220-response-wrong-date-times.json') as Record<string, unknown>[]).filter((e) =>
      /missing|format/.test(String(e.TEST_CASE ?? '')),
    );
    expect(cases).toHaveLength(4);
    for (const [i, event] of cases.entries()) {
      const withId = { ...event, eventID: `3cecb101-7a1a-43a4-9d62-e88a1316520${i}` };
      expect(parseError([withId]).kind).toBe('bad_response');
    }
  });

  it('parses the TNT 3.0 conformance GET pages, alone and together', () => {
    const page1 = tnt30('tnt-300-response.json') as { events: unknown[] };
    const page2 = tnt30('tnt-300-response-nextpage.json') as { events: unknown[] };
    expect(parse(page1).milestones.map((m) => [m.milestone, m.sourceEventId])).toEqual([['vessel_departed', 'evt-resp-trans-001']]);
    expect(parse(page2).milestones.map((m) => [m.milestone, m.sourceEventId])).toEqual([['vessel_arrived', 'evt-resp-trans-002']]);
    const both = parse({ events: [...page1.events, ...page2.events] });
    expect(both.shipment).toMatchObject({
      bookingNumber: 'ABC709951',
      billOfLadingNumber: 'HHL71800000',
      portOfLading: { locode: 'GBSOU', name: 'Example Terminal Alpha' },
      portOfDischarge: { locode: 'ESBCN', name: 'Example Port Beta' },
    });
    expect(both.milestones.map((m) => [m.milestone, m.classifier, m.when.at])).toEqual([
      ['vessel_departed', 'actual', '2026-01-16T11:30:00Z'],
      ['vessel_arrived', 'estimated', '2026-01-20T10:15:00Z'],
    ]);
    // 7654321 and 2468135 fail the IMO check digit: the names stay, the numbers go.
    expect(both.milestones.map((m) => m.vessel)).toEqual([
      { name: 'Example Vessel Beta', imo: null, mmsi: null },
      { name: 'Example Vessel Gamma', imo: null, mmsi: null },
    ]);
    expect(both.containers.map((c) => c.number)).toEqual(['APZU4812090']);
  });

  it('parses the TNT 3.0 conformance POST bodies (same event shape)', () => {
    for (const kind of ['equipment', 'iot', 'reefer', 'shipment', 'transport']) {
      expect(() => parse(tnt30(`tnt-300-request-${kind}.json`))).not.toThrow();
    }
  });
});
