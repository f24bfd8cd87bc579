// Unit-vector geometry for the graph builder and the snapper: arcs, crossings and nearest points on a sphere.
// Vectors avoid the longitude special cases (the antimeridian, long ocean arcs) that lat/lon formulas need.
import type { LatLon } from './geo.js';

export type Vec3 = [number, number, number];

const RAD = Math.PI / 180;
const DEG = 180 / Math.PI;

export function toVec(p: LatLon): Vec3 {
  const phi = p.lat * RAD;
  const lam = p.lon * RAD;
  return [Math.cos(phi) * Math.cos(lam), Math.cos(phi) * Math.sin(lam), Math.sin(phi)];
}

export function toLatLon(v: Vec3): LatLon {
  return { lat: Math.atan2(v[2], Math.hypot(v[0], v[1])) * DEG, lon: Math.atan2(v[1], v[0]) * DEG };
}

/** Angle between two unit vectors in radians; atan2 keeps tiny and near-antipodal angles accurate. */
export function angle(a: Vec3, b: Vec3): number {
  const cx = a[1] * b[2] - a[2] * b[1];
  const cy = a[2] * b[0] - a[0] * b[2];
  const cz = a[0] * b[1] - a[1] * b[0];
  return Math.atan2(Math.hypot(cx, cy, cz), a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);
}

export interface NearestOnArc {
  point: Vec3;
  /** Angular distance from the query point, radians. */
  angle: number;
  /** Whether the nearest point is the arc's first end, its second, or in between. */
  at: 'a' | 'b' | 'inside';
}

/**
 * Minor great-circle arcs between graph nodes, packed into typed arrays: the network has thousands and the
 * builder compares many pairs, so the hot tests read numbers, not objects.
 */
export class ArcSet {
  readonly count: number;
  /** Unit vector of each arc's midpoint (x, y, z per arc). */
  readonly mid: Float64Array;
  /** Half of each arc's length in radians: every point of the arc is within this angle of its midpoint. */
  readonly halfAngle: Float64Array;
  /** Both ends of each arc (ax, ay, az, bx, by, bz per arc). */
  private readonly ends: Float64Array;
  /** Unit normal of each arc's great circle, a × b normalised; all zero for a degenerate arc. */
  private readonly normal: Float64Array;

  constructor(lat: ArrayLike<number>, lon: ArrayLike<number>, from: ArrayLike<number>, to: ArrayLike<number>) {
    const m = from.length;
    this.count = m;
    this.mid = new Float64Array(3 * m);
    this.halfAngle = new Float64Array(m);
    this.ends = new Float64Array(6 * m);
    this.normal = new Float64Array(3 * m);
    const e = this.ends;
    for (let i = 0; i < m; i++) {
      const phiA = lat[from[i]!]! * RAD;
      const lamA = lon[from[i]!]! * RAD;
      const phiB = lat[to[i]!]! * RAD;
      const lamB = lon[to[i]!]! * RAD;
      const ax = Math.cos(phiA) * Math.cos(lamA);
      const ay = Math.cos(phiA) * Math.sin(lamA);
      const az = Math.sin(phiA);
      const bx = Math.cos(phiB) * Math.cos(lamB);
      const by = Math.cos(phiB) * Math.sin(lamB);
      const bz = Math.sin(phiB);
      e[6 * i] = ax;
      e[6 * i + 1] = ay;
      e[6 * i + 2] = az;
      e[6 * i + 3] = bx;
      e[6 * i + 4] = by;
      e[6 * i + 5] = bz;
      const nx = ay * bz - az * by;
      const ny = az * bx - ax * bz;
      const nz = ax * by - ay * bx;
      const nl = Math.hypot(nx, ny, nz);
      if (nl > 1e-15) {
        this.normal[3 * i] = nx / nl;
        this.normal[3 * i + 1] = ny / nl;
        this.normal[3 * i + 2] = nz / nl;
      }
      const ml = Math.hypot(ax + bx, ay + by, az + bz) || 1;
      this.mid[3 * i] = (ax + bx) / ml;
      this.mid[3 * i + 1] = (ay + by) / ml;
      this.mid[3 * i + 2] = (az + bz) / ml;
      this.halfAngle[i] = Math.atan2(nl, ax * bx + ay * by + az * bz) / 2;
    }
  }

  a(i: number): Vec3 {
    const e = this.ends;
    return [e[6 * i]!, e[6 * i + 1]!, e[6 * i + 2]!];
  }

  b(i: number): Vec3 {
    const e = this.ends;
    return [e[6 * i + 3]!, e[6 * i + 4]!, e[6 * i + 5]!];
  }

  /** Cosine of the angle from p to arc i's midpoint: with halfAngle, a bound on p's distance to the arc. */
  midCos(i: number, p: Vec3): number {
    const m = this.mid;
    return p[0] * m[3 * i]! + p[1] * m[3 * i + 1]! + p[2] * m[3 * i + 2]!;
  }

  /** Whether the point (x, y, z), on or near arc i's great circle, lies between its ends. */
  spans(i: number, x: number, y: number, z: number): boolean {
    const nx = this.normal[3 * i]!;
    const ny = this.normal[3 * i + 1]!;
    const nz = this.normal[3 * i + 2]!;
    if (nx === 0 && ny === 0 && nz === 0) return false;
    const e = this.ends;
    const ax = e[6 * i]!;
    const ay = e[6 * i + 1]!;
    const az = e[6 * i + 2]!;
    const bx = e[6 * i + 3]!;
    const by = e[6 * i + 4]!;
    const bz = e[6 * i + 5]!;
    // Past neither end when a × p and p × b both point along the arc's normal.
    const fromA = (ay * z - az * y) * nx + (az * x - ax * z) * ny + (ax * y - ay * x) * nz;
    const toB = (y * bz - z * by) * nx + (z * bx - x * bz) * ny + (x * by - y * bx) * nz;
    return fromA >= 0 && toB >= 0;
  }

  /** The point a fraction t of the way along arc i (spherical interpolation). */
  pointAt(i: number, t: number): Vec3 {
    const a = this.a(i);
    const b = this.b(i);
    const len = 2 * this.halfAngle[i]!;
    if (len < 1e-12) return a;
    const wa = Math.sin((1 - t) * len) / Math.sin(len);
    const wb = Math.sin(t * len) / Math.sin(len);
    return [wa * a[0] + wb * b[0], wa * a[1] + wb * b[1], wa * a[2] + wb * b[2]];
  }

  /** Arc i's point nearest to p: the foot of the perpendicular when it falls on the arc, else an end. */
  nearest(i: number, p: Vec3): NearestOnArc {
    if (this.spans(i, p[0], p[1], p[2])) {
      const nx = this.normal[3 * i]!;
      const ny = this.normal[3 * i + 1]!;
      const nz = this.normal[3 * i + 2]!;
      const h = p[0] * nx + p[1] * ny + p[2] * nz;
      const fx = p[0] - h * nx;
      const fy = p[1] - h * ny;
      const fz = p[2] - h * nz;
      const fl = Math.hypot(fx, fy, fz);
      if (fl > 1e-15) return { point: [fx / fl, fy / fl, fz / fl], angle: Math.abs(Math.asin(Math.max(-1, Math.min(1, h)))), at: 'inside' };
    }
    const a = this.a(i);
    const b = this.b(i);
    const da = angle(p, a);
    const db = angle(p, b);
    return da <= db ? { point: a, angle: da, at: 'a' } : { point: b, angle: db, at: 'b' };
  }

  /** Where arcs i and j cross, if they do; arcs on one great circle (overlapping lanes) never "cross". */
  crossing(i: number, j: number): Vec3 | null {
    const n = this.normal;
    const cx = n[3 * i + 1]! * n[3 * j + 2]! - n[3 * i + 2]! * n[3 * j + 1]!;
    const cy = n[3 * i + 2]! * n[3 * j]! - n[3 * i]! * n[3 * j + 2]!;
    const cz = n[3 * i]! * n[3 * j + 1]! - n[3 * i + 1]! * n[3 * j]!;
    const len = Math.hypot(cx, cy, cz);
    if (len < 1e-12) return null;
    // The two great circles meet at ±x; at most one of the two can lie on both minor arcs.
    const x = cx / len;
    const y = cy / len;
    const z = cz / len;
    if (this.spans(i, x, y, z) && this.spans(j, x, y, z)) return [x, y, z];
    if (this.spans(i, -x, -y, -z) && this.spans(j, -x, -y, -z)) return [-x, -y, -z];
    return null;
  }
}

/**
 * Which arcs pass through each 1° × 1° latitude/longitude cell (with a margin), so the builder compares only
 * arcs that share a cell. Long ocean arcs are cut into pieces of at most 1° so that they are listed in the
 * cells they pass through, not in every cell of their bounding box.
 */
export class ArcGrid {
  private readonly cells = new Map<number, number[]>();

  constructor(arcs: ArcSet, marginDeg: number) {
    for (let i = 0; i < arcs.count; i++) {
      const pieces = Math.max(1, Math.ceil((2 * arcs.halfAngle[i]! * DEG) / 1));
      let from = toLatLon(arcs.a(i));
      for (let k = 1; k <= pieces; k++) {
        const to = toLatLon(k === pieces ? arcs.b(i) : arcs.pointAt(i, k / pieces));
        this.addPiece(i, from, to, marginDeg);
        from = to;
      }
    }
  }

  /** The cell holding a position; also the one cell a crossing is credited to, so each is found once. */
  static cellOf(p: LatLon): number {
    const row = Math.min(179, Math.floor(p.lat + 90));
    const col = ((Math.floor(p.lon) % 360) + 360) % 360;
    return row * 360 + col;
  }

  arcsIn(cell: number): readonly number[] {
    return this.cells.get(cell) ?? [];
  }

  /** Every cell that lists at least one arc, with its arcs. */
  entries(): IterableIterator<[number, number[]]> {
    return this.cells.entries();
  }

  private addPiece(arc: number, p: LatLon, q: LatLon, marginDeg: number): void {
    // Unwrap so a piece touching the antimeridian spans a few degrees, not the whole globe.
    let qLon = q.lon;
    if (qLon - p.lon > 180) qLon -= 360;
    else if (p.lon - qLon > 180) qLon += 360;
    const south = Math.max(-90, Math.min(p.lat, q.lat) - marginDeg);
    const north = Math.min(90, Math.max(p.lat, q.lat) + marginDeg);
    const poleward = Math.max(Math.abs(south), Math.abs(north));
    // Near a pole a short piece can sweep any longitude: take the whole row there.
    const polar = poleward > 85;
    const lonMargin = marginDeg / Math.cos(Math.min(85, poleward) * RAD);
    const west = polar ? -180 : Math.min(p.lon, qLon) - lonMargin;
    const east = polar ? 179 : Math.max(p.lon, qLon) + lonMargin;
    for (let row = Math.floor(south + 90); row <= Math.min(179, Math.floor(north + 90)); row++) {
      for (let c = Math.floor(west); c <= Math.floor(east); c++) {
        const key = row * 360 + (((c % 360) + 360) % 360);
        const list = this.cells.get(key);
        if (!list) this.cells.set(key, [arc]);
        // Pieces of one arc are added in order, so a repeat can only be the last entry.
        else if (list[list.length - 1] !== arc) list.push(arc);
      }
    }
  }
}
