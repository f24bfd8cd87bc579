// Great-circle geometry on a spherical Earth, in nautical miles and degrees.
// Pure functions shared by the router and by callers that move vessels along a computed path.

/** A position in WGS84 degrees; longitude in [-180, 180] on output. */
export interface LatLon {
  lat: number;
  lon: number;
}

/** A point on a path plus the course a vessel on it would be steering there. */
export interface PositionOnPath extends LatLon {
  /** True course in degrees, 0 ≤ heading < 360, 0 = north, 90 = east. */
  headingDeg: number;
}

/** IUGG mean Earth radius (6371.0088 km) over the international nautical mile (1852 m). */
export const EARTH_RADIUS_NM = 6371008.8 / 1852;

const RAD = Math.PI / 180;
const DEG = 180 / Math.PI;

/** Wraps into [-180, 180], leaving exactly ±180 as given so an antimeridian vertex keeps its side. */
export function normalizeLon(lon: number): number {
  if (lon >= -180 && lon <= 180) return lon;
  const wrapped = ((((lon + 180) % 360) + 360) % 360) - 180;
  return wrapped === -180 && lon > 0 ? 180 : wrapped;
}

/** Central angle in radians; the haversine form stays accurate for the metre-scale legs near ports. */
function centralAngle(a: LatLon, b: LatLon): number {
  const dLat = (b.lat - a.lat) * RAD;
  const dLon = (b.lon - a.lon) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function haversineNm(a: LatLon, b: LatLon): number {
  return centralAngle(a, b) * EARTH_RADIUS_NM;
}

/** Initial great-circle course from a towards b, in [0, 360); 0 when the points coincide. */
export function initialBearingDeg(a: LatLon, b: LatLon): number {
  const phi1 = a.lat * RAD;
  const phi2 = b.lat * RAD;
  const dLon = (b.lon - a.lon) * RAD;
  const y = Math.sin(dLon) * Math.cos(phi2);
  const x = Math.cos(phi1) * Math.sin(phi2) - Math.sin(phi1) * Math.cos(phi2) * Math.cos(dLon);
  if (y === 0 && x === 0) return 0;
  const deg = (Math.atan2(y, x) * DEG + 360) % 360;
  // (−0 + 360) % 360 is 0, but a tiny negative angle rounds to exactly 360.
  return deg >= 360 ? 0 : deg;
}

export function pathLengthNm(path: readonly LatLon[]): number {
  let total = 0;
  for (let i = 1; i < path.length; i++) total += haversineNm(path[i - 1]!, path[i]!);
  return total;
}

/** The point a fraction f of the way along the great circle from a to b (spherical interpolation). */
export function interpolateGreatCircle(a: LatLon, b: LatLon, f: number): LatLon {
  const delta = centralAngle(a, b);
  if (delta < 1e-12) return { lat: a.lat, lon: normalizeLon(a.lon) };
  const wa = Math.sin((1 - f) * delta) / Math.sin(delta);
  const wb = Math.sin(f * delta) / Math.sin(delta);
  const phi1 = a.lat * RAD;
  const phi2 = b.lat * RAD;
  const lam1 = a.lon * RAD;
  const lam2 = b.lon * RAD;
  const x = wa * Math.cos(phi1) * Math.cos(lam1) + wb * Math.cos(phi2) * Math.cos(lam2);
  const y = wa * Math.cos(phi1) * Math.sin(lam1) + wb * Math.cos(phi2) * Math.sin(lam2);
  const z = wa * Math.sin(phi1) + wb * Math.sin(phi2);
  return { lat: Math.atan2(z, Math.hypot(x, y)) * DEG, lon: normalizeLon(Math.atan2(y, x) * DEG) };
}

/**
 * Where a vessel is after sailing distanceNm along path, clamped to its ends.
 * The heading is the great-circle course at that point on the current leg: at a vertex it is the leg's
 * initial bearing, and mid-leg it follows the great circle (which matters on the network's ocean legs,
 * some of them thousands of miles long). At the far end it is the course on arrival.
 */
export function positionAlong(path: readonly LatLon[], distanceNm: number): PositionOnPath {
  if (path.length === 0) throw new RangeError('positionAlong: empty path');
  const first = path[0]!;
  // Negative and NaN distances clamp to the start; anything past the end (Infinity too) to the end.
  let remaining = distanceNm > 0 ? distanceNm : 0;
  let lastLeg: { a: LatLon; b: LatLon } | undefined;
  for (let i = 1; i < path.length; i++) {
    const a = path[i - 1]!;
    const b = path[i]!;
    const leg = haversineNm(a, b);
    // Zero-length legs (repeated vertices) have no course of their own.
    if (leg === 0) continue;
    lastLeg = { a, b };
    if (remaining < leg) {
      const p = remaining === 0 ? { lat: a.lat, lon: normalizeLon(a.lon) } : interpolateGreatCircle(a, b, remaining / leg);
      return { ...p, headingDeg: remaining === 0 ? initialBearingDeg(a, b) : initialBearingDeg(p, b) };
    }
    remaining -= leg;
  }
  const last = path[path.length - 1]!;
  const end = { lat: last.lat, lon: normalizeLon(last.lon) };
  if (!lastLeg) return { lat: first.lat, lon: normalizeLon(first.lon), headingDeg: 0 };
  return { ...end, headingDeg: finalBearingDeg(lastLeg.a, lastLeg.b) };
}

/** Course on arrival at b: the reverse of the initial course from b back to a. */
function finalBearingDeg(a: LatLon, b: LatLon): number {
  return (initialBearingDeg(b, a) + 180) % 360;
}
