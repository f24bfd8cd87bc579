import { describe, expect, it } from 'vitest';
import type { StoredState } from './changes.js';
import { aisMilestones, aisWindow, cleanTrack, detectPortCalls, type PortGeofence, type TrackFix } from './port-calls.js';
import { emptyShipment, type TransportEventRecord } from './snapshot.js';

const T0 = Date.parse('2026-03-01T00:00:00Z');
const at = (hours: number) => new Date(T0 + hours * 3600_000);
const PORT: PortGeofence = { locode: 'XXPRT', latitude: 10, longitude: 20 };
const OTHER: PortGeofence = { locode: 'XXOTH', latitude: 10, longitude: 40 };

/** A fix `nmNorth` nautical miles north of PORT (negative: south), `nmEast` east, at hour `h`. */
const fix = (h: number, nmNorth: number, speedKnots: number | null, nmEast = 0, port = PORT): TrackFix => ({
  at: at(h),
  latitude: port.latitude + nmNorth / 60,
  longitude: port.longitude + nmEast / (60 * Math.cos((port.latitude * Math.PI) / 180)),
  speedKnots,
});

/** Sails in from 75 nm north at 15 kn (hourly fixes), lies in port from hour 5 to `leaveAt`, sails out south. */
function callingTrack(leaveAt = 12): TrackFix[] {
  const out: TrackFix[] = [];
  for (let h = 0; h < 5; h++) out.push(fix(h, 75 - 15 * h, 15));
  for (let h = 5; h <= leaveAt; h++) out.push(fix(h, 0.2, 0));
  for (let h = leaveAt + 1; h <= leaveAt + 5; h++) out.push(fix(h, -15 * (h - leaveAt), 15));
  return out;
}

describe('detectPortCalls', () => {
  it.each<[string, TrackFix[], { arrived: number | null; departed: number | null }[]]>([
    // 75 - 15h ≤ 25 first at h = 4 (15 nm out); last inside: hour 12 in port; hour 13 is 15 nm south (inside), 14 out.
    ['a call: arrival at the first fix inside, departure at the last fix inside', callingTrack(), [{ arrived: 4, departed: 13 }]],
    ['still in port when the history ends: no departure', callingTrack().slice(0, 9), [{ arrived: 4, departed: null }]],
    ['history begins in port: the arrival was not seen', callingTrack().slice(6), [{ arrived: null, departed: 13 }]],
    ['passing by at speed through the geofence is no call', Array.from({ length: 12 }, (_, h) => fix(h, 80 - 15 * h, 15, 10)), []],
    [
      'slowing down inside without stopping long enough is no call',
      [fix(0, 40, 12), fix(1, 20, 8), fix(1.25, 19.9, 0.5), fix(1.5, 15, 6), fix(2.5, 0, 10), fix(4, -30, 14)],
      [],
    ],
    [
      'a stop is read from the move between fixes when no speed is reported',
      [fix(0, 45, null), fix(2, 15, null), fix(3, 0.1, null), fix(4, 0.1, null), fix(5, 0.2, null), fix(7, -40, null)],
      [{ arrived: 2, departed: 5 }],
    ],
    [
      'a position jump out of port and back is dropped, the stay goes on',
      [...callingTrack().slice(0, 8), fix(7.5, 300, 0, 300), ...callingTrack().slice(8)],
      [{ arrived: 4, departed: 13 }],
    ],
    [
      'a position jump into the geofence while passing is no call',
      [fix(0, 120, 15), fix(1, 105, 15), fix(2, 0, 0), fix(3, 75, 15), fix(4, 60, 15)],
      [],
    ],
    [
      'fixes wobbling on the edge of the geofence do not split the stay',
      [fix(0, 40, 10), fix(1, 24, 0.3), fix(2, 26, 0.2), fix(3, 24.5, 0.1), fix(4, 26.5, 0.2), fix(5, 40, 12)],
      [{ arrived: 1, departed: 3 }],
    ],
    [
      'two calls at the same port are two calls',
      [...callingTrack(), ...callingTrack().map((f) => ({ ...f, at: new Date(f.at.getTime() + 48 * 3600_000) }))],
      [
        { arrived: 4, departed: 13 },
        { arrived: 52, departed: 61 },
      ],
    ],
    ['no fixes, no calls', [], []],
  ])('%s', (_name, track, expected) => {
    const calls = detectPortCalls(track, [PORT]);
    expect(
      calls.map((c) => ({
        arrived: c.arrivedAt && (c.arrivedAt.getTime() - T0) / 3600_000,
        departed: c.departedAt && (c.departedAt.getTime() - T0) / 3600_000,
      })),
    ).toEqual(expected);
    expect(calls.every((c) => c.locode === 'XXPRT')).toBe(true);
  });

  it('sees calls at each port of the list, in time order, and none at ports never visited', () => {
    const there = callingTrack().map((f) => ({ ...f, longitude: f.longitude + 20 }));
    const back = callingTrack().map((f) => ({ ...f, at: new Date(f.at.getTime() + 72 * 3600_000) }));
    const calls = detectPortCalls([...back, ...there], [PORT, OTHER, { locode: 'XXNON', latitude: -30, longitude: 100 }]);
    expect(calls.map((c) => [c.locode, c.arrivedAt?.toISOString()])).toEqual([
      ['XXOTH', at(4).toISOString()],
      ['XXPRT', at(76).toISOString()],
    ]);
  });

  it('works across the antimeridian: a port at 179.9°E called from the west and left to the east', () => {
    const port: PortGeofence = { locode: 'XXAMD', latitude: -17, longitude: 179.9 };
    const track = [
      fix(0, 0, 15, -60, port),
      fix(2, 0, 15, -30, port),
      fix(3, 0, 15, -15, port),
      fix(4, 0, 0, 0, port),
      fix(6, 0, 0, 0.1, port),
      fix(7, 0, 15, 15, port),
      fix(9, 0, 15, 45, port),
    ].map((f) => ({ ...f, longitude: f.longitude > 180 ? f.longitude - 360 : f.longitude }));
    expect(track.some((f) => f.longitude < 0)).toBe(true);
    expect(detectPortCalls(track, [port])).toEqual([{ locode: 'XXAMD', arrivedAt: at(3), departedAt: at(7) }]);
  });
});

describe('cleanTrack', () => {
  it('sorts, drops duplicates of an instant, invalid fixes and isolated jumps, keeps the ends', () => {
    const track = [
      fix(2, 30, 15),
      fix(0, 60, 15),
      fix(1, 45, 15),
      fix(1, 44, 15),
      fix(1.5, 1000, 15),
      { ...fix(3, 0, 0), latitude: Number.NaN },
    ];
    expect(cleanTrack(track).map((f) => (f.at.getTime() - T0) / 3600_000)).toEqual([0, 1, 2]);
  });
});

// ---------------------------------------------------------------------------------------------------------

const IMO = '9300001';
const event = (over: Partial<TransportEventRecord>): TransportEventRecord => ({
  key: `${over.milestone}|C|${over.location_locode}`,
  event: 'container.transport.vessel_loaded',
  milestone: 'vessel_loaded',
  classifier: 'actual',
  container_number: 'MSCU1234565',
  timestamp: null,
  timezone: null,
  location_locode: 'XXOTH',
  location_type: 'port',
  terminal: null,
  vessel_name: 'SANDBOX STAR',
  vessel_imo: IMO,
  voyage_number: '001E',
  rail_carrier_scac: null,
  data_source: 'shipping_line',
  value: null,
  source_id: 'dcsa:MSCU',
  source_event_id: null,
  source_code: 'LOAD',
  reported_at: null,
  observed_at: null,
  ...over,
});
const stateWith = (events: TransportEventRecord[], over: Partial<StoredState['shipment'] & object> = {}): StoredState => ({
  shipment: {
    ...emptyShipment(),
    port_of_lading_locode: 'XXOTH',
    port_of_discharge_locode: 'XXPRT',
    pod_vessel_imo: IMO,
    pod_vessel_name: 'SANDBOX STAR',
    ...over,
  },
  containers: [],
  transportEvents: events,
  estimatedEvents: [],
  withdrawals: [],
});
const ports = (locode: string) => [PORT, OTHER].find((p) => p.locode === locode);
/** Lies at OTHER hours 0–12 (loaded at hour 6), sails 20° east over a day and a half, then calls at PORT. */
const voyage: TrackFix[] = [
  ...callingTrack().map((f) => ({ ...f, longitude: f.longitude + 20 })),
  ...callingTrack().map((f) => ({ ...f, at: new Date(f.at.getTime() + 60 * 3600_000) })),
];
const iso = (h: number) => at(h).toISOString();

describe('aisMilestones', () => {
  it.each<[string, StoredState, [string, string, string][]]>([
    [
      'loaded at the POL on the POD vessel: its departure from the POL and its arrival at the POD',
      stateWith([event({ timestamp: iso(6) })]),
      [
        ['vessel_departed', 'XXOTH', iso(13)],
        ['vessel_arrived', 'XXPRT', iso(64)],
      ],
    ],
    [
      'loaded at a transshipment port: a transshipment departure',
      stateWith([event({ milestone: 'transshipment_loaded', event: 'container.transport.transshipment_loaded', timestamp: iso(6) })], {
        port_of_lading_locode: 'XXPOL',
      }),
      [
        ['transshipment_departed', 'XXOTH', iso(13)],
        ['vessel_arrived', 'XXPRT', iso(64)],
      ],
    ],
    [
      'the line names the vessel only: it matches by name',
      stateWith([event({ timestamp: iso(6), vessel_imo: null, vessel_name: 'Sandbox Star' })]),
      [
        ['vessel_departed', 'XXOTH', iso(13)],
        ['vessel_arrived', 'XXPRT', iso(64)],
      ],
    ],
    [
      'departed known from the line (no load): only the POD arrival after it',
      stateWith([event({ milestone: 'vessel_departed', event: 'container.transport.vessel_departed', timestamp: iso(13) })]),
      [['vessel_arrived', 'XXPRT', iso(64)]],
    ],
    ['nothing says the boxes are on board: nothing', stateWith([]), []],
    ['on board another vessel: nothing', stateWith([event({ timestamp: iso(6), vessel_imo: '9300002', vessel_name: 'OTHER' })]), []],
    ['an estimated load is not on board', stateWith([event({ timestamp: iso(6), classifier: 'estimated' })]), []],
    [
      'a POD call before the boxes were on board (an earlier rotation) is not their arrival',
      stateWith([event({ timestamp: iso(70) })]),
      [],
    ],
    ['no POD vessel IMO: nothing', stateWith([event({ timestamp: iso(6) })], { pod_vessel_imo: null }), []],
  ])('%s', (_name, state, expected) => {
    const got = aisMilestones(state, voyage, ports);
    expect(got.map((m) => [m.milestone, m.locode, m.at.toISOString()])).toEqual(expected);
    expect(got.every((m) => m.vesselImo === IMO)).toBe(true);
  });

  it('aisWindow starts a while before the boxes went on board, and is null without them', () => {
    expect(aisWindow(stateWith([event({ timestamp: iso(6) })]))).toEqual({ imo: IMO, from: at(6 - 72) });
    expect(aisWindow(stateWith([]))).toBeNull();
  });
});
