// The answers of the simulated carrier, terminal and railroad at one world time: the story's events
// classified (happened and recorded → actual; expected → estimated, or planned when far off), with the
// carrier's and terminal's profile gaps applied. Pure functions of (story, world time).
import { normalizeContainerNumber } from '../../domain/container-number.js';
import { referenceId } from '../../lib/ids.js';
import type { Classifier } from '../../domain/milestones.js';
import type { CarrierAnswer, RailAnswer, TerminalAnswer } from '../answers.js';
import type { ContainerFact, FeeFact, MilestoneFact, Place, When, YardFact } from '../../sources/contract.js';
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
import { addDays, DAY, HOUR, iso, localDate, localMidnight, MINUTE, roundTo } from './time.js';

/** Estimates are re-issued on this cadence (and change with it). */
export const ESTIMATE_CADENCE_MS = 12 * HOUR;
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
export function classify(e: StoryEvent, w: number, knownFrom = e.estimateFrom): Classified | null {
  const recorded = e.at + e.lag;
  if (w >= recorded) return { classifier: 'actual', at: e.at, reportedAt: recorded, suffix: 'A' };
  if (!e.estimable || w < knownFrom) return null;
  if (e.at - w > PLAN_LEAD_MS) return { classifier: 'planned', at: e.nominal, reportedAt: knownFrom, suffix: 'P' };
  return {
    classifier: 'estimated',
    at: estimate(e, w),
    reportedAt: Math.max(knownFrom, Math.floor(w / ESTIMATE_CADENCE_MS) * ESTIMATE_CADENCE_MS),
    suffix: 'E',
  };
}

/**
 * The source's estimate at W: far off it leans on the schedule, close in on what will really happen, with a
 * wobble re-drawn every 12 hours that shrinks as the event nears (delays announced, then partly recovered).
 */
export function estimate(e: StoryEvent, w: number): number {
  // Issued at the start of the cadence window, so the estimate holds still until the next one.
  const issued = Math.floor(w / ESTIMATE_CADENCE_MS) * ESTIMATE_CADENCE_MS;
  const hoursLeft = Math.max(0, e.at - issued) / HOUR;
  const lean = Math.min(1, hoursLeft / 240);
  const wobbleHours = Math.min(0.04 * hoursLeft, 16) * (unit(e.id, issued) * 2 - 1);
  return roundTo(e.at + (e.nominal - e.at) * lean + wobbleHours * HOUR, 30 * MINUTE);
}

function place(p: StoryPlace): Place {
  return { locode: p.locode, name: p.name, facilityCode: p.facilityCode, facilityCodeList: p.facilityCodeList };
}

function when(ms: number, p: StoryPlace, dateOnly: boolean): When {
  return dateOnly
    ? { at: null, localDateTime: null, localDate: localDate(ms, p.timeZone) }
    : { at: iso(ms), localDateTime: null, localDate: null };
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
    reportedAt: iso(c.reportedAt),
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
  const w = worldTime.getTime();
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
      return { status: 'awaiting_manifest', bookingNumber: story.number, receivedAt: iso(anchor - 2 * DAY) };
    case 'retries_exhausted':
      return { status: 'unavailable', retryAfterSeconds: null };
    case 'booking_cancelled':
      return { status: 'cancelled', bookingNumber: story.number, cancelledAt: iso(anchor - DAY) };
    case 'awaiting_manifest':
      if (w < anchor + MANIFEST_DELAY_MS)
        return { status: 'awaiting_manifest', bookingNumber: story.bookingNumber!, receivedAt: iso(story.bookedAt) };
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
    const c = classify(e, w);
    if (!c) continue;
    const pl = e.place === 'pod' ? terminalCarrierPlace(podTerminalAt(story, Math.min(w, e.at))!) : e.place;
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

// Daily demurrage by day after the LFD: days 1–4, 5–8, 9 on; per 20' and per 40'/45' box.
const DEMURRAGE: Readonly<Record<1 | 2, readonly [number, number, number]>> = { 1: [150, 250, 400], 2: [185, 300, 475] };

export function demurrageAmount(days: number, teu: 1 | 2): number {
  const [a, b, c] = DEMURRAGE[teu];
  let sum = 0;
  for (let d = 1; d <= days; d++) sum += d <= 4 ? a : d <= 8 ? b : c;
  return sum;
}

function feesAt(y: YardPlan, p: TerminalProfile, w: number, timeZone: string): FeeFact[] {
  const lines: FeeFact[] = [];
  const usd = (type: FeeFact['type'], amount: number): FeeFact => ({ type, amount: Math.round(amount * 100) / 100, currencyCode: 'USD' });
  if (y.fullOutAt !== null && w >= y.dischargedAt) {
    const until = Math.min(w, y.fullOutAt);
    const lfd = versionAt(y.terminalLfd, w);
    if (lfd) {
      const end = localMidnight(addDays(lfd, 1), timeZone);
      if (until >= end) lines.push(usd('demurrage', demurrageAmount(Math.floor((until - end) / DAY) + 1, y.teu)));
    }
    if (p.dwellFee && until >= y.dischargedAt + 9 * DAY)
      lines.push(usd('extended_dwell_time', 100 * (Math.floor((until - y.dischargedAt - 9 * DAY) / DAY) + 1)));
  }
  if (y.exam && w >= y.exam.from) lines.push(usd('exam', y.exam.amount));
  if (y.tmf && w >= y.tmf.from && w < y.tmf.to) lines.push(usd('other', y.tmf.amount));
  if (p.feeTotalLine && lines.length > 0)
    lines.push(
      usd(
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
  const home = terminalYardPlace(key);
  const discharged = w >= y.dischargedAt;
  const gone = (y.fullOutAt !== null && w >= y.fullOutAt) || (y.railLoadedAt !== null && w >= y.railLoadedAt);
  const withdrawn = (field: 'lastFreeDay' | 'yardLocation') => y.flickers.some((f) => f.field === field && w >= f.from && w < f.to);
  const holds = gone ? [] : y.holds.filter((h) => w >= h.from && w < h.to);
  const lfd = y.railLoadedAt === null && discharged && !withdrawn('lastFreeDay') ? versionAt(y.terminalLfd, w) : null;
  const yard: YardFact = emptyYard(number, place(home), {
    available: p.available ? y.availableAt !== null && w >= y.availableAt && !gone && holds.length === 0 : null,
    holds: p.holds ? holds.map((h) => ({ name: h.name, status: h.status, description: h.description })) : null,
    fees: p.fees ? feesAt(y, p, w, home.timeZone) : null,
    lastFreeDay: p.lfd && lfd ? dateWhen(lfd) : null,
    appointmentAt: p.appointment && y.appointment && w >= y.appointment.from ? iso(y.appointment.at) : null,
    yardLocation: p.location && discharged && !gone && !withdrawn('yardLocation') ? y.yardLocation : null,
    chassisNumber: p.chassis && y.fullOutAt !== null && w >= y.fullOutAt ? y.chassisNumber : null,
  });
  const facts: { f: MilestoneFact; t: number }[] = [];
  for (const e of story.events) {
    // The vessel's own events the terminal tells (its visit: arrival, berthing) it tells of each box, as its own record.
    const vessel = e.container === null;
    if ((e.audience & AUDIENCE.terminal) === 0 || (!vessel && e.container !== number)) continue;
    if (e.milestone === 'full_out' && !p.fullOut) continue;
    const c = classify(e, w);
    if (c?.classifier !== 'actual') continue;
    const f = fact(e, c, terminalYardPlace(podTerminalAt(story, e.at)!), false);
    const own = vessel ? { containerNumber: number, sourceEventId: referenceId('sandbox-event', `${e.id}-${number}-${c.suffix}`) } : {};
    facts.push({ f: { ...f, ...own }, t: c.at });
  }
  return { status: 'ok', yard, milestones: sortFacts(facts) };
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
    const c = classify(e, w, Math.max(e.estimateFrom, rail.knownAt));
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
 * the estimate cadence, and the first one whose answers differ is returned.
 */
export function nextChangeAt(story: Story, after: Date): Date | null {
  const a = after.getTime();
  const base = fingerprint(story, a);
  const lastEstimate = story.events.reduce((m, e) => (e.estimable ? Math.max(m, e.at + e.lag) : m), Number.NEGATIVE_INFINITY);
  const bps = story.breakpoints;
  let i = 0;
  while (i < bps.length && bps[i]! <= a) i++;
  let cadence = (Math.floor(a / ESTIMATE_CADENCE_MS) + 1) * ESTIMATE_CADENCE_MS;
  for (let guard = 0; guard < 5000; guard++) {
    const nextBp = i < bps.length ? bps[i]! : Number.POSITIVE_INFINITY;
    const nextCad = cadence < lastEstimate ? cadence : Number.POSITIVE_INFINITY;
    const t = Math.min(nextBp, nextCad);
    if (!Number.isFinite(t)) return null;
    if (t === nextBp) i++;
    if (t === nextCad) cadence += ESTIMATE_CADENCE_MS;
    if (fingerprint(story, t) !== base) return new Date(t);
  }
  return null;
}
