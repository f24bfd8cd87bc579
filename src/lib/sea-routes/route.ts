// Shortest sea route between two arbitrary positions: Dijkstra over the SeaRoute network graph.
// Each end joins the network by great-circle legs to its nearest nodes and to the nearest points of its nearest lanes.
import { type LatLon, EARTH_RADIUS_NM, haversineNm, normalizeLon } from './geo.js';
import { MinHeap } from './heap.js';
import { type SeaNetwork, SNAP_EPSILON_DEG, loadNetwork } from './network.js';
import { toLatLon, toVec } from './sphere.js';

export interface SeaRoute {
  /** Length of path in nautical miles (1852 m): great-circle legs on a sphere of mean Earth radius. */
  distanceNm: number;
  /** From the origin to the destination inclusive, longitudes in [-180, 180]. */
  path: LatLon[];
}

/**
 * How many nearby nodes, and how many nearby lanes, each end may join. More than one, because the nearest is
 * often a ferry line or a port spur leading the wrong way, while a slightly farther through lane saves miles.
 */
export const SNAP_CANDIDATES = 3;

/** The shortest route by sea; the network is loaded and built on the first call. */
export function seaRoute(from: LatLon, to: LatLon): SeaRoute {
  return routeOnNetwork(loadNetwork(), from, to);
}

/** seaRoute on a given network: the same search, also for tests on small hand-made networks. */
export function routeOnNetwork(network: SeaNetwork, from: LatLon, to: LatLon, candidates = SNAP_CANDIDATES): SeaRoute {
  const origin = checkPosition(from, 'from');
  const destination = checkPosition(to, 'to');
  if (network.arcs.count === 0) throw new Error('sea-routes: the network has no lanes');

  const starts = nearestEntries(network, origin, candidates, false);
  const ends = nearestEntries(network, destination, candidates, false);
  // Two points closer to each other than either is to the network are in the same patch of water the
  // network does not cover (a harbour, a bay): sailing straight beats a detour out to the lanes and back.
  const direct = haversineNm(origin, destination);
  if (direct <= Math.min(starts[0]!.legNm, ends[0]!.legNm)) return { distanceNm: direct, path: dedupe([origin, destination]) };
  const found =
    shortestPath(network, origin, destination, starts, ends) ??
    // An end that joined only lanes cut off from the other end's (a coastal fragment, or an inland sea such as
    // the Caspian) is retried on the ocean network, so every pair of positions still gets a route.
    shortestPath(
      network,
      origin,
      destination,
      nearestEntries(network, origin, candidates, true),
      nearestEntries(network, destination, candidates, true),
    );
  if (!found) throw new Error('sea-routes: no route between the given positions');
  return found;
}

/** Where an end joins the network: the point, the leg to it, and the way on to the nodes it leads to. */
interface Entry {
  /** The lane (edge) the point lies inside, or -1 when the point is a node. */
  edge: number;
  point: LatLon;
  legNm: number;
  exits: Array<{ node: number; alongNm: number }>;
}

function checkPosition(p: LatLon, name: string): LatLon {
  if (!Number.isFinite(p?.lat) || !Number.isFinite(p?.lon) || Math.abs(p.lat) > 90) {
    throw new RangeError(`sea-routes: ${name} must have a finite lat in [-90, 90] and a finite lon`);
  }
  return { lat: p.lat, lon: normalizeLon(p.lon) };
}

/**
 * Where an end may join the network: straight to each of its k nearest nodes, as a vessel heads for the
 * nearest waypoint, and onto each of its k nearest lanes at the lane's nearest point, which matters where a
 * long ocean edge passes a port far from either of the edge's ends. Scanning every node and edge costs
 * well under a millisecond at this network's size.
 */
function nearestEntries(network: SeaNetwork, p: LatLon, k: number, mainOnly: boolean): Entry[] {
  const v = toVec(p);
  const inScope = (node: number) => !mainOnly || network.component[node] === network.mainComponent;
  const nodes = new TopK<number>(k);
  for (let node = 0; node < network.nodeCount; node++) {
    if (!inScope(node)) continue;
    nodes.offer(haversineNm(p, nodeAt(network, node)), node);
  }
  const edges = new TopK<number>(k);
  const arcs = network.arcs;
  for (let edge = 0; edge < arcs.count; edge++) {
    if (!inScope(network.edgeFrom[edge]!)) continue;
    // Every point of the arc lies within halfAngle of its midpoint: skip it when even that cannot make the cut.
    const bound = (Math.acos(Math.min(1, arcs.midCos(edge, v))) - arcs.halfAngle[edge]!) * EARTH_RADIUS_NM;
    if (bound >= edges.worst) continue;
    edges.offer(arcs.nearest(edge, v).angle * EARTH_RADIUS_NM, edge);
  }
  const entries: Entry[] = nodes.items().map(({ key, value: node }) => ({
    edge: -1,
    point: nodeAt(network, node),
    legNm: key,
    exits: [{ node, alongNm: 0 }],
  }));
  for (const { key, value: edge } of edges.items()) {
    const near = arcs.nearest(edge, v);
    // A lane's nearest point at one of its ends is a node, already offered above if it is among the nearest.
    if (near.at !== 'inside') continue;
    const point = toLatLon(near.point);
    const from = network.edgeFrom[edge]!;
    const to = network.edgeTo[edge]!;
    entries.push({
      edge,
      point,
      legNm: key,
      exits: [
        { node: from, alongNm: haversineNm(point, nodeAt(network, from)) },
        { node: to, alongNm: haversineNm(point, nodeAt(network, to)) },
      ],
    });
  }
  return entries.sort((a, b) => a.legNm - b.legNm);
}

/** The k smallest keys offered, with their values; k is tiny, so insertion into a sorted array is fastest. */
class TopK<T> {
  private readonly entries: Array<{ key: number; value: T }> = [];

  constructor(private readonly k: number) {}

  /** The key an offer must beat to be kept. */
  get worst(): number {
    return this.entries.length < this.k ? Number.POSITIVE_INFINITY : this.entries[this.k - 1]!.key;
  }

  offer(key: number, value: T): void {
    if (key >= this.worst) return;
    let i = Math.min(this.entries.length, this.k - 1);
    while (i > 0 && this.entries[i - 1]!.key > key) {
      this.entries[i] = this.entries[i - 1]!;
      i--;
    }
    this.entries[i] = { key, value };
  }

  items(): ReadonlyArray<{ key: number; value: T }> {
    return this.entries;
  }
}

function nodeAt(network: SeaNetwork, node: number): LatLon {
  return { lat: network.lat[node]!, lon: network.lon[node]! };
}

/** Dijkstra from a virtual source (the origin) to a virtual target (the destination); null if unreachable. */
function shortestPath(network: SeaNetwork, origin: LatLon, destination: LatLon, starts: Entry[], ends: Entry[]): SeaRoute | null {
  const n = network.nodeCount;
  const source = n;
  const target = n + 1;
  const dist = new Float64Array(n + 2).fill(Number.POSITIVE_INFINITY);
  const prev = new Int32Array(n + 2).fill(-1);
  const done = new Uint8Array(n + 2);
  // The lane point each first node was reached through, and the one the target is reached through.
  const entryOf = new Map<number, LatLon>();
  const exitCost = new Map<number, { costNm: number; point: LatLon }>();
  let targetVia: LatLon | undefined;
  const heap = new MinHeap();

  dist[source] = 0;
  for (const entry of starts) {
    for (const { node, alongNm } of entry.exits) {
      const d = entry.legNm + alongNm;
      if (d < dist[node]!) {
        dist[node] = d;
        prev[node] = source;
        entryOf.set(node, entry.point);
        heap.push(d, node);
      }
    }
  }
  for (const entry of ends) {
    for (const { node, alongNm } of entry.exits) {
      const costNm = alongNm + entry.legNm;
      if (costNm < (exitCost.get(node)?.costNm ?? Number.POSITIVE_INFINITY)) exitCost.set(node, { costNm, point: entry.point });
    }
  }
  // Both ends on the same lane: the way between them along it need not touch a node.
  let best: SeaRoute | null = null;
  for (const s of starts) {
    for (const e of ends) {
      if (s.edge < 0 || s.edge !== e.edge) continue;
      const d = s.legNm + haversineNm(s.point, e.point) + e.legNm;
      if (!best || d < best.distanceNm) best = { distanceNm: d, path: [origin, s.point, e.point, destination] };
    }
  }

  for (let u = heap.pop(); u !== undefined; u = heap.pop()) {
    if (done[u]) continue;
    done[u] = 1;
    if (u === target) break;
    const du = dist[u]!;
    for (let e = network.offsets[u]!; e < network.offsets[u + 1]!; e++) {
      const v = network.targets[e]!;
      const d = du + network.weights[e]!;
      if (d < dist[v]!) {
        dist[v] = d;
        prev[v] = u;
        heap.push(d, v);
      }
    }
    const exit = exitCost.get(u);
    if (exit && du + exit.costNm < dist[target]!) {
      dist[target] = du + exit.costNm;
      prev[target] = u;
      targetVia = exit.point;
      heap.push(dist[target]!, target);
    }
  }
  if (!done[target]) return best && { ...best, path: dedupe(best.path) };
  if (best && best.distanceNm <= dist[target]!) return { ...best, path: dedupe(best.path) };

  const nodes: number[] = [];
  for (let v = prev[target]!; v !== source; v = prev[v]!) nodes.push(v);
  nodes.reverse();
  const path: LatLon[] = [origin, entryOf.get(nodes[0]!)!];
  for (const node of nodes) {
    let lon = network.lon[node]!;
    // A node on the antimeridian is both +180 and −180: take the side the path arrives from, so the segment
    // into it does not appear to circle the globe.
    if (Math.abs(lon) >= 180 - SNAP_EPSILON_DEG) lon = path[path.length - 1]!.lon < 0 ? -180 : 180;
    path.push({ lat: network.lat[node]!, lon });
  }
  path.push(targetVia!, destination);
  return { distanceNm: dist[target]!, path: dedupe(path) };
}

/** Drops repeated points (an end exactly on a lane, an entry at a node) so every leg has a length. */
function dedupe(path: LatLon[]): LatLon[] {
  const out: LatLon[] = [];
  for (const p of path) {
    const last = out[out.length - 1];
    if (!last || haversineNm(last, p) > 1e-9) out.push({ lat: p.lat, lon: normalizeLon(p.lon) });
  }
  if (out.length === 1) out.push({ ...out[0]! });
  return out;
}
