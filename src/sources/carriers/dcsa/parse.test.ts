import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeWithReference, reference } from '../../../../test/kit/reference.js';
import { type CanonicalFacts, type MilestoneFact, SourceError } from '../../contract.js';
import { DCSA_CODES, dcsaCode } from './codes.js';
import { parseDcsaEvents, stableJson } from './parse.js';

const FIXTURES = path.resolve(import.meta.dirname, 'fixtures');
const SHARED = reference('data/dcsa');
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
        'feeder-vessel',
        'feeder-precarriage',
        'offdock',
        'tnt30-phases',
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

/** The milestone family of a leg move: one vehicle is one leg kind. */
const FAMILY: Record<string, string> = { vessel: 'main', transshipment: 'main', feeder: 'feeder', rail: 'rail' };
function familiesByVehicle(milestones: MilestoneFact[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const m of milestones) {
    const family = FAMILY[m.milestone.split('_')[0]!];
    const vehicle = m.vessel?.imo ?? m.vessel?.name;
    if (!family || !vehicle) continue;
    out.set(vehicle, new Set([...(out.get(vehicle) ?? []), family]));
  }
  return out;
}

describe('DCSA mapping rules', () => {
  const direct = readJson(path.join(FIXTURES, 'events.bill-of-lading.direct.json')) as Record<string, unknown>[];
  const feederVessel = readJson(path.join(FIXTURES, 'events.bill-of-lading.feeder-vessel.json')) as Record<string, unknown>[];
  const at = (facts: CanonicalFacts, locode: string) =>
    facts.milestones.filter((m) => m.place?.locode === locode).map((m) => `${m.milestone} ${m.vessel?.name ?? ''}`.trim());

  it.each(fixtureNames)('%s: one vehicle is one leg kind', (name) => {
    for (const [vehicle, families] of familiesByVehicle(parse(readJson(path.join(FIXTURES, name))).milestones)) {
      expect([...families], vehicle).toHaveLength(1);
    }
  });

  it('names a feeder vessel from the POL like the mother vessel: vessel_* at the POL, transshipment_* at the hub', () => {
    const facts = parse(feederVessel);
    expect(facts.shipment?.portOfLading?.locode).toBe('IDJKT');
    expect(facts.shipment?.portOfDischarge?.locode).toBe('USLGB');
    expect(at(facts, 'IDJKT')).toEqual(['empty_out', 'full_in', 'vessel_loaded Margrethe II', 'vessel_departed Margrethe II']);
    expect(at(facts, 'SGSIN')).toEqual([
      'transshipment_arrived Margrethe II',
      'transshipment_discharged Margrethe II',
      'transshipment_loaded YM Tacoma',
      'transshipment_departed YM Tacoma',
    ]);
    expect(at(facts, 'USLGB')).toEqual(['vessel_arrived YM Tacoma', 'vessel_berthed YM Tacoma', 'vessel_discharged YM Tacoma']);
  });

  it('makes a VESSEL leg before the POL the bill of lading states (arrival notice) a feeder, and keeps that POL', () => {
    const facts = parse(readJson(path.join(FIXTURES, 'arrival-notices.bill-of-lading.feeder-precarriage.json')));
    expect(facts.shipment?.portOfLading?.locode).toBe('SGSIN');
    expect(at(facts, 'IDJKT')).toEqual(['empty_out', 'feeder_loaded Margrethe II', 'feeder_departed Margrethe II']);
    expect(at(facts, 'SGSIN')).toEqual([
      'feeder_arrived Margrethe II',
      'feeder_discharged Margrethe II',
      'vessel_loaded YM Tacoma',
      'vessel_departed YM Tacoma',
    ]);
    expect(facts.milestones.filter((m) => m.milestone.startsWith('feeder_')).every((m) => m.mode === 'vessel')).toBe(true);
  });

  it.each([
    ['a POL no event boards at', { pol: 'NLRTM', pod: null }, 'IDJKT', 'USLGB'],
    ['a POD no event lands at', { pol: null, pod: 'USOAK' }, 'IDJKT', 'USLGB'],
    ['the ports the legs give anyway', { pol: 'IDJKT', pod: 'USLGB' }, 'IDJKT', 'USLGB'],
    ['an on-carriage after the stated POD', { pol: null, pod: 'SGSIN' }, 'IDJKT', 'SGSIN'],
  ])('with %s in the arrival notice, POL %s and POD follow', (_what, ports, pol, pod) => {
    const notice = {
      issueDateTime: '2026-05-02T08:00:00Z',
      transportDocumentReference: 'TEST0412345',
      transport: {
        ...(ports.pol ? { portOfLoading: { UNLocationCode: ports.pol } } : {}),
        ...(ports.pod ? { portOfDischarge: { UNLocationCode: ports.pod } } : {}),
      },
    };
    const facts = parse({ events: feederVessel, arrivalNotices: [notice] });
    expect([facts.shipment?.portOfLading?.locode, facts.shipment?.portOfDischarge?.locode]).toEqual([pol, pod]);
    for (const families of familiesByVehicle(facts.milestones).values()) expect(families.size).toBe(1);
    if (pod === 'SGSIN') expect(at(facts, 'USLGB')).toEqual(['feeder_arrived YM Tacoma', 'feeder_discharged YM Tacoma']);
  });

  it('keeps one ship one leg when a carrier writes FEEDER on some of its events and VESSEL on others', () => {
    const events = structuredClone(feederVessel) as { transportCall?: { modeOfTransport: string; vessel?: { vesselName?: string } } }[];
    const margrethe = events.filter((e) => e.transportCall?.vessel?.vesselName === 'Margrethe II');
    margrethe.at(-1)!.transportCall!.modeOfTransport = 'FEEDER';
    const facts = parse(events);
    // FEEDER is the carrier's plain word: the whole ship is a feeder, and the POL is where the VESSEL leg boards.
    expect(facts.milestones.filter((m) => m.vessel?.name === 'Margrethe II').map((m) => m.milestone)).toEqual([
      'feeder_loaded',
      'feeder_departed',
      'feeder_arrived',
      'feeder_discharged',
    ]);
    expect(facts.shipment?.portOfLading?.locode).toBe('SGSIN');
  });

  it.each([
    // [where, the landing vessel's IMO, plain arrival, berth arrival, with the plain arrival?, milestones]
    [
      'at the POD, beside the arrival',
      'USLGB',
      '9192844',
      '2026-05-17T07:00:00-07:00',
      '2026-05-17T13:00:00-07:00',
      true,
      ['vessel_arrived', 'vessel_berthed'],
    ],
    ['at the POD, alone', 'USLGB', '9192844', '2026-05-17T07:00:00-07:00', '2026-05-17T13:00:00-07:00', false, ['vessel_berthed']],
    [
      'at a transshipment port, beside the arrival',
      'SGSIN',
      '9127186',
      '2026-04-18T04:48:00+08:00',
      '2026-04-18T06:00:00+08:00',
      true,
      ['transshipment_arrived'],
    ],
    [
      'at a transshipment port, alone',
      'SGSIN',
      '9127186',
      '2026-04-18T04:48:00+08:00',
      '2026-04-18T06:00:00+08:00',
      false,
      ['transshipment_arrived'],
    ],
  ])('reads a berth arrival (BRTH) %s', (_what, locode, imo, plainAt, berthAt, withPlainArrival, expected) => {
    const arrivalHere = (e: Record<string, unknown>) =>
      e.transportEventTypeCode === 'ARRI' && (e.transportCall as { UNLocationCode: string }).UNLocationCode === locode;
    const events = structuredClone(feederVessel).filter((e) => !arrivalHere(e));
    const call = { transportCallID: `call-${locode}`, modeOfTransport: 'VESSEL', UNLocationCode: locode, vessel: { vesselIMONumber: imo } };
    const arrival = { ...feederVessel.find(arrivalHere)!, eventClassifierCode: 'ACT', transportCall: call };
    events.push({
      ...arrival,
      eventID: '0b0b0000-0000-4000-8000-000000000001',
      eventDateTime: berthAt,
      transportCall: { ...call, facilityTypeCode: 'BRTH' },
    });
    if (withPlainArrival) events.push({ ...arrival, eventID: '0b0b0000-0000-4000-8000-000000000002', eventDateTime: plainAt });
    const mine = parse(events).milestones.filter((m) => m.place?.locode === locode && /arrived|berthed/.test(m.milestone));
    expect(mine.map((m) => [m.milestone, m.when.at])).toEqual(
      expected.map((m) => [m, m === 'vessel_berthed' || !withPlainArrival ? berthAt : plainAt]),
    );
  });

  it('skips empty repositioning loads and discharges, and a vessel that only moved the box empty is no leg', () => {
    const payload = readJson(path.join(FIXTURES, 'events.container.offdock.json')) as Record<string, unknown>[];
    const facts = parse(payload);
    const empties = payload.filter((e) => e.emptyIndicatorCode === 'EMPTY' && /LOAD|DISC/.test(String(e.equipmentEventTypeCode)));
    expect(empties).toHaveLength(2);
    const ids = new Set(facts.milestones.map((m) => m.sourceEventId));
    for (const e of empties) expect(ids.has(String(e.eventID))).toBe(false);
    expect(facts.milestones.some((m) => m.vessel?.name === 'Repo Star')).toBe(false);
    expect(facts.shipment?.portOfLading?.locode).toBe('CNSHA');
    // The same moves laden would be the cargo's: Ningbo would be the POL.
    const laden = payload.map((e) => (empties.includes(e) ? { ...e, emptyIndicatorCode: 'LADEN' } : e));
    expect(parse(laden).shipment?.portOfLading?.locode).toBe('CNNGB');
  });

  it.each([
    // [movement of the SGSIN discharge, of the SGSIN load, milestones at SGSIN]
    [
      'TRANSSHIPMENT',
      'TRANSSHIPMENT',
      ['transshipment_arrived', 'transshipment_discharged', 'transshipment_loaded', 'transshipment_departed'],
    ],
    ['IMPORT', 'EXPORT', ['vessel_arrived', 'vessel_discharged', 'vessel_loaded', 'vessel_departed']],
    [null, null, ['transshipment_arrived', 'transshipment_discharged', 'transshipment_loaded', 'transshipment_departed']],
    ['IMPORT', null, ['vessel_arrived', 'vessel_discharged', 'transshipment_loaded', 'transshipment_departed']],
  ] as const)('lets a 3.0 carrier’s movement decide vessel_* vs transshipment_*: discharge %s, load %s', (disc, load, expected) => {
    const payload = structuredClone(readJson(path.join(FIXTURES, 'events.bill-of-lading.tnt30-phases.json'))) as {
      events: {
        eventLocation: { UNLocationCode: string };
        equipmentDetails?: Record<string, unknown>;
        eventClassification: Record<string, string>;
      }[];
    };
    for (const e of payload.events) {
      if (e.eventLocation.UNLocationCode !== 'SGSIN' || !e.equipmentDetails) continue;
      const phase = e.eventClassification.equipmentEventType === 'DISCHARGED' ? disc : load;
      delete e.equipmentDetails.transportPhase;
      // The conformance spelling's field name for the same thing.
      if (phase) e.equipmentDetails.movementType = phase;
    }
    const facts = parse(payload);
    expect(facts.milestones.filter((m) => m.place?.locode === 'SGSIN').map((m) => m.milestone)).toEqual(expected);
  });

  it('takes a 3.0 carrier’s TRANSSHIPMENT at the last discharge as its word that the POD is further on', () => {
    const facts = parse(readJson(path.join(FIXTURES, 'events.bill-of-lading.tnt30-phases.json')));
    expect(facts.shipment?.portOfLading?.locode).toBe('CNSHA');
    expect(facts.shipment?.portOfDischarge).toBeNull();
    expect(at(facts, 'DEHAM')).toEqual([
      'transshipment_arrived Northern Star',
      'transshipment_discharged Northern Star',
      'customs_selected_for_inspection',
    ]);
  });

  it.each([
    ['CUSS', 'customs_selected_for_scan'],
    ['CUSI', 'customs_selected_for_inspection'],
    ['CUSTOMS_SELECTED_FOR_SCAN', 'customs_selected_for_scan'],
    ['CUSTOMS_SELECTED_FOR_INSPECTION', 'customs_selected_for_inspection'],
  ])('maps %s to %s', (code, milestone) => {
    const events = structuredClone(direct);
    const discharge = events.find((e) => e.equipmentEventTypeCode === 'DISC')!;
    events.push({ ...discharge, eventID: '0c0c0000-0000-4000-8000-000000000001', equipmentEventTypeCode: code, transportCall: undefined });
    const facts = parse(JSON.parse(JSON.stringify(events)));
    expect(facts.milestones.find((m) => m.sourceEventId === '0c0c0000-0000-4000-8000-000000000001')).toMatchObject({
      milestone,
      containerNumber: 'MSKU1234565',
    });
  });

  describe('seals', () => {
    const payload = readJson(path.join(FIXTURES, 'events.container.offdock.json')) as Record<string, unknown>[];
    const reseal = payload.find((e) => e.equipmentEventTypeCode === 'RSEA')!;
    const sealOf = (events: unknown) => parse(events).containers[0]!.sealNumber;

    it.each([
      ['the reseal’s new seal wins over the booking seal repeated on later events', payload, 'CBP0039921'],
      ['without the reseal, the latest event’s seal', payload.filter((e) => e !== reseal), 'SH2026001'],
      ['a reseal naming only its new seal', payload.map((e) => (e === reseal ? { ...e, seals: [{ sealNumber: 'CBP1' }] } : e)), 'CBP1'],
      ['an estimated reseal is no fact', payload.map((e) => (e === reseal ? { ...e, eventClassifierCode: 'EST' } : e)), 'SH2026001'],
      [
        'the latest of two reseals',
        [
          ...payload,
          {
            ...reseal,
            eventID: '0d0d0000-0000-4000-8000-000000000001',
            eventDateTime: '2026-03-19T10:00:00-07:00',
            seals: [{ sealNumber: 'CBP2' }],
          },
        ],
        'CBP2',
      ],
    ])('%s', (_what, events, seal) => {
      expect(sealOf(events)).toBe(seal);
    });
  });

  describe('off-dock yards', () => {
    const payload = readJson(path.join(FIXTURES, 'events.container.offdock.json')) as Record<string, unknown>[];
    const offDock = (e: Record<string, unknown>) =>
      (e.transportCall as { facilityTypeCode?: string } | undefined)?.facilityTypeCode === 'OFFD';

    it('reports the POD’s off-dock yard, and the pick-up there (not the transfer out of the terminal) as full_out', () => {
      const facts = parse(payload);
      expect(facts.yard).toEqual([
        {
          containerNumber: 'MSKU1234565',
          facility: { locode: 'USLAX', name: 'Pacific Off-Dock CY', facilityCode: null, facilityCodeList: null },
          available: null,
          holds: null,
          fees: null,
          lastFreeDay: null,
          lineLastFreeDay: null,
          appointmentAt: null,
          offDock: true,
          yardLocation: null,
          chassisNumber: null,
        },
      ]);
      expect(facts.milestones.filter((m) => m.milestone === 'full_out').map((m) => [m.when.at, m.place?.name])).toEqual([
        ['2026-03-20T07:15:00-07:00', 'Pacific Off-Dock CY'],
      ]);
    });

    it('without an off-dock move, the terminal gate-out is the pick-up and there is no yard fact', () => {
      const facts = parse(payload.filter((e) => !offDock(e)));
      expect(facts.yard).toEqual([]);
      expect(facts.milestones.filter((m) => m.milestone === 'full_out').map((m) => m.when.at)).toEqual(['2026-03-18T08:00:00-07:00']);
    });

    it('ignores an off-dock yard at another place than the POD', () => {
      const elsewhere = payload.map((e) =>
        offDock(e)
          ? { ...e, eventLocation: { UNLocationCode: 'USONT' }, transportCall: { ...(e.transportCall as object), UNLocationCode: 'USONT' } }
          : e,
      );
      expect(parse(elsewhere).yard).toEqual([]);
    });

    it.each([
      ['facilityType', 'OFF_DOCK_STORAGE'],
      ['facilityTypeCode', 'OFFD'],
    ])('reads TNT 3.0’s %s %s on the event location', (field, value) => {
      const payload = structuredClone(readJson(path.join(FIXTURES, 'events.bill-of-lading.tnt30-phases.json'))) as {
        events: { eventLocation: { UNLocationCode: string }; equipmentDetails?: Record<string, unknown> }[];
      };
      // Hamburg the POD this time: the discharge there is an import.
      for (const e of payload.events)
        if (e.eventLocation.UNLocationCode === 'DEHAM' && e.equipmentDetails) e.equipmentDetails.transportPhase = 'IMPORT';
      const gate = (id: string, type: string, at: string) => ({
        eventID: id,
        eventDateTime: at,
        eventLocation: { UNLocationCode: 'DEHAM', locationName: 'Altenwerder Off-Dock', [field]: value },
        eventClassification: { eventType: 'EQUIPMENT', eventClassifier: 'ACTUAL', equipmentEventType: type },
        equipmentDetails: { equipmentReference: 'TGHU8042118', emptyIndicator: 'LADEN' },
      });
      const facts = parse({
        events: [
          ...payload.events,
          gate('evt-in', 'GATED_IN', '2026-07-07T10:00:00+02:00'),
          gate('evt-out', 'GATED_OUT', '2026-07-09T08:00:00+02:00'),
        ],
      });
      expect(facts.shipment?.portOfDischarge?.locode).toBe('DEHAM');
      expect(facts.yard.map((y) => [y.facility.locode, y.facility.name, y.offDock])).toEqual([['DEHAM', 'Altenwerder Off-Dock', true]]);
      // The gate-out from the off-dock yard is the pick-up.
      expect(facts.milestones.filter((m) => m.milestone === 'full_out').map((m) => m.sourceEventId)).toEqual(['evt-out']);
    });
  });

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

describeWithReference(SHARED, 'DCSA reference data (../shared)', () => {
  const tnt22 = (file: string) => readJson(path.join(SHARED.path, 'tnt-2.2', file));
  const tnt30 = (file: string) => readJson(path.join(SHARED.path, 'tnt-3.0.0-conformance', file));

  it('parses the valid TNT 2.2 response to what the sample says', () => {
    const facts = parse(tnt22('tnt-220-response.json'));
    // Its only loads (…e4, …e7 at Paris on King of the Seas) are of an EMPTY box: repositioning, not the cargo's
    // voyage, so that vessel is no leg of it (its two ARRI events neither) and there is no POL; DRFT shipment
    // events are no milestone.
    expect(facts.shipment).toEqual({
      billOfLadingNumber: 'reserved-HHL123',
      bookingNumber: 'ABC123123123',
      carrierScac: 'TEST',
      portOfLading: null,
      portOfDischarge: null,
      destination: null,
    });
    expect(facts.containers).toEqual([
      { number: 'APZU4812090', isoSizeType: '22GP', sealNumber: 'string', weightLbs: null, weightIsShipmentAverage: false },
    ]);
    expect(facts.milestones).toEqual([]);
    // The same loads marked LADEN are the cargo's: two estimated vessel_loaded at Paris.
    const laden = (tnt22('tnt-220-response.json') as Record<string, unknown>[]).map((e) =>
      e.emptyIndicatorCode ? { ...e, emptyIndicatorCode: 'LADEN' } : e,
    );
    const ladenFacts = parse(laden);
    expect(ladenFacts.shipment?.portOfLading).toEqual({ locode: 'FRPAR', name: null, facilityCode: 'ADT', facilityCodeList: 'smdg' });
    const loads = [
      ['3cecb101-7a1a-43a4-9d62-e88a131651e4', '2021-01-23T12:34:56Z'],
      ['3cecb101-7a1a-43a4-9d62-e88a131651e7', '2021-01-09T14:12:56Z'],
    ];
    expect(ladenFacts.milestones).toHaveLength(2);
    for (const [i, [id, reportedAt]] of loads.entries()) {
      expect(ladenFacts.milestones[i]).toEqual({
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
