// The answers of the simulated carrier, terminal and railroad at one world time: the story's events
// classified (happened and recorded → actual; expected → estimated, or planned when far off), with the
// carrier's and terminal's profile gaps applied. Pure functions of (story, world time).
import { normalizeContainerNumber } from '../../domain/container-number.js';
import { referenceId } from '../../lib/ids.js';
import type { Classifier } from '../../domain/milestones.js';
import type { CarrierAnswer, RailAnswer, TerminalAnswer } from '../answers.js';
import type { ContainerFact, FeeFact, MilestoneFact, Place, When, YardFact } from '../../sources/contract.js';
import { iterationAt, rotation } from './network.js';
import { demurrageAmount, demurrageDaysAt, extendedDwellAmount, type TerminalRules, terminalRules } from './terminal-rules.js';
import { type CarrierProfile, carrierProfile, PARTIAL_EQUIPMENT_TYPES, type TerminalProfile, terminalProfile } from './profiles.js';
import { unit } from './random.js';
import {
  AUDIENCE,
  type DatedValue,
  podTerminalAt,
  type Story,
  type StoryEvent,
  type StoryPlace,
  terminalCarrierPlace,
  terminalYardPlace,
  type YardPlan,
} from './story.js';
import { DAY, HOUR, localDate, MINUTE, roundTo } from './time.js';
import { isoSeconds } from '../../lib/dates.js';

/** Events further off than this are only planned (the schedule's time, unchanged). */
export const PLAN_LEAD_MS = 21 * DAY;
/** How long a flaky carrier fails after the anchor; how long a booking awaits its manifest. */
export const FLAKY_MS = 12 * HOUR;
export const MANIFEST_DELAY_MS = 3 * DAY;

interface Classified {
  classifier: Classifier;
  at: number;
  reportedAt: number;
  suffix: 'A' | 'E' | 'P';
}

/** What the source says about the event at W, or null when it says nothing yet. */
export function classify(story: Story, e: StoryEvent, w: number, knownFrom = e.estimateFrom): Classified | null {
  const recorded = e.at + e.lag;
  if (w >= recorded) return { classifier: 'actual', at: e.at, reportedAt: recorded, suffix: 'A' };
  if (!e.estimable || w < knownFrom) return null;
  if (e.at - w > PLAN_LEAD_MS) return { classifier: 'planned', at: e.nominal, reportedAt: knownFrom, suffix: 'P' };
  const r = estimate(story, e, w);
  return { classifier: 'estimated', at: r.at, reportedAt: Math.max(knownFrom, r.from), suffix: 'E' };
}

/**
 * A vessel's estimated arrival never comes before its departure on that leg (as the line said it at `w`) plus the
 * passage: revisions of the two are drawn apart, and on a short leg (a two-hour shuttle) their residuals could
 * otherwise put the arrival first — which a reader of the events (the DCSA adapter orders a vessel's calls by time)
 * would take for a voyage the other way.
 */
function notBeforeItsDeparture(story: Story, e: StoryEvent, w: number, at: number): number {
  if (e.container !== null || e.vessel === null || !e.milestone.endsWith('_arrived')) return at;
  let departure: StoryEvent | undefined;
  for (const x of story.events) {
    if (x.container === null && x.vessel?.imo === e.vessel.imo && x.voyage === e.voyage && x.milestone.endsWith('_departed') && x.at < e.at)
      if (!departure || x.at > departure.at) departure = x;
  }
  const said = departure ? classify(story, departure, w) : null;
  return said ? Math.max(at, said.at + (e.at - departure!.at)) : at;
}

/** One revision of a source's estimate: from `from` on (until the next one) it says the event happens `at`. */
export interface Revision {
  from: number;
  at: number;
}

/** The residual of a revision: this share of its lead time, at most RESIDUAL_CAP_MS (a line's ETA is near the truth). */
const RESIDUAL_PER_LEAD = 0.04;
const RESIDUAL_CAP_MS = 8 * HOUR;
/**
 * Close-in revisions (a week, three days and a day before): each skipped when another revision came within half
 * its lead before it (the line has just updated).
 */
const CLOSE_IN_LEADS_MS = [7 * DAY, 3 * DAY, DAY] as const;
/** Departures from calls closer together than this make one revision (after the last of them). */
const CALLS_MERGED_MS = 3 * DAY;
/** A delay of at least this much may be announced (port congestion) rather than shown from the first revision. */
const ANNOUNCED_DELAY_MS = 12 * HOUR;

const REVISIONS = new WeakMap<StoryEvent, readonly Revision[]>();

/** The source's estimate at W: the latest revision at or before W (the first, at booking, is the schedule). */
export function estimate(story: Story, e: StoryEvent, w: number): Revision {
  const rs = revisions(story, e);
  let r = rs[0]!;
  for (const x of rs) if (x.from <= w) r = x;
  return r;
}

/**
 * When and to what the source revises an estimable event, oldest first. Lines re-issue an ETA a few times per
 * voyage, not at every look: at booking (the schedule), as the vessel leaves each earlier call of its rotation on
 * the way (for the rail ETA: when the box lands and when its train leaves), a week, three days and a day before,
 * and in some stories a congestion announcement. Each revision is the truth plus a residual that shrinks with the
 * lead time; before an announcement the revisions still lean on the schedule (the delay is not yet admitted).
 */
export function revisions(story: Story, e: StoryEvent): readonly Revision[] {
  const cached = REVISIONS.get(e);
  if (cached) return cached;
  const from0 = e.estimateFrom;
  const within = (t: number) => t > from0 && t < e.at;
  let milestones: number[];
  let announcedAt: number | null = null;
  if (e.mode === 'rail') {
    const landed = story.events.find((x) => x.milestone === 'vessel_arrived');
    const train = story.events.find((x) => x.milestone === 'rail_departed' && x.container === e.container);
    milestones = [landed?.at, train?.at].filter((t): t is number => t !== undefined && within(t));
  } else {
    milestones = e.vessel ? callsOnTheWay(story.key.seed, e.vessel.imo, e.at).filter(within) : [];
    // Departures close together are one update (a line publishes after the last of them).
    milestones = milestones.filter((t, i) => i === milestones.length - 1 || milestones[i + 1]! - t > CALLS_MERGED_MS);
    const lastCall = milestones.at(-1) ?? e.at - 2 * DAY;
    const lo = Math.max(from0 + HOUR, lastCall - 10 * DAY);
    // Announced before the vessel sets off on its last leg, and before the last days.
    const hi = Math.min(lastCall - 2 * HOUR, e.at - 4 * DAY);
    if (e.at - e.nominal >= ANNOUNCED_DELAY_MS && unit('eta-announced', e.id) < 0.6 && lo < hi)
      announcedAt = roundTo(lo + (hi - lo) * unit('eta-announced-at', e.id), MINUTE);
  }
  const instants = [...milestones, ...(announcedAt === null ? [] : [announcedAt])].sort((a, b) => a - b);
  for (const lead of CLOSE_IN_LEADS_MS) {
    const t = e.at - lead;
    const quiet = lead / 2;
    if (within(t) && !instants.some((x) => x > t - quiet && x <= t)) instants.push(t);
  }
  instants.sort((a, b) => a - b);
  const out: Revision[] = [{ from: from0, at: e.nominal }];
  for (const t of instants) {
    if (t === out.at(-1)!.from) continue;
    const lead = e.at - t;
    const base = announcedAt !== null && t < announcedAt ? e.nominal : e.at;
    const residual = (unit('eta-revision', e.id, t) * 2 - 1) * Math.min(RESIDUAL_PER_LEAD * lead, RESIDUAL_CAP_MS);
    out.push({ from: t, at: notBeforeItsDeparture(story, e, t, roundTo(base + residual, 30 * MINUTE)) });
  }
  REVISIONS.set(e, out);
  return out;
}

/** Departures of the vessel from the earlier calls of its rotation before the call at `t` (its departure or arrival). */
function callsOnTheWay(seed: string, imo: string, t: number): number[] {
  const k = iterationAt(seed, imo, t);
  for (const kk of [k, k - 1, k + 1]) {
    const calls = rotation(seed, imo, kk).calls;
    const i = calls.findIndex((c) => c.depart === t || c.arrive === t);
    if (i < 0) continue;
    // An arrival at the rotation's first call ends the iteration before: its calls are the way there.
    const way = i === 0 && calls[0]!.arrive === t ? rotation(seed, imo, kk - 1).calls : calls.slice(0, i);
    return way.map((c) => c.depart).filter((d) => d < t);
  }
  return [];
}

function place(p: StoryPlace): Place {
  return { locode: p.locode, name: p.name, facilityCode: p.facilityCode, facilityCodeList: p.facilityCodeList };
}

function when(ms: number, p: StoryPlace, dateOnly: boolean): When {
  return dateOnly
    ? { at: null, localDateTime: null, localDate: localDate(ms, p.timeZone) }
    : { at: isoSeconds(ms), localDateTime: null, localDate: null };
}

function dateWhen(date: string): When {
  return { at: null, localDateTime: null, localDate: date };
}

function fact(e: StoryEvent, c: Classified, p: StoryPlace, dateOnly: boolean): MilestoneFact {
  return {
    milestone: e.milestone,
    classifier: c.classifier,
    when: when(c.at, p, dateOnly),
    place: place(p),
    vessel: e.vessel ? { name: e.vessel.name, imo: e.vessel.imo, mmsi: null } : null,
    voyage: e.voyage,
    mode: e.mode,
    containerNumber: e.container,
    railCarrierScac: e.railScac,
    sourceCode: `${e.sourceCode}/${c.suffix === 'A' ? 'ACT' : c.suffix === 'E' ? 'EST' : 'PLN'}`,
    // DCSA event ids are UUIDs: a name-based one keeps the id stable across world times.
    sourceEventId: referenceId('sandbox-event', `${e.id}-${c.suffix}`),
    reportedAt: isoSeconds(c.reportedAt),
  };
}

function sortFacts(facts: { f: MilestoneFact; t: number }[]): MilestoneFact[] {
  return facts.sort((a, b) => a.t - b.t || (a.f.sourceEventId ?? '').localeCompare(b.f.sourceEventId ?? '')).map((x) => x.f);
}

function versionAt(values: readonly DatedValue[], w: number): string | null {
  let v: string | null = null;
  for (const x of values) if (w >= x.from) v = x.date;
  return v;
}

// --------------------------------------------------------------------------------------------- carrier

function carrierShows(e: StoryEvent, p: CarrierProfile): boolean {
  if ((e.audience & AUDIENCE.carrier) === 0) return false;
  if (!p.vesselEvents && e.container === null) return false;
  if (e.milestone === 'full_out' && !(e.stage === 'inland' ? p.inlandFullOut : p.podFullOut)) return false;
  if (e.milestone === 'empty_in' && !p.emptyReturn) return false;
  return true;
}

function containerFact(story: Story, p: CarrierProfile, i: number): ContainerFact {
  const eq = story.equipment[i]!;
  const avg = Math.round(story.equipment.reduce((s, x) => s + x.weightLbs, 0) / story.equipment.length);
  const iso =
    p.equipmentType === 'none'
      ? null
      : p.equipmentType === 'partial' && !PARTIAL_EQUIPMENT_TYPES.includes(eq.isoSizeType)
        ? null
        : eq.isoSizeType;
  return {
    number: eq.number,
    isoSizeType: iso,
    sealNumber: p.sealNumber ? eq.sealNumber : null,
    weightLbs: p.weight === 'none' ? null : p.weight === 'shipment_average' ? avg : eq.weightLbs,
    // An average of one container is its own weight: only with two or more is it the shipment's average.
    weightIsShipmentAverage: p.weight === 'shipment_average' && story.equipment.length >= 2,
  };
}

/** What the simulated carrier answers about the story's number at the world time. */
export function carrierAnswer(story: Story, worldTime: Date): CarrierAnswer {
  // A line that stopped updating answers what it knew then, unchanged.
  const w = story.lineSilentFrom === null ? worldTime.getTime() : Math.min(worldTime.getTime(), story.lineSilentFrom);
  const anchor = story.anchorMs;
  switch (story.scenario) {
    case 'invalid_number':
      return {
        status: 'invalid_number',
        message: `${story.number} is not a valid ${story.key.numberType.replace(/_/g, ' ')} for ${story.carrierScac}`,
      };
    case 'not_found':
    case 'test_failed':
    case 'scac_auto_detect_failed':
      return { status: 'not_found' };
    case 'expired':
      return { status: 'awaiting_manifest', bookingNumber: story.number, receivedAt: isoSeconds(anchor - 2 * DAY) };
    case 'retries_exhausted':
      return { status: 'unavailable', retryAfterSeconds: null };
    case 'booking_cancelled':
      return { status: 'cancelled', bookingNumber: story.number, cancelledAt: isoSeconds(anchor - DAY) };
    case 'awaiting_manifest':
      if (w < anchor + MANIFEST_DELAY_MS)
        return { status: 'awaiting_manifest', bookingNumber: story.bookingNumber!, receivedAt: isoSeconds(story.bookedAt) };
      break;
    case 'flaky':
      if (w < anchor + FLAKY_MS) return { status: 'unavailable', retryAfterSeconds: 1800 };
      break;
    default:
      break;
  }
  const p = carrierProfile(story.carrierScac);
  const podKey = podTerminalAt(story, w)!;
  const facts: { f: MilestoneFact; t: number }[] = [];
  for (const e of story.events) {
    if (!carrierShows(e, p)) continue;
    const c = classify(story, e, w);
    if (!c) continue;
    // DCSA knows no FIRMS codes: a place known only by one (an off-dock yard) is named by port and name.
    const pl =
      e.place === 'pod'
        ? terminalCarrierPlace(podTerminalAt(story, Math.min(w, e.at))!)
        : e.place.facilityCodeList === 'firms'
          ? { ...e.place, facilityCode: null, facilityCodeList: null }
          : e.place;
    const f = fact(e, c, pl, p.dateOnly);
    // Carriers speak DCSA: they do not name the railroad, and a train's departure or arrival is the train's
    // (a transport event), not one container's.
    if (f.mode === 'rail') {
      f.railCarrierScac = null;
      if (f.milestone === 'rail_departed' || f.milestone === 'rail_arrived') f.containerNumber = null;
    }
    facts.push({ f, t: c.at });
  }
  const yard: YardFact[] = [];
  if (p.sslLfd) {
    for (const y of story.yards) {
      const date = y.railLoadedAt === null ? versionAt(y.lineLfd, w) : null;
      if (date) yard.push(emptyYard(y.container, place(terminalCarrierPlace(podKey)), { lineLastFreeDay: dateWhen(date) }));
    }
  }
  return {
    status: 'ok',
    facts: {
      shipment: {
        billOfLadingNumber: story.billOfLading,
        bookingNumber: story.bookingNumber,
        carrierScac: story.carrierScac,
        portOfLading: place(story.pol!),
        portOfDischarge: place(terminalCarrierPlace(podKey)),
        destination: story.destination ? place(story.destination) : null,
      },
      // In container-number order, as sources give them (the DCSA adapter sorts; the order means nothing).
      containers: story.equipment.map((_, i) => containerFact(story, p, i)).sort((a, b) => byText(a.number, b.number)),
      milestones: sortFacts(facts),
      yard: yard.sort((a, b) => byText(a.containerNumber, b.containerNumber)),
      vesselPositions: [],
    },
  };
}

function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function emptyYard(containerNumber: string, facility: Place, set: Partial<YardFact>): YardFact {
  return {
    containerNumber,
    facility,
    available: null,
    holds: null,
    fees: null,
    lastFreeDay: null,
    lineLastFreeDay: null,
    appointmentAt: null,
    yardLocation: null,
    chassisNumber: null,
    ...set,
  };
}

// -------------------------------------------------------------------------------------------- terminal

/** The marine terminal's fee lines at W, at its tariff (terminal-rules.ts): demurrage from the day after its LFD. */
function feesAt(y: YardPlan, p: TerminalProfile, w: number, rules: TerminalRules): FeeFact[] {
  const lines: FeeFact[] = [];
  // In the terminal's currency (CAD in Canada).
  const feeLine = (type: FeeFact['type'], amount: number): FeeFact => ({
    type,
    amount: Math.round(amount * 100) / 100,
    currencyCode: rules.currency,
  });
  if (y.fullOutAt !== null && w >= y.dischargedAt) {
    const until = Math.min(w, y.fullOutAt);
    const lfd = versionAt(y.terminalLfd, w);
    const days = lfd ? demurrageDaysAt(rules, lfd, until) : 0;
    if (days > 0) lines.push(feeLine('demurrage', demurrageAmount(rules, days, y.teu)));
    const dwell = p.dwellFee ? extendedDwellAmount(rules, y.dischargedAt, until) : 0;
    if (dwell > 0) lines.push(feeLine('extended_dwell_time', dwell));
  }
  if (y.exam && w >= y.exam.from) lines.push(feeLine('exam', y.exam.amount));
  if (y.tmf && w >= y.tmf.from && w < y.tmf.to) lines.push(feeLine('other', y.tmf.amount));
  if (p.feeTotalLine && lines.length > 0)
    lines.push(
      feeLine(
        'total',
        lines.reduce((s, f) => s + f.amount, 0),
      ),
    );
  return lines;
}

/** What the POD terminal assigned at the world time says about the container (not found before its manifest). */
export function terminalAnswer(story: Story, containerNumber: string, worldTime: Date): TerminalAnswer {
  const w = worldTime.getTime();
  const number = normalizeContainerNumber(containerNumber);
  const y = story.yards.find((x) => x.container === number);
  if (!y || w < y.knownAt) return { status: 'not_found' };
  const key = podTerminalAt(story, w)!;
  const p = terminalProfile(key);
  const offDock = y.offDock !== null && w >= y.offDock.at;
  // Once moved off dock the terminal tells of the box at its off-dock yard, which gives no last free day of its own.
  const home = offDock ? terminalYardPlace(y.offDock!.key) : terminalYardPlace(key);
  const discharged = w >= y.dischargedAt;
  const gone = (y.fullOutAt !== null && w >= y.fullOutAt) || (y.railLoadedAt !== null && w >= y.railLoadedAt);
  const withdrawn = (field: 'lastFreeDay' | 'yardLocation') => y.flickers.some((f) => f.field === field && w >= f.from && w < f.to);
  const holds = gone ? [] : y.holds.filter((h) => w >= h.from && w < h.to);
  const lfd = y.railLoadedAt === null && discharged && !offDock && !withdrawn('lastFreeDay') ? versionAt(y.terminalLfd, w) : null;
  const appointment = y.appointments.filter((a) => w >= a.from).at(-1);
  const yard: YardFact = emptyYard(number, place(home), {
    available: !p.available
      ? null
      : y.availabilityPending && discharged && holds.length === 0 && y.availableAt !== null && w < y.availableAt
        ? null
        : y.availableAt !== null && w >= y.availableAt && !gone && holds.length === 0,
    holds: p.holds ? holds.map((h) => ({ name: h.name, status: h.status, description: h.description })) : null,
    fees: p.fees ? feesAt(y, p, w, terminalRules(key)) : null,
    lastFreeDay: p.lfd && lfd ? dateWhen(lfd) : null,
    appointmentAt: p.appointment && appointment ? isoSeconds(appointment.at) : null,
    yardLocation:
      p.location && discharged && !gone && !withdrawn('yardLocation') ? (offDock ? y.offDock!.yardLocation : y.yardLocation) : null,
    chassisNumber: p.chassis && y.fullOutAt !== null && w >= y.fullOutAt ? y.chassisNumber : null,
    ...(offDock ? { offDock: true } : {}),
  });
  const facts: { f: MilestoneFact; t: number }[] = [];
  for (const e of story.events) {
    // The vessel's own events the terminal tells (its visit: arrival, berthing) it tells of each box, as its own record.
    const vessel = e.container === null;
    if ((e.audience & AUDIENCE.terminal) === 0 || (!vessel && e.container !== number)) continue;
    if (e.milestone === 'full_out' && !p.fullOut) continue;
    const c = classify(story, e, w);
    if (c?.classifier !== 'actual') continue;
    const f = fact(e, c, e.place === 'pod' ? terminalYardPlace(podTerminalAt(story, e.at)!) : e.place, false);
    const own = vessel ? { containerNumber: number, sourceEventId: referenceId('sandbox-event', `${e.id}-${number}-${c.suffix}`) } : {};
    facts.push({ f: { ...f, ...own }, t: c.at });
  }
  return { status: 'ok', yard, milestones: sortFacts(facts) };
}

/**
 * What the terminal with this facility code (FIRMS, SMDG or reference code) says about the container: a terminal
 * knows only the boxes in (or bound for) its own yard, and those it moved to its off-dock yard; any other asks
 * `not_found`.
 */
export function terminalAnswerAt(story: Story, facilityCode: string, containerNumber: string, worldTime: Date): TerminalAnswer {
  const code = facilityCode.trim().toUpperCase();
  const answer = terminalAnswer(story, containerNumber, worldTime);
  if (answer.status !== 'ok') return answer;
  const own = answer.yard.facility.facilityCode?.toUpperCase() === code;
  const marine = podTerminalAt(story, worldTime.getTime());
  const movedOffDock = answer.yard.offDock === true && marine !== null && terminalYardPlace(marine).facilityCode?.toUpperCase() === code;
  return own || movedOffDock ? answer : { status: 'not_found' };
}

// ------------------------------------------------------------------------------------------------ rail

/** What the railroads say about the container once the waybill exists (from the vessel's arrival at the POD). */
export function railAnswer(story: Story, containerNumber: string, worldTime: Date): RailAnswer {
  const w = worldTime.getTime();
  const number = normalizeContainerNumber(containerNumber);
  const rail = story.rail;
  const per = rail?.perContainer.find((x) => x.container === number);
  if (!rail || !per || w < rail.knownAt) return { status: 'not_found' };
  const facts: { f: MilestoneFact; t: number }[] = [];
  for (const e of story.events) {
    if ((e.audience & AUDIENCE.rail) === 0 || e.container !== number) continue;
    const c = classify(story, e, w, Math.max(e.estimateFrom, rail.knownAt));
    if (!c) continue;
    const pl = e.place === 'pod' ? terminalYardPlace(podTerminalAt(story, e.at)!) : e.place;
    facts.push({ f: fact(e, c, pl, false), t: c.at });
  }
  const out = w >= per.fullOutAt;
  const yard = emptyYard(number, place(rail.destination), {
    available: w >= per.availableAt && !out,
    holds: [],
    lastFreeDay: w >= per.availableAt ? dateWhen(per.lfd) : null,
    yardLocation: w >= per.unloadedAt && !out ? per.yardLocation : null,
    chassisNumber: out ? per.chassisNumber : null,
  });
  return { status: 'ok', railCarrierScac: rail.railroads[0]!, milestones: sortFacts(facts), yard };
}

// ------------------------------------------------------------------------------------------ scheduling

function fingerprint(story: Story, w: number): string {
  const t = new Date(w);
  const parts: unknown[] = [carrierAnswer(story, t)];
  for (const c of story.containers) parts.push(terminalAnswer(story, c, t), railAnswer(story, c, t));
  return JSON.stringify(parts);
}

/**
 * The next world instant after `after` at which any answer about the story changes (carrier, terminal or rail),
 * or null when nothing will change any more. Checked, not guessed: candidates are the story's breakpoints and
 * the instants at which estimates are revised, and the first one whose answers differ is returned.
 */
export function nextChangeAt(story: Story, after: Date): Date | null {
  const a = after.getTime();
  const base = fingerprint(story, a);
  const candidates = new Set(story.breakpoints.filter((t) => t > a));
  for (const e of story.events) if (e.estimable) for (const r of revisions(story, e)) if (r.from > a) candidates.add(r.from);
  for (const t of [...candidates].sort((x, y) => x - y)) if (fingerprint(story, t) !== base) return new Date(t);
  return null;
}
