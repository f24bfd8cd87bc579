// Points at equal distances along a path: what a vessel sailing it at constant speed passes at equal time steps.
// One walk along the path for all points, so a voyage of tens of thousands of one-minute steps stays cheap.
import { haversineNm, initialBearingDeg, interpolateGreatCircle, type LatLon, normalizeLon } from './geo.js';

/** A sampled point and the course from it towards the next one (null for a path of a single point). */
export interface SampledPoint extends LatLon {
  /** Initial great-circle bearing to the next point, in [0, 360); on the last point, the course it arrived on. */
  headingDeg: number | null;
}

/** How many points samplePath gives for a path of this length: one every step, and the end. */
export function sampleCount(lengthNm: number, stepNm: number): number {
  return Math.ceil(lengthNm / stepNm - 1e-9) + 1;
}

/**
 * Points `stepNm` apart along `path` (by distance along it, interpolated on great circles): the first is the
 * path's start, the last is exactly the path's end, at most one step after the one before it. Each point's
 * heading is the bearing to the next point; the last one's is the course on arrival from the one before.
 */
export function samplePath(path: readonly LatLon[], stepNm: number): SampledPoint[] {
  if (path.length === 0) throw new RangeError('samplePath: empty path');
  if (!(stepNm > 0) || !Number.isFinite(stepNm)) throw new RangeError('samplePath: the step must be a positive number of nautical miles');
  const legs: number[] = [];
  let total = 0;
  for (let i = 1; i < path.length; i++) {
    const leg = haversineNm(path[i - 1]!, path[i]!);
    legs.push(leg);
    total += leg;
  }
  const first = path[0]!;
  const last = path[path.length - 1]!;
  const n = sampleCount(total, stepNm) - 1;
  const points: LatLon[] = [{ lat: first.lat, lon: normalizeLon(first.lon) }];
  // The leg the walk is on, and how far along the path that leg starts.
  let leg = 0;
  let legStart = 0;
  for (let k = 1; k < n; k++) {
    const at = k * stepNm;
    while (leg < legs.length - 1 && legStart + legs[leg]! <= at) {
      legStart += legs[leg]!;
      leg++;
    }
    const length = legs[leg]!;
    const f = length > 0 ? Math.min(1, (at - legStart) / length) : 1;
    points.push(interpolateGreatCircle(path[leg]!, path[leg + 1]!, f));
  }
  if (n > 0) points.push({ lat: last.lat, lon: normalizeLon(last.lon) });
  return points.map((p, i) => {
    const next = points[i + 1];
    const prev = points[i - 1];
    const headingDeg = next ? initialBearingDeg(p, next) : prev ? (initialBearingDeg(p, prev) + 180) % 360 : null;
    return { lat: p.lat, lon: p.lon, headingDeg };
  });
}

/**
 * The path with points added along its great circles so that no leg is longer than `maxLegNm`: drawn with
 * straight lines on a flat map, it then follows the route (the network's ocean legs run thousands of miles).
 * Every vertex of the path is kept.
 */
export function densifyPath(path: readonly LatLon[], maxLegNm: number): LatLon[] {
  if (!(maxLegNm > 0)) throw new RangeError('densifyPath: the longest leg must be a positive number of nautical miles');
  const out: LatLon[] = path.length ? [{ lat: path[0]!.lat, lon: normalizeLon(path[0]!.lon) }] : [];
  for (let i = 1; i < path.length; i++) {
    const a = path[i - 1]!;
    const b = path[i]!;
    const parts = Math.ceil(haversineNm(a, b) / maxLegNm);
    for (let k = 1; k < parts; k++) out.push(interpolateGreatCircle(a, b, k / parts));
    out.push({ lat: b.lat, lon: normalizeLon(b.lon) });
  }
  return out;
}
