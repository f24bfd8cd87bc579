import { describe, expect, it } from 'vitest';
import { haversineNm, initialBearingDeg, type LatLon, pathLengthNm } from './geo.js';
import { densifyPath, sampleCount, samplePath } from './sample.js';

const EQUATOR: LatLon[] = [
  { lat: 0, lon: 0 },
  { lat: 0, lon: 1 },
];
/** One degree of a great circle in nautical miles (about 60.04 on the mean radius). */
const DEGREE_NM = haversineNm(EQUATOR[0]!, EQUATOR[1]!);

describe('samplePath', () => {
  it.each([
    { name: 'a whole number of steps', step: DEGREE_NM / 4, count: 5 },
    { name: 'a remainder: the end comes less than a step after the one before', step: DEGREE_NM / 3.5, count: 5 },
    { name: 'a step longer than the path', step: DEGREE_NM * 2, count: 2 },
  ])('$name', ({ step, count }) => {
    const points = samplePath(EQUATOR, step);
    expect(points).toHaveLength(count);
    expect(sampleCount(pathLengthNm(EQUATOR), step)).toBe(count);
    expect(points[0]).toMatchObject({ lat: 0, lon: 0 });
    expect(points.at(-1)).toMatchObject({ lat: 0, lon: 1 });
    for (let i = 1; i < points.length - 1; i++) expect(haversineNm(points[i - 1]!, points[i]!)).toBeCloseTo(step, 6);
    expect(haversineNm(points.at(-2)!, points.at(-1)!)).toBeLessThanOrEqual(step + 1e-9);
    for (const p of points) expect(p.headingDeg).toBeCloseTo(90, 6);
  });

  it('walks across vertices, heading each point at the next one', () => {
    const path: LatLon[] = [
      { lat: 0, lon: 0 },
      { lat: 0, lon: 1 },
      { lat: 1, lon: 1 },
    ];
    const step = DEGREE_NM / 3;
    const points = samplePath(path, step);
    expect(points).toHaveLength(7);
    // The point a third of a degree past the corner is on the northbound leg.
    expect(points[4]!.lon).toBeCloseTo(1, 6);
    expect(points[4]!.lat).toBeCloseTo(1 / 3, 4);
    for (let i = 0; i < points.length - 1; i++) expect(points[i]!.headingDeg).toBeCloseTo(initialBearingDeg(points[i]!, points[i + 1]!), 9);
    // The last point keeps the course it arrived on: due north.
    expect(points.at(-1)!.headingDeg).toBeCloseTo(0, 6);
  });

  it('gives one point without a heading for a path of no length, and rejects bad input', () => {
    expect(samplePath([{ lat: 10, lon: 20 }], 1)).toEqual([{ lat: 10, lon: 20, headingDeg: null }]);
    expect(() => samplePath([], 1)).toThrow(RangeError);
    expect(() => samplePath(EQUATOR, 0)).toThrow(RangeError);
    expect(() => samplePath(EQUATOR, Number.NaN)).toThrow(RangeError);
  });

  it('keeps longitudes in [-180, 180] across the antimeridian', () => {
    const points = samplePath(
      [
        { lat: 0, lon: 179.5 },
        { lat: 0, lon: -179.5 },
      ],
      DEGREE_NM / 10,
    );
    expect(points).toHaveLength(11);
    for (const p of points) expect(Math.abs(p.lon)).toBeGreaterThanOrEqual(179.5 - 1e-9);
    for (const p of points) expect(p.headingDeg).toBeCloseTo(90, 6);
  });
});

describe('densifyPath', () => {
  it('keeps every vertex and splits long legs evenly along their great circles', () => {
    const path: LatLon[] = [
      { lat: 0, lon: 0 },
      { lat: 0, lon: 1 },
      { lat: 0, lon: 1.1 },
    ];
    const dense = densifyPath(path, DEGREE_NM / 4 + 1e-9);
    expect(dense).toHaveLength(6);
    expect(dense[0]).toEqual(path[0]);
    expect(dense[4]).toEqual(path[1]);
    expect(dense[5]).toEqual(path[2]);
    for (let i = 1; i <= 4; i++) expect(dense[i]!.lon).toBeCloseTo(i / 4, 9);
    expect(pathLengthNm(dense)).toBeCloseTo(pathLengthNm(path), 6);
    expect(() => densifyPath(path, 0)).toThrow(RangeError);
  });
});
