// Where journeys can go: itineraries over the service network (direct, or via a hub with a feeder or relay
// leg) and the ones each carrier may book (its vessel-sharing partners' services), the terminal each service
// uses at each port, and inland rail routes from a POD to the hubs of its rail catchment.
import { haversineNm } from '../../lib/sea-routes/index.js';
import {
  PORT_RAIL_CATCHMENTS,
  portByLocode,
  RAIL_INTERCHANGE_CITIES,
  RAILROADS,
  type RailHub,
  type Railroad,
  type RailroadId,
  railHubByLocode,
  railRamp,
  railroadById,
  type Terminal,
  terminalNaturalKey,
  terminalsByPortLocode,
} from '../../sources/reference/index.js';
import { carrierMayUse, type OperatorId, serviceOperator } from './alliances.js';
import { SERVICES, type ServiceKind } from './network.js';
import { type TerminalProfile, terminalProfile } from './profiles.js';
import { unit } from './random.js';

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

/** Feeders that shuttle between two hubs: only ever the middle leg of a three-leg itinerary. */
export const HUB_SHUTTLES: ReadonlySet<string> = new Set(['F18']);

function enumerate(): Itinerary[] {
  const out: Itinerary[] = [];
  const mainlines = SERVICES.filter((s) => s.kind === 'mainline');
  const allFeeders = SERVICES.filter((s) => s.kind === 'feeder');
  const feeders = allFeeders.filter((s) => !HUB_SHUTTLES.has(s.code));
  const shuttles = allFeeders.filter((s) => HUB_SHUTTLES.has(s.code));
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
  // A feeder into a hub, a shuttle to a second hub, then a mainline from there: the shuttle is the only leg that
  // neither loads at the POL nor discharges at the POD, so its moves are told as feeder_* (see story.ts).
  for (const sh of shuttles) {
    const [hub1, hub2] = [sh.calls[0]!, sh.calls[1]!];
    for (const f of feeders) {
      if (f.calls[1] !== hub1) continue;
      for (const g of toPod) {
        if (g.s.calls[g.i] !== hub2 || g.s.calls.slice(0, g.j).includes(hub1)) continue;
        out.push({ pol: f.calls[0]!, pod: g.s.calls[g.j]!, legs: [leg(f, 0, 1), leg(sh, 0, 1), leg(g.s, g.i, g.j)] });
      }
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

const BY_CARRIER = new Map<string, readonly Itinerary[]>();

/** Whether the carrier's boxes may ride every leg (its partners' mainlines; feeders are common-user). */
export function carrierMayBook(scac: string, it: Itinerary): boolean {
  return it.legs.every((l) => carrierMayUse(scac, l.service));
}

/** The itineraries a carrier can sell: those whose every mainline leg its vessel-sharing table allows. */
export function itinerariesFor(scac: string): readonly Itinerary[] {
  const key = scac.trim().toUpperCase();
  let list = BY_CARRIER.get(key);
  if (!list) {
    list = Object.freeze(ITINERARIES.filter((it) => carrierMayBook(key, it)));
    BY_CARRIER.set(key, list);
  }
  return list;
}

// ------------------------------------------------------------------------------------------ terminals

/**
 * Terminals the operators are known to use (owned, or long-term contracts), by natural key: APM Terminals for
 * Maersk; Fenix (CMA CGM), Everport (Evergreen), LBCT (OOCL) and Pier J (COSCO) for the Ocean Alliance; Yusen,
 * TraPac and ITS (ONE's parents' terminals) for the Premier Alliance; TTI Long Beach and PNCT (MSC's TiL).
 * Best effort, from the terminals' names in the reference data and public knowledge.
 */
// biome-ignore format: a table
const OPERATOR_TERMINALS: Readonly<Partial<Record<OperatorId, readonly string[]>>> = {
  GEMINI: ['W185', 'E425', 'R103'],
  OCEAN: ['Y257', 'Y124', 'WAC8', 'W182', 'WBA5'],
  PREMIER: ['Y790', 'Y258', 'Y309', 'Y549', 'M029'],
  MSC: ['Z952', 'F577'],
};

const CALL_TERMINALS = new Map<string, Terminal>();

/**
 * The terminal where a service's vessels work at a port: one per (service, port), so every box of one vessel call
 * is discharged at the same terminal. The operator's own terminal where the table knows one, else a fixed pick.
 */
export function callTerminal(serviceCode: string, locode: string): Terminal {
  const key = `${serviceCode}|${locode}`;
  let t = CALL_TERMINALS.get(key);
  if (!t) {
    const candidates = podTerminals(locode);
    if (candidates.length === 0) throw new Error(`sandbox: no terminal at ${locode}`);
    const own = OPERATOR_TERMINALS[serviceOperator(serviceCode)?.id as OperatorId] ?? [];
    t =
      candidates.find((c) => own.includes(terminalNaturalKey(c))) ??
      candidates[Math.floor(unit('call-terminal', serviceCode, locode) * candidates.length)]!;
    CALL_TERMINALS.set(key, t);
  }
  return t;
}

/** The terminal at which the itinerary's last vessel discharges at the POD. */
export function podCallTerminal(it: Itinerary): Terminal {
  return callTerminal(it.legs.at(-1)!.service, it.pod);
}

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

/** An interline route may run at most this much longer than the straight line from the POD to the hub. */
const MAX_INTERLINE_DETOUR = 1.25;

/**
 * Every rail route from the POD to a hub of its catchment (`PORT_RAIL_CATCHMENTS`): one railroad serving the POD
 * with a ramp at the hub, or two that meet at an interchange city (`RAIL_INTERCHANGE_CITIES`) where both have a
 * ramp, the second reaching a hub the first does not, without a long detour.
 */
export function railRoutes(pod: string): RailRoutePlan[] {
  const out: RailRoutePlan[] = [];
  const catchment = (PORT_RAIL_CATCHMENTS[pod] ?? []).map((l) => railHubByLocode(l)!);
  const far = (locode: string) => haversineNm(placeOf(pod), placeOf(locode)) > 250;
  for (const r1id of POD_RAILROADS[pod] ?? []) {
    const r1 = railroadById(r1id)!;
    for (const hub of catchment) {
      if (railRamp(r1id, hub.locode) && far(hub.locode)) {
        out.push({ legs: [{ railroad: r1, from: pod, to: hub.locode, distanceNm: railNm(pod, hub.locode) }], destination: hub });
      }
    }
    for (const ic of RAIL_INTERCHANGE_CITIES) {
      if (!railRamp(r1id, ic) || !far(ic)) continue;
      for (const r2 of RAILROADS) {
        if (r2.id === r1id || !railRamp(r2.id, ic)) continue;
        for (const hub of catchment) {
          if (hub.locode === ic || !railRamp(r2.id, hub.locode) || railRamp(r1id, hub.locode) || !far(hub.locode)) continue;
          if (railNm(pod, ic) + railNm(ic, hub.locode) > MAX_INTERLINE_DETOUR * railNm(pod, hub.locode)) continue;
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
