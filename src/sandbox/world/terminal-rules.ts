// The rules a POD terminal plays by in the sandbox world: how its free time is counted, when its gates are open,
// what it charges after the last free day, and what the line's free time is against it. Pure functions of the
// terminal's natural key and the instants passed in; nothing reads the clock or draws randomness (callers pass
// their draws in [0, 1)).
//
// Every value here is SIMULATED: plausible for the port it is given to, but not any terminal's actual tariff,
// free time or gate schedule. The large gateways have explicit rows (one per port, with a few per-terminal
// variations hashed from the key); every other terminal gets rules hashed from its key, like `terminalProfile`.
import { zonedToUtcMs } from '../../lib/time-zones.js';
import { TERMINALS, type Terminal, terminalNaturalKey } from '../../sources/reference/index.js';
import { resolveTerminal } from './profiles.js';
import { unit } from './random.js';
import { addDays, DAY, HOUR, localDate, localMidnight, MINUTE } from './time.js';

// ------------------------------------------------------------------------------------------------- types

/** Whose public holidays close the gates and are skipped when counting working days. */
export type HolidayCalendar = 'US' | 'CA' | 'MX' | 'none';

/** One gate shift, local wall clock `HH:MM`; a shift closing at or before its opening runs past midnight. */
export interface GateShift {
  readonly open: string;
  readonly close: string;
}

/** When a place's gates take trucks: shifts per weekday (Sunday first), closed on its calendar's holidays. */
export interface GateCalendar {
  readonly timeZone: string;
  readonly holidays: HolidayCalendar;
  /** Seven entries, Sunday first; a shift belongs to the day it opens (a holiday closes the shifts opening on it). */
  readonly gateHours: readonly (readonly GateShift[])[];
}

/** Daily demurrage from the `fromDay`-th day after the last free day on (until the next tier). */
export interface DemurrageTier {
  readonly fromDay: number;
  readonly perDay20: number;
  /** 40' and 45' boxes. */
  readonly perDay40: number;
}

/** A charge per box and day once it has stayed `afterDays` days (24-hour periods) from its discharge. */
export interface ExtendedDwellRule {
  readonly afterDays: number;
  readonly perDay: number;
}

export interface TerminalRules extends GateCalendar {
  /** The terminal's natural key (FIRMS code, else `LOCODE:SMDG`, else `LOCODE:REF:code`). */
  readonly key: string;
  /** Free days of import storage. */
  readonly freeDays: number;
  /** `working_days` skips Saturdays, Sundays and the calendar's holidays; `calendar_days` counts every day. */
  readonly counting: 'working_days' | 'calendar_days';
  /**
   * The first day that may count: the local day after the vessel call's completion (its last discharge), or the
   * completion day itself. Counting from the call, not from each box's discharge, gives every box of the call
   * the same last free day.
   */
  readonly countFrom: 'day_after_completion' | 'completion_day';
  readonly currency: 'USD' | 'CAD';
  /** Ascending `fromDay`, the first one 1. */
  readonly demurrage: readonly DemurrageTier[];
  readonly extendedDwell: ExtendedDwellRule | null;
  /** Whether the values come from a gateway row or are hashed from the key. */
  readonly basis: 'gateway' | 'hashed';
}

// ----------------------------------------------------------------------------------------- day arithmetic

function ymd(date: string): [number, number, number] {
  return date.split('-').map(Number) as [number, number, number];
}

function dateOf(y: number, m: number, d: number): string {
  return new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(date: string): number {
  const [y, m, d] = ymd(date);
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/** The n-th (1-based) given weekday of a month; n = -1 for the last. */
function nthWeekday(y: number, m: number, weekday: number, n: number): string {
  if (n > 0) {
    const first = new Date(Date.UTC(y, m - 1, 1)).getUTCDay();
    return dateOf(y, m, 1 + ((weekday - first + 7) % 7) + 7 * (n - 1));
  }
  const lastDay = new Date(Date.UTC(y, m, 0));
  const back = (lastDay.getUTCDay() - weekday + 7) % 7;
  return dateOf(y, m, lastDay.getUTCDate() - back);
}

/** Gregorian Easter Sunday (the anonymous computus). */
function easterSunday(y: number): string {
  const a = y % 19;
  const b = Math.floor(y / 100);
  const c = y % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return dateOf(y, month, day);
}

export interface Holiday {
  /** The day it is observed (a day off), `YYYY-MM-DD`. */
  readonly date: string;
  readonly name: string;
}

function usHolidays(y: number): Holiday[] {
  // US federal holidays; a fixed date on a Saturday is observed the Friday before, on a Sunday the Monday after
  // (New Year's Day on a Saturday is thus observed on 31 December of the year before).
  const fixed = (m: number, d: number, name: string): Holiday => {
    const date = dateOf(y, m, d);
    const wd = weekdayOf(date);
    return { date: wd === 6 ? addDays(date, -1) : wd === 0 ? addDays(date, 1) : date, name };
  };
  const list: Holiday[] = [
    fixed(1, 1, "New Year's Day"),
    { date: nthWeekday(y, 1, 1, 3), name: 'Martin Luther King Jr. Day' },
    { date: nthWeekday(y, 2, 1, 3), name: "Washington's Birthday" },
    { date: nthWeekday(y, 5, 1, -1), name: 'Memorial Day' },
    fixed(7, 4, 'Independence Day'),
    { date: nthWeekday(y, 9, 1, 1), name: 'Labor Day' },
    { date: nthWeekday(y, 10, 1, 2), name: 'Columbus Day' },
    fixed(11, 11, 'Veterans Day'),
    { date: nthWeekday(y, 11, 4, 4), name: 'Thanksgiving Day' },
    fixed(12, 25, 'Christmas Day'),
  ];
  if (y >= 2021) list.push(fixed(6, 19, 'Juneteenth'));
  return list;
}

function caHolidays(y: number): Holiday[] {
  // Canadian federal statutory holidays; one on a Saturday or Sunday is observed on the next weekday that is not
  // already a holiday (Christmas on a Saturday → Monday 27, Boxing Day on the Sunday → Tuesday 28).
  const may24 = dateOf(y, 5, 24);
  const moving: Holiday[] = [
    { date: addDays(easterSunday(y), -2), name: 'Good Friday' },
    // The Monday before 25 May: the last Monday on or before the 24th.
    { date: addDays(may24, -((weekdayOf(may24) + 6) % 7)), name: 'Victoria Day' },
    { date: nthWeekday(y, 9, 1, 1), name: 'Labour Day' },
    { date: nthWeekday(y, 10, 1, 2), name: 'Thanksgiving' },
  ];
  const fixed: Holiday[] = [
    { date: dateOf(y, 1, 1), name: "New Year's Day" },
    { date: dateOf(y, 7, 1), name: 'Canada Day' },
    { date: dateOf(y, 11, 11), name: 'Remembrance Day' },
    { date: dateOf(y, 12, 25), name: 'Christmas Day' },
    { date: dateOf(y, 12, 26), name: 'Boxing Day' },
  ];
  if (y >= 2021) fixed.splice(2, 0, { date: dateOf(y, 9, 30), name: 'National Day for Truth and Reconciliation' });
  const taken = new Set(moving.map((h) => h.date));
  const list = [...moving];
  for (const h of fixed) {
    let date = h.date;
    while (weekdayOf(date) === 0 || weekdayOf(date) === 6 || taken.has(date)) date = addDays(date, 1);
    taken.add(date);
    list.push({ date, name: h.name });
  }
  return list;
}

function mxHolidays(y: number): Holiday[] {
  // Mexico's statutory rest days (Ley Federal del Trabajo, art. 74), not moved when on a weekend.
  return [
    { date: dateOf(y, 1, 1), name: 'Año Nuevo' },
    { date: nthWeekday(y, 2, 1, 1), name: 'Día de la Constitución' },
    { date: nthWeekday(y, 3, 1, 3), name: 'Natalicio de Benito Juárez' },
    { date: dateOf(y, 5, 1), name: 'Día del Trabajo' },
    { date: dateOf(y, 9, 16), name: 'Día de la Independencia' },
    { date: nthWeekday(y, 11, 1, 3), name: 'Día de la Revolución' },
    { date: dateOf(y, 12, 25), name: 'Navidad' },
  ];
}

const HOLIDAY_CACHE = new Map<string, readonly Holiday[]>();

/** The holidays observed in a year (by the date observed, which can fall in the year before), sorted. */
export function holidaysOf(calendar: HolidayCalendar, year: number): readonly Holiday[] {
  const k = `${calendar}:${year}`;
  let list = HOLIDAY_CACHE.get(k);
  if (!list) {
    const make = (y: number) =>
      calendar === 'US' ? usHolidays(y) : calendar === 'CA' ? caHolidays(y) : calendar === 'MX' ? mxHolidays(y) : [];
    list = Object.freeze(make(year).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)));
    HOLIDAY_CACHE.set(k, list);
  }
  return list;
}

/** The holiday observed on this date, or null. */
export function holidayOn(calendar: HolidayCalendar, date: string): Holiday | null {
  if (calendar === 'none') return null;
  const y = ymd(date)[0];
  // New Year's Day observed on 31 December belongs to the next year's list.
  for (const year of [y, y + 1]) for (const h of holidaysOf(calendar, year)) if (h.date === date) return h;
  return null;
}

/** A weekday (Monday to Friday) that is not one of the calendar's holidays. */
export function isWorkingDay(calendar: HolidayCalendar, date: string): boolean {
  const wd = weekdayOf(date);
  return wd !== 0 && wd !== 6 && holidayOn(calendar, date) === null;
}

/** The n-th working day after `date` (n ≥ 1); `date` itself never counts. */
export function addWorkingDays(calendar: HolidayCalendar, date: string, n: number): string {
  let d = date;
  for (let left = n; left > 0; ) {
    d = addDays(d, 1);
    if (isWorkingDay(calendar, d)) left--;
  }
  return d;
}

// ---------------------------------------------------------------------------------------------- the rules

const u = (key: string, what: string) => unit('terminal-rules', key, what);

const s = (open: string, close: string): GateShift => ({ open, close });

/** Seven entries, Sunday first: Monday–Thursday, Friday, Saturday, Sunday. */
function week(
  monThu: readonly GateShift[],
  fri: readonly GateShift[] = monThu,
  sat: readonly GateShift[] = [],
  sun: readonly GateShift[] = [],
) {
  return [sun, monThu, monThu, monThu, monThu, fri, sat];
}

/** Tiers from daily rates at days 1, 5 and 9 after the LFD (the common three-step shape). */
function tiers(...rates: readonly (readonly [fromDay: number, per20: number, per40: number])[]): DemurrageTier[] {
  return rates.map(([fromDay, perDay20, perDay40]) => ({ fromDay, perDay20, perDay40 }));
}

type GatewayRule = Omit<TerminalRules, 'key' | 'timeZone' | 'holidays' | 'basis'>;

// One row per gateway port. Free time: the US West Coast and New York/New Jersey four working days, the South
// Atlantic ports five, Houston seven calendar days; the Canadian ports count calendar days at Vancouver and Prince
// Rupert (rail-heavy, short storage), working days at Montreal and Halifax. Tariffs are in the port's currency and
// step up after four and eight days, the New York/New Jersey ones highest, Savannah's lowest. LA/LB keep the
// extended dwell fee: $100 a day from the ninth day after discharge. Variations per terminal follow in `gateway`.
// biome-ignore format: one port per row
const GATEWAYS: Readonly<Record<string, (key: string) => GatewayRule>> = {
  USLAX: (k) => sanPedroBay(k),
  USLGB: (k) => sanPedroBay(k),
  USOAK: (k) => ({
    freeDays: 4, counting: 'working_days', countFrom: 'day_after_completion', currency: 'USD',
    gateHours: u(k, 'night') < 0.5 ? week([s('07:00', '17:00'), s('18:00', '02:00')], [s('07:00', '17:00')]) : week([s('07:00', '17:00')]),
    demurrage: tiers([1, 125, 150], [5, 200, 250], [9, 300, 375]), extendedDwell: null,
  }),
  USSEA: (k) => pacificNorthwest(k),
  USTIW: (k) => pacificNorthwest(k),
  USNYC: (k) => ({
    freeDays: 4, counting: 'working_days', countFrom: 'day_after_completion', currency: 'USD',
    gateHours: week(
      u(k, 'early') < 0.6 ? [s('06:00', '17:00')] : [s('07:00', '18:00')],
      undefined,
      u(k, 'sat') < 0.4 ? [s('07:00', '15:00')] : [],
    ),
    demurrage: tiers([1, 175, 225], [5, 300, 375], [9, 450, 550]), extendedDwell: null,
  }),
  USSAV: (k) => ({
    freeDays: 5, counting: 'working_days', countFrom: 'day_after_completion', currency: 'USD',
    gateHours: week([s('06:00', '18:00')], undefined, u(k, 'sat') < 0.7 ? [s('08:00', '16:00')] : []),
    demurrage: tiers([1, 75, 100], [5, 150, 175], [9, 225, 275]), extendedDwell: null,
  }),
  USCHS: (k) => ({
    freeDays: 5, counting: 'working_days', countFrom: 'day_after_completion', currency: 'USD',
    gateHours: week([s('06:00', '18:00')], undefined, u(k, 'sat') < 0.5 ? [s('07:00', '15:00')] : []),
    demurrage: tiers([1, 95, 125], [5, 165, 210], [9, 240, 300]), extendedDwell: null,
  }),
  USORF: (k) => ({
    freeDays: 5, counting: 'working_days', countFrom: 'day_after_completion', currency: 'USD',
    gateHours: week([s('06:00', '18:00')], undefined, u(k, 'sat') < 0.5 ? [s('07:00', '15:00')] : []),
    demurrage: tiers([1, 100, 135], [5, 175, 225], [9, 250, 325]), extendedDwell: null,
  }),
  USHOU: (k) => ({
    freeDays: 7, counting: 'calendar_days', countFrom: 'day_after_completion', currency: 'USD',
    gateHours: week([s('07:00', '17:00')], undefined, u(k, 'sat') < 0.5 ? [s('08:00', '12:00')] : []),
    demurrage: tiers([1, 110, 140], [5, 180, 220], [9, 260, 320]), extendedDwell: null,
  }),
  CAVAN: (k) => ({
    freeDays: 4, counting: 'calendar_days', countFrom: 'day_after_completion', currency: 'CAD',
    gateHours: week([s('07:30', '16:30'), s('17:30', '01:00')], undefined, u(k, 'sat') < 0.5 ? [s('08:00', '16:00')] : []),
    demurrage: tiers([1, 150, 170], [5, 225, 255], [9, 300, 340]), extendedDwell: null,
  }),
  CAPRR: () => ({
    freeDays: 5, counting: 'calendar_days', countFrom: 'day_after_completion', currency: 'CAD',
    gateHours: week([s('08:00', '16:00')]),
    demurrage: tiers([1, 125, 150], [5, 200, 240], [9, 275, 325]), extendedDwell: null,
  }),
  CAMTR: (k) => ({
    freeDays: 4, counting: 'working_days', countFrom: 'day_after_completion', currency: 'CAD',
    gateHours: u(k, 'night') < 0.4 ? week([s('07:00', '17:00'), s('18:00', '23:00')], [s('07:00', '17:00')]) : week([s('07:00', '17:00')]),
    demurrage: tiers([1, 130, 155], [5, 200, 240], [9, 285, 335]), extendedDwell: null,
  }),
  CAHAL: (k) => ({
    freeDays: 5, counting: 'working_days', countFrom: 'day_after_completion', currency: 'CAD',
    gateHours: week([s('07:00', '17:00')], undefined, u(k, 'sat') < 0.5 ? [s('08:00', '16:00')] : []),
    demurrage: tiers([1, 120, 145], [5, 190, 230], [9, 270, 320]), extendedDwell: null,
  }),
};

/** Los Angeles / Long Beach: day shift, the off-peak night shift 18:00–03:00 Monday to Thursday (and Friday at some), Saturday at some. */
function sanPedroBay(k: string): GatewayRule {
  const day = s('08:00', '17:00');
  const night = s('18:00', '03:00');
  return {
    freeDays: 4,
    counting: 'working_days',
    countFrom: 'day_after_completion',
    currency: 'USD',
    gateHours: week([day, night], u(k, 'fri-night') < 0.5 ? [day, night] : [day], u(k, 'sat') < 0.6 ? [day] : []),
    demurrage: tiers([1, 150, 185], [5, 250, 300], [9, 400, 475]),
    extendedDwell: { afterDays: 9, perDay: 100 },
  };
}

/** Seattle / Tacoma (the Northwest Seaport Alliance). */
function pacificNorthwest(k: string): GatewayRule {
  return {
    freeDays: 4,
    counting: 'working_days',
    countFrom: 'day_after_completion',
    currency: 'USD',
    gateHours: week(u(k, 'early') < 0.5 ? [s('06:00', '16:30')] : [s('07:00', '17:00')]),
    demurrage: tiers([1, 100, 125], [5, 200, 250], [9, 300, 350]),
    extendedDwell: null,
  };
}

/** Any other terminal: three to five working days (or five to seven calendar days), weekday gates, a three-step tariff. */
function hashed(k: string, country: Terminal['country']): GatewayRule {
  const working = u(k, 'counting') < 0.75;
  const freeDays = (working ? 3 : 5) + Math.floor(u(k, 'free') * 3);
  const open = ['06:00', '07:00', '08:00'][Math.floor(u(k, 'open') * 3)]!;
  const close = ['16:00', '17:00', '18:00'][Math.floor(u(k, 'close') * 3)]!;
  const base = 75 + 5 * Math.floor(u(k, 'rate') * 21); // 75–175 a day for a 20'
  const r5 = (x: number) => Math.round(x / 5) * 5;
  return {
    freeDays,
    counting: working ? 'working_days' : 'calendar_days',
    countFrom: u(k, 'from') < 0.15 ? 'completion_day' : 'day_after_completion',
    currency: country === 'CA' ? 'CAD' : 'USD',
    gateHours: week([s(open, close)], undefined, u(k, 'sat') < 0.3 ? [s('08:00', '12:00')] : []),
    demurrage: tiers([1, base, r5(base * 1.25)], [5, r5(base * 1.6), r5(base * 2)], [9, r5(base * 2.4), r5(base * 3)]),
    extendedDwell: null,
  };
}

const RULES = new Map<string, TerminalRules>();
/** Natural keys, including the `LOCODE:REF:code` ones `resolveTerminal` does not read. */
const BY_NATURAL_KEY = new Map(TERMINALS.map((t) => [terminalNaturalKey(t), t] as const));

/**
 * The rules of the terminal with this natural key (or FIRMS code, or SMDG code unique across ports), fixed per
 * terminal, not per seed. Throws for a terminal the reference data does not know.
 */
export function terminalRules(terminalKey: string): TerminalRules {
  const t = BY_NATURAL_KEY.get(terminalKey.trim().toUpperCase()) ?? resolveTerminal(terminalKey);
  if (!t) throw new Error(`sandbox: no terminal ${terminalKey} in the reference data`);
  const key = terminalNaturalKey(t);
  let rules = RULES.get(key);
  if (rules) return rules;
  const gateway = GATEWAYS[t.portLocode];
  const base = gateway ? gateway(key) : hashed(key, t.country);
  rules = Object.freeze({
    key,
    timeZone: t.timezone,
    holidays: t.country,
    basis: gateway ? 'gateway' : 'hashed',
    ...base,
  } satisfies TerminalRules);
  RULES.set(key, rules);
  return rules;
}

/**
 * Gates of a place that is not a terminal of the reference data (a foreign POL, an empty depot): Monday to
 * Saturday 07:00–19:00 local, no holidays (the world knows no foreign calendars).
 */
export function placeGateCalendar(timeZone: string): GateCalendar {
  const shift = [s('07:00', '19:00')];
  return { timeZone, holidays: 'none', gateHours: week(shift, shift, shift) };
}

// --------------------------------------------------------------------------------------- last free days

/**
 * The terminal's last free day (`YYYY-MM-DD`, local) for every box of a vessel call completed at `callCompletedAt`
 * (ms; the call's last discharge): the `freeDays`-th counted day from the rule's first day.
 */
export function terminalLastFreeDay(rules: TerminalRules, callCompletedAt: number): string {
  const completed = localDate(callCompletedAt, rules.timeZone);
  // The day before the first day that may count; counting then starts the day after it.
  const before = rules.countFrom === 'completion_day' ? addDays(completed, -1) : completed;
  if (rules.counting === 'calendar_days') return addDays(before, rules.freeDays);
  return addWorkingDays(rules.holidays, before, rules.freeDays);
}

/**
 * How many calendar days a shipment's contract adds to the line's free time: 0 for most, 3–10 for a carrier-specific
 * share (20–45%, hashed from the SCAC) of shipments. `draw` is the shipment's own draw in [0, 1) (one per bill of
 * lading, so all its boxes agree).
 */
export function lineFreeTimeExtension(scac: string, draw: number): number {
  const share = 0.2 + 0.25 * unit('line-free-time', scac.trim().toUpperCase());
  if (!(draw >= 0 && draw < share)) return 0;
  return 3 + Math.min(7, Math.floor((draw / share) * 8));
}

/**
 * The line's last free day. The line's tariff free time counts calendar days from the same vessel-call completion
 * and is set to end with the terminal's (lines pass the terminal's storage free time through), so it is the terminal
 * LFD, later by `lineFreeTimeExtension` calendar days where the shipment's contract extends it.
 */
export function lineLastFreeDay(terminalLfd: string, scac: string, draw: number): string {
  return addDays(terminalLfd, lineFreeTimeExtension(scac, draw));
}

// ------------------------------------------------------------------------------------------------- fees

/** The instant demurrage starts: local midnight ending the last free day. */
export function demurrageStartsAt(rules: TerminalRules, lfd: string): number {
  return localMidnight(addDays(lfd, 1), rules.timeZone);
}

/** Days of demurrage at an instant: 1 on the first local day after the LFD, 0 before (DST-safe: local days). */
export function demurrageDaysAt(rules: TerminalRules, lfd: string, at: number): number {
  const today = localDate(at, rules.timeZone);
  if (today <= lfd) return 0;
  return Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${lfd}T00:00:00Z`)) / DAY);
}

/** Demurrage owed for `daysAfterLfd` days at the terminal's tiered daily rates, per 20' (teu 1) or 40'/45' (teu 2). */
export function demurrageAmount(rules: TerminalRules, daysAfterLfd: number, teu: 1 | 2): number {
  let sum = 0;
  for (let d = 1; d <= daysAfterLfd; d++) {
    let rate = 0;
    for (const t of rules.demurrage) if (t.fromDay <= d) rate = teu === 1 ? t.perDay20 : t.perDay40;
    sum += rate;
  }
  return sum;
}

/** The instant the extended dwell fee starts (`afterDays` × 24 h after discharge), or null where there is none. */
export function extendedDwellStartsAt(rules: TerminalRules, dischargedAt: number): number | null {
  return rules.extendedDwell ? dischargedAt + rules.extendedDwell.afterDays * DAY : null;
}

/** Extended dwell fee owed at `at` for a box discharged at `dischargedAt`: `perDay` for each day begun since it started. */
export function extendedDwellAmount(rules: TerminalRules, dischargedAt: number, at: number): number {
  const from = extendedDwellStartsAt(rules, dischargedAt);
  if (from === null || at < from) return 0;
  return rules.extendedDwell!.perDay * (Math.floor((at - from) / DAY) + 1);
}

// -------------------------------------------------------------------------------------------- gate hours

function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

/** The gate windows `[start, end)` of the shifts opening on `date`, in time order (none on a holiday). */
export function gateWindowsOn(cal: GateCalendar, date: string): [number, number][] {
  if (holidayOn(cal.holidays, date)) return [];
  const [y, m, d] = ymd(date);
  const midnightWall = Date.UTC(y, m - 1, d);
  const out: [number, number][] = [];
  for (const shift of cal.gateHours[weekdayOf(date)] ?? []) {
    const open = minutesOf(shift.open);
    let close = minutesOf(shift.close);
    if (close <= open) close += 24 * 60;
    const start = zonedToUtcMs(midnightWall + open * MINUTE, cal.timeZone);
    const end = zonedToUtcMs(midnightWall + close * MINUTE, cal.timeZone);
    if (end > start) out.push([start, end]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/** Whether the gates take trucks at instant t. */
export function gateOpenAt(cal: GateCalendar, t: number): boolean {
  const today = localDate(t, cal.timeZone);
  // A shift opening the day before can still run (18:00–03:00).
  for (const date of [addDays(today, -1), today]) for (const [a, b] of gateWindowsOn(cal, date)) if (a <= t && t < b) return true;
  return false;
}

const SEARCH_DAYS = 30;

/**
 * The first instant ≥ `earliest` within gate hours: `earliest` itself when the gates are open then, else the next
 * opening plus `offsetWithinShiftMs` (wrapped into the shift's length, floored to the minute), so moved moves spread
 * over the shift instead of all landing on its opening.
 */
export function nextGateTime(cal: GateCalendar, earliest: number, offsetWithinShiftMs = 0): number {
  const first = addDays(localDate(earliest, cal.timeZone), -1);
  for (let i = 0; i < SEARCH_DAYS; i++) {
    for (const [a, b] of gateWindowsOn(cal, addDays(first, i))) {
      if (b <= earliest) continue;
      if (a <= earliest) return earliest;
      const off = Math.max(0, offsetWithinShiftMs) % (b - a);
      return a + Math.floor(off / MINUTE) * MINUTE;
    }
  }
  throw new Error(`sandbox: no gate hours within ${SEARCH_DAYS} days in ${cal.timeZone}`);
}

/**
 * The last instant ≤ `latest` within gate hours: `latest` itself when the gates are open then, else the last minute
 * of the shift before it less `offsetBeforeCloseMs` (wrapped into the shift's length, floored to the minute).
 */
export function lastGateTimeAtOrBefore(cal: GateCalendar, latest: number, offsetBeforeCloseMs = 0): number {
  const last = localDate(latest, cal.timeZone);
  for (let i = 0; i < SEARCH_DAYS; i++) {
    const windows = gateWindowsOn(cal, addDays(last, -i));
    for (let j = windows.length - 1; j >= 0; j--) {
      const [a, b] = windows[j]!;
      if (a > latest) continue;
      if (b > latest) return latest;
      const span = b - MINUTE - a;
      const off = span > 0 ? Math.max(0, offsetBeforeCloseMs) % span : 0;
      return Math.max(a, Math.floor((b - MINUTE - off) / MINUTE) * MINUTE);
    }
  }
  throw new Error(`sandbox: no gate hours within ${SEARCH_DAYS} days in ${cal.timeZone}`);
}

// ------------------------------------------------------------------------------------------ export side

/** A vessel's call at a port: its arrival and departure (ms). */
export interface PortCall {
  readonly arrive: number;
  readonly depart: number;
}

/**
 * The time a full export box waits in the stack before its vessel arrives: 1–5 days, most 1.5–3 (a draw in [0, 1)).
 * Loading happens during the call, so gate-in to loading is this plus the wait from arrival to loading.
 */
export function exportDwell(draw: number): number {
  const x = Math.min(Math.max(draw, 0), 1);
  return Math.round((1 + 4 * x ** 1.6) * DAY);
}

/** The terminal's cutoff for full export boxes: 12 h before the vessel's arrival, and at least 24 h before its departure. */
export function exportCutoffAt(call: PortCall): number {
  return Math.min(call.arrive - 12 * HOUR, call.depart - DAY);
}

/**
 * The export full gate-in (`full_in`) at the POL: `exportDwell(draw)` before the vessel's arrival, never after the
 * cutoff, moved back into the POL's gate hours (`offsetBeforeCloseMs` spreads moved ones over the shift).
 */
export function exportFullInAt(cal: GateCalendar, call: PortCall, draw: number, offsetBeforeCloseMs = 0): number {
  const target = Math.min(call.arrive - exportDwell(draw), exportCutoffAt(call));
  return lastGateTimeAtOrBefore(cal, target, offsetBeforeCloseMs);
}

/**
 * The export empty pickup (`empty_out`) at the POL's depot: 1–7 days before the full gate-in (the shipper loads the
 * box in between), within the depot's gate hours, and at least 12 h before the full gate-in.
 */
export function exportEmptyOutAt(cal: GateCalendar, fullInAt: number, draw: number, offsetBeforeCloseMs = 0): number {
  const x = Math.min(Math.max(draw, 0), 1);
  const target = fullInAt - Math.max(12 * HOUR, Math.round((1 + 6 * x) * DAY));
  return lastGateTimeAtOrBefore(cal, target, offsetBeforeCloseMs);
}
