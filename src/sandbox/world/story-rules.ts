import type { ScenarioName } from './scenarios.js';

// --------------------------------------------------------------------------------------------- journey

export const LEASING_PREFIXES = ['TGHU', 'TCNU', 'SEGU', 'FCIU', 'CAIU', 'TRHU', 'TCLU', 'BMOU'];
// biome-ignore format: a table
export const ISO_TYPES: readonly (readonly [string, number])[] = [
  ['45G1', 40], ['42G1', 18], ['22G1', 22], ['45R1', 6], ['L5G1', 4], ['22R1', 3], ['42U1', 3], ['22T6', 2], ['42P1', 2],
];
export const CHASSIS_PREFIXES = ['DCLZ', 'TRAZ', 'FLXZ', 'MCCZ', 'APMZ'];

/** Scenarios whose interesting part happens at the POD soon after the anchor. */
export const SOON_AT_POD: ReadonlySet<ScenarioName> = new Set([
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
export const BEFORE_SAILING: ReadonlySet<ScenarioName> = new Set(['booked_ahead', 'feeder', 'line_silent']);
/** How far ahead of the first sailing a pre-departure story is first seen (the nearest weekly sailing to it). */
export const AHEAD_OF_SAILING_DAYS = 18;
export const MIN_AHEAD_OF_SAILING_DAYS = 14;
/** Scenarios whose empty return nobody reports (tracking then stops by itself, not by the return). */
export const NO_EMPTY_RETURN: ReadonlySet<ScenarioName> = new Set(['line_silent', 'never_returned']);
/** The off-dock yard of the reference data that has a FIRMS code (Shippers Transport Express, Carson), by port. */
export const OFF_DOCK_YARDS: Readonly<Record<string, string>> = { USLGB: 'Z773', USLAX: 'Z773' };
export const CALM: ReadonlySet<ScenarioName> = new Set(['succeeded', 'date_only', 'no_seal_no_weight', 'container', 'test_succeeded']);

export const PLAN_LEAD_DAYS = 21;
/** Where the documented rail scenario ends (CSX hubs BNSF does not serve). */
export const OHIO_RAIL_HUBS = ['USCMH', 'USCLE', 'USNBH', 'USCVG'];
