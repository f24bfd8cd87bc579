// The vessel network: liner services (loops of real ports), the fleet that sails them, and where every vessel
// is at any instant. A vessel's whereabouts are a function of (seed, vessel, time) alone: it repeats its loop
// at a fixed rotation, with per-voyage delays and recoveries that the next loop's reserve absorbs.
import { imoCheckDigit } from '../../domain/imo.js';
import { type LatLon, positionAlong, seaRoute } from '../../lib/sea-routes/index.js';
import { portByLocode } from '../../sources/reference/index.js';
import { CHARTER_HEADS, LINE_NAMES, serviceOperator } from './alliances.js';
import { Rng } from './random.js';
import { DAY, HOUR, MINUTE, roundTo } from './time.js';

export type ServiceKind = 'mainline' | 'feeder';

export interface ServiceDef {
  code: string;
  name: string;
  kind: ServiceKind;
  /** Port calls in rotation order; after the last the vessel sails back to the first. */
  calls: readonly string[];
  /** Index of the last call reached on the outbound voyage (the head haul towards North America). */
  outboundEnd: number;
  /** Voyage-number suffixes: outbound, return. */
  dirs: readonly [string, string];
  /** Mainline: rotation length in weeks (= vessels, weekly service). Feeders: 0 (one vessel shuttling). */
  weeks: number;
  voyageStyle: 'num' | 'alnum' | 'num4';
}

const M = (
  code: string,
  name: string,
  calls: string[],
  outboundEnd: number,
  dirs: [string, string],
  weeks: number,
  voyageStyle: 'num' | 'alnum',
): ServiceDef => ({
  code,
  name,
  kind: 'mainline',
  calls,
  outboundEnd,
  dirs,
  weeks,
  voyageStyle,
});
const F = (code: string, from: string, to: string): ServiceDef => ({
  code,
  name: `Feeder ${from}–${to}`,
  kind: 'feeder',
  calls: [from, to],
  outboundEnd: 1,
  dirs: ['N', 'S'],
  weeks: 0,
  voyageStyle: 'num4',
});

// biome-ignore format: one service per line
export const SERVICES: readonly ServiceDef[] = [
  M('TP1', 'Asia–Pacific Southwest 1', ['CNNGB', 'CNSHA', 'KRPUS', 'USLAX', 'USOAK'], 4, ['E', 'W'], 5, 'alnum'),
  M('TP3', 'South China–PSW Express', ['SGSIN', 'VNCMT', 'HKHKG', 'CNYTN', 'USLGB', 'USOAK'], 5, ['E', 'W'], 7, 'num'),
  M('TP4', 'Asia–Pacific Northwest', ['CNTAO', 'CNSHA', 'KRPUS', 'CAVAN', 'USSEA', 'USTIW'], 5, ['E', 'W'], 5, 'num'),
  M('TP5', 'China–Canada Express', ['CNSHA', 'KRPUS', 'CAPRR', 'CAVAN'], 3, ['E', 'W'], 5, 'alnum'),
  M('TP6', 'Japan–Pacific Coast', ['JPUKB', 'JPNGO', 'JPTYO', 'USLAX', 'USOAK', 'USPDX'], 5, ['E', 'W'], 5, 'num'),
  M('AP1', 'Asia–US East Coast via Panama', ['CNNGB', 'CNSHA', 'KRPUS', 'USNYC', 'USORF', 'USSAV', 'USCHS'], 6, ['E', 'W'], 10, 'alnum'),
  M('AP2', 'Asia–US Gulf via Panama', ['CNYTN', 'CNXMN', 'CNSHA', 'KRPUS', 'USHOU', 'USMOB'], 5, ['E', 'W'], 9, 'num'),
  M('AS1', 'Southeast Asia–US East Coast via Suez', ['VNCMT', 'MYTPP', 'LKCMB', 'USNYC', 'USORF', 'USSAV', 'USCHS'], 6, ['W', 'E'], 10, 'alnum'),
  M('TA1', 'North Europe–US East Coast 1', ['DEBRV', 'NLRTM', 'BEANR', 'GBLGP', 'USNYC', 'USBAL', 'USORF', 'USCHS'], 7, ['W', 'E'], 5, 'num'),
  M('TA2', 'North Europe–Halifax–New York', ['DEHAM', 'NLRTM', 'BEANR', 'FRLEH', 'CAHAL', 'USNYC', 'USPHL'], 6, ['W', 'E'], 4, 'alnum'),
  M('TA3', 'North Europe–Montreal', ['BEANR', 'NLRTM', 'DEHAM', 'GBLIV', 'CAMTR'], 4, ['W', 'E'], 4, 'num'),
  M('TA4', 'North Europe–US Gulf', ['DEHAM', 'BEANR', 'FRLEH', 'USHOU', 'USMSY', 'USMOB'], 5, ['W', 'E'], 5, 'num'),
  M('MD1', 'West Med–US East Coast', ['ITGOA', 'ITSPE', 'ESVLC', 'ESALG', 'USNYC', 'USORF', 'USSAV', 'USCHS'], 7, ['W', 'E'], 5, 'alnum'),
  M('MD2', 'East Med–US East Coast', ['TRMER', 'ILHFA', 'GRPIR', 'ITGIT', 'USNYC', 'USSAV', 'USJAX'], 6, ['W', 'E'], 6, 'num'),
  M('LA1', 'East Coast South America–US East Coast', ['ARBUE', 'UYMVD', 'BRSSZ', 'BRRIO', 'BRSUA', 'USPEF', 'USSAV', 'USPHL'], 7, ['N', 'S'], 6, 'num'),
  M('CA1', 'Caribbean–US Gulf', ['COCTG', 'PAMIT', 'CRMOB', 'USHOU', 'USMSY', 'USMOB'], 5, ['N', 'S'], 3, 'num'),
  M('CA2', 'Central America–Florida', ['HNPCR', 'GTSTC', 'USPEF', 'USMIA', 'USJAX'], 4, ['N', 'S'], 2, 'num'),
  M('CA3', 'Caribbean–US East Coast', ['DOCAU', 'JMKIN', 'BSFPO', 'USSAV', 'USCHS', 'USNYC'], 5, ['N', 'S'], 3, 'alnum'),
  M('MX1', 'Mexico Pacific–California', ['MXZLO', 'MXLZC', 'USLAX', 'USOAK'], 3, ['N', 'S'], 2, 'num'),
  F('F01', 'VNSGN', 'SGSIN'),
  F('F02', 'THLCH', 'SGSIN'),
  F('F03', 'IDJKT', 'SGSIN'),
  F('F04', 'IDSUB', 'MYTPP'),
  F('F05', 'MYPEN', 'MYTPP'),
  F('F06', 'PHMNL', 'HKHKG'),
  F('F07', 'INMAA', 'LKCMB'),
  F('F08', 'INNSA', 'LKCMB'),
  F('F09', 'BDCGP', 'LKCMB'),
  F('F10', 'JPOSA', 'KRPUS'),
  F('F11', 'CNDLC', 'KRPUS'),
  F('F12', 'RUVVO', 'KRPUS'),
  F('F13', 'PLGDN', 'DEBRV'),
  F('F14', 'SEGOT', 'DEBRV'),
  F('F15', 'IEDUB', 'NLRTM'),
  F('F16', 'EGALY', 'GRPIR'),
  F('F17', 'JMKIN', 'USMIA'),
  // A shuttle between two hubs of the Singapore Strait: boxes that came in on one line's vessel at Singapore
  // reach another line's mother vessel at Tanjung Pelepas.
  F('F18', 'SGSIN', 'MYTPP'),
];

const SERVICE_BY_CODE = new Map(SERVICES.map((s) => [s.code, s]));

export function serviceByCode(code: string): ServiceDef {
  const s = SERVICE_BY_CODE.get(code);
  if (!s) throw new Error(`sandbox: no service ${code}`);
  return s;
}

/** Where the world's schedules start counting; any instant before or after works (iterations go negative). */
const EPOCH = Date.UTC(2020, 0, 6);

// ---------------------------------------------------------------------------------------------- routes

const ROUTES = new Map<string, { distanceNm: number; path: LatLon[] }>();

export function portPosition(locode: string): LatLon {
  const p = portByLocode(locode);
  if (!p) throw new Error(`sandbox: unknown port ${locode}`);
  return { lat: p.latitude, lon: p.longitude };
}

/** The sea route between two ports, computed once per pair (each route costs milliseconds). */
export function portRoute(from: string, to: string): { distanceNm: number; path: LatLon[] } {
  const key = `${from}>${to}`;
  let r = ROUTES.get(key);
  if (!r) {
    r = seaRoute(portPosition(from), portPosition(to));
    ROUTES.set(key, r);
  }
  return r;
}

interface ServiceGeometry {
  legNm: number[];
  totalNm: number;
  loopMs: number;
  vessels: number;
  headwayMs: number;
}

const GEOMETRY = new Map<string, ServiceGeometry>();

function serviceGeometry(s: ServiceDef): ServiceGeometry {
  let g = GEOMETRY.get(s.code);
  if (g) return g;
  const legNm = s.calls.map((c, i) => portRoute(c, s.calls[(i + 1) % s.calls.length]!).distanceNm);
  const totalNm = legNm.reduce((a, b) => a + b, 0);
  // A feeder shuttles at about 15 kn with 18 h calls; a mainline's rotation is a whole number of weeks.
  const loopMs = s.kind === 'mainline' ? s.weeks * 7 * DAY : roundTo((totalNm / 15) * HOUR + 2 * 18 * HOUR + 10 * HOUR, HOUR);
  const vessels = serviceVesselCount(s);
  g = { legNm, totalNm, loopMs, vessels, headwayMs: loopMs / vessels };
  GEOMETRY.set(s.code, g);
  return g;
}

function serviceVesselCount(s: ServiceDef): number {
  return s.kind === 'mainline' ? s.weeks : 1;
}

// ----------------------------------------------------------------------------------------------- fleet

export interface SandboxVessel {
  imo: string;
  mmsi: string;
  name: string;
  /** The service it sails and its slot in the rotation. */
  service: string;
  slot: number;
  flag: string;
}

// Flag state → MMSI maritime identification digits.
const FLAGS: readonly (readonly [string, string])[] = [
  ['LR', '636'],
  ['MH', '538'],
  ['PA', '352'],
  ['PA', '355'],
  ['SG', '563'],
  ['HK', '477'],
  ['MT', '248'],
  ['MT', '256'],
  ['DK', '219'],
  ['DE', '211'],
  ['GR', '240'],
  ['PT', '255'],
  ['CY', '210'],
  ['GB', '232'],
  ['CN', '413'],
  ['KR', '440'],
  ['JP', '431'],
  ['TW', '416'],
  ['US', '367'],
];

const NAME_TAILS = [
  'ATLAS',
  'HORIZON',
  'MERIDIAN',
  'ZENITH',
  'AURORA',
  'VEGA',
  'ORION',
  'LYRA',
  'ALTAIR',
  'SIRIUS',
  'NOBLE',
  'GLORY',
  'HARMONY',
  'TRIUMPH',
  'LIBERTY',
  'PIONEER',
  'VOYAGER',
  'NAVIGATOR',
  'ENDEAVOUR',
  'RESOLVE',
  'FORTUNE',
  'PROSPER',
  'CLEMENTINE',
  'ISABELLA',
  'VALENTINA',
  'GIULIA',
  'SOFIA',
  'CHARLOTTE',
  'AMELIA',
  'LEONORA',
  'MARGRETHE',
  'ESTELLE',
  'SHANGHAI',
  'BUSAN',
  'ROTTERDAM',
  'HAMBURG',
  'GENOA',
  'SANTOS',
  'HOUSTON',
  'SAVANNAH',
  'OAKLAND',
  'TACOMA',
  'MANZANILLO',
  'KINGSTON',
  'COLOMBO',
  'SINGAPORE',
  'BREMEN',
  'ANTWERP',
  'VALENCIA',
  'PIRAEUS',
  'TOKYO',
  'KOBE',
  'OCEAN',
  'STAR',
  'BRIDGE',
  'SPIRIT',
  'PRIDE',
  'PROMISE',
  'HIGHWAY',
  'EXPRESS',
  'COURAGE',
  'WISDOM',
  'DIAMOND',
  'PEARL',
];

/**
 * A mainline vessel is named after one of its operator's lines (`MAERSK …`, `… EXPRESS` for Hapag-Lloyd, `EVER …`),
 * or now and then after the owner of chartered tonnage (`SEASPAN …`); a feeder is common-user tonnage.
 */
function vesselName(s: ServiceDef, rng: Rng): string {
  if (s.kind === 'feeder') return `${rng.pick(NAME_TAILS)} ${rng.pick(['I', 'II', 'III', 'J', 'K', 'TRADER', 'FEEDER'])}`;
  const op = serviceOperator(s.code);
  if (!op) throw new Error(`sandbox: mainline ${s.code} has no operator`);
  const tail = rng.pick(NAME_TAILS.filter((t) => t !== 'EXPRESS'));
  if (rng.chance(0.15)) return `${rng.pick(CHARTER_HEADS)} ${tail}`;
  const names = LINE_NAMES[rng.pick(op.lines)]!;
  const heads = names.heads ?? [];
  const tails = names.tails ?? [];
  return heads.length > 0 && (tails.length === 0 || rng.chance(0.5)) ? `${rng.pick(heads)} ${tail}` : `${tail} ${rng.pick(tails)}`;
}

const FLEETS = new Map<string, readonly SandboxVessel[]>();
const BY_IMO = new Map<string, Map<string, SandboxVessel>>();

/** The seed's fleet: every service's vessels, in service order then rotation slot. */
export function fleet(seed: string): readonly SandboxVessel[] {
  let f = FLEETS.get(seed);
  if (f) return f;
  const imos = new Set<string>();
  const mmsis = new Set<string>();
  const names = new Set<string>();
  const out: SandboxVessel[] = [];
  for (const s of SERVICES) {
    for (let slot = 0; slot < serviceVesselCount(s); slot++) {
      const rng = new Rng(seed, 'vessel', s.code, slot);
      let imo: string;
      do {
        const first6 = String(rng.int(910_000, 989_999));
        imo = `${first6}${imoCheckDigit(first6)}`;
      } while (imos.has(imo));
      imos.add(imo);
      const [flag, mid] = rng.pick(FLAGS);
      let mmsi: string;
      do mmsi = `${mid}${String(rng.int(0, 999_999)).padStart(6, '0')}`;
      while (mmsis.has(mmsi));
      mmsis.add(mmsi);
      let name: string;
      do name = vesselName(s, rng);
      while (names.has(name));
      names.add(name);
      out.push(Object.freeze({ imo, mmsi, name, service: s.code, slot, flag }));
    }
  }
  f = Object.freeze(out);
  FLEETS.set(seed, f);
  BY_IMO.set(seed, new Map(out.map((v) => [v.imo, v])));
  return f;
}

/**
 * Builds the fleet and every service's routes now rather than on the first questions (about a second of sea
 * routing the first time in a process); the sandbox role may call it at start.
 */
export function warmWorld(seed: string): void {
  for (const v of fleet(seed)) vesselPlan(seed, v);
}

export function vesselByImo(seed: string, imo: string): SandboxVessel | undefined {
  fleet(seed);
  return BY_IMO.get(seed)!.get(imo);
}

export function vesselsOfService(seed: string, code: string): SandboxVessel[] {
  return fleet(seed).filter((v) => v.service === code);
}

// -------------------------------------------------------------------------------------------- schedule

/** A vessel's fixed rotation: its speed, port stays and the nominal offsets of its calls in the loop. */
interface VesselPlan {
  vessel: SandboxVessel;
  service: ServiceDef;
  speedKnots: number;
  loopMs: number;
  /** When iteration 0 arrives at the first call. */
  startMs: number;
  stayMs: number[];
  legMs: number[];
  nomArrive: number[];
  nomDepart: number[];
  voyageBase: number;
  voyageLetters: string;
}

const PLANS = new Map<string, VesselPlan>();

function vesselPlan(seed: string, v: SandboxVessel): VesselPlan {
  const key = `${seed}|${v.imo}`;
  let p = PLANS.get(key);
  if (p) return p;
  const s = serviceByCode(v.service);
  const g = serviceGeometry(s);
  const rng = new Rng(seed, 'plan', v.imo);
  const n = s.calls.length;
  const reserve = s.kind === 'mainline' ? Math.max(24 * HOUR, 0.05 * g.loopMs) : 10 * HOUR;
  const [minStay, maxStay] = s.kind === 'mainline' ? [12, 48] : [12, 24];
  const [minKn, maxKn] = s.kind === 'mainline' ? [14, 20] : [11, 18];
  // The speed must leave port stays within their bounds; inside that window each vessel has its own.
  const seaAt = (kn: number) => (g.totalNm / kn) * HOUR;
  const lo = Math.max(minKn, g.totalNm / ((g.loopMs - reserve - minStay * n * HOUR) / HOUR));
  const roomAtMaxStay = (g.loopMs - reserve - maxStay * n * HOUR) / HOUR;
  const hi = roomAtMaxStay > 0 ? Math.min(maxKn, g.totalNm / roomAtMaxStay) : maxKn;
  const target = lo <= hi ? rng.range(lo, hi) : (lo + hi) / 2;
  const stayTotal = g.loopMs - reserve - seaAt(target);
  const weights = s.calls.map(() => rng.range(0.7, 1.3));
  const wsum = weights.reduce((a, b) => a + b, 0);
  const stayMs = weights.map((w) => roundTo(Math.min(maxStay * HOUR, Math.max(minStay * HOUR, (stayTotal * w) / wsum)), 30 * MINUTE));
  const seaMs = g.loopMs - reserve - stayMs.reduce((a, b) => a + b, 0);
  const speedKnots = g.totalNm / (seaMs / HOUR);
  const legMs = g.legNm.map((nm) => (nm / speedKnots) * HOUR);
  const nomArrive: number[] = [];
  const nomDepart: number[] = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    nomArrive.push(roundTo(t, MINUTE));
    t += stayMs[i]!;
    nomDepart.push(roundTo(t, MINUTE));
    t += legMs[i]!;
  }
  const phase = new Rng(seed, 'service-phase', s.code).range(0, g.headwayMs);
  p = {
    vessel: v,
    service: s,
    speedKnots,
    loopMs: g.loopMs,
    startMs: roundTo(EPOCH + phase + v.slot * g.headwayMs, HOUR),
    stayMs,
    legMs,
    nomArrive,
    nomDepart,
    voyageBase: rng.int(100, 899),
    voyageLetters: String.fromCharCode(65 + rng.int(0, 25), 65 + rng.int(0, 25)),
  };
  PLANS.set(key, p);
  return p;
}

export interface VesselCall {
  locode: string;
  /** Index of the call in the service rotation. */
  index: number;
  arrive: number;
  depart: number;
  /** The schedule's times (what the line published before delays). */
  nominalArrive: number;
  nominalDepart: number;
  /** Voyage number of the leg arriving here and of the leg leaving. */
  voyageIn: string;
  voyageOut: string;
}

export interface Rotation {
  imo: string;
  iteration: number;
  start: number;
  /** Arrival at the first call of the next iteration. */
  end: number;
  calls: VesselCall[];
}

const ROTATIONS = new Map<string, Rotation>();

function voyageNumber(p: VesselPlan, k: number, outbound: boolean): string {
  const dir = p.service.dirs[outbound ? 0 : 1];
  const n = ((((p.voyageBase + k) % 900) + 900) % 900) + 100;
  switch (p.service.voyageStyle) {
    case 'alnum':
      return `0${p.voyageLetters}${n % 10}${dir}`;
    case 'num4':
      return `${String(2000 + (n % 100) * 10 + (((k % 10) + 10) % 10))}${dir}`;
    default:
      return `${n}${dir}`;
  }
}

/**
 * One iteration of a vessel's rotation with its actual times: legs run 4% fast to 8% slow, and some calls wait
 * at anchor for a berth; the delays so gathered are absorbed by the reserve before the next iteration.
 */
export function rotation(seed: string, imo: string, k: number): Rotation {
  const key = `${seed}|${imo}|${k}`;
  const cached = ROTATIONS.get(key);
  if (cached) return cached;
  const v = vesselByImo(seed, imo);
  if (!v) throw new Error(`sandbox: no vessel ${imo}`);
  const p = vesselPlan(seed, v);
  const rng = new Rng(seed, 'rotation', imo, k);
  const n = p.service.calls.length;
  const start = p.startMs + k * p.loopMs;
  const end = start + p.loopMs;
  const waits = p.service.calls.map((_, i) => (i > 0 && rng.chance(0.22) ? rng.range(4, 30) * HOUR : 0));
  const legs = p.legMs.map((ms) => ms * rng.range(0.96, 1.08));
  // The closing leg must stay sailable: when delays ate the reserve, the vessel waits less and sails faster.
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const stays = sum(p.stayMs);
  const waited = sum(waits);
  // Every leg but the closing one, which sails from the last call back to the first.
  const sailed = sum(legs.slice(0, n - 1));
  const latestLastDeparture = p.loopMs - p.legMs[n - 1]! * 0.95;
  let excess = stays + waited + sailed - latestLastDeparture;
  if (excess > 0 && waited > 0) {
    const cut = Math.min(1, excess / waited);
    for (let i = 0; i < n; i++) waits[i] = waits[i]! * (1 - cut);
    excess -= waited * cut;
  }
  if (excess > 0) for (let i = 0; i < n - 1; i++) legs[i] = legs[i]! * (1 - excess / sailed);
  const arrive: number[] = [];
  const depart: number[] = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    arrive.push(t);
    t += p.stayMs[i]! + waits[i]!;
    depart.push(t);
    t += legs[i]!;
  }
  const calls: VesselCall[] = [];
  for (let i = 0; i < n; i++) {
    calls.push({
      locode: p.service.calls[i]!,
      index: i,
      arrive: roundTo(start + arrive[i]!, MINUTE),
      depart: roundTo(start + depart[i]!, MINUTE),
      nominalArrive: start + p.nomArrive[i]!,
      nominalDepart: start + p.nomDepart[i]!,
      voyageIn: voyageNumber(p, i === 0 ? k - 1 : k, i > 0 && i <= p.service.outboundEnd),
      voyageOut: voyageNumber(p, k, i < p.service.outboundEnd),
    });
  }
  const r: Rotation = { imo, iteration: k, start, end, calls };
  if (ROTATIONS.size > 20_000) ROTATIONS.clear();
  ROTATIONS.set(key, r);
  return r;
}

/** The iteration of the vessel's rotation under way at t. */
export function iterationAt(seed: string, imo: string, t: number): number {
  const v = vesselByImo(seed, imo);
  if (!v) throw new Error(`sandbox: no vessel ${imo}`);
  const p = vesselPlan(seed, v);
  return Math.floor((t - p.startMs) / p.loopMs);
}

export function vesselSpeed(seed: string, imo: string): number {
  const v = vesselByImo(seed, imo);
  if (!v) throw new Error(`sandbox: no vessel ${imo}`);
  return vesselPlan(seed, v).speedKnots;
}

export function rotationLength(seed: string, imo: string): number {
  const v = vesselByImo(seed, imo);
  if (!v) throw new Error(`sandbox: no vessel ${imo}`);
  return vesselPlan(seed, v).loopMs;
}

export interface VesselState {
  lat: number;
  lon: number;
  speedKnots: number;
  headingDeg: number;
  /** The port it is at, or null at sea. */
  inPort: string | null;
}

/** Where the vessel is at t: in port (speed 0) or on the sea route between two calls. */
export function vesselStateAt(seed: string, imo: string, t: number): VesselState {
  const r = rotation(seed, imo, iterationAt(seed, imo, t));
  const calls = r.calls;
  for (let i = 0; i < calls.length; i++) {
    const c = calls[i]!;
    const prev = i === 0 ? rotation(seed, imo, r.iteration - 1).calls.at(-1)! : calls[i - 1]!;
    if (t >= c.arrive && t < c.depart) {
      const route = portRoute(prev.locode, c.locode);
      const end = positionAlong(route.path, route.distanceNm);
      const pos = portPosition(c.locode);
      return { lat: pos.lat, lon: pos.lon, speedKnots: 0, headingDeg: end.headingDeg, inPort: c.locode };
    }
    const next = calls[i + 1];
    const legEnd = next ? next.arrive : r.end;
    if (t >= c.depart && t < legEnd) {
      const to = next ? next.locode : calls[0]!.locode;
      const route = portRoute(c.locode, to);
      const frac = (t - c.depart) / (legEnd - c.depart);
      const pos = positionAlong(route.path, frac * route.distanceNm);
      return {
        lat: pos.lat,
        lon: pos.lon,
        speedKnots: route.distanceNm / ((legEnd - c.depart) / HOUR),
        headingDeg: pos.headingDeg,
        inPort: null,
      };
    }
  }
  // Before the first arrival of this iteration cannot happen (iterations start at the first arrival).
  const pos = portPosition(calls[0]!.locode);
  return { lat: pos.lat, lon: pos.lon, speedKnots: 0, headingDeg: 0, inPort: calls[0]!.locode };
}

export interface Sailing {
  imo: string;
  vesselName: string;
  service: string;
  iteration: number;
  from: VesselCall;
  to: VesselCall;
}

/** Every sailing of the service from call `fromIdx` to call `toIdx` arriving within a rotation of t. */
export function sailingsAround(seed: string, serviceCode: string, fromIdx: number, toIdx: number, t: number): Sailing[] {
  const out: Sailing[] = [];
  for (const v of vesselsOfService(seed, serviceCode)) {
    const p = vesselPlan(seed, v);
    const k0 = Math.floor((t - p.startMs - p.nomArrive[toIdx]!) / p.loopMs);
    for (let k = k0 - 1; k <= k0 + 2; k++) {
      const r = rotation(seed, v.imo, k);
      out.push({ imo: v.imo, vesselName: v.name, service: serviceCode, iteration: k, from: r.calls[fromIdx]!, to: r.calls[toIdx]! });
    }
  }
  return out;
}
