// Turning a source's `When` into a wire instant (ISO 8601 UTC, second precision, `Z`). Carriers give instants,
// offset-less local times and bare dates; the last two only mean something in the place's IANA zone.
import type { When } from '../sources/contract.js';

/** ISO 8601 UTC with second precision and `Z`, e.g. `2026-02-25T15:03:44Z`: the only instant form the engine keeps. */
export type IsoInstant = string;

/** The wire form of an instant. */
export function isoInstant(ms: number): IsoInstant {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterFor(zone: string): Intl.DateTimeFormat | null {
  let f = formatters.get(zone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
    } catch {
      // An unknown zone name: the caller falls back to UTC with a null zone, as the wire notes prescribe.
      f = null;
    }
    formatters.set(zone, f);
  }
  return f;
}

/** Whether `zone` is an IANA zone this runtime knows. */
export function isKnownZone(zone: string): boolean {
  return formatterFor(zone) !== null;
}

/** The zone's offset from UTC at an instant, in ms (east positive). */
export function zoneOffsetMs(utcMs: number, zone: string): number {
  const f = formatterFor(zone);
  if (!f) return 0;
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(utcMs))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

const DAY_MS = 86_400_000;

/**
 * The instant at which the zone's clocks show `localMs` (a wall time written as if it were UTC). An ambiguous
 * wall time (clocks going back) is its first occurrence; one that does not exist (clocks going forward) is read
 * with the offset in force before the jump, so it lands just after it, as a person would read it.
 */
export function zonedToUtcMs(localMs: number, zone: string): number {
  const before = zoneOffsetMs(localMs - DAY_MS, zone);
  const after = zoneOffsetMs(localMs + DAY_MS, zone);
  const valid = [before, after].map((o) => localMs - o).filter((utc) => zoneOffsetMs(utc, zone) === localMs - utc);
  if (valid.length > 0) return Math.min(...valid);
  return localMs - before;
}

/** A resolved time: the instant, and the zone it was read in (null when the place's zone is unknown). */
export interface Resolved {
  at: IsoInstant;
  timezone: string | null;
}

const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/;

/**
 * Resolves a source time in the place's zone: instants as given; wall times and dates (local midnight) in
 * `zone`, or as if UTC when the zone is unknown. Null when the source gives no time or one that cannot be read.
 */
export function resolveWhen(when: When | null, zone: string | null): Resolved | null {
  if (!when) return null;
  const z = zone && isKnownZone(zone) ? zone : null;
  if (when.at) {
    const ms = Date.parse(when.at);
    return Number.isNaN(ms) ? null : { at: isoInstant(ms), timezone: z };
  }
  let localMs: number | null = null;
  const dt = when.localDateTime ? LOCAL_DATE_TIME.exec(when.localDateTime) : null;
  const d = !dt && when.localDate ? LOCAL_DATE.exec(when.localDate) : null;
  if (dt) localMs = Date.UTC(+dt[1]!, +dt[2]! - 1, +dt[3]!, +dt[4]!, +dt[5]!, +(dt[6] ?? 0));
  else if (d) localMs = Date.UTC(+d[1]!, +d[2]! - 1, +d[3]!);
  if (localMs === null || Number.isNaN(localMs)) return null;
  return { at: isoInstant(z ? zonedToUtcMs(localMs, z) : localMs), timezone: z };
}

/** Milliseconds of a wire instant (NaN for null). */
export function msOf(at: IsoInstant | null): number {
  return at === null ? Number.NaN : Date.parse(at);
}
