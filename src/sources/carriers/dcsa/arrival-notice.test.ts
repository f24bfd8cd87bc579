import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../domain/clock.js';
import { type CanonicalFacts, type FetchContext, SourceError } from '../../contract.js';
import { arrivalNoticeReference, mergeArrivalNotices } from './arrival-notice.js';
import { dcsaCarrierSource } from './index.js';
import { parseDcsaEvents, splitDcsaPayload } from './parse.js';

const BL = 'TEST0412345';
const C1 = 'MSKU1234565';
const C2 = 'MSKU7654328';
const POD = { locode: 'NLRTM', name: 'Rotterdam World Gateway', facilityCode: 'RWG', facilityCodeList: 'smdg' as const };

const base: CanonicalFacts = {
  shipment: {
    billOfLadingNumber: BL,
    bookingNumber: null,
    carrierScac: 'TEST',
    portOfLading: null,
    portOfDischarge: POD,
    destination: null,
  },
  containers: [{ number: C1, isoSizeType: '45G1', sealNumber: null, weightLbs: null, weightIsShipmentAverage: false }],
  milestones: [],
  yard: [],
  vesselPositions: [],
};

const notice = (extra: Record<string, unknown> = {}) => ({
  issueDateTime: '2026-01-20T08:00:00Z',
  transportDocumentReference: BL,
  ...extra,
});
const cargo = (...items: [string, number, string][]) => ({
  consignmentItems: [{ cargoItems: items.map(([ref, value, unit]) => ({ equipmentReference: ref, cargoGrossWeight: { value, unit } })) }],
});
const merge = (notices: unknown[], facts = base) => mergeArrivalNotices(facts, notices, BL);
const weights = (facts: CanonicalFacts) => facts.containers.map((c) => [c.number, c.weightLbs, c.weightIsShipmentAverage]);
const lfd = (facts: CanonicalFacts) => facts.yard.map((y) => [y.containerNumber, y.lineLastFreeDay]);
const date = (localDate: string) => ({ at: null, localDateTime: null, localDate });

describe('arrival notice → facts', () => {
  it.each([
    ['pounds as given', [[C1, 22_046.5, 'LBR']], 22_046.5],
    ['kilograms, to whole pounds', [[C1, 10_000, 'KGM']], 22_046],
    ['grams', [[C1, 1_000_000, 'GRM']], 2205],
    ['ounces', [[C1, 160, 'ONZ']], 10],
    [
      'several cargo items summed',
      [
        [C1, 4_000, 'KGM'],
        [C1, 6_000, 'KGM'],
      ],
      22_046,
    ],
    ['an unknown unit: unknown', [[C1, 10, 'TNE']], null],
  ] as [string, [string, number, string][], number | null][])('weight: %s', (_name, items, expected) => {
    expect(weights(merge([notice(cargo(...items))]))).toEqual([[C1, expected, false]]);
  });

  it('a container with one unweighed cargo item has no weight', () => {
    const n = notice({
      consignmentItems: [
        { cargoItems: [{ equipmentReference: C1, cargoGrossWeight: { value: 5, unit: 'KGM' } }, { equipmentReference: C1 }] },
      ],
    });
    expect(weights(merge([n]))).toEqual([[C1, null, false]]);
  });

  it.each([
    [
      'two containers of equal weight: the shipment’s average',
      [
        [C1, 9_000, 'LBR'],
        [C2, 9_000, 'LBR'],
      ],
      true,
    ],
    [
      'two containers of different weights',
      [
        [C1, 9_000, 'LBR'],
        [C2, 9_001, 'LBR'],
      ],
      false,
    ],
    ['one container: its own weight', [[C1, 9_000, 'LBR']], false],
  ] as [string, [string, number, string][], boolean][])('average: %s', (_name, items, average) => {
    const facts = merge([notice(cargo(...items))]);
    expect(facts.containers.every((c) => c.weightIsShipmentAverage === average)).toBe(true);
  });

  it('no average when a listed container has no weight', () => {
    const n = notice({ ...cargo([C1, 9_000, 'LBR']), utilizedTransportEquipments: [{ equipment: { equipmentReference: C2 } }] });
    expect(weights(merge([n]))).toEqual([
      [C1, 9_000, false],
      [C2, null, false],
    ]);
  });

  it('adds the containers no event names yet, with size-type and seal; events win where they speak', () => {
    const n = notice({
      utilizedTransportEquipments: [
        { equipment: { equipmentReference: C1, ISOEquipmentCode: '42G1' }, seals: [{ number: 'S1' }] },
        { equipment: { equipmentReference: C2, ISOEquipmentCode: '22g1' }, seals: [{ number: 'S2' }] },
      ],
    });
    expect(merge([n]).containers.map((c) => [c.number, c.isoSizeType, c.sealNumber])).toEqual([
      [C1, '45G1', 'S1'],
      [C2, '22G1', 'S2'],
    ]);
  });

  it.each([
    [
      'a DEM free time for the container',
      [{ typeCodes: ['DEM'], equipmentReferences: [C1], lastFreeDate: { value: '2026-02-03' } }],
      date('2026-02-03'),
    ],
    [
      'DEM for its ISO code',
      [{ typeCodes: ['DEM'], ISOEquipmentCodes: ['45G1'], lastFreeDate: { value: '2026-02-03' } }],
      date('2026-02-03'),
    ],
    ['DEM for every container', [{ typeCodes: ['DEM', 'DET'], lastFreeDate: { value: '2026-02-03' } }], date('2026-02-03')],
    [
      'an instant',
      [{ typeCodes: ['DEM'], lastFreeDateTime: { value: '2026-02-03T23:59:00+01:00' } }],
      { at: '2026-02-03T23:59:00+01:00', localDateTime: null, localDate: null },
    ],
    [
      'the most specific wins',
      [
        { typeCodes: ['DEM'], lastFreeDate: { value: '2026-02-01' } },
        { typeCodes: ['DEM'], ISOEquipmentCodes: ['45G1'], lastFreeDate: { value: '2026-02-02' } },
        { typeCodes: ['DEM'], equipmentReferences: [C1], lastFreeDate: { value: '2026-02-03' } },
      ],
      date('2026-02-03'),
    ],
    [
      'disagreeing dates at one level: none',
      [
        { typeCodes: ['DEM'], lastFreeDate: { value: '2026-02-01' } },
        { typeCodes: ['DEM'], lastFreeDate: { value: '2026-02-02' } },
      ],
      null,
    ],
    ['detention only: none', [{ typeCodes: ['DET'], lastFreeDate: { value: '2026-02-03' } }], null],
    ['a duration without a date: none (not derivable)', [{ typeCodes: ['DEM'], duration: 5, timeUnit: 'CD' }], null],
    ['another container’s: none', [{ typeCodes: ['DEM'], equipmentReferences: [C2], lastFreeDate: { value: '2026-02-03' } }], null],
  ] as [string, unknown[], unknown][])('line last free day: %s', (_name, freeTimes, expected) => {
    const facts = merge([notice({ freeTimes })]);
    const own = lfd(facts).filter(([c]) => c === C1);
    expect(own).toEqual(expected === null ? [] : [[C1, expected]]);
  });

  it('puts the line last free day at the notice’s port of discharge, else the events’', () => {
    const freeTimes = [{ typeCodes: ['DEM'], lastFreeDate: { value: '2026-02-03' } }];
    expect(merge([notice({ freeTimes })]).yard[0]?.facility).toEqual(POD);
    const pod = {
      UNLocationCode: 'NLRTM',
      locationName: 'ECT Delta',
      facility: { facilityCode: 'ECTDE', facilityCodeListProvider: 'SMDG' },
    };
    expect(merge([notice({ freeTimes, transport: { portOfDischarge: pod } })]).yard[0]?.facility).toEqual({
      locode: 'NLRTM',
      name: 'ECT Delta',
      facilityCode: 'ECTDE',
      facilityCodeList: 'smdg',
    });
  });

  it('reads the newest notice that states a value, ignores other documents, and does not depend on order', () => {
    const older = notice({ issueDateTime: '2026-01-18T08:00:00Z', typeLabel: 'fr', ...cargo([C1, 1, 'LBR']) });
    const newer = notice({ typeLabel: 'en', ...cargo([C1, 2, 'LBR']) });
    const other = { issueDateTime: '2026-01-25T08:00:00Z', transportDocumentReference: 'OTHER0000001', ...cargo([C1, 3, 'LBR']) };
    expect(weights(merge([older, newer, other]))).toEqual([[C1, 2, false]]);
    expect(merge([other, newer, older])).toEqual(merge([older, newer, other]));
    expect(merge([])).toEqual(base);
  });

  it('rejects a notice that does not fit the schema (bad_response)', () => {
    expect(() => merge([{ transportDocumentReference: BL }])).toThrow(SourceError);
    expect(() => merge([notice(cargo([C1, -1, 'KGM']))])).toThrow(/cargoGrossWeight/);
  });

  it('asks for the events’ bill of lading, else the asked-for one', () => {
    expect(arrivalNoticeReference(base, { numberType: 'container', number: C1 })).toBe(BL);
    const none = { ...base, shipment: null };
    expect(arrivalNoticeReference(none, { numberType: 'bill_of_lading', number: ' X1 ' })).toBe('X1');
    expect(arrivalNoticeReference(none, { numberType: 'booking_number', number: 'B1' })).toBeNull();
  });

  it('keeps old stored payloads readable: a TNT payload alone is not a combined one', () => {
    expect(splitDcsaPayload([])).toEqual({ events: [], arrivalNotices: null });
    expect(splitDcsaPayload({ events: [] })).toEqual({ events: { events: [] }, arrivalNotices: null });
    expect(splitDcsaPayload({ events: [], arrivalNotices: [] })).toEqual({ events: [], arrivalNotices: [] });
    expect(() => parseDcsaEvents({ events: [], arrivalNotices: {} }, { carrierScac: 'TEST' })).toThrow(SourceError);
  });
});

// ---------------------------------------------------------------------------------------------------------
// The adapter over HTTP: events first, then the bill of lading's notices.

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

const clock = new FixedClock('2026-03-01T12:00:00Z');
const ctx = (): FetchContext => ({ signal: new AbortController().signal, now: () => clock.now() });

const EVENT = {
  eventID: '00000000-0000-4000-8000-000000000001',
  eventCreatedDateTime: '2026-01-01T00:00:00Z',
  eventType: 'EQUIPMENT',
  eventClassifierCode: 'ACT',
  eventDateTime: '2026-01-01T00:00:00Z',
  equipmentEventTypeCode: 'LOAD',
  equipmentReference: C1,
  emptyIndicatorCode: 'LADEN',
  transportCall: { transportCallID: 'call-1', modeOfTransport: 'VESSEL', UNLocationCode: 'CNSHA' },
  documentReferences: [{ documentReferenceType: 'TRD', documentReferenceValue: BL }],
};

interface Seen {
  url: URL;
  headers: http.IncomingHttpHeaders;
}

async function carrier(notices: (url: URL, n: number) => { status: number; headers?: Record<string, string>; body?: unknown }) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://carrier');
    seen.push({ url, headers: req.headers });
    const reply = url.pathname.endsWith('/arrival-notices')
      ? notices(url, seen.filter((s) => s.url.pathname.endsWith('/arrival-notices')).length)
      : { status: 200, body: [EVENT] };
    res.writeHead(reply.status, { 'Content-Type': 'application/json', ...reply.headers });
    res.end(JSON.stringify(reply.body ?? {}));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const root = `http://127.0.0.1:${port}`;
  const source = dcsaCarrierSource({ scac: 'TEST', name: 'Test carrier' });
  const adapter = source.create(
    source.configSchema.parse({
      baseUrl: `${root}/tnt`,
      arrivalNoticeUrl: `${root}/an/v1`,
      auth: { type: 'header', name: 'API-Key', value: 'k1' },
    }),
  );
  return { adapter, seen };
}

describe('DCSA adapter with arrival notices', () => {
  it('asks for the events’ bill of lading with API-Version 1.0.1 and the same credentials, following Next-Page-Cursor', async () => {
    const { adapter, seen } = await carrier((_url, n) =>
      n === 1
        ? { status: 200, headers: { 'Next-Page-Cursor': 'c2' }, body: { arrivalNotices: [] } }
        : { status: 200, body: { arrivalNotices: [notice(cargo([C1, 10_000, 'KGM']))] } },
    );
    const observation = await adapter.fetch({ numberType: 'container', number: C1, scac: 'TEST' }, ctx());
    const an = seen.filter((s) => s.url.pathname === '/an/v1/arrival-notices');
    expect(an.map((s) => s.url.search)).toEqual([`?transportDocumentReferences=${BL}`, `?transportDocumentReferences=${BL}&cursor=c2`]);
    expect(an.every((s) => s.headers['api-version'] === '1.0.1' && s.headers['api-key'] === 'k1')).toBe(true);
    expect(observation.facts.containers[0]?.weightLbs).toBe(22_046);
    const payload = observation.payload as { events: unknown[]; arrivalNotices: unknown[] };
    expect(payload.arrivalNotices).toHaveLength(1);
    // The stored payload re-parses to the same facts.
    expect(parseDcsaEvents(payload, { carrierScac: 'TEST', target: { numberType: 'container', number: C1 } })).toEqual(observation.facts);
  });

  it.each([
    ['404 (no notice endpoint or none yet)', { status: 404 }],
    ['410', { status: 410 }],
    ['an empty list', { status: 200, body: { arrivalNotices: [] } }],
    ['no list at all', { status: 200, body: {} }],
  ])('reads %s as no notice yet, not a failure', async (_name, reply) => {
    const { adapter } = await carrier(() => reply);
    const observation = await adapter.fetch({ numberType: 'bill_of_lading', number: BL, scac: 'TEST' }, ctx());
    expect(observation.facts.containers).toEqual([
      { number: C1, isoSizeType: null, sealNumber: null, weightLbs: null, weightIsShipmentAverage: false },
    ]);
    expect(observation.payload).toEqual({ events: [EVENT], arrivalNotices: [] });
  });

  it.each([
    [503, 'unavailable'],
    [401, 'auth'],
    [400, 'bad_response'],
  ] as const)('fails typed when the notices answer %i (%s)', async (status, kind) => {
    const { adapter } = await carrier(() => ({ status }));
    await expect(adapter.fetch({ numberType: 'bill_of_lading', number: BL, scac: 'TEST' }, ctx())).rejects.toMatchObject({ kind });
  });
});
