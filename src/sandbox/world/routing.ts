// Where journeys can go: itineraries over the service network (direct, or via a hub with a feeder or relay
// leg), the POD terminals a carrier may use, and inland rail routes from a POD to a rail hub.
import { haversineNm } from '../../lib/sea-routes/index.js';
import {
  portByLocode,
  RAIL_HUBS,
  type RailHub,
  type Railroad,
  type RailroadId,
  railHubByLocode,
  railroadById,
  type Terminal,
  terminalNaturalKey,
  terminalsByPortLocode,
} from '../../sources/reference/index.js';
import { SERVICES, type ServiceKind } from './network.js';
import { type TerminalProfile, terminalProfile } from './profiles.js';

export interface ItineraryLeg {
  service: string;
  kind: ServiceKind;
  fromIdx: number;
  toIdx: number;
  from: string;
  to: string;
}

export interface Itinerary {
  pol: string;
  pod: string;
  legs: ItineraryLeg[];
}

const NORTH_AMERICA = new Set(['US', 'CA']);
const isNorthAmerican = (locode: string) => NORTH_AMERICA.has(portByLocode(locode)?.countryCode ?? '');

/** Hubs where mainline services relay containers to each other. */
const RELAY_HUBS = new Set(['SGSIN', 'MYTPP', 'LKCMB', 'KRPUS', 'HKHKG', 'PAMIT', 'JMKIN', 'ITGIT', 'ESALG', 'DEBRV', 'NLRTM', 'BEANR']);

/** Terminals a simulated carrier may discharge at: ocean terminals with a FIRMS or SMDG code, covered by the reference API. */
export function podTerminals(pod: string): readonly Terminal[] {
  let list = POD_TERMINALS.get(pod);
  if (!list) {
    list = terminalsByPortLocode(pod).filter(
      (t) => (t.firmsCode !== null || t.smdgCode !== null) && t.refApiCoverage !== 'none' && !t.name.startsWith('Shippers Transport'),
    );
    POD_TERMINALS.set(pod, list);
  }
  return list;
}

const POD_TERMINALS = new Map<string, readonly Terminal[]>();

/** Weights of the PODs among ordinary stories (the big gateways dominate). */
// biome-ignore format: a table
const POD_WEIGHTS: Readonly<Record<string, number>> = {
  USLAX: 14, USLGB: 12, USNYC: 12, USSAV: 9, USHOU: 6, USOAK: 5, USORF: 5, USCHS: 4, CAVAN: 4, USSEA: 3, USTIW: 3,
  CAPRR: 2, CAMTR: 2, USBAL: 2, USJAX: 2, USMIA: 2, USPEF: 2, USPHL: 2, CAHAL: 1, USMOB: 1, USMSY: 1, USPDX: 1,
};

export function podWeight(pod: string): number {
  return POD_WEIGHTS[pod] ?? 1;
}

function enumerate(): Itinerary[] {
  const out: Itinerary[] = [];
  const mainlines = SERVICES.filter((s) => s.kind === 'mainline');
  const feeders = SERVICES.filter((s) => s.kind === 'feeder');
  const leg = (s: (typeof SERVICES)[number], i: number, j: number): ItineraryLeg => ({
    service: s.code,
    kind: s.kind,
    fromIdx: i,
    toIdx: j,
    from: s.calls[i]!,
    to: s.calls[j]!,
  });
  // Segments a service sails on its outbound voyage: from an origin call to a later call.
  const segments: { s: (typeof SERVICES)[number]; i: number; j: number }[] = [];
  for (const s of mainlines) {
    for (let j = 1; j <= s.outboundEnd; j++) {
      for (let i = 0; i < j; i++) {
        if (!isNorthAmerican(s.calls[i]!)) segments.push({ s, i, j });
      }
    }
  }
  const toPod = segments.filter((g) => isNorthAmerican(g.s.calls[g.j]!) && podTerminals(g.s.calls[g.j]!).length > 0);
  for (const g of toPod) out.push({ pol: g.s.calls[g.i]!, pod: g.s.calls[g.j]!, legs: [leg(g.s, g.i, g.j)] });
  // A feeder into a hub, then a mainline from the hub.
  for (const f of feeders) {
    const [a, hub] = [f.calls[0]!, f.calls[1]!];
    if (isNorthAmerican(hub)) continue;
    for (const g of toPod) {
      if (g.s.calls[g.i] === hub) out.push({ pol: a, pod: g.s.calls[g.j]!, legs: [leg(f, 0, 1), leg(g.s, g.i, g.j)] });
    }
  }
  // A mainline to a hub, then a feeder from the hub to the POD.
  for (const f of feeders) {
    const [hub, pod] = [f.calls[0]!, f.calls[1]!];
    if (!isNorthAmerican(pod) || podTerminals(pod).length === 0) continue;
    for (const g of segments) {
      if (g.s.calls[g.j] === hub) out.push({ pol: g.s.calls[g.i]!, pod, legs: [leg(g.s, g.i, g.j), leg(f, 0, 1)] });
    }
  }
  // A relay between two mainlines at a hub, for origins the second service does not call at.
  for (const first of segments) {
    const hub = first.s.calls[first.j]!;
    if (!RELAY_HUBS.has(hub)) continue;
    const pol = first.s.calls[first.i]!;
    for (const second of toPod) {
      if (second.s === first.s || second.s.calls[second.i] !== hub) continue;
      if (second.s.calls.slice(0, second.j).includes(pol)) continue;
      out.push({ pol, pod: second.s.calls[second.j]!, legs: [leg(first.s, first.i, first.j), leg(second.s, second.i, second.j)] });
    }
  }
  return out;
}

export const ITINERARIES: readonly Itinerary[] = Object.freeze(enumerate());

// ------------------------------------------------------------------------------------------------ rail

/** Class I railroads with on-dock or near-dock intermodal service at each POD. */
// biome-ignore format: a table
const POD_RAILROADS: Readonly<Record<string, readonly RailroadId[]>> = {
  USLAX: ['BNSF', 'UP'], USLGB: ['BNSF', 'UP'], USOAK: ['UP', 'BNSF'], USSEA: ['BNSF', 'UP'], USTIW: ['UP', 'BNSF'],
  USPDX: ['UP'], CAVAN: ['CN', 'CPKC'], CAPRR: ['CN'], CAMTR: ['CN', 'CPKC'], CAHAL: ['CN'],
  USNYC: ['CSX', 'NS'], USORF: ['NS', 'CSX'], USSAV: ['CSX', 'NS'], USCHS: ['CSX', 'NS'], USBAL: ['CSX', 'NS'],
  USJAX: ['CSX', 'NS'], USPHL: ['CSX', 'NS'], USHOU: ['UP', 'BNSF'], USMOB: ['CN', 'CSX'], USMSY: ['CN', 'UP'],
};

export function podHasRail(pod: string): boolean {
  return (POD_RAILROADS[pod]?.length ?? 0) > 0;
}

export interface RailLegPlan {
  railroad: Railroad;
  /** LOCODE of the port or rail hub where the leg starts and ends. */
  from: string;
  to: string;
  distanceNm: number;
}

export interface RailRoutePlan {
  legs: RailLegPlan[];
  destination: RailHub;
}

const INTERCHANGES = ['USCHI', 'USMEM', 'USSTL', 'USMKC'];

function placeOf(locode: string): { lat: number; lon: number } {
  const hub = railHubByLocode(locode);
  if (hub) return { lat: hub.lat, lon: hub.lon };
  const port = portByLocode(locode);
  if (!port) throw new Error(`sandbox: unknown place ${locode}`);
  return { lat: port.latitude, lon: port.longitude };
}

/** Rail miles run about a third longer than the great circle. */
function railNm(a: string, b: string): number {
  return haversineNm(placeOf(a), placeOf(b)) * 1.3;
}

/** Every rail route from the POD: one railroad to a hub it serves, or two with an interchange. */
export function railRoutes(pod: string): RailRoutePlan[] {
  const out: RailRoutePlan[] = [];
  const far = (locode: string) => haversineNm(placeOf(pod), placeOf(locode)) > 250;
  for (const r1id of POD_RAILROADS[pod] ?? []) {
    const r1 = railroadById(r1id)!;
    for (const hub of RAIL_HUBS) {
      if (hub.railroads.includes(r1id) && far(hub.locode)) {
        out.push({ legs: [{ railroad: r1, from: pod, to: hub.locode, distanceNm: railNm(pod, hub.locode) }], destination: hub });
      }
    }
    for (const ic of INTERCHANGES) {
      const icHub = railHubByLocode(ic)!;
      if (!icHub.railroads.includes(r1id) || !far(ic)) continue;
      for (const r2id of icHub.railroads) {
        if (r2id === r1id) continue;
        const r2 = railroadById(r2id)!;
        for (const hub of RAIL_HUBS) {
          if (hub.locode === ic || !hub.railroads.includes(r2id) || hub.railroads.includes(r1id) || !far(hub.locode)) continue;
          out.push({
            legs: [
              { railroad: r1, from: pod, to: ic, distanceNm: railNm(pod, ic) },
              { railroad: r2, from: ic, to: hub.locode, distanceNm: railNm(ic, hub.locode) },
            ],
            destination: hub,
          });
        }
      }
    }
  }
  return out;
}

const PROFILE_OF = new WeakMap<Terminal, TerminalProfile>();

/** The profile of a reference terminal (memoized: itinerary filters ask often). */
export function profileOfTerminal(t: Terminal): TerminalProfile {
  let p = PROFILE_OF.get(t);
  if (!p) {
    p = terminalProfile(terminalNaturalKey(t));
    PROFILE_OF.set(t, p);
  }
  return p;
}
