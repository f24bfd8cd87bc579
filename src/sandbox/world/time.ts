// Time helpers for the world: milliseconds since the epoch inside, ISO 8601 with Z (second precision) and
// local dates in a place's IANA zone at the edges. Intl does the zone arithmetic; nothing reads the clock.
import { wallClockMs, zonedToUtcMs } from '../../lib/time-zones.js';

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

export function roundTo(ms: number, step: number): number {
  return Math.round(ms / step) * step;
}

/** The calendar date (`YYYY-MM-DD`) of an instant in a time zone. */
export function localDate(ms: number, timeZone: string): string {
  return new Date(wallClockMs(ms, timeZone)).toISOString().slice(0, 10);
}

/** The instant of local midnight starting this date in the zone. */
export function localMidnight(date: string, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return zonedToUtcMs(Date.UTC(y, m - 1, d), timeZone);
}

/** `YYYY-MM-DD` plus n calendar days. */
export function addDays(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}
