// Future positions as a pure function of (start, port, speed, time): table tests on real sea routes.
import { describe, expect, it } from 'vitest';
import { haversineNm, initialBearingDeg, type LatLon, seaRoute } from '../lib/sea-routes/index.js';
import {
  DEFAULT_SPEED_KNOTS,
  futurePositions,
  MAX_POSITIONS,
  POSITION_STEP_MS,
  RECENT_SPEED_WINDOW_MS,
  recentSpeed,
  VoyageTooLongError,
} from './future-positions.js';

const HOUR = 3600_000;
const START = new Date('2026-03-01T12:00:00.750Z');

/** Distance from p to the nearest point of the path's great-circle legs, in nautical miles. */
function offPathNm(p: LatLon, path: readonly LatLon[]): number {
  const v = vec(p);
  let best = Number.POSITIVE_INFINITY;
  for (let i = 1; i < path.length; i++) {
    const a = vec(path[i - 1]!);
    const b = vec(path[i]!);
    best = Math.min(best, haversineNm(p, path[i - 1]!), haversineNm(p, path[i]!));
    const n = cross(a, b);
    const len = Math.hypot(...n);
    if (len < 1e-12) continue;
    const unit = n.map((x) => x / len) as Vec;
    // The foot of the perpendicular lies within the leg when it is on the inner side of both ends.
    const foot = cross(unit, cross(v, unit));
    if (dot(cross(a, foot), unit) >= 0 && dot(cross(foot, b), unit) >= 0) {
      best = Math.min(best, Math.abs(Math.asin(Math.max(-1, Math.min(1, dot(v, unit))))) * EARTH_NM);
    }
  }
  return best;
}

type Vec = [number, number, number];
const EARTH_NM = 6371008.8 / 1852;
const vec = (p: LatLon): Vec => {
  const [la, lo] = [(p.lat * Math.PI) / 180, (p.lon * Math.PI) / 180];
  return [Math.cos(la) * Math.cos(lo), Math.cos(la) * Math.sin(lo), Math.sin(la)];
};
const cross = (a: Vec, b: Vec): Vec => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: Vec, b: Vec) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

const lonDelta = (a: number, b: number) => ((((b - a + 540) % 360) + 360) % 360) - 180;

const CASES: { name: string; from: LatLon; to: LatLon; knots: number }[] = [
  // Off Busan to Busan: a short leg in one patch of water.
  { name: 'a few miles to port', from: { lat: 35.02, lon: 129.1 }, to: { lat: 35.0982, lon: 129.0358 }, knots: 12 },
  // Mid-Pacific to Los Angeles: on the network's ocean lanes.
  { name: 'across the ocean', from: { lat: 33.1, lon: -140.5 }, to: { lat: 33.7167, lon: -118.2833 }, knots: 18 },
  // West of the antimeridian to Los Angeles: the route crosses ±180.
  { name: 'over the antimeridian', from: { lat: 38.5, lon: 170.25 }, to: { lat: 33.7167, lon: -118.2833 }, knots: 20 },
  // Singapore Strait to Rotterdam: Malacca, the Indian Ocean, Suez, the Mediterranean, the Channel.
  { name: 'through Suez', from: { lat: 1.2, lon: 103.9 }, to: { lat: 51.9044, lon: 4.4424 }, knots: 16.5 },
];

describe('futurePositions', () => {
  it.each(CASES)('$name: starts at the position, ends at the port, one minute apart, on the sea route', ({ from, to, knots }) => {
    const { positions, distanceNm, arrivalAt } = futurePositions({ from, to, speedKnots: knots, startAt: START });
    const route = seaRoute(from, to);
    expect(distanceNm).toBeCloseTo(route.distanceNm, 6);

    expect(positions[0]).toMatchObject({ latitude: from.lat, longitude: from.lon, at: new Date('2026-03-01T12:00:00Z') });
    expect(positions.at(-1)).toMatchObject({ latitude: to.lat, longitude: to.lon });
    expect(arrivalAt).toEqual(positions.at(-1)!.at);

    // Exactly one minute apart, and as many minutes as the voyage takes at that speed (rounded up).
    for (let i = 1; i < positions.length; i++) expect(positions[i]!.at.getTime() - positions[i - 1]!.at.getTime()).toBe(POSITION_STEP_MS);
    expect(positions.length - 1).toBe(Math.ceil((distanceNm / knots) * 60 - 1e-9));

    const stepNm = knots / 60;
    for (let i = 1; i < positions.length; i++) {
      const a = { lat: positions[i - 1]!.latitude, lon: positions[i - 1]!.longitude };
      const b = { lat: positions[i]!.latitude, lon: positions[i]!.longitude };
      // No step is longer than a minute's sailing (cutting a corner makes it a little shorter).
      expect(haversineNm(a, b)).toBeLessThanOrEqual(stepNm + 1e-3);
      // Headings: the bearing to the next position, to the decimal given.
      expect(Math.abs(lonDelta(positions[i - 1]!.heading!, initialBearingDeg(a, b)))).toBeLessThanOrEqual(0.05 + 1e-9);
    }
    expect(positions.at(-1)!.heading).toBeTypeOf('number');

    // On the route: every 50th position is within a few hundred metres of the route's path.
    for (let i = 0; i < positions.length; i += 50) {
      const p = { lat: positions[i]!.latitude, lon: positions[i]!.longitude };
      expect(offPathNm(p, route.path), `position ${i}`).toBeLessThan(0.3);
    }
    for (const p of positions) {
      expect(p.longitude).toBeGreaterThanOrEqual(-180);
      expect(p.longitude).toBeLessThanOrEqual(180);
    }
  });

  it('crosses the antimeridian eastbound: from about +180 to about -180 with an easterly heading', () => {
    const { positions } = futurePositions({
      from: { lat: 38.5, lon: 170.25 },
      to: { lat: 33.7167, lon: -118.2833 },
      speedKnots: 20,
      startAt: START,
    });
    const i = positions.findIndex((p, k) => k > 0 && positions[k - 1]!.longitude > 170 && p.longitude < -170);
    expect(i).toBeGreaterThan(0);
    expect(positions[i - 1]!.heading!).toBeGreaterThan(45);
    expect(positions[i - 1]!.heading!).toBeLessThan(135);
  });

  it('takes the time it is given: the same voyage an hour later is the same track an hour later', () => {
    const a = futurePositions({ from: CASES[1]!.from, to: CASES[1]!.to, speedKnots: 18, startAt: START });
    const b = futurePositions({ from: CASES[1]!.from, to: CASES[1]!.to, speedKnots: 18, startAt: new Date(START.getTime() + HOUR) });
    expect(b.positions.map((p) => [p.latitude, p.longitude, p.heading])).toEqual(
      a.positions.map((p) => [p.latitude, p.longitude, p.heading]),
    );
    expect(b.arrivalAt.getTime() - a.arrivalAt.getTime()).toBe(HOUR);
  });

  it('is one position without a heading at the port itself', () => {
    const port = { lat: 33.7167, lon: -118.2833 };
    expect(futurePositions({ from: port, to: port, speedKnots: 15, startAt: START }).positions).toEqual([
      { latitude: port.lat, longitude: port.lon, heading: null, at: new Date('2026-03-01T12:00:00Z') },
    ]);
  });

  it('refuses a voyage of more positions than it gives, and a speed that is not positive', () => {
    const far = { from: CASES[3]!.from, to: CASES[3]!.to, startAt: START };
    expect(() => futurePositions({ ...far, speedKnots: 0.5 })).toThrow(VoyageTooLongError);
    expect(MAX_POSITIONS).toBe(100_000);
    expect(() => futurePositions({ ...far, speedKnots: 0 })).toThrow(RangeError);
    expect(() => futurePositions({ ...far, speedKnots: Number.NaN })).toThrow(RangeError);
    expect(() => futurePositions({ ...far, from: { lat: 91, lon: 0 }, speedKnots: 15 })).toThrow(RangeError);
  });
});

describe('recentSpeed', () => {
  const at = (hoursAgo: number) => new Date(START.getTime() - hoursAgo * HOUR);
  it.each([
    { name: 'no positions', positions: [], expected: { knots: DEFAULT_SPEED_KNOTS, basis: 'default' } },
    {
      name: 'only at berth or unknown',
      positions: [
        { at: at(2), speed_knots: 0 },
        { at: at(1), speed_knots: null },
        { at: at(0), speed_knots: 0.4 },
      ],
      expected: { knots: DEFAULT_SPEED_KNOTS, basis: 'default' },
    },
    {
      name: 'the median of the speeds under way',
      positions: [
        { at: at(4), speed_knots: 17 },
        { at: at(3), speed_knots: 18.5 },
        { at: at(2), speed_knots: 6 },
        { at: at(1), speed_knots: 18 },
        { at: at(0), speed_knots: 0 },
      ],
      expected: { knots: 17.5, basis: 'ais' },
    },
    {
      name: 'only the window before the latest position',
      positions: [
        { at: new Date(START.getTime() - RECENT_SPEED_WINDOW_MS - HOUR), speed_knots: 22 },
        { at: at(5), speed_knots: 14 },
        { at: at(0), speed_knots: 16 },
      ],
      expected: { knots: 15, basis: 'ais' },
    },
    {
      name: 'no readings that cannot be a ship',
      positions: [
        { at: at(1), speed_knots: 102.3 },
        { at: at(0), speed_knots: 12 },
      ],
      expected: { knots: 12, basis: 'ais' },
    },
  ])('$name', ({ positions, expected }) => {
    expect(recentSpeed(positions)).toEqual(expected);
  });
});
