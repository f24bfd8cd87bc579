import { describe, expect, it } from 'vitest';
import type { MilestoneFact, Place, SourceObservation, YardFact } from '../sources/contract.js';
import { type NormalizeInput, normalize } from './normalize.js';
import { equipmentOf } from './snapshot.js';
import {
  BOX,
  BOX2,
  CHICAGO_G4,
  carrier,
  containerFact,
  fee,
  hold,
  LA_APMT,
  ms,
  observation,
  place,
  railroad,
  SHANGHAI,
  shipmentFact,
  terminal,
  yard,
} from './test-builders.js';

const worldNow = new Date('2026-04-01T00:00:00Z');
const run = (input: Partial<NormalizeInput>) => normalize({ carrier: null, terminals: [], rail: [], ...input }, { worldNow });
const box = (input: Partial<NormalizeInput>, number = BOX) => {
  const c = run(input).containers.find((x) => x.number === number);
  if (!c) throw new Error(`no container ${number}`);
  return c;
};

/** A rail move: discharged at LA, railed by UP to Chicago. */
const railLeg = [
  ms('vessel_arrived', '2026-03-15T06:00:00-07:00', { place: LA_APMT, container: null }),
  ms('vessel_discharged', '2026-03-15T19:00:00-07:00', { place: LA_APMT }),
  ms('rail_loaded', '2026-03-17T08:00:00-07:00', { place: place('USLAX', 'ICTF'), railScac: 'UPRR' }),
  ms('rail_departed', '2026-03-17T14:00:00-07:00', { place: place('USLAX', 'ICTF'), railScac: 'UPRR' }),
];

describe('normalize: date-only values become local midnight at the event location (UTC midnight when unknown)', () => {
  it.each([
    ['at a port (LA, PDT)', place('USLAX'), '2026-03-16T07:00:00Z', 'America/Los_Angeles'],
    ['at a terminal found by its FIRMS code only', { ...place(null, 'W185', 'firms') }, '2026-03-16T07:00:00Z', 'America/Los_Angeles'],
    ['at an inland rail hub (Chicago, CDT)', place('USCHI'), '2026-03-16T05:00:00Z', 'America/Chicago'],
    ['at a place not in the reference data', place('ZZZZZ'), '2026-03-16T00:00:00Z', null],
    ['with no place at all', null, '2026-03-16T00:00:00Z', null],
  ])('%s', (_name, where, expected, zone) => {
    const out = run({ carrier: carrier([ms('vessel_discharged', '2026-03-16', { place: where })]) });
    const event = out.transportEvents.find((e) => e.event === 'container.transport.vessel_discharged');
    expect(event?.timestamp).toBe(expected);
    expect(event?.timezone).toBe(zone);
  });

  it('a date-only terminal LFD is midnight in the POD terminal zone', () => {
    expect(box({ carrier: carrier(), terminals: [terminal([yard({ lfd: '2026-03-20' })])] }).pickup_lfd_terminal).toBe(
      '2026-03-20T07:00:00Z',
    );
  });

  it('a date-only rail LFD is midnight in the inland zone', () => {
    const c = box({ carrier: carrier(railLeg), rail: [railroad([], [yard({ facility: CHICAGO_G4, lfd: '2026-03-25' })])] });
    expect(c.pickup_lfd_rail).toBe('2026-03-25T05:00:00Z');
    expect(c.ind_facility_lfd_on).toBe('2026-03-25T05:00:00Z');
    expect(c.final_destination_timezone).toBe('America/Chicago');
  });
});

describe('normalize: localDateTime is resolved in the place zone', () => {
  it.each([
    ['Shanghai', SHANGHAI, '2026-03-01T10:00:00', '2026-03-01T02:00:00Z'],
    ['Los Angeles terminal', LA_APMT, '2026-03-16T10:00:00', '2026-03-16T17:00:00Z'],
    ['unknown place: as if UTC', place('ZZZZZ'), '2026-03-16T10:00:00', '2026-03-16T10:00:00Z'],
  ])('%s', (_name, where, local, expected) => {
    const out = run({ carrier: carrier([ms('vessel_loaded', local, { place: where })]) });
    expect(out.transportEvents[0]?.timestamp).toBe(expected);
  });
});

describe('normalize: pickup_lfd is the first available of line, terminal, rail (in that order), not the earliest', () => {
  it.each([
    ['line wins even when later', '2026-03-25', '2026-03-20', '2026-03-18', '2026-03-25T07:00:00Z'],
    ['terminal when the line gives none', null, '2026-03-22', '2026-03-18', '2026-03-22T07:00:00Z'],
    ['rail when neither line nor terminal', null, null, '2026-03-18', '2026-03-18T05:00:00Z'],
    ['none at all', null, null, null, null],
  ])('%s', (_name, line, term, rail, expected) => {
    const c = box({
      carrier: carrier(railLeg, { yard: line ? [yard({ lineLfd: line })] : [] }),
      terminals: [terminal([yard({ lfd: term })])],
      rail: [railroad([], [yard({ facility: CHICAGO_G4, lfd: rail })])],
    });
    expect(c.pickup_lfd).toBe(expected);
    expect(c.ssl_lfd).toBe(c.pickup_lfd_line);
  });
});

describe('normalize: a cleared hold is simply absent (no released state)', () => {
  it('keeps only the holds the terminal still reports, in a stable order', () => {
    const c = box({
      carrier: carrier(),
      terminals: [terminal([yard({ holds: [hold('TMF', 'pending'), hold('customs'), hold('other', 'hold', 'Exam ')] })])],
    });
    expect(c.holds_at_pod_terminal).toEqual([
      { name: 'customs', status: 'hold', description: null },
      { name: 'TMF', status: 'pending', description: null },
      { name: 'other', status: 'hold', description: 'Exam' },
    ]);
    const cleared = box({ carrier: carrier(), terminals: [terminal([yard({ holds: [] })])] });
    expect(cleared.holds_at_pod_terminal).toEqual([]);
  });
});

describe('normalize: a total fee line is kept and never summed with the others', () => {
  it.each([
    ['total alongside its parts', [fee('total', 500), fee('demurrage', 300), fee('exam', 150)]],
    ['total only', [fee('total', 75)]],
    ['parts without a total', [fee('demurrage', 300), fee('exam', 150)]],
  ])('%s', (_name, fees) => {
    const c = box({ carrier: carrier(), terminals: [terminal([yard({ fees })])] });
    expect(c.fees_at_pod_terminal).toHaveLength(fees.length);
    for (const f of fees) expect(c.fees_at_pod_terminal).toContainEqual({ type: f.type, amount: f.amount, currency_code: 'USD' });
  });
});

describe('normalize: ready for pickup = available_for_pickup true and no hold with status hold', () => {
  it.each([
    ['available, no holds', true, [], true],
    ['available, holds unknown', true, null, true],
    ['available, a pending hold only', true, [hold('TMF', 'pending')], true],
    ['available, a customs hold', true, [hold('customs')], false],
    ['not available', false, [], false],
    ['availability unknown', null, [], false],
  ] as const)('%s', (_name, available, holds, ready) => {
    const discharged = [ms('vessel_discharged', '2026-03-15T19:00:00-07:00', { place: LA_APMT })];
    const c = box({
      carrier: carrier(discharged),
      terminals: [terminal([yard({ available, holds: holds === null ? null : [...holds] })])],
    });
    expect(c.ready_for_pickup).toBe(ready);
    expect(c.available_for_pickup).toBe(available);
    expect(c.availability_known).toBe(available !== null);
  });
});

describe('normalize: current_status follows the milestones (13-value set)', () => {
  const sea = [
    ms('vessel_loaded', '2026-03-01T10:00:00+08:00', { place: SHANGHAI }),
    ms('vessel_departed', '2026-03-01T20:00:00+08:00', { place: SHANGHAI, container: null }),
  ];
  const arrived = [...sea, ms('vessel_arrived', '2026-03-15T06:00:00-07:00', { place: LA_APMT, container: null })];
  const discharged = [...arrived, ms('vessel_discharged', '2026-03-15T19:00:00-07:00', { place: LA_APMT })];
  it.each([
    ['nothing yet: new', [ms('full_in', '2026-02-27T10:00:00+08:00', { place: SHANGHAI })], [], [], 'new'],
    ['loaded at the POL: on_ship', sea, [], [], 'on_ship'],
    ['arrived, not discharged: on_ship', arrived, [], [], 'on_ship'],
    ['discharged, terminal silent: grounded', discharged, [], [], 'grounded'],
    ['discharged and available', discharged, [yard({ available: true })], [], 'available'],
    ['discharged, not available', discharged, [yard({ available: false })], [], 'not_available'],
    [
      'full out at the POD: picked_up',
      [...discharged, ms('full_out', '2026-03-18T09:00:00-07:00', { place: LA_APMT })],
      [],
      [],
      'picked_up',
    ],
    ['empty returned', [...discharged, ms('empty_in', '2026-03-22T09:00:00-07:00', { place: place('USLAX') })], [], [], 'empty_returned'],
    [
      'rail move, still at the POD: awaiting_inland_transfer',
      [...discharged, ms('rail_loaded', null, { classifier: 'estimated' })],
      [],
      [],
      'awaiting_inland_transfer',
    ],
    ['rail move, on the train: on_rail', railLeg, [], [], 'on_rail'],
    // Availability counts only at the pickup place once the box is there.
    ['at sea, the terminal already says not available: on_ship', sea, [yard({ available: false })], [], 'on_ship'],
    ['arrived, the terminal says not available, no discharge: on_ship', arrived, [yard({ available: false })], [], 'on_ship'],
    [
      'arrived, the terminal gives a yard slot: not_available',
      arrived,
      [yard({ available: false, yardLocation: 'B12' })],
      [],
      'not_available',
    ],
    ['the terminal offers it: available (a terminal offers only a box it holds)', arrived, [yard({ available: true })], [], 'available'],
    [
      'rail move at the POD, the POD terminal says available: awaiting_inland_transfer',
      discharged,
      [yard({ available: true })],
      [railroad([], [yard({ facility: CHICAGO_G4, available: false })])],
      'awaiting_inland_transfer',
    ],
    [
      'rail move on the train, the ramp says not available: on_rail',
      railLeg,
      [],
      [railroad([], [yard({ facility: CHICAGO_G4, available: false })])],
      'on_rail',
    ],
    [
      'rail move arrived at the ramp, not unloaded, nothing said: on_rail',
      railLeg,
      [],
      [railroad([ms('rail_arrived', '2026-03-21T04:00:00-05:00', { place: CHICAGO_G4 })], [])],
      'on_rail',
    ],
    [
      'rail move unloaded at the ramp, nothing said: grounded',
      railLeg,
      [],
      [railroad([ms('rail_unloaded', '2026-03-21T09:00:00-05:00', { place: CHICAGO_G4 })], [])],
      'grounded',
    ],
    [
      'rail move arrived at the ramp, not available: not_available',
      railLeg,
      [],
      [
        railroad(
          [ms('rail_arrived', '2026-03-21T04:00:00-05:00', { place: CHICAGO_G4 })],
          [yard({ facility: CHICAGO_G4, available: false })],
        ),
      ],
      'not_available',
    ],
    ['discharged, moved to an off-dock yard: off_dock', discharged, [yard({ available: true, offDock: true })], [], 'off_dock'],
    [
      'a B/L to an inland hub, discharged, the POD terminal says available: awaiting_inland_transfer',
      discharged,
      [yard({ available: true })],
      [],
      'awaiting_inland_transfer',
      place('USCHI'),
    ],
    [
      'a B/L to an inland hub picked up at the POD by truck instead: picked_up',
      [...discharged, ms('full_out', '2026-03-18T09:00:00-07:00', { place: LA_APMT })],
      [],
      [],
      'picked_up',
      place('USCHI'),
    ],
    [
      'a carrier drop-off at the consignee is no delivery: picked_up',
      [
        ...discharged,
        ms('full_out', '2026-03-18T09:00:00-07:00', { place: LA_APMT }),
        ms('delivered', '2026-03-18T15:00:00-07:00', { place: place('USLAX') }),
      ],
      [],
      [],
      'picked_up',
    ],
    [
      'rail move, at the ramp and available',
      railLeg,
      [],
      [
        railroad(
          [ms('rail_arrived', '2026-03-21T04:00:00-05:00', { place: CHICAGO_G4 })],
          [yard({ facility: CHICAGO_G4, available: true })],
        ),
      ],
      'available',
    ],
  ] as [string, MilestoneFact[], YardFact[], SourceObservation[], string, Place?][])(
    '%s',
    (_name, milestones, yards, rail, status, destination) => {
      const railMove = milestones === railLeg;
      const shipment = shipmentFact(railMove || destination ? { destination: destination ?? place('USCHI') } : {});
      const c = box({ carrier: carrier(milestones, { shipment }), terminals: yards.length ? [terminal(yards)] : [], rail });
      expect(c.current_status).toBe(status);
    },
  );
});

describe('normalize: full_out/empty_in at the rail terminal for rail moves, the ocean terminal otherwise', () => {
  it('ocean move: pod_full_out_at and the ocean terminal', () => {
    const out = run({
      carrier: carrier([
        ms('vessel_discharged', '2026-03-15T19:00:00-07:00', { place: LA_APMT }),
        ms('full_out', '2026-03-18T09:00:00-07:00', { place: LA_APMT }),
      ]),
    });
    const c = out.containers[0]!;
    expect(c.pod_full_out_at).toBe('2026-03-18T16:00:00Z');
    expect(c.final_destination_full_out_at).toBeNull();
    const e = out.transportEvents.find((x) => x.event === 'container.transport.full_out');
    expect(e?.terminal).toMatchObject({ kind: 'terminal', firmsCode: 'W185' });
  });

  it('rail move: final_destination_full_out_at, the rail terminal, and the inland zone for the empty return', () => {
    const out = run({
      carrier: carrier([
        ...railLeg,
        ms('full_out', '2026-03-22T09:00:00-05:00', { place: CHICAGO_G4 }),
        ms('empty_in', '2026-03-24', { place: place('USCHI') }),
      ]),
    });
    const c = out.containers[0]!;
    expect(c.pod_full_out_at).toBeNull();
    expect(c.final_destination_full_out_at).toBe('2026-03-22T14:00:00Z');
    expect(c.empty_terminated_at).toBe('2026-03-24T05:00:00Z');
    expect(c.empty_terminated_timezone).toBe('America/Chicago');
    const e = out.transportEvents.find((x) => x.event === 'container.transport.full_out');
    expect(e?.terminal).toMatchObject({ kind: 'rail_terminal', code: 'G4' });
    expect(e?.location_type).toBe('metro_area');
  });
});

describe("normalize: the rail carrier's ind_eta_at/ind_ata_at and the line's destination_eta_at/ata_at are kept apart", () => {
  const line = carrier(
    [...railLeg, ms('rail_arrived', '2026-03-21T04:00:00-05:00', { classifier: 'estimated', place: CHICAGO_G4, container: null })],
    {
      shipment: shipmentFact({ destination: CHICAGO_G4 }),
    },
  );
  it.each([
    ['line only', [], '2026-03-21T09:00:00Z', null, null],
    [
      'line and railroad disagree',
      [
        railroad([
          ms('arrived_at_destination', '2026-03-22T06:00:00-05:00', { classifier: 'estimated', place: CHICAGO_G4, railScac: 'UPRR' }),
        ]),
      ],
      '2026-03-21T09:00:00Z',
      '2026-03-22T11:00:00Z',
      null,
    ],
    [
      'railroad arrived',
      [railroad([ms('rail_arrived', '2026-03-22T07:00:00-05:00', { place: CHICAGO_G4, railScac: 'UPRR' })])],
      '2026-03-21T09:00:00Z',
      null,
      '2026-03-22T12:00:00Z',
    ],
  ])('%s', (_name, rail, destinationEta, indEta, indAta) => {
    const out = run({ carrier: line, rail });
    expect(out.shipment?.destination_eta_at).toBe(destinationEta);
    expect(out.shipment?.destination_ata_at).toBeNull();
    expect(out.containers[0]?.ind_eta_at).toBe(indEta);
    expect(out.containers[0]?.ind_ata_at).toBe(indAta);
  });

  it('the last rail arrival, at the destination, is also the arrival at the inland destination', () => {
    const out = run({
      carrier: carrier(
        [
          ...railLeg,
          ms('rail_arrived', '2026-03-21T04:00:00-05:00', { classifier: 'estimated', place: place('USEWI', 'G4'), container: null }),
        ],
        {
          shipment: shipmentFact({ destination: CHICAGO_G4 }),
        },
      ),
      rail: [railroad([ms('rail_arrived', '2026-03-19T04:00:00-06:00', { place: place('USDEN'), railScac: 'UPRR' })])],
    });
    expect(out.transportEvents.map((e) => e.event)).toEqual(
      expect.arrayContaining(['container.transport.rail_arrived', 'container.transport.estimated.arrived_at_inland_destination']),
    );
    expect(out.shipment?.destination_eta_at).toBe('2026-03-21T09:00:00Z');
    // Denver is an interchange, not the destination: no inland ATA from it.
    expect(out.containers[0]?.ind_ata_at).toBeNull();
  });

  it('rail carrier SCACs: the one leaving the POD and the one arriving inland', () => {
    const c = box({
      carrier: carrier(railLeg),
      rail: [railroad([ms('rail_arrived', '2026-03-22T07:00:00-05:00', { place: CHICAGO_G4, railScac: 'BNSF' })])],
    });
    expect(c.pod_rail_carrier_scac).toBe('UPRR');
    expect(c.ind_rail_carrier_scac).toBe('BNSF');
    expect(c.pod_rail_loaded_at).toBe('2026-03-17T15:00:00Z');
    expect(c.pod_rail_departed_at).toBe('2026-03-17T21:00:00Z');
  });
});

describe('normalize: out-of-order and duplicate source events produce each canonical event once', () => {
  const discharged = (o: Parameters<typeof ms>[2] = {}, at = '2026-03-15T19:00:00-07:00') =>
    ms('vessel_discharged', at, { place: LA_APMT, ...o });
  it.each([
    ['the same report twice', [discharged(), discharged()], [], 'actual', '2026-03-16T02:00:00Z'],
    [
      'reports out of order: the latest report wins',
      [discharged({ reportedAt: '2026-03-16T05:00:00Z' }, '2026-03-15T20:00:00-07:00'), discharged({ reportedAt: '2026-03-16T03:00:00Z' })],
      [],
      'actual',
      '2026-03-16T03:00:00Z',
    ],
    [
      'an estimate and an actual: the actual wins',
      [discharged({ classifier: 'estimated', reportedAt: '2026-03-16T09:00:00Z' }, '2026-03-16T10:00:00-07:00'), discharged()],
      [],
      'actual',
      '2026-03-16T02:00:00Z',
    ],
    [
      'line and terminal report the same discharge, the terminal without vessel or voyage',
      [discharged()],
      [
        ms('vessel_discharged', '2026-03-15T19:05:00-07:00', {
          place: LA_APMT,
          vessel: null,
          voyage: null,
          reportedAt: '2026-03-16T04:00:00Z',
        }),
      ],
      'actual',
      '2026-03-16T02:05:00Z',
    ],
  ] as const)('%s', (_name, lineFacts, terminalFacts, classifier, timestamp) => {
    const out = run({
      carrier: carrier([...lineFacts]),
      terminals: terminalFacts.length ? [observation({ sourceId: 'terminal:w185', milestones: [...terminalFacts] })] : [],
    });
    const events = out.transportEvents.filter((e) => e.milestone === 'vessel_discharged');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ classifier, timestamp, vessel_imo: '9839272', voyage_number: '601E' });
  });

  it('two different voyages at the same place stay two events', () => {
    const out = run({
      carrier: carrier([
        ms('transshipment_discharged', '2026-03-05T10:00:00+08:00', { place: place('SGSIN'), voyage: 'A1' }),
        ms('transshipment_discharged', '2026-03-09T10:00:00+08:00', { place: place('SGSIN'), voyage: 'B2' }),
      ]),
    });
    expect(out.transportEvents).toHaveLength(2);
  });

  it('shipment-level carrier facts become one event per container', () => {
    const out = run({
      carrier: carrier([ms('vessel_departed', '2026-03-01T20:00:00+08:00', { place: SHANGHAI, container: null })], {
        containers: [containerFact(BOX), containerFact(BOX2)],
      }),
    });
    expect(out.transportEvents.map((e) => e.container_number).sort()).toEqual([BOX, BOX2].sort());
  });
});

describe('normalize: shipment attributes', () => {
  it('POD ETA is null after arrival; the original ETA is the first reported', () => {
    const eta = (at: string, reportedAt: string, id: string) =>
      ms('vessel_arrived', at, { classifier: 'estimated', place: LA_APMT, container: null, reportedAt, id });
    const before = run({
      carrier: carrier([
        eta('2026-03-16T06:00:00-07:00', '2026-03-02T00:00:00Z', 'b'),
        eta('2026-03-14T06:00:00-07:00', '2026-03-01T00:00:00Z', 'a'),
      ]),
    });
    expect(before.shipment).toMatchObject({
      pod_eta_at: '2026-03-16T13:00:00Z',
      pod_original_eta_at: '2026-03-14T13:00:00Z',
      pod_ata_at: null,
    });
    expect(before.estimatedEvents).toHaveLength(1);
    expect(before.estimatedEvents[0]).toMatchObject({
      estimated_timestamp: '2026-03-16T13:00:00Z',
      location_locode: 'USLAX',
      timezone: 'America/Los_Angeles',
    });

    const after = run({
      carrier: carrier([
        eta('2026-03-16T06:00:00-07:00', '2026-03-02T00:00:00Z', 'b'),
        ms('vessel_arrived', '2026-03-16T05:00:00-07:00', { place: LA_APMT, container: null }),
      ]),
    });
    expect(after.shipment).toMatchObject({
      pod_eta_at: null,
      pod_ata_at: '2026-03-16T12:00:00Z',
      pod_vessel_imo: '9839272',
      pod_voyage_number: '601E',
    });
    expect(after.estimatedEvents).toEqual([]);
  });

  it('line names, ports, terminal and zones come from reference data', () => {
    const s = run({ carrier: carrier([ms('vessel_departed', '2026-03-01T20:00:00+08:00', { place: SHANGHAI, container: null })]) })
      .shipment!;
    expect(s).toMatchObject({
      bill_of_lading_number: 'MEDU1234567',
      shipping_line_scac: 'MSCU',
      port_of_lading_locode: 'CNSHA',
      pol_timezone: 'Asia/Shanghai',
      pol_atd_at: '2026-03-01T12:00:00Z',
      port_of_discharge_locode: 'USLAX',
      pod_timezone: 'America/Los_Angeles',
    });
    expect(s.shipping_line_name).toBeTruthy();
    expect(s.pod_terminal).toMatchObject({ kind: 'terminal', firmsCode: 'W185' });
    expect(s.pod_terminal?.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('an "actual" dated in the future is read as an estimate', () => {
    const out = run({ carrier: carrier([ms('vessel_arrived', '2026-05-01T00:00:00Z', { place: LA_APMT, container: null })]) });
    expect(out.shipment?.pod_ata_at).toBeNull();
    expect(out.shipment?.pod_eta_at).toBe('2026-05-01T00:00:00Z');
    expect(out.transportEvents[0]?.event).toBe('container.transport.estimated.vessel_arrived');
  });

  it('no carrier observation: no shipment, terminal facts still normalized', () => {
    const out = run({ terminals: [terminal([yard({ available: true })])] });
    expect(out.shipment).toBeNull();
    expect(out.containers[0]?.available_for_pickup).toBe(true);
    expect(out.reported).toMatchObject({ carrier: false, terminal: [BOX] });
  });
});

describe('normalize: equipment type, length and height from the ISO size-type code', () => {
  it.each([
    ['45G1', 'dry', 40, 'high_cube'],
    ['22G1', 'dry', 20, 'standard'],
    ['45R1', 'reefer', 40, 'high_cube'],
    ['L5G1', 'dry', 45, 'high_cube'],
    ['22U1', 'open top', 20, 'standard'],
    ['42P1', 'flat rack', 40, 'standard'],
    ['22T6', 'tank', 20, 'standard'],
    ['2EG1', 'dry', 20, null],
    ['bad', null, null, null],
  ])('%s', (code, type, length, height) => {
    expect(equipmentOf(code)).toEqual({ equipment_type: type, equipment_length: length, equipment_height: height });
  });

  it('container identity: seal, weight, size type', () => {
    const c = box({ carrier: carrier() });
    expect(c).toMatchObject({
      seal_number: 'SL123',
      weight_in_lbs: 22000,
      equipment_type: 'dry',
      equipment_length: 40,
      equipment_height: 'high_cube',
    });
  });
});

describe('normalize: customs selections are holds until a later customs release', () => {
  const discharged = ms('vessel_discharged', '2026-03-15T19:00:00-07:00', { place: LA_APMT });
  const scan = ms('customs_selected_for_scan', '2026-03-16T09:00:00-07:00', { place: LA_APMT });
  const inspection = ms('customs_selected_for_inspection', '2026-03-16T10:00:00-07:00', { place: LA_APMT });
  const release = (at: string) => ms('customs_release', at, { place: LA_APMT, container: null });
  it.each([
    ['selected for scan: VACIS hold', [discharged, scan], [], ['VACIS'], false],
    ['selected for inspection: customs hold', [discharged, inspection], [], ['customs'], false],
    ['released after the selection: no hold', [discharged, scan, release('2026-03-17T09:00:00-07:00')], [], [], true],
    ['a release before the selection does not lift it', [discharged, release('2026-03-15T20:00:00-07:00'), scan], [], ['VACIS'], false],
    ['the terminal already names a customs hold: one customs hold', [discharged, inspection], [hold('customs')], ['customs'], false],
  ] as const)('%s', (_name, milestones, terminalHolds, names, ready) => {
    const c = box({ carrier: carrier([...milestones]), terminals: [terminal([yard({ available: true, holds: [...terminalHolds] })])] });
    expect((c.holds_at_pod_terminal ?? []).map((h) => h.name)).toEqual(names);
    expect(c.ready_for_pickup).toBe(ready);
  });
});
