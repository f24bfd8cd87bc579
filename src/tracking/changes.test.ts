import { describe, expect, it } from 'vitest';
import { type DomainEvent, detectChanges, FLAP_WINDOW_MS, type StoredState } from './changes.js';
import { type NormalizeInput, normalize } from './normalize.js';
import {
  BOX,
  CHICAGO_G4,
  carrier,
  fee,
  hold,
  LA_APMT,
  LA_ETS,
  ms,
  observation,
  place,
  railroad,
  SHANGHAI,
  terminal,
  yard,
} from './test-builders.js';

const T0 = Date.parse('2026-03-17T12:00:00Z');
const HOUR = 3_600_000;

/** Feeds observations through normalize and detectChanges one refresh at a time, as the worker will. */
class Engine {
  state: StoredState | null = null;
  constructor(private readonly features: string[] = []) {}
  refresh(input: Partial<NormalizeInput>, atMs: number): DomainEvent[] {
    const worldNow = new Date(atMs);
    const next = normalize({ carrier: null, terminals: [], rail: [], ...input }, { worldNow });
    const { events, state } = detectChanges(this.state, next, { worldNow, accountFeatures: this.features });
    this.state = state;
    return events;
  }
  get box() {
    return this.state!.containers.find((c) => c.number === BOX)!;
  }
}

const types = (events: DomainEvent[]) => events.map((e) => e.type);
const updated = (events: DomainEvent[]) =>
  events.find((e) => e.type === 'container.updated') as Extract<DomainEvent, { type: 'container.updated' }> | undefined;

const sailed = [
  ms('vessel_loaded', '2026-03-01T10:00:00+08:00', { place: SHANGHAI }),
  ms('vessel_departed', '2026-03-01T20:00:00+08:00', { place: SHANGHAI, container: null }),
];
const eta = (at: string, reportedAt: string) =>
  ms('vessel_arrived', at, { classifier: 'estimated', place: LA_APMT, container: null, reportedAt });
const arrived = ms('vessel_arrived', '2026-03-16T05:00:00-07:00', { place: LA_APMT, container: null });
const discharged = ms('vessel_discharged', '2026-03-16T09:00:00-07:00', { place: LA_APMT });

describe('detectChanges: the first snapshot is the baseline: container.created only', () => {
  it('creates each container once and replays nothing of its history', () => {
    const engine = new Engine();
    const events = engine.refresh({ carrier: carrier([...sailed, eta('2026-03-16T06:00:00-07:00', '2026-03-02T00:00:00Z')]) }, T0);
    expect(types(events)).toEqual(['container.created']);
    expect(engine.state!.transportEvents.map((e) => e.event)).toEqual([
      'container.transport.vessel_loaded',
      'container.transport.vessel_departed',
      'container.transport.estimated.vessel_arrived',
    ]);
    expect(engine.state!.estimatedEvents).toHaveLength(1);
  });
});

describe('detectChanges: one container.transport.* per new actual, estimated ones when the estimate moves', () => {
  it.each([
    [
      'a new actual fires once',
      [eta('2026-03-16T06:00:00-07:00', '2026-03-02T00:00:00Z')],
      [arrived],
      ['container.transport.vessel_arrived'],
    ],
    [
      'a moved estimate fires the estimated event',
      [eta('2026-03-16T06:00:00-07:00', '2026-03-02T00:00:00Z')],
      [eta('2026-03-17T06:00:00-07:00', '2026-03-05T00:00:00Z')],
      ['shipment.estimated.arrival', 'container.transport.estimated.vessel_arrived'],
    ],
    [
      'an unchanged estimate fires nothing',
      [eta('2026-03-16T06:00:00-07:00', '2026-03-02T00:00:00Z')],
      [eta('2026-03-16T06:00:00-07:00', '2026-03-02T00:00:00Z')],
      [],
    ],
    ['an actual reported again fires nothing', [arrived], [arrived], []],
    ['an estimate after the actual fires nothing', [arrived], [arrived, eta('2026-03-18T06:00:00-07:00', '2026-03-17T00:00:00Z')], []],
    [
      'arrival and discharge at once fire in the order they happened',
      [],
      [discharged, arrived],
      ['container.transport.vessel_arrived', 'container.transport.vessel_discharged'],
    ],
  ])('%s', (_name, before, after, expected) => {
    const engine = new Engine();
    engine.refresh({ carrier: carrier([...sailed, ...before]) }, T0);
    expect(types(engine.refresh({ carrier: carrier([...sailed, ...after]) }, T0 + HOUR))).toEqual(expected);
  });

  it('an actual that replaces an estimate keeps the stored key', () => {
    const engine = new Engine();
    engine.refresh({ carrier: carrier([...sailed, eta('2026-03-16T06:00:00-07:00', '2026-03-02T00:00:00Z')]) }, T0);
    const key = engine.state!.transportEvents.find((e) => e.milestone === 'vessel_arrived')!.key;
    engine.refresh({ carrier: carrier([...sailed, arrived]) }, T0 + HOUR);
    const arrivals = engine.state!.transportEvents.filter((e) => e.milestone === 'vessel_arrived');
    expect(arrivals).toHaveLength(1);
    expect(arrivals[0]).toMatchObject({ key, classifier: 'actual', event: 'container.transport.vessel_arrived' });
  });
});

describe('detectChanges: shipment.estimated.arrival when the POD ETA changes', () => {
  it('carries the new estimate and the previous one', () => {
    const engine = new Engine();
    engine.refresh({ carrier: carrier([eta('2026-03-16T06:00:00-07:00', '2026-03-02T00:00:00Z')]) }, T0);
    const events = engine.refresh({ carrier: carrier([eta('2026-03-17T06:00:00-07:00', '2026-03-05T00:00:00Z')]) }, T0 + HOUR);
    const e = events.find((x) => x.type === 'shipment.estimated.arrival');
    expect(e).toMatchObject({
      estimated_event: { estimated_timestamp: '2026-03-17T13:00:00Z', location_locode: 'USLAX', data_source: 'shipping_line' },
      previous_estimated_timestamp: '2026-03-16T13:00:00Z',
    });
    expect(engine.state!.shipment).toMatchObject({ pod_eta_at: '2026-03-17T13:00:00Z', pod_original_eta_at: '2026-03-16T13:00:00Z' });
    expect(engine.state!.estimatedEvents).toHaveLength(2);
  });
});

describe('detectChanges: container.updated carries a changeset {field: [old, new]}', () => {
  const base = () => {
    const engine = new Engine();
    engine.refresh(
      { carrier: carrier([arrived, discharged]), terminals: [terminal([yard({ available: false, holds: [hold('customs')] })])] },
      T0,
    );
    return engine;
  };
  it.each([
    [
      'holds released with availability',
      yard({ available: true, holds: [] }),
      { available_for_pickup: [false, true], holds_at_pod_terminal: [[{ name: 'customs', status: 'hold', description: null }], []] },
    ],
    [
      'holds added',
      yard({ available: false, holds: [hold('customs'), hold('USDA', 'pending')] }),
      {
        holds_at_pod_terminal: [
          [{ name: 'customs', status: 'hold', description: null }],
          [
            { name: 'customs', status: 'hold', description: null },
            { name: 'USDA', status: 'pending', description: null },
          ],
        ],
      },
    ],
    ['availability', yard({ available: true, holds: [hold('customs')] }), { available_for_pickup: [false, true] }],
    [
      'fees',
      yard({ available: false, holds: [hold('customs')], fees: [fee('demurrage', 150), fee('total', 150)] }),
      {
        fees_at_pod_terminal: [
          [],
          [
            { type: 'demurrage', amount: 150, currency_code: 'USD' },
            { type: 'total', amount: 150, currency_code: 'USD' },
          ],
        ],
      },
    ],
    [
      'terminal LFD',
      yard({ available: false, holds: [hold('customs')], lfd: '2026-03-20' }),
      { pickup_lfd: [null, '2026-03-20T07:00:00Z'] },
    ],
    [
      'appointment',
      yard({ available: false, holds: [hold('customs')], appointmentAt: '2026-03-19T08:00:00-07:00' }),
      {
        pickup_appointment_at: [null, '2026-03-19T15:00:00Z'],
      },
    ],
  ])('%s', (_name, next, changeset) => {
    const engine = base();
    const events = engine.refresh({ carrier: carrier([arrived, discharged]), terminals: [terminal([next])] }, T0 + HOUR);
    expect(updated(events)?.changeset).toEqual(changeset);
  });

  it('a release fires updated and available, and makes the container ready', () => {
    const engine = base();
    const events = engine.refresh(
      { carrier: carrier([arrived, discharged]), terminals: [terminal([yard({ available: true, holds: [] })])] },
      T0 + HOUR,
    );
    expect(types(events)).toEqual(['container.updated', 'container.transport.available']);
    expect(engine.box).toMatchObject({ ready_for_pickup: true, current_status: 'available' });
  });
});

describe('detectChanges: pickup LFD and appointment change events', () => {
  const lfdYard = (lfd: string | null, lineLfd: string | null = null, appointmentAt: string | null = null) =>
    terminal([yard({ available: true, lfd, lineLfd, appointmentAt })]);
  it.each([
    ['terminal LFD set', lfdYard('2026-03-20'), ['container.pickup_lfd.changed', 'container.pickup_lfd_terminal.changed']],
    [
      'line LFD set: it wins pickup_lfd',
      lfdYard('2026-03-18', '2026-03-22'),
      ['container.pickup_lfd.changed', 'container.pickup_lfd_line.changed'],
    ],
    ['appointment booked', lfdYard('2026-03-18', null, '2026-03-19T08:00:00-07:00'), ['container.pickup_appointment.changed']],
  ])('%s', (_name, next, expected) => {
    const engine = new Engine();
    engine.refresh({ carrier: carrier([arrived, discharged]), terminals: [lfdYard('2026-03-18')] }, T0);
    const events = engine.refresh({ carrier: carrier([arrived, discharged]), terminals: [next] }, T0 + HOUR);
    expect(types(events).filter((t) => t.startsWith('container.pickup_'))).toEqual(expected);
  });

  it('the event value and timestamp are the new value', () => {
    const engine = new Engine();
    engine.refresh({ carrier: carrier([arrived, discharged]), terminals: [lfdYard(null)] }, T0);
    const events = engine.refresh({ carrier: carrier([arrived, discharged]), terminals: [lfdYard('2026-03-20')] }, T0 + HOUR);
    const e = events.find((x) => x.type === 'container.pickup_lfd_terminal.changed') as Extract<DomainEvent, { transport_event: unknown }>;
    expect(e.transport_event).toMatchObject({ value: '2026-03-20T07:00:00Z', timestamp: '2026-03-20T07:00:00Z', data_source: 'terminal' });
  });

  it.each([
    ['without rail_lfd: no rail LFD event', [], false],
    ['with rail_lfd: the rail LFD event', ['rail_lfd'], true],
  ])('%s', (_name, features, fires) => {
    const engine = new Engine(features);
    const legs = [arrived, discharged, ms('rail_departed', '2026-03-17T14:00:00-07:00', { place: place('USLAX', 'ICTF') })];
    engine.refresh({ carrier: carrier(legs), rail: [railroad([], [yard({ facility: CHICAGO_G4 })])] }, T0);
    const events = engine.refresh(
      { carrier: carrier(legs), rail: [railroad([], [yard({ facility: CHICAGO_G4, lfd: '2026-03-25' })])] },
      T0 + HOUR,
    );
    expect(types(events).includes('container.pickup_lfd_rail.changed')).toBe(fires);
    expect(updated(events)?.changeset.pickup_lfd_rail !== undefined).toBe(fires);
    // pickup_lfd moves either way: with no line or terminal LFD, the rail one is it.
    expect(types(events)).toContain('container.pickup_lfd.changed');
  });
});

describe('detectChanges: container.pod_terminal_changed', () => {
  it('fires when the terminal reports the box at another terminal', () => {
    const engine = new Engine();
    engine.refresh({ carrier: carrier([arrived, discharged]), terminals: [terminal([yard({ available: false })])] }, T0);
    const events = engine.refresh(
      { carrier: carrier([arrived, discharged]), terminals: [terminal([yard({ facility: LA_ETS, available: false })])] },
      T0 + HOUR,
    );
    const e = events.find((x) => x.type === 'container.pod_terminal_changed');
    expect(e).toMatchObject({ terminal: { firmsCode: 'Y124' }, previous_terminal: { firmsCode: 'W185' }, data_source: 'terminal' });
    expect(Object.keys(updated(events)?.changeset ?? {})).toEqual(['pod_terminal']);
    // The line still says W185; without a terminal report its word does not move the box back.
    expect(types(engine.refresh({ carrier: carrier([arrived, discharged]), terminals: [] }, T0 + 2 * HOUR))).toEqual([]);
    expect(engine.box.pod_terminal?.firmsCode).toBe('Y124');
  });
});

describe('detectChanges: anti-flap: a terminal value that disappears and comes back within the window fires nothing', () => {
  // Not available: a hold that goes missing then is not corroborated by a release.
  const withLfd = (extra: object = {}) => terminal([yard({ available: false, lfd: '2026-03-20', holds: [hold('customs')], ...extra })]);
  const gone = (field: 'lfd' | 'holds' | 'available') =>
    terminal([
      yard({
        available: field === 'available' ? null : false,
        lfd: field === 'lfd' ? null : '2026-03-20',
        holds: field === 'holds' ? [] : [hold('customs')],
      }),
    ]);
  it.each(['lfd', 'holds', 'available'] as const)('%s gone for an hour, then back: no events', (field) => {
    const engine = new Engine();
    engine.refresh({ carrier: carrier([arrived, discharged]), terminals: [withLfd()] }, T0);
    const snapshot = engine.box;
    expect(engine.refresh({ carrier: carrier([arrived, discharged]), terminals: [gone(field)] }, T0 + HOUR)).toEqual([]);
    expect(engine.box).toEqual(snapshot);
    expect(engine.refresh({ carrier: carrier([arrived, discharged]), terminals: [withLfd()] }, T0 + 2 * HOUR - 1)).toEqual([]);
    expect(engine.state!.withdrawals).toEqual([]);
  });

  it.each(['lfd', 'holds'] as const)('%s gone for longer than the window: one change, announced once', (field) => {
    const engine = new Engine();
    engine.refresh({ carrier: carrier([arrived, discharged]), terminals: [withLfd()] }, T0);
    expect(engine.refresh({ carrier: carrier([arrived, discharged]), terminals: [gone(field)] }, T0 + HOUR)).toEqual([]);
    const later = engine.refresh({ carrier: carrier([arrived, discharged]), terminals: [gone(field)] }, T0 + HOUR + FLAP_WINDOW_MS);
    expect(types(later)).toContain('container.updated');
    expect(types(engine.refresh({ carrier: carrier([arrived, discharged]), terminals: [gone(field)] }, T0 + 5 * HOUR))).toEqual([]);
  });

  it('the window runs on from the first disappearance, even across refreshes that do not report the container', () => {
    const engine = new Engine();
    engine.refresh({ carrier: carrier([arrived, discharged]), terminals: [withLfd()] }, T0);
    engine.refresh({ carrier: carrier([arrived, discharged]), terminals: [gone('lfd')] }, T0 + HOUR);
    engine.refresh({ carrier: carrier([arrived, discharged]), terminals: [] }, T0 + 2 * HOUR);
    expect(engine.state!.withdrawals).toEqual([{ container: BOX, field: 'pickup_lfd_terminal', since: '2026-03-17T13:00:00Z' }]);
    const events = engine.refresh({ carrier: carrier([arrived, discharged]), terminals: [gone('lfd')] }, T0 + 3 * HOUR);
    expect(updated(events)?.changeset.pickup_lfd).toEqual(['2026-03-20T07:00:00Z', null]);
  });

  it('a different value coming back is one change', () => {
    const engine = new Engine();
    engine.refresh({ carrier: carrier([arrived, discharged]), terminals: [withLfd()] }, T0);
    engine.refresh({ carrier: carrier([arrived, discharged]), terminals: [gone('lfd')] }, T0 + HOUR);
    const events = engine.refresh(
      { carrier: carrier([arrived, discharged]), terminals: [withLfd({ lfd: '2026-03-21' })] },
      T0 + HOUR + 30 * 60_000,
    );
    expect(updated(events)?.changeset.pickup_lfd).toEqual(['2026-03-20T07:00:00Z', '2026-03-21T07:00:00Z']);
  });
});

describe('detectChanges: a source that suddenly returns nothing does not erase what we know', () => {
  it.each([
    ['carrier observation missing', { carrier: null, terminals: [] }],
    ['carrier answers with no facts, terminal silent', { carrier: observation({ sourceId: 'carrier:dcsa' }), terminals: [] }],
    [
      'terminal answers with no yard facts',
      { carrier: carrier([...sailed, arrived, discharged]), terminals: [observation({ sourceId: 'terminal:w185' })] },
    ],
  ] as const)('%s', (_name, input) => {
    const engine = new Engine();
    const full = {
      carrier: carrier([...sailed, arrived, discharged]),
      terminals: [terminal([yard({ available: true, lfd: '2026-03-20', holds: [hold('TMF', 'pending')] })])],
    };
    engine.refresh(full, T0);
    const before = structuredClone(engine.state);
    expect(engine.refresh({ ...input }, T0 + 10 * HOUR)).toEqual([]);
    expect(engine.state).toEqual(before);
  });
});

describe('detectChanges: once the box is picked up, the facility saying it is no longer available is no news', () => {
  it('fires container.transport.not_available before pickup, not after full out', () => {
    const engine = new Engine();
    const discharged = carrier([...sailed, arrived, ms('vessel_discharged', '2026-03-16T14:00:00-07:00', { place: LA_APMT })]);
    engine.refresh({ carrier: discharged, terminals: [terminal([yard({ available: true })])] }, T0);
    const out = carrier([
      ...sailed,
      arrived,
      ms('vessel_discharged', '2026-03-16T14:00:00-07:00', { place: LA_APMT }),
      ms('full_out', '2026-03-17T10:00:00-07:00', { place: LA_APMT }),
    ]);
    const events = types(engine.refresh({ carrier: out, terminals: [terminal([yard({ available: false })])] }, T0 + 24 * HOUR));
    expect(events).toContain('container.transport.full_out');
    expect(events).not.toContain('container.transport.not_available');
  });
});

describe('detectChanges: replaying the same observations twice produces no events the second time', () => {
  it('a whole journey, refresh by refresh, then every refresh again', () => {
    const steps: Partial<NormalizeInput>[] = [
      { carrier: carrier([...sailed, eta('2026-03-16T06:00:00-07:00', '2026-03-02T00:00:00Z')]) },
      { carrier: carrier([...sailed, eta('2026-03-17T08:00:00-07:00', '2026-03-10T00:00:00Z')]) },
      { carrier: carrier([...sailed, arrived, discharged]), terminals: [terminal([yard({ available: false, holds: [hold('customs')] })])] },
      {
        carrier: carrier([...sailed, arrived, discharged]),
        terminals: [terminal([yard({ available: true, holds: [], lfd: '2026-03-20' })])],
      },
      {
        carrier: carrier([...sailed, arrived, discharged, ms('full_out', '2026-03-19T10:00:00-07:00', { place: LA_APMT })]),
        terminals: [terminal([yard({ available: true, holds: [], lfd: '2026-03-20' })])],
      },
    ];
    const engine = new Engine();
    const seen: string[][] = [];
    steps.forEach((s, i) => {
      seen.push(types(engine.refresh(s, T0 + i * 24 * HOUR)));
      const state = structuredClone(engine.state);
      expect(engine.refresh(s, T0 + i * 24 * HOUR)).toEqual([]);
      expect(engine.state).toEqual(state);
    });
    expect(seen).toEqual([
      ['container.created'],
      ['shipment.estimated.arrival', 'container.transport.estimated.vessel_arrived'],
      [
        'container.transport.vessel_arrived',
        'container.transport.vessel_discharged',
        'container.updated',
        'container.transport.not_available',
      ],
      ['container.updated', 'container.pickup_lfd.changed', 'container.pickup_lfd_terminal.changed', 'container.transport.available'],
      ['container.transport.full_out'],
    ]);
    expect(engine.box.current_status).toBe('picked_up');
  });
});

describe('detectChanges: AIS events fill in, the line replaces them without a second event', () => {
  const aisArrival = (at: string) => ({
    containers: [BOX],
    milestones: [
      { milestone: 'vessel_arrived' as const, locode: 'USLAX', at: new Date(at), vesselImo: '9839272', vesselName: 'MSC Aurora' },
    ],
  });
  const arrivals = (engine: Engine) => engine.state!.transportEvents.filter((e) => e.milestone === 'vessel_arrived');
  const baseline = () => {
    const engine = new Engine();
    engine.refresh({ carrier: carrier([...sailed, eta('2026-03-16T06:00:00-07:00', '2026-03-02T00:00:00Z')]) }, T0 - 48 * HOUR);
    return engine;
  };
  const lineOnly = carrier([...sailed, eta('2026-03-16T06:00:00-07:00', '2026-03-02T00:00:00Z')]);
  const lineArrived = carrier([...sailed, arrived]);

  it('an AIS arrival fires once with data_source ais; the line confirming it later fires nothing and replaces it', () => {
    const engine = baseline();
    const first = engine.refresh({ carrier: lineOnly, ais: aisArrival('2026-03-16T11:40:00Z') }, T0 - 24 * HOUR);
    expect(types(first)).toEqual(['container.transport.vessel_arrived']);
    expect((first[0] as Extract<DomainEvent, { transport_event: unknown }>).transport_event.data_source).toBe('ais');
    expect(arrivals(engine)).toMatchObject([{ classifier: 'actual', data_source: 'ais', timestamp: '2026-03-16T11:40:00Z' }]);
    // AIS gives events only: the container's and shipment's own dates wait for the line.
    expect(engine.box.pod_arrived_at).toBeNull();
    expect(engine.state!.shipment!.pod_ata_at).toBeNull();
    const key = arrivals(engine)[0]!.key;

    // The line reports the arrival (a different time), with AIS still seeing it: one record, the line's, no event.
    expect(engine.refresh({ carrier: lineArrived, ais: aisArrival('2026-03-16T11:40:00Z') }, T0)).toEqual([]);
    expect(arrivals(engine)).toMatchObject([
      { key, data_source: 'shipping_line', timestamp: '2026-03-16T12:00:00Z', voyage_number: '601E' },
    ]);
    expect(engine.box.pod_arrived_at).toBe('2026-03-16T12:00:00Z');
    // And again, with or without AIS: nothing, and AIS never takes it back.
    expect(engine.refresh({ carrier: lineArrived, ais: aisArrival('2026-03-16T11:40:00Z') }, T0 + HOUR)).toEqual([]);
    expect(engine.refresh({ carrier: lineOnly, ais: aisArrival('2026-03-16T10:00:00Z') }, T0 + 2 * HOUR)).toEqual([]);
    expect(arrivals(engine)).toMatchObject([{ key, data_source: 'shipping_line', timestamp: '2026-03-16T12:00:00Z' }]);
  });

  it('the line first: AIS adds nothing and fires nothing', () => {
    const engine = baseline();
    expect(types(engine.refresh({ carrier: lineArrived }, T0 - 24 * HOUR))).toContain('container.transport.vessel_arrived');
    expect(engine.refresh({ carrier: lineArrived, ais: aisArrival('2026-03-16T11:40:00Z') }, T0)).toEqual([]);
    expect(arrivals(engine)).toMatchObject([{ data_source: 'shipping_line' }]);
  });

  it('the line and AIS in the same refresh: the line wins, one event', () => {
    const engine = baseline();
    const events = engine.refresh({ carrier: lineArrived, ais: aisArrival('2026-03-16T11:40:00Z') }, T0);
    expect(types(events)).toEqual(['container.transport.vessel_arrived']);
    expect(arrivals(engine)).toMatchObject([{ data_source: 'shipping_line', timestamp: '2026-03-16T12:00:00Z' }]);
  });

  it('the same AIS arrival seen again is no news', () => {
    const engine = baseline();
    engine.refresh({ carrier: lineOnly, ais: aisArrival('2026-03-16T11:40:00Z') }, T0 - 24 * HOUR);
    expect(engine.refresh({ carrier: lineOnly, ais: aisArrival('2026-03-16T11:40:00Z') }, T0 - 23 * HOUR)).toEqual([]);
    expect(engine.refresh({ ais: aisArrival('2026-03-16T11:40:00Z') }, T0 - 22 * HOUR)).toEqual([]);
  });
});

describe('detectChanges: availability events only at the pickup place while the box is there', () => {
  const atTerminal = (over: Parameters<typeof yard>[0]) => [terminal([yard(over)])];
  it('a terminal answer for a box still at sea moves nothing and fires nothing', () => {
    const engine = new Engine();
    engine.refresh({ carrier: carrier(sailed) }, T0 - 72 * HOUR);
    const events = engine.refresh(
      { carrier: carrier(sailed), terminals: atTerminal({ available: false, holds: [hold('customs')] }) },
      T0 - 48 * HOUR,
    );
    expect(types(events)).not.toContain('container.transport.not_available');
    expect(engine.box).toMatchObject({ current_status: 'on_ship', available_for_pickup: null, availability_known: false });
    // Pre-arrival holds are real and shown.
    expect(engine.box.holds_at_pod_terminal).toEqual([{ name: 'customs', status: 'hold', description: null }]);
    // Discharged: now the terminal's answer is the box's.
    const landed = engine.refresh({ carrier: carrier([...sailed, arrived, discharged]), terminals: atTerminal({ available: false }) }, T0);
    expect(types(landed)).toContain('container.transport.not_available');
    expect(engine.box).toMatchObject({ current_status: 'not_available', availability_known: true });
  });

  const untilAvailable = () => {
    const engine = new Engine();
    engine.refresh(
      { carrier: carrier([...sailed, arrived, discharged]), terminals: atTerminal({ available: true, yardLocation: 'A1' }) },
      T0,
    );
    return engine;
  };
  const fullOut = (at: string) => ms('full_out', at, { place: LA_APMT });

  it('the terminal drops availability one poll before its full out is read: only full_out fires', () => {
    const engine = untilAvailable();
    const drop = engine.refresh(
      { carrier: carrier([...sailed, arrived, discharged]), terminals: atTerminal({ available: false }) },
      T0 + HOUR,
    );
    expect(types(drop)).toEqual([]);
    expect(engine.box.available_for_pickup).toBe(true);
    const out = engine.refresh(
      {
        carrier: carrier([...sailed, arrived, discharged, fullOut('2026-03-17T05:30:00-07:00')]),
        terminals: atTerminal({ available: false }),
      },
      T0 + 2 * HOUR,
    );
    expect(types(out)).toEqual(['container.transport.full_out']);
    expect(engine.box).toMatchObject({
      current_status: 'picked_up',
      available_for_pickup: false,
      availability_known: true,
      ready_for_pickup: false,
      location_at_pod_terminal: null,
      holds_at_pod_terminal: [],
    });
    // Later polls of the terminal change nothing.
    expect(
      engine.refresh(
        {
          carrier: carrier([...sailed, arrived, discharged, fullOut('2026-03-17T05:30:00-07:00')]),
          terminals: atTerminal({ available: false }),
        },
        T0 + 5 * HOUR,
      ),
    ).toEqual([]);
  });

  it('a drop with no full out within the window is announced once the window has passed', () => {
    const engine = untilAvailable();
    const input = { carrier: carrier([...sailed, arrived, discharged]), terminals: atTerminal({ available: false }) };
    expect(types(engine.refresh(input, T0 + HOUR))).toEqual([]);
    expect(types(engine.refresh(input, T0 + HOUR + FLAP_WINDOW_MS - 1))).toEqual([]);
    const late = engine.refresh(input, T0 + HOUR + FLAP_WINDOW_MS);
    expect(types(late)).toEqual(['container.updated', 'container.transport.not_available']);
    expect(updated(late)?.changeset.available_for_pickup).toEqual([true, false]);
  });

  it('a drop that comes back within the window fires nothing', () => {
    const engine = untilAvailable();
    engine.refresh({ carrier: carrier([...sailed, arrived, discharged]), terminals: atTerminal({ available: false }) }, T0 + HOUR);
    expect(
      engine.refresh({ carrier: carrier([...sailed, arrived, discharged]), terminals: atTerminal({ available: true }) }, T0 + 2 * HOUR),
    ).toEqual([]);
    expect(
      engine.refresh({ carrier: carrier([...sailed, arrived, discharged]), terminals: atTerminal({ available: true }) }, T0 + 5 * HOUR),
    ).toEqual([]);
  });

  it('fees stop growing at the full out', () => {
    const engine = untilAvailable();
    const lines = carrier([...sailed, arrived, discharged, fullOut('2026-03-17T05:30:00-07:00')]);
    engine.refresh({ carrier: lines, terminals: atTerminal({ available: false, fees: [fee('demurrage', 300)] }) }, T0 + HOUR);
    const after = engine.refresh(
      { carrier: lines, terminals: atTerminal({ available: false, fees: [fee('demurrage', 450)] }) },
      T0 + 30 * HOUR,
    );
    expect(types(after)).toEqual([]);
    expect(engine.box.fees_at_pod_terminal).toEqual([{ type: 'demurrage', amount: 300, currency_code: 'USD' }]);
  });
});

describe('detectChanges: estimates: the first one starts the history quietly, later ones only past the threshold', () => {
  it.each([
    ['a 2 h move is stored, not announced', '2026-03-16T08:00:00-07:00', []],
    ['a 6 h move is not past the threshold', '2026-03-16T12:00:00-07:00', []],
    [
      'a 7 h move is announced',
      '2026-03-16T13:00:00-07:00',
      ['shipment.estimated.arrival', 'container.transport.estimated.vessel_arrived'],
    ],
  ])('%s', (_name, next, expected) => {
    const engine = new Engine();
    engine.refresh({ carrier: carrier(sailed) }, T0 - 72 * HOUR);
    // The first ETA a source gives: stored as an estimated event, no notification.
    const first = engine.refresh(
      { carrier: carrier([...sailed, eta('2026-03-16T06:00:00-07:00', '2026-03-02T00:00:00Z')]) },
      T0 - 60 * HOUR,
    );
    expect(first).toEqual([]);
    expect(engine.state!.estimatedEvents).toHaveLength(1);
    expect(engine.state!.transportEvents.some((e) => e.event === 'container.transport.estimated.vessel_arrived')).toBe(true);
    expect(types(engine.refresh({ carrier: carrier([...sailed, eta(next, '2026-03-03T00:00:00Z')]) }, T0 - 48 * HOUR))).toEqual(expected);
    expect(engine.state!.shipment?.pod_eta_at).toBe(new Date(next).toISOString().replace('.000', ''));
  });

  it('small moves add up: announced once they are past the threshold from the last announced estimate', () => {
    const engine = new Engine();
    engine.refresh({ carrier: carrier([...sailed, eta('2026-03-16T06:00:00-07:00', '2026-03-02T00:00:00Z')]) }, T0 - 72 * HOUR);
    const moves = ['2026-03-16T10:00:00-07:00', '2026-03-16T14:00:00-07:00', '2026-03-16T15:00:00-07:00'];
    const seen = moves.map((at, i) =>
      types(engine.refresh({ carrier: carrier([...sailed, eta(at, `2026-03-0${3 + i}T00:00:00Z`)]) }, T0 - (60 - i) * HOUR)),
    );
    expect(seen).toEqual([[], ['shipment.estimated.arrival', 'container.transport.estimated.vessel_arrived'], []]);
  });
});

describe('detectChanges: observed_at is when Tidemark saw it (domain time), never before an actual happened', () => {
  it('new actuals, a baseline history and pickup changes', () => {
    const engine = new Engine();
    engine.refresh({ carrier: carrier(sailed) }, T0 - 48 * HOUR);
    for (const r of engine.state!.transportEvents) expect(r.observed_at).toBe(new Date(T0 - 48 * HOUR).toISOString().replace('.000', ''));
    engine.refresh({ carrier: carrier([...sailed, arrived, discharged]), terminals: [terminal([yard({ lfd: '2026-03-20' })])] }, T0);
    const now = new Date(T0).toISOString().replace('.000', '');
    const byEvent = (e: string) => engine.state!.transportEvents.find((r) => r.event === e)!;
    expect(byEvent('container.transport.vessel_discharged').observed_at).toBe(now);
    expect(byEvent('container.pickup_lfd_terminal.changed')).toMatchObject({ observed_at: now, timestamp: '2026-03-20T07:00:00Z' });
    for (const r of engine.state!.transportEvents) {
      if (r.classifier === 'actual' && r.timestamp && r.milestone)
        expect(Date.parse(r.observed_at!)).toBeGreaterThanOrEqual(Date.parse(r.timestamp));
    }
  });
});

describe('detectChanges: a move to an off-dock yard', () => {
  it('is off_dock, announced as a terminal change, and the marine terminal’s last free day keeps binding', () => {
    const engine = new Engine();
    const lines = carrier([...sailed, arrived, discharged]);
    engine.refresh({ carrier: lines, terminals: [terminal([yard({ available: true, lfd: '2026-03-20' })])] }, T0);
    const yardOff = place('USLAX', 'ZOD1', 'firms');
    const moved = engine.refresh(
      { carrier: lines, terminals: [terminal([yard({ facility: yardOff, offDock: true, available: true, lfd: null })])] },
      T0 + 12 * HOUR,
    );
    expect(types(moved)).toContain('container.pod_terminal_changed');
    expect(engine.box).toMatchObject({
      current_status: 'off_dock',
      available_for_pickup: true,
      pickup_lfd_terminal: '2026-03-20T07:00:00Z',
      pickup_lfd_binding: '2026-03-20T07:00:00Z',
      pickup_lfd_binding_party: 'terminal',
    });
    // Long after the flap window, the marine terminal's date still stands: the yard never gave one of its own.
    engine.refresh(
      { carrier: lines, terminals: [terminal([yard({ facility: yardOff, offDock: true, available: true })])] },
      T0 + 30 * HOUR,
    );
    expect(engine.box.pickup_lfd_terminal).toBe('2026-03-20T07:00:00Z');
  });
});

describe('detectChanges: the line’s word that a box went off dock stands where no terminal reports', () => {
  it('a carrier yard fact with offDock makes the box off_dock, and a later terminal silence does not take it back', () => {
    const engine = new Engine();
    engine.refresh({ carrier: carrier([...sailed, arrived, discharged]) }, T0);
    const offDock = yard({ facility: place('USLAX', 'ZOD1', 'firms'), offDock: true });
    engine.refresh({ carrier: carrier([...sailed, arrived, discharged], { yard: [offDock] }) }, T0 + 6 * HOUR);
    expect(engine.box.current_status).toBe('off_dock');
    engine.refresh({ carrier: carrier([...sailed, arrived, discharged]) }, T0 + 12 * HOUR);
    expect(engine.box.current_status).toBe('off_dock');
  });
});
