// A story: everything the world will ever say about one tracked number, computed once from its key. The
// answers at a world time only classify and filter it (happened → actual, expected → estimated or planned).
import { checkContainerNumber, makeContainerNumber, normalizeContainerNumber } from '../../domain/container-number.js';
import type { HoldName, Milestone, TransportMode } from '../../domain/milestones.js';
import type { NumberType } from '../../sources/contract.js';
import {
  carrierByScac,
  portByLocode,
  RAIL_HUBS,
  RAILROADS,
  type RailHub,
  rampName,
  terminalNaturalKey,
} from '../../sources/reference/index.js';
import { rotation, type Sailing, sailingsAround, vesselStateAt } from './network.js';
import { type CarrierProfile, carrierProfile, resolveTerminal, type TerminalProfile } from './profiles.js';
import { Rng, shortHash, unit } from './random.js';
import {
  ITINERARIES,
  type Itinerary,
  itinerariesFor,
  podCallTerminal,
  podHasRail,
  podTerminals,
  podWeight,
  profileOfTerminal,
  type RailRoutePlan,
  railRoutes,
} from './routing.js';
import { documentedScenario, type ScenarioName } from './scenarios.js';
import {
  addWorkingDays,
  demurrageStartsAt,
  exportEmptyOutAt,
  exportFullInAt,
  extendedDwellStartsAt,
  lineLastFreeDay,
  nextGateTime,
  placeGateCalendar,
  terminalLastFreeDay,
  terminalRules,
} from './terminal-rules.js';
import { addDays, DAY, HOUR, localDate, localMidnight, MINUTE, roundTo } from './time.js';

export interface StoryKey {
  seed: string;
  scac: string;
  numberType: NumberType;
  number: string;
  /** The world time at which the number was first seen. */
  anchorAt: Date;
}

export interface StoryPlace {
  locode: string;
  name: string;
  facilityCode: string | null;
  facilityCodeList: 'smdg' | 'firms' | null;
  timeZone: string;
}

/** Who reports an event: bit flags. */
export const AUDIENCE = { carrier: 1, terminal: 2, rail: 4 } as const;

export type Stage = 'pol' | 'hub' | 'pod' | 'rail' | 'inland';

export interface StoryEvent {
  /** Stable across world times; the classifier is appended in answers. */
  id: string;
  milestone: Milestone;
  /** Null for vessel-level transport events. */
  container: string | null;
  /** When it actually happens. */
  at: number;
  /** When the schedule said it would (what planned events show). */
  nominal: number;
  /** How long after it happens the source records it. */
  lag: number;
  /** A fixed place, or `pod`: the POD terminal as assigned at that time. */
  place: StoryPlace | 'pod';
  vessel: { name: string; imo: string } | null;
  voyage: string | null;
  mode: TransportMode | null;
  railScac: string | null;
  /** Reported as estimated (or planned) before it happens, from `estimateFrom`. */
  estimable: boolean;
  estimateFrom: number;
  audience: number;
  stage: Stage;
  /** DCSA-like code without the classifier, e.g. `EQUIPMENT/LOAD`. */
  sourceCode: string;
}

export interface StoryEquipment {
  number: string;
  isoSizeType: string;
  sealNumber: string;
  weightLbs: number;
}

export interface HoldPlan {
  name: HoldName;
  status: 'hold' | 'pending';
  from: number;
  to: number;
  description: string | null;
}

export interface DatedValue {
  /** From when this value is reported. */
  from: number;
  date: string;
}

/** The container at the POD terminal. */
export interface YardPlan {
  container: string;
  /** From when the terminal knows the box (manifest received). */
  knownAt: number;
  arrivedAt: number;
  dischargedAt: number;
  /** Null for boxes that leave by rail (never available for truck pickup). */
  availableAt: number | null;
  fullOutAt: number | null;
  emptyInAt: number | null;
  railLoadedAt: number | null;
  holds: HoldPlan[];
  terminalLfd: DatedValue[];
  lineLfd: DatedValue[];
  /** Appointment versions: from when each slot is reported (a reschedule adds one). */
  appointments: { from: number; at: number }[];
  /** No word on availability (null) from discharge until the box is first offered, unless held. */
  availabilityPending: boolean;
  /** Moved from the marine terminal to an off-dock yard (natural key) at this instant. */
  offDock: { at: number; key: string; yardLocation: string } | null;
  yardLocation: string;
  chassisNumber: string;
  /** Windows in which the terminal withdraws a value it reported before. */
  flickers: { field: 'lastFreeDay' | 'yardLocation'; from: number; to: number }[];
  exam: { from: number; amount: number } | null;
  tmf: { from: number; to: number; amount: number } | null;
  teu: 1 | 2;
}

export interface RailPlan {
  /** The railroads in order (the POD railroad first), with the rail terminals they reach. */
  railroads: string[];
  destination: StoryPlace;
  /** From when the railroads know the box (waybill at vessel arrival). */
  knownAt: number;
  perContainer: {
    container: string;
    availableAt: number;
    unloadedAt: number;
    fullOutAt: number;
    lfd: string;
    yardLocation: string;
    chassisNumber: string;
  }[];
}

export interface StoryLeg {
  service: string;
  kind: 'mainline' | 'feeder';
  imo: string;
  vesselName: string;
  voyage: string;
  from: string;
  to: string;
  departAt: number;
  arriveAt: number;
}

export interface Story {
  key: StoryKey;
  scenario: ScenarioName;
  /** Normalized request number. */
  number: string;
  carrierScac: string;
  billOfLading: string | null;
  bookingNumber: string | null;
  /** Container numbers, in BL order. */
  containers: string[];
  vesselImos: string[];
  /** Facility codes (FIRMS, else SMDG) of every POD terminal the story touches. */
  podTerminalFirms: string[];
  railCarrierScac: string | null;
  anchorMs: number;
  /** When the carrier took the booking; estimates are given from then. */
  bookedAt: number;
  pol: StoryPlace | null;
  pod: StoryPlace | null;
  destination: StoryPlace | null;
  /** POD terminal assignments by time (natural keys); the first applies from the start. */
  podTerminals: { from: number; key: string }[];
  legs: StoryLeg[];
  equipment: StoryEquipment[];
  events: StoryEvent[];
  yards: YardPlan[];
  rail: RailPlan | null;
  /** The line stops updating from this instant: its answer stays what it was then (`line_silent`). */
  lineSilentFrom: number | null;
  /** Every instant at which some answer may change, ascending (besides the 12-hour estimate cadence). */
  breakpoints: number[];
}

// -------------------------------------------------------------------------------------------- validity

const NO_JOURNEY: ReadonlySet<ScenarioName> = new Set([
  'expired',
  'retries_exhausted',
  'not_found',
  'invalid_number',
  'booking_cancelled',
  'scac_auto_detect_failed',
  'test_failed',
]);

/** Whether a simulated carrier accepts the number's shape. */
export function wellFormed(numberType: NumberType, number: string): boolean {
  if (numberType === 'container') return checkContainerNumber(number).valid || /^[A-Z]{3}[UJZ]\d{7}$/.test(number);
  return /^[A-Z0-9]{6,20}$/.test(number);
}

function normalizeNumber(numberType: NumberType, number: string): string {
  return numberType === 'container' ? normalizeContainerNumber(number.trim()) : number.trim().toUpperCase();
}

// ------------------------------------------------------------------------------------------------ cache

const STORIES = new Map<string, Story>();

/** The story of a number: deterministic in its key, cheap after the first route computations. */
export function tellStory(key: StoryKey): Story {
  const cacheKey = `${key.seed}|${key.scac}|${key.numberType}|${key.number}|${key.anchorAt.getTime()}`;
  const cached = STORIES.get(cacheKey);
  if (cached) return cached;
  const story = buildStory(key);
  if (STORIES.size > 5000) STORIES.clear();
  STORIES.set(cacheKey, story);
  return story;
}

/** tellStory without the cache (tests use it to prove determinism). */
export function buildStory(key: StoryKey): Story {
  const scac = key.scac.trim().toUpperCase();
  const number = normalizeNumber(key.numberType, key.number);
  const anchorMs = key.anchorAt.getTime();
  let scenario: ScenarioName = documentedScenario(number) ?? 'ordinary';
  if (scenario === 'ordinary' && !wellFormed(key.numberType, number)) scenario = 'invalid_number';
  const story: Story = {
    key,
    scenario,
    number,
    carrierScac: scac,
    billOfLading: key.numberType === 'bill_of_lading' ? number : null,
    bookingNumber: key.numberType === 'booking_number' ? number : null,
    containers: [],
    vesselImos: [],
    podTerminalFirms: [],
    railCarrierScac: null,
    anchorMs,
    bookedAt: anchorMs - 10 * DAY,
    pol: null,
    pod: null,
    destination: null,
    podTerminals: [],
    legs: [],
    equipment: [],
    events: [],
    yards: [],
    rail: null,
    lineSilentFrom: null,
    breakpoints: [],
  };
  if (NO_JOURNEY.has(scenario)) {
    story.breakpoints = [];
    return story;
  }
  new JourneyBuilder(story, key.seed, key.numberType).build();
  return story;
}

// ------------------------------------------------------------------------------------------- placement

/**
 * `arrival`: the last leg's sailing arriving nearest `target`; with `underWayAt`, only among the sailings whose
 * vessel is under way on that leg at that instant (see `chainBackward`).
 */
type Placement =
  | { mode: 'arrival'; target: number; underWayAt?: number }
  | { mode: 'departure'; target: number; notBefore?: number }
  | { mode: 'fraction'; u: number };

const CONNECTION_MS = 36 * HOUR;

/**
 * The sailings of the itinerary, the last arriving nearest `lastArrival`, each earlier one the latest that connects.
 * With `underWayAt`, the last leg's sailing is one whose vessel is at sea on that leg at that instant, on its last
 * passage: it left the call before the POD (a transpacific vessel calls at Busan for a day or two), so AIS shows it
 * sailing, bound for the POD; the nearest of all when no sailing around is.
 */
function chainBackward(seed: string, it: Itinerary, lastArrival: number, underWayAt?: number): Sailing[] {
  const legs = it.legs;
  const out: Sailing[] = new Array(legs.length);
  const last = legs[legs.length - 1]!;
  const around = sailingsAround(seed, last.service, last.fromIdx, last.toIdx, lastArrival);
  const underWay =
    underWayAt === undefined
      ? []
      : around.filter(
          (s) =>
            s.from.depart < underWayAt &&
            underWayAt < s.to.arrive &&
            vesselStateAt(seed, s.imo, underWayAt).inPort === null &&
            // On its last passage, bound for the POD (its AIS destination), not for a call before it.
            rotation(seed, s.imo, s.iteration).calls[s.to.index - 1]!.depart < underWayAt,
        );
  out[legs.length - 1] = minBy(underWay.length > 0 ? underWay : around, (s) => Math.abs(s.to.arrive - lastArrival));
  for (let i = legs.length - 2; i >= 0; i--) {
    const leg = legs[i]!;
    const latest = out[i + 1]!.from.depart - CONNECTION_MS;
    const cands = sailingsAround(seed, leg.service, leg.fromIdx, leg.toIdx, latest - 2 * DAY).filter((s) => s.to.arrive <= latest);
    out[i] = minBy(cands, (s) => latest - s.to.arrive);
  }
  return out;
}

/** The first sailing departs nearest `firstDeparture` (and not before `notBefore`); each later one connects. */
function chainForward(seed: string, it: Itinerary, firstDeparture: number, notBefore = Number.NEGATIVE_INFINITY): Sailing[] {
  const legs = it.legs;
  const out: Sailing[] = [];
  const first = legs[0]!;
  const around = sailingsAround(seed, first.service, first.fromIdx, first.toIdx, firstDeparture + 10 * DAY);
  const allowed = around.filter((s) => s.from.depart >= notBefore);
  out.push(minBy(allowed.length > 0 ? allowed : around, (s) => Math.abs(s.from.depart - firstDeparture)));
  for (let i = 1; i < legs.length; i++) {
    const leg = legs[i]!;
    const earliest = out[i - 1]!.to.arrive + CONNECTION_MS;
    const cands = sailingsAround(seed, leg.service, leg.fromIdx, leg.toIdx, earliest).filter((s) => s.from.depart >= earliest);
    out.push(minBy(cands, (s) => s.from.depart - earliest));
  }
  return out;
}

function minBy<T>(items: readonly T[], score: (t: T) => number): T {
  if (items.length === 0) throw new Error('sandbox: no sailing found');
  let best: T = items[0] as T;
  let bestScore = score(best);
  for (const item of items) {
    const s = score(item);
    if (s < bestScore) {
      best = item;
      bestScore = s;
    }
  }
  return best;
}

// --------------------------------------------------------------------------------------------- journey

const LEASING_PREFIXES = ['TGHU', 'TCNU', 'SEGU', 'FCIU', 'CAIU', 'TRHU', 'TCLU', 'BMOU'];
// biome-ignore format: a table
const ISO_TYPES: readonly (readonly [string, number])[] = [
  ['45G1', 40], ['42G1', 18], ['22G1', 22], ['45R1', 6], ['L5G1', 4], ['22R1', 3], ['42U1', 3], ['22T6', 2], ['42P1', 2],
];
const CHASSIS_PREFIXES = ['DCLZ', 'TRAZ', 'FLXZ', 'MCCZ', 'APMZ'];

/** Scenarios whose interesting part happens at the POD soon after the anchor. */
const SOON_AT_POD: ReadonlySet<ScenarioName> = new Set([
  'rail',
  'holds',
  'fees',
  'terminal_change',
  'lfd_change',
  'flicker',
  'off_dock',
  'pickup_appointment',
  'exam_long_stay',
  'hold_other',
  'never_returned',
]);
/** Scenarios first seen before the first vessel sails: at least 14 days before (bookings are too). */
const BEFORE_SAILING: ReadonlySet<ScenarioName> = new Set(['booked_ahead', 'feeder', 'line_silent']);
/** How far ahead of the first sailing a pre-departure story is first seen (the nearest weekly sailing to it). */
const AHEAD_OF_SAILING_DAYS = 18;
const MIN_AHEAD_OF_SAILING_DAYS = 14;
/** Scenarios whose empty return nobody reports (tracking then stops by itself, not by the return). */
const NO_EMPTY_RETURN: ReadonlySet<ScenarioName> = new Set(['line_silent', 'never_returned']);
/** The off-dock yard of the reference data that has a FIRMS code (Shippers Transport Express, Carson), by port. */
const OFF_DOCK_YARDS: Readonly<Record<string, string>> = { USLGB: 'Z773', USLAX: 'Z773' };
const CALM: ReadonlySet<ScenarioName> = new Set(['succeeded', 'date_only', 'no_seal_no_weight', 'container', 'test_succeeded']);

const PLAN_LEAD_DAYS = 21;
/** Where the documented rail scenario ends (CSX hubs BNSF does not serve). */
const OHIO_RAIL_HUBS = ['USCMH', 'USCLE', 'USNBH', 'USCVG'];

class JourneyBuilder {
  readonly rng: Rng;
  readonly profile: CarrierProfile;
  readonly events: StoryEvent[] = [];
  readonly breaks = new Set<number>();
  /** The leg that loads at the bill of lading's POL (1 when a feeder brings the box to it first). */
  polLeg = 0;

  constructor(
    readonly story: Story,
    readonly seed: string,
    readonly numberType: NumberType,
  ) {
    this.rng = new Rng(seed, story.carrierScac, numberType, story.number, 'story');
    this.profile = carrierProfile(story.carrierScac);
  }

  build(): void {
    const { story, rng } = this;
    const sc = story.scenario;
    const anchor = story.anchorMs;

    // Itinerary, POD terminal and rail route.
    const wantTransship = sc === 'transshipment' || sc === 'feeder' ? true : SOON_AT_POD.has(sc) || CALM.has(sc) ? false : rng.chance(0.3);
    const terminalNeed = this.terminalNeed();
    let railRoute: RailRoutePlan | null = null;
    // The last vessel discharges at its service's terminal there: the scenario's needs must fit that terminal, and
    // a terminal change needs another terminal of the same port that fits them too.
    const it = this.chooseItinerary((i) => {
      if (sc === 'rail' && i.pod !== 'USLAX' && i.pod !== 'USLGB') return false;
      if (sc === 'off_dock' && !(i.pod in OFF_DOCK_YARDS)) return false;
      // A feeder between two hubs in the middle of the journey (its moves are feeder_*, the hubs' transshipment_*).
      if (sc === 'feeder' && !(i.legs.length === 3 && i.legs[1]!.kind === 'feeder')) return false;
      const callTerminal = podCallTerminal(i);
      if (!terminalNeed(profileOf(callTerminal))) return false;
      if (sc === 'terminal_change') return podTerminals(i.pod).some((t) => t !== callTerminal && terminalNeed(profileOf(t)));
      return true;
    }, wantTransship);
    if (sc === 'rail') {
      const routes = railRoutes(it.pod).filter(
        (r) =>
          r.legs.length === 2 &&
          r.legs[0]!.railroad.id === 'BNSF' &&
          r.legs[0]!.to === 'USCHI' &&
          r.legs[1]!.railroad.id === 'CSX' &&
          OHIO_RAIL_HUBS.includes(r.destination.locode),
      );
      railRoute = rng.pick(routes);
    } else if (sc === 'ordinary' && podHasRail(it.pod) && rng.chance(0.38)) {
      const routes = railRoutes(it.pod);
      const direct = routes.filter((r) => r.legs.length === 1);
      const pool = direct.length > 0 && rng.chance(0.7) ? direct : routes;
      if (pool.length > 0) railRoute = rng.weighted(pool.map((r) => [r, r.destination.locode === 'USCHI' ? 4 : 1] as const));
    }

    // Sailings placed against the anchor.
    const placement = this.placement();
    let sailings: Sailing[];
    if (placement.mode === 'arrival') sailings = chainBackward(this.seed, it, placement.target, placement.underWayAt);
    else if (placement.mode === 'departure') sailings = chainForward(this.seed, it, placement.target, placement.notBefore);
    else {
      const probe = chainBackward(this.seed, it, anchor + 10 * DAY);
      const duration = probe.at(-1)!.to.arrive - probe[0]!.from.depart;
      sailings = chainBackward(this.seed, it, anchor + (1 - placement.u) * duration);
    }

    const first = sailings[0]!;
    const last = sailings.at(-1)!;
    // Booked before it is first asked about (a carrier knows a booking from when it was taken).
    story.bookedAt = roundTo(Math.min(first.from.depart - rng.range(12, 24) * DAY, anchor - rng.range(2, 72) * HOUR), HOUR);
    story.legs = sailings.map((s, i) => ({
      service: s.service,
      kind: it.legs[i]!.kind,
      imo: s.imo,
      vesselName: s.vesselName,
      voyage: s.to.voyageIn,
      from: s.from.locode,
      to: s.to.locode,
      departAt: s.from.depart,
      arriveAt: s.to.arrive,
    }));
    story.vesselImos = [...new Set(sailings.map((s) => s.imo))];
    // The bill of lading's POL: where the first sea-going vessel of the through voyage loads. In `feeder` the
    // box comes to it by feeder from its place of receipt (water pre-carriage), so the POL is the hub.
    this.polLeg = sc === 'feeder' ? 1 : 0;
    story.pol = portPlace(it.legs[this.polLeg]!.from);
    story.pod = portPlace(it.pod);

    // POD terminal(s): the terminal of the last vessel's call (one per service and port, so every box of the call
    // is discharged there); `terminal_change` moves the box to another terminal of the same port.
    const firstTerminal = podCallTerminal(it);
    story.podTerminals = [{ from: 0, key: terminalNaturalKey(firstTerminal) }];
    if (sc === 'terminal_change') {
      const other = rng.pick(podTerminals(it.pod).filter((t) => t !== firstTerminal && terminalNeed(profileOf(t))));
      const changeAt = roundTo(anchor + (last.to.arrive - anchor) * rng.range(0.35, 0.6), MINUTE);
      story.podTerminals.push({ from: changeAt, key: terminalNaturalKey(other) });
      this.breaks.add(changeAt);
    }
    story.podTerminalFirms = story.podTerminals.map((p) => facilityCodeOf(p.key));

    // Containers.
    this.equipment();
    story.containers = story.equipment.map((e) => e.number);
    if (!story.billOfLading) story.billOfLading = `${this.bolPrefix()}${this.digits(rng.int(9, 10))}`;
    if (!story.bookingNumber) story.bookingNumber = this.digits(rng.int(9, 10));

    // Events: vessel-level, then per container.
    this.vesselEvents(it, sailings);
    for (const eq of story.equipment) this.containerEvents(eq, it, sailings, railRoute);
    if (railRoute) {
      story.destination = story.rail!.destination;
      story.railCarrierScac = railRoute.legs[0]!.railroad.scac;
    }
    story.events = this.events.sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));

    // Breakpoints: every instant some answer may change.
    for (const e of story.events) {
      this.breaks.add(e.at + e.lag);
      if (e.estimable) {
        this.breaks.add(e.estimateFrom);
        this.breaks.add(e.at - PLAN_LEAD_DAYS * DAY);
      }
    }
    if (sc === 'line_silent') {
      story.lineSilentFrom = roundTo(first.from.depart + rng.range(6, 20) * HOUR, MINUTE);
      this.breaks.add(story.lineSilentFrom);
    }
    if (sc === 'awaiting_manifest') this.breaks.add(anchor + 3 * DAY);
    if (sc === 'flaky') this.breaks.add(anchor + 12 * HOUR);
    story.breakpoints = [...this.breaks].filter(Number.isFinite).sort((a, b) => a - b);
  }

  terminalNeed(): (p: TerminalProfile) => boolean {
    switch (this.story.scenario) {
      case 'holds':
        return (p) => p.holds && p.available;
      case 'fees':
        return (p) => p.fees && p.feeTotalLine && p.lfd;
      case 'lfd_change':
        return (p) => p.lfd;
      case 'flicker':
        return (p) => p.lfd && p.location;
      case 'hold_other':
        return (p) => p.holds && p.available;
      case 'exam_long_stay':
        return (p) => p.holds && p.fees && p.dwellFee && p.lfd;
      case 'pickup_appointment':
        return (p) => p.appointment && p.available;
      case 'off_dock':
        return (p) => p.available && p.lfd;
      case 'line_silent':
      case 'never_returned':
        return (p) => p.fullOut;
      default:
        return () => true;
    }
  }

  /**
   * An itinerary the carrier sells (its vessel-sharing partners' services, `alliances.ts`), with or without a
   * transshipment as wished. Only when none of the carrier's itineraries fits the scenario (a documented number asked
   * with another carrier's SCAC) does it fall back to any line's.
   */
  chooseItinerary(filter: (it: Itinerary) => boolean, transship: boolean): Itinerary {
    const fits = (list: readonly Itinerary[]) => [list.filter((i) => filter(i) && i.legs.length > 1 === transship), list.filter(filter)];
    const pool = [...fits(itinerariesFor(this.story.carrierScac)), ...fits(ITINERARIES)].find((p) => p.length > 0) ?? [];
    const pods = [...new Set(pool.map((i) => i.pod))].sort();
    const pod = this.rng.weighted(pods.map((p) => [p, podWeight(p)] as const));
    return this.rng.pick(pool.filter((i) => i.pod === pod));
  }

  placement(): Placement {
    const { story, rng } = this;
    const anchor = story.anchorMs;
    const sc = story.scenario;
    if (SOON_AT_POD.has(sc)) return { mode: 'arrival', target: anchor + 7 * DAY };
    if (sc === 'transshipment') return { mode: 'arrival', target: anchor + 12 * DAY };
    // Mid-voyage at first sight, whatever the day: under way, so AIS shows it sailing and its arrival can be predicted.
    if (sc === 'succeeded') return { mode: 'arrival', target: anchor + 10 * DAY, underWayAt: anchor };
    if (sc === 'multi_container' || CALM.has(sc)) return { mode: 'arrival', target: anchor + 10 * DAY };
    if (sc === 'awaiting_manifest') return { mode: 'departure', target: anchor + 5 * DAY };
    // A booking, and a story told from before sailing, is first seen well ahead of the first sailing.
    if (BEFORE_SAILING.has(sc) || (sc === 'ordinary' && this.numberType === 'booking_number'))
      return { mode: 'departure', target: anchor + AHEAD_OF_SAILING_DAYS * DAY, notBefore: anchor + MIN_AHEAD_OF_SAILING_DAYS * DAY };
    const r = rng.next();
    const u = r < 0.12 ? rng.range(-0.35, 0) : r < 0.95 ? rng.range(0, 1) : rng.range(1, 1.25);
    return { mode: 'fraction', u };
  }

  bolPrefix(): string {
    return carrierByScac(this.story.carrierScac)?.bolPrefixes[0] ?? this.story.carrierScac;
  }

  digits(n: number): string {
    let s = String(this.rng.int(1, 9));
    while (s.length < n) s += String(this.rng.int(0, 9));
    return s;
  }

  equipment(): void {
    const { story, rng } = this;
    const sc = story.scenario;
    const count =
      sc === 'multi_container'
        ? rng.int(4, 6)
        : sc === 'succeeded' || sc === 'test_succeeded' || sc === 'container'
          ? 1
          : SOON_AT_POD.has(sc)
            ? rng.int(1, 2)
            : rng.weighted([
                [1, 45],
                [2, 25],
                [3, 14],
                [4, 8],
                [5, 5],
                [6, 3],
              ] as const);
    const own = carrierByScac(story.carrierScac)?.containerPrefixes ?? [];
    const blType = rng.weighted(ISO_TYPES);
    const sealStyle = new Rng('seal-style', story.carrierScac).int(0, 2);
    const numbers = new Set<string>();
    if (this.numberType === 'container') numbers.add(story.number);
    while (numbers.size < count) {
      const prefix = own.length > 0 && rng.chance(0.8) ? rng.pick(own) : rng.pick(LEASING_PREFIXES);
      numbers.add(makeContainerNumber(prefix, rng.int(0, 999_999)));
    }
    for (const number of numbers) {
      const isoSizeType = rng.chance(0.75) ? blType : rng.weighted(ISO_TYPES);
      const twenty = isoSizeType.startsWith('2');
      const weightLbs = Math.round(
        isoSizeType.endsWith('T6') ? rng.range(30_000, 58_000) : twenty ? rng.range(9_000, 47_000) : rng.range(11_000, 58_000),
      );
      const sealNumber =
        sealStyle === 0
          ? `${story.carrierScac.slice(0, 2)}${this.digits(7)}`
          : sealStyle === 1
            ? this.digits(8)
            : `${String.fromCharCode(65 + rng.int(0, 25))}${this.digits(6)}`;
      story.equipment.push({ number, isoSizeType, sealNumber, weightLbs });
    }
  }

  /**
   * Whether leg `i` is told as a feeder (feeder_*): water pre-carriage before the bill of lading's POL, as the DCSA
   * adapter reads it when the arrival notice states the POL (src/sources/carriers/dcsa/README.md, "Which legs are
   * which"). Every leg from the POL to the POD is a main leg — a feeder ship from the POL to a hub, or from a hub to
   * the POD, included: vessel_* at the POL and POD, transshipment_* at the hubs — one leg kind per vessel.
   */
  feederLeg(i: number): boolean {
    return i < this.polLeg;
  }

  add(
    e: Omit<StoryEvent, 'id' | 'nominal' | 'estimable' | 'estimateFrom'> &
      Partial<Pick<StoryEvent, 'nominal' | 'estimable' | 'estimateFrom'>>,
    seq: number,
  ): void {
    const at = roundTo(e.at, MINUTE);
    const placeKey = e.place === 'pod' ? 'pod' : e.place.locode;
    this.events.push({
      ...e,
      id: shortHash(this.seed, this.story.carrierScac, this.story.number, e.milestone, e.container ?? 'vessel', placeKey, seq),
      at,
      nominal: roundTo(e.nominal ?? at, MINUTE),
      lag: roundTo(e.lag, MINUTE),
      estimable: e.estimable ?? false,
      estimateFrom: e.estimateFrom ?? this.story.bookedAt,
    });
  }

  vesselEvents(it: Itinerary, sailings: Sailing[]): void {
    const { rng } = this;
    const C = AUDIENCE.carrier;
    const T = AUDIENCE.terminal;
    sailings.forEach((s, i) => {
      const leg = it.legs[i]!;
      const vessel = { name: s.vesselName, imo: s.imo };
      const voyage = s.to.voyageIn;
      const from = portPlace(leg.from);
      const feeder = this.feederLeg(i);
      const departMilestone: Milestone = i === this.polLeg ? 'vessel_departed' : feeder ? 'feeder_departed' : 'transshipment_departed';
      const base = {
        container: null,
        vessel,
        voyage,
        mode: 'vessel' as const,
        railScac: null,
        estimable: true,
        audience: C,
        sourceCode: 'TRANSPORT/DEPA',
      };
      this.add(
        {
          ...base,
          milestone: departMilestone,
          at: s.from.depart,
          nominal: s.from.nominalDepart,
          lag: rng.range(5, 90) * MINUTE,
          place: from,
          stage: i <= this.polLeg ? 'pol' : 'hub',
        },
        i,
      );
      if (i < sailings.length - 1) {
        const arriveMilestone: Milestone = feeder ? 'feeder_arrived' : 'transshipment_arrived';
        this.add(
          {
            ...base,
            sourceCode: 'TRANSPORT/ARRI',
            milestone: arriveMilestone,
            at: s.to.arrive,
            nominal: s.to.nominalArrive,
            lag: rng.range(5, 90) * MINUTE,
            place: portPlace(leg.to),
            stage: 'hub',
          },
          i,
        );
      } else {
        // The POD terminal tells its own vessel visit (arrival, berthing) with the boxes it discharges: a source
        // that tells the discharge tells the steps before it, so neither the terminal (asked hourly there) nor the
        // line (every six hours) makes the discharge known before the berthing.
        this.add(
          {
            ...base,
            audience: C | T,
            sourceCode: 'TRANSPORT/ARRI',
            milestone: 'vessel_arrived',
            at: s.to.arrive,
            nominal: s.to.nominalArrive,
            lag: rng.range(5, 60) * MINUTE,
            place: 'pod',
            stage: 'pod',
          },
          i,
        );
        const stay = s.to.depart - s.to.arrive;
        const berth = s.to.arrive + Math.min(rng.range(1, 8) * HOUR, stay / 4);
        this.add(
          {
            ...base,
            audience: C | T,
            estimable: false,
            sourceCode: 'TRANSPORT/BRTH',
            milestone: 'vessel_berthed',
            at: berth,
            lag: rng.range(5, 60) * MINUTE,
            place: 'pod',
            stage: 'pod',
          },
          i,
        );
      }
    });
  }

  containerEvents(eq: StoryEquipment, it: Itinerary, sailings: Sailing[], railRoute: RailRoutePlan | null): void {
    const { rng, story } = this;
    const C = AUDIENCE.carrier;
    const T = AUDIENCE.terminal;
    const c = eq.number;
    const first = sailings[0]!;
    const last = sailings.at(-1)!;
    // Where the box is received: the POL, or the place a feeder brings it from to the POL.
    const pol = portPlace(it.legs[0]!.from);
    const lagEq = () => rng.range(10, 240) * MINUTE;
    const none = { vessel: null, voyage: null, railScac: null };
    const vesselOf = (s: Sailing) => ({ vessel: { name: s.vesselName, imo: s.imo }, voyage: s.to.voyageIn, railScac: null });

    // Export moves at the POL's gates: the full box gated in days before its vessel calls (before the cutoff), the
    // empty picked up days before that.
    const polGates = placeGateCalendar(pol.timeZone);
    const fullIn = exportFullInAt(polGates, first.from, rng.next(), rng.range(0, 8) * HOUR);
    const emptyOut = exportEmptyOutAt(polGates, fullIn, rng.next(), rng.range(0, 8) * HOUR);
    this.add(
      {
        ...none,
        milestone: 'empty_out',
        container: c,
        at: emptyOut,
        lag: lagEq(),
        place: pol,
        mode: 'truck',
        audience: C,
        stage: 'pol',
        sourceCode: 'EQUIPMENT/GTOT',
      },
      0,
    );
    this.add(
      {
        ...none,
        milestone: 'full_in',
        container: c,
        at: fullIn,
        lag: lagEq(),
        place: pol,
        mode: 'truck',
        audience: C,
        stage: 'pol',
        sourceCode: 'EQUIPMENT/GTIN',
      },
      0,
    );
    const loadLo = Math.max(first.from.arrive + HOUR, fullIn + 12 * HOUR);
    this.add(
      {
        ...vesselOf(first),
        milestone: this.polLeg === 0 ? 'vessel_loaded' : 'feeder_loaded',
        container: c,
        at: rng.range(loadLo, first.from.depart - HOUR),
        lag: lagEq(),
        place: pol,
        mode: 'vessel',
        audience: C,
        stage: 'pol',
        sourceCode: 'EQUIPMENT/LOAD',
      },
      0,
    );

    for (let i = 0; i < sailings.length - 1; i++) {
      const inbound = sailings[i]!;
      const outbound = sailings[i + 1]!;
      const hub = portPlace(it.legs[i]!.to);
      const disc = rng.range(inbound.to.arrive + 2 * HOUR, Math.min(inbound.to.depart - HOUR, inbound.to.arrive + 20 * HOUR));
      const load = rng.range(Math.max(outbound.from.arrive + HOUR, disc + 4 * HOUR), outbound.from.depart - HOUR);
      const inFeeder = this.feederLeg(i);
      const outMilestone: Milestone =
        i + 1 === this.polLeg ? 'vessel_loaded' : this.feederLeg(i + 1) ? 'feeder_loaded' : 'transshipment_loaded';
      this.add(
        {
          ...vesselOf(inbound),
          milestone: inFeeder ? 'feeder_discharged' : 'transshipment_discharged',
          container: c,
          at: disc,
          lag: lagEq(),
          place: hub,
          mode: 'vessel',
          audience: C,
          stage: 'hub',
          sourceCode: 'EQUIPMENT/DISC',
        },
        i,
      );
      this.add(
        {
          ...vesselOf(outbound),
          milestone: outMilestone,
          container: c,
          at: load,
          lag: lagEq(),
          place: hub,
          mode: 'vessel',
          audience: C,
          stage: 'hub',
          sourceCode: 'EQUIPMENT/LOAD',
        },
        i,
      );
    }

    const arrive = last.to.arrive;
    const berth = this.events.find((e) => e.milestone === 'vessel_berthed')!.at;
    const discharged = roundTo(rng.range(berth + HOUR, Math.min(last.to.depart - HOUR, berth + 30 * HOUR)), MINUTE);
    this.add(
      {
        ...vesselOf(last),
        milestone: 'vessel_discharged',
        container: c,
        at: discharged,
        lag: rng.range(5, 90) * MINUTE,
        place: 'pod',
        mode: 'vessel',
        audience: C | T,
        stage: 'pod',
        sourceCode: 'EQUIPMENT/DISC',
      },
      0,
    );

    const yard = this.yardPlan(eq, arrive, discharged, last.to.depart, railRoute !== null);
    if (railRoute) this.railEvents(eq, yard, railRoute);
    else {
      this.add(
        {
          ...none,
          milestone: 'available',
          container: c,
          at: yard.availableAt!,
          lag: rng.range(5, 60) * MINUTE,
          place: 'pod',
          mode: null,
          audience: C,
          stage: 'pod',
          sourceCode: 'EQUIPMENT/AVAL',
        },
        0,
      );
      this.add(
        {
          ...none,
          milestone: 'full_out',
          container: c,
          at: yard.fullOutAt!,
          lag: rng.range(5, 90) * MINUTE,
          // From the off-dock yard when the box was moved there (the terminal source tells it).
          place: yard.offDock ? terminalYardPlace(yard.offDock.key) : 'pod',
          mode: 'truck',
          audience: C | T,
          stage: 'pod',
          sourceCode: 'EQUIPMENT/GTOT',
        },
        0,
      );
      // Returned to a depot nobody reports in the stories without an empty return.
      if (yard.emptyInAt !== null)
        this.add(
          {
            ...none,
            milestone: 'empty_in',
            container: c,
            at: yard.emptyInAt,
            lag: rng.range(5, 120) * MINUTE,
            place: 'pod',
            mode: 'truck',
            audience: C | T,
            stage: 'pod',
            sourceCode: 'EQUIPMENT/GTIN',
          },
          0,
        );
    }
    story.yards.push(yard);
  }

  /** `callDone`: when the vessel call that discharged the box completed (it leaves the berth). */
  yardPlan(eq: StoryEquipment, arrivedAt: number, dischargedAt: number, callDone: number, byRail: boolean): YardPlan {
    const { rng, story } = this;
    const sc = story.scenario;
    const tz = story.pod!.timeZone;
    const knownAt = roundTo(arrivedAt - rng.range(4, 6) * DAY, MINUTE);
    const holds: HoldPlan[] = [];
    const hold = (name: HoldName, status: 'hold' | 'pending', from: number, to: number, description: string | null) => {
      if (to - from >= HOUR) holds.push({ name, status, from: roundTo(from, MINUTE), to: roundTo(to, MINUTE), description });
    };
    if (rng.chance(0.55))
      hold('freight', 'hold', knownAt, dischargedAt + rng.range(-48, 30) * HOUR, 'Freight charges not yet released by the line');
    let exam: YardPlan['exam'] = null;
    if (sc === 'holds') {
      const from = dischargedAt + rng.range(6, 18) * HOUR;
      const to = dischargedAt + rng.range(3, 7) * DAY;
      hold('customs', 'hold', from, to, 'CBP hold');
      const examFrom = from + rng.range(12, 30) * HOUR;
      hold('VACIS', 'hold', examFrom, to - rng.range(6, 20) * HOUR, 'VACIS exam ordered');
      exam = { from: roundTo(examFrom, MINUTE), amount: roundTo(rng.range(300, 900), 5) };
    } else if (sc === 'exam_long_stay') {
      // An intensive exam: CBP holds the box, the terminal bills the exam, and the box waits days for it.
      const from = dischargedAt + rng.range(6, 18) * HOUR;
      hold('customs', 'hold', from, dischargedAt + rng.range(4, 6) * DAY, 'CBP intensive exam');
      exam = { from: roundTo(from + rng.range(12, 30) * HOUR, MINUTE), amount: roundTo(rng.range(900, 1800), 5) };
    } else if (!byRail && !SOON_AT_POD.has(sc)) {
      if (rng.chance(0.1)) hold('customs', 'pending', knownAt, dischargedAt + rng.range(2, 20) * HOUR, 'Awaiting customs release');
      else if (rng.chance(0.15))
        hold('customs', 'hold', dischargedAt + rng.range(2, 12) * HOUR, dischargedAt + rng.range(1, 3) * DAY, 'CBP hold');
      if (rng.chance(0.04)) hold('USDA', 'hold', dischargedAt + 4 * HOUR, dischargedAt + rng.range(1, 4) * DAY, 'USDA inspection');
      if (rng.chance(0.03)) {
        const from = dischargedAt + rng.range(10, 30) * HOUR;
        hold('VACIS', 'hold', from, from + rng.range(1, 3) * DAY, 'VACIS exam ordered');
        exam = { from: roundTo(from, MINUTE), amount: roundTo(rng.range(300, 900), 5) };
      }
    }
    const teu: 1 | 2 = eq.isoSizeType.startsWith('2') ? 1 : 2;
    let tmf: YardPlan['tmf'] = null;
    if (!byRail && (story.pod!.locode === 'USLAX' || story.pod!.locode === 'USLGB') && rng.chance(0.7)) {
      const to = dischargedAt + rng.range(4, 40) * HOUR;
      hold('TMF', 'hold', dischargedAt, to, 'Traffic Mitigation Fee unpaid');
      tmf = { from: roundTo(dischargedAt, MINUTE), to: roundTo(to, MINUTE), amount: 37.5 * teu };
    }
    const holdsClear = Math.max(dischargedAt, ...holds.map((h) => h.to));

    // Last free days: the terminal's by its rule from the completion of the vessel call (one date for every box of
    // the call); a box bound for rail gets two days to make its train. The line's equals it or is longer by contract
    // (one draw per bill of lading).
    const rules = terminalRules(podTerminalAt(story, dischargedAt)!);
    const dischargeDate = localDate(dischargedAt, tz);
    const terminalDate = byRail ? addDays(dischargeDate, 2) : terminalLastFreeDay(rules, callDone);
    const terminalLfd: DatedValue[] = [{ from: dischargedAt, date: terminalDate }];
    const lineDraw = unit(this.seed, story.carrierScac, story.number, 'line-free-time');
    const lineLfd: DatedValue[] = [{ from: dischargedAt, date: lineLastFreeDay(terminalDate, story.carrierScac, lineDraw) }];
    if (sc === 'lfd_change') {
      const at = roundTo(dischargedAt + rng.range(30, 54) * HOUR, MINUTE);
      const extended = rules.counting === 'working_days' ? addWorkingDays(rules.holidays, terminalDate, 2) : addDays(terminalDate, 2);
      terminalLfd.push({ from: at, date: extended });
      const line = addDays(lineLfd[0]!.date, 3);
      lineLfd.push({ from: at + 6 * HOUR, date: line > extended ? line : extended });
    }

    let availableAt: number | null = null;
    let fullOutAt: number | null = null;
    let emptyInAt: number | null = null;
    let railLoadedAt: number | null = null;
    const appointments: YardPlan['appointments'] = [];
    let offDock: YardPlan['offDock'] = null;
    let availabilityPending = false;
    if (byRail) {
      railLoadedAt = roundTo(Math.max(holdsClear + 2 * HOUR, dischargedAt + rng.range(18, 60) * HOUR), MINUTE);
    } else {
      availableAt = roundTo(Math.max(holdsClear + rng.range(0.5, 3) * HOUR, dischargedAt + rng.range(2, 8) * HOUR), MINUTE);
      // The terminal says nothing of availability until it has processed the box (the engine's `grounded`): in
      // multi_container for most of a day, in some ordinary stories for a few hours.
      if (sc === 'multi_container') {
        availableAt = Math.max(availableAt, roundTo(dischargedAt + rng.range(16, 30) * HOUR, MINUTE));
        availabilityPending = true;
      } else if (sc === 'ordinary' && rng.chance(0.25)) availabilityPending = true;
      const lfdEnd = demurrageStartsAt(rules, terminalLfd.at(-1)!.date);
      let pickup =
        sc === 'fees'
          ? lfdEnd + rng.range(4.2, 6) * DAY
          : sc === 'exam_long_stay'
            ? Math.max(lfdEnd, dischargedAt + 9 * DAY) + rng.range(2.2, 4) * DAY
            : sc === 'pickup_appointment'
              ? availableAt + rng.range(2.5, 4) * DAY
              : availableAt + rng.range(0.3, 4.5) * DAY;
      if (sc === 'hold_other') {
        // Offered, then held for a reason of the terminal's own (no named kind: `other`), then offered again.
        const from = roundTo(availableAt + rng.range(6, 12) * HOUR, MINUTE);
        const to = roundTo(from + rng.range(20, 30) * HOUR, MINUTE);
        holds.push({ name: 'other', status: 'hold', from, to, description: 'Documentation hold: commercial invoice missing' });
        pickup = Math.max(pickup, to + rng.range(6, 30) * HOUR);
      }
      if (sc === 'off_dock') {
        // Moved to the port's off-dock yard within a day of discharge; offered for pickup there.
        const at = roundTo(dischargedAt + rng.range(8, 20) * HOUR, MINUTE);
        offDock = { at, key: OFF_DOCK_YARDS[story.pod!.locode]!, yardLocation: `OD-${rng.int(1, 9)}-${rng.int(10, 99)}` };
        availableAt = Math.max(availableAt, at + rng.range(2, 6) * HOUR);
        pickup = availableAt + rng.range(0.5, 2.5) * DAY;
      }
      // The LFD changes while the box is still in the yard.
      if (sc === 'lfd_change') pickup = Math.max(pickup, lineLfd.at(-1)!.from + rng.range(1, 3) * DAY);
      // Trucks come and go in the terminal's gate hours.
      fullOutAt = nextGateTime(rules, roundTo(Math.max(pickup, availableAt + 2 * HOUR), MINUTE), rng.range(0.5, 6) * HOUR);
      emptyInAt = NO_EMPTY_RETURN.has(sc)
        ? null
        : nextGateTime(rules, roundTo(fullOutAt + rng.range(2, 9) * DAY, MINUTE), rng.range(0.5, 6) * HOUR);
      const slot = Math.floor(fullOutAt / HOUR) * HOUR;
      if (sc === 'pickup_appointment') {
        // Booked for a slot a day earlier, rescheduled before that slot to the one the box leaves in.
        const booked = roundTo(availableAt + rng.range(1, 4) * HOUR, MINUTE);
        const moved = roundTo(rng.range(booked + 2 * HOUR, slot - DAY - 2 * HOUR), MINUTE);
        appointments.push({ from: booked, at: slot - DAY }, { from: moved, at: slot });
      } else if (rng.chance(0.8)) {
        const from = roundTo(Math.max(availableAt + 30 * MINUTE, fullOutAt - rng.range(20, 72) * HOUR), MINUTE);
        if (from < slot) appointments.push({ from, at: slot });
      }
    }
    const end = fullOutAt ?? railLoadedAt!;
    const flickers: YardPlan['flickers'] = [];
    if (sc === 'flicker') {
      const from = roundTo(dischargedAt + rng.range(26, 40) * HOUR, MINUTE);
      const to = from + roundTo(rng.range(12, 18) * HOUR, MINUTE);
      flickers.push({ field: 'lastFreeDay', from, to }, { field: 'yardLocation', from, to });
    } else if (end - dischargedAt > 2 * DAY && rng.chance(0.04)) {
      const from = roundTo(rng.range(dischargedAt + 6 * HOUR, end - 30 * HOUR), MINUTE);
      flickers.push({ field: 'yardLocation', from, to: from + 12 * HOUR });
    }
    const yardLocation = this.yardLocation();
    const plan: YardPlan = {
      container: eq.number,
      knownAt,
      arrivedAt,
      dischargedAt,
      availableAt,
      fullOutAt,
      emptyInAt,
      railLoadedAt,
      holds,
      terminalLfd,
      lineLfd,
      appointments,
      offDock,
      availabilityPending,
      yardLocation,
      chassisNumber: makeContainerNumber(rng.pick(CHASSIS_PREFIXES), rng.int(0, 999_999)),
      flickers,
      exam,
      tmf,
      teu,
    };
    for (const t of [
      knownAt,
      arrivedAt,
      dischargedAt,
      availableAt,
      fullOutAt,
      emptyInAt,
      railLoadedAt,
      ...appointments.map((a) => a.from),
      offDock?.at,
      exam?.from,
      tmf?.from,
      tmf?.to,
    ]) {
      if (t != null) this.breaks.add(t);
    }
    for (const h of holds) this.breaks.add(h.from).add(h.to);
    for (const v of [...terminalLfd, ...lineLfd]) this.breaks.add(v.from);
    for (const f of flickers) this.breaks.add(f.from).add(f.to);
    // Demurrage grows a day at a time after each LFD version's end, until the box leaves; dwell fees after 9 days.
    if (fullOutAt !== null) {
      for (const v of terminalLfd) {
        for (let k = 1; k <= 61; k++) {
          const t = localMidnight(addDays(v.date, k), tz);
          if (t > fullOutAt) break;
          this.breaks.add(t);
        }
      }
      const dwellFrom = extendedDwellStartsAt(rules, dischargedAt);
      if (dwellFrom !== null) for (let t = dwellFrom; t <= fullOutAt; t += DAY) this.breaks.add(t);
    }
    return plan;
  }

  yardLocation(): string {
    const { rng } = this;
    const style = new Rng('yard-style', this.story.podTerminals[0]!.key).int(0, 2);
    const letter = String.fromCharCode(65 + rng.int(0, 7));
    if (style === 0) return `${letter}${rng.int(10, 60)}-${String(rng.int(1, 40)).padStart(2, '0')}-${rng.int(1, 5)}`;
    if (style === 1) return `Yard ${letter}-${rng.int(1, 30)}`;
    return `Row ${rng.int(1, 80)} Bay ${rng.int(1, 40)} Tier ${rng.int(1, 5)}`;
  }

  railEvents(eq: StoryEquipment, yard: YardPlan, route: RailRoutePlan): void {
    const { rng, story } = this;
    const C = AUDIENCE.carrier;
    const R = AUDIENCE.rail;
    const c = eq.number;
    const loaded = yard.railLoadedAt!;
    const dest = route.destination;
    const lastRailroad = route.legs.at(-1)!.railroad;
    const destPlace = railPlace(dest, lastRailroad.shortName);
    if (!story.rail) {
      story.rail = {
        railroads: route.legs.map((l) => l.railroad.scac),
        destination: destPlace,
        knownAt: yard.arrivedAt,
        perContainer: [],
      };
    }
    const first = route.legs[0]!.railroad;
    this.add(
      {
        vessel: null,
        voyage: null,
        railScac: first.scac,
        milestone: 'rail_loaded',
        container: c,
        at: loaded,
        lag: rng.range(10, 120) * MINUTE,
        place: 'pod',
        mode: 'rail',
        audience: C | R,
        stage: 'rail',
        sourceCode: 'EQUIPMENT/LOAD',
      },
      0,
    );
    let t = loaded + rng.range(4, 14) * HOUR;
    route.legs.forEach((leg, i) => {
      const fromPlace = i === 0 ? ('pod' as const) : railPlace(hubOf(leg.from), leg.railroad.shortName);
      this.add(
        {
          vessel: null,
          voyage: null,
          railScac: leg.railroad.scac,
          milestone: 'rail_departed',
          container: c,
          at: t,
          lag: rng.range(10, 120) * MINUTE,
          place: fromPlace,
          mode: 'rail',
          audience: i === 0 ? C | R : R,
          stage: 'rail',
          sourceCode: 'TRANSPORT/DEPA',
        },
        i,
      );
      const transit = (leg.distanceNm / 21.7) * HOUR + rng.range(0, 14) * HOUR;
      const arrive = roundTo(t + transit, MINUTE);
      const isLast = i === route.legs.length - 1;
      const toPlace = isLast ? destPlace : railPlace(hubOf(leg.to), leg.railroad.shortName);
      this.add(
        {
          vessel: null,
          voyage: null,
          railScac: leg.railroad.scac,
          milestone: 'rail_arrived',
          container: c,
          at: arrive,
          nominal: isLast ? arrive + rng.range(-24, 36) * HOUR : arrive,
          estimable: isLast,
          estimateFrom: isLast ? story.bookedAt : undefined,
          lag: rng.range(10, 120) * MINUTE,
          place: toPlace,
          mode: 'rail',
          audience: isLast ? C | R : R,
          stage: 'rail',
          sourceCode: 'TRANSPORT/ARRI',
        },
        i,
      );
      t = arrive + rng.range(14, 40) * HOUR;
      if (isLast) t = arrive;
    });
    const arrived = t;
    const unloadedAt = roundTo(arrived + rng.range(3, 16) * HOUR, MINUTE);
    const availableAt = roundTo(unloadedAt + rng.range(1, 6) * HOUR, MINUTE);
    const fullOutAt = roundTo(availableAt + rng.range(0.5, 3.5) * DAY, MINUTE);
    const emptyInAt = roundTo(fullOutAt + rng.range(2, 7) * DAY, MINUTE);
    const base = {
      vessel: null,
      voyage: null,
      railScac: lastRailroad.scac,
      container: c,
      lag: rng.range(10, 120) * MINUTE,
      stage: 'inland' as const,
    };
    this.add(
      {
        ...base,
        milestone: 'rail_unloaded',
        at: unloadedAt,
        place: destPlace,
        mode: 'rail',
        audience: C | R,
        sourceCode: 'EQUIPMENT/DISC',
      },
      0,
    );
    this.add(
      { ...base, milestone: 'available', at: availableAt, place: destPlace, mode: null, audience: C | R, sourceCode: 'EQUIPMENT/AVAL' },
      1,
    );
    this.add(
      { ...base, milestone: 'full_out', at: fullOutAt, place: destPlace, mode: 'truck', audience: C | R, sourceCode: 'EQUIPMENT/GTOT' },
      1,
    );
    const depot: StoryPlace = {
      locode: dest.locode,
      name: `${dest.name} empty depot`,
      facilityCode: null,
      facilityCodeList: null,
      timeZone: dest.timeZone,
    };
    this.add(
      { ...base, milestone: 'empty_in', at: emptyInAt, place: depot, mode: 'truck', audience: C | R, sourceCode: 'EQUIPMENT/GTIN' },
      1,
    );
    yard.emptyInAt = emptyInAt;
    story.rail!.perContainer.push({
      container: c,
      availableAt,
      unloadedAt,
      fullOutAt,
      lfd: addDays(localDate(availableAt, dest.timeZone), 2),
      yardLocation: `Lot ${String.fromCharCode(65 + rng.int(0, 5))} Spot ${rng.int(1, 400)}`,
      chassisNumber: makeContainerNumber(rng.pick(CHASSIS_PREFIXES), rng.int(0, 999_999)),
    });
    for (const x of [yard.arrivedAt, unloadedAt, availableAt, fullOutAt, emptyInAt]) this.breaks.add(x);
  }
}

// -------------------------------------------------------------------------------------------- places

const profileOf = profileOfTerminal;

export function portPlace(locode: string): StoryPlace {
  const p = portByLocode(locode);
  if (!p) throw new Error(`sandbox: unknown port ${locode}`);
  return { locode: p.locode, name: p.name, facilityCode: null, facilityCodeList: null, timeZone: p.timeZone };
}

function hubOf(locode: string): RailHub {
  const hub = RAIL_HUB_BY_LOCODE.get(locode);
  if (!hub) throw new Error(`sandbox: unknown rail hub ${locode}`);
  return hub;
}

const RAIL_HUB_BY_LOCODE = new Map(RAIL_HUBS.map((h) => [h.locode, h]));

/** The railroad's ramp at the hub (`BNSF Logistics Park Chicago`); `railroad` is its short name or id. */
function railPlace(hub: RailHub, railroad: string): StoryPlace {
  const r = RAILROADS.find((x) => x.shortName === railroad || x.id === railroad);
  return {
    locode: hub.locode,
    name: (r && rampName(r.id, hub.locode)) ?? `${railroad} ${hub.name} intermodal terminal`,
    facilityCode: null,
    facilityCodeList: null,
    timeZone: hub.timeZone,
  };
}

/** The POD terminal as a carrier names it: by SMDG code when it has one (DCSA knows no FIRMS codes). */
export function terminalCarrierPlace(key: string): StoryPlace {
  const t = resolveTerminal(key)!;
  return {
    locode: t.portLocode,
    name: t.name,
    // DCSA carriers name terminals by SMDG (or BIC) code, never FIRMS: without an SMDG code, by port and name only.
    facilityCode: t.smdgCode ?? null,
    facilityCodeList: t.smdgCode ? 'smdg' : null,
    timeZone: t.timezone,
  };
}

/** The POD terminal as its own records name it: FIRMS code, else SMDG. */
export function terminalYardPlace(key: string): StoryPlace {
  const t = resolveTerminal(key)!;
  return {
    locode: t.portLocode,
    name: t.name,
    facilityCode: t.firmsCode ?? t.smdgCode,
    facilityCodeList: t.firmsCode ? 'firms' : 'smdg',
    timeZone: t.timezone,
  };
}

function facilityCodeOf(key: string): string {
  return terminalYardPlace(key).facilityCode!;
}

/** The POD terminal (natural key) assigned at t. */
export function podTerminalAt(story: Story, t: number): string | null {
  let key: string | null = null;
  for (const p of story.podTerminals) if (t >= p.from) key = p.key;
  return key ?? story.podTerminals[0]?.key ?? null;
}
