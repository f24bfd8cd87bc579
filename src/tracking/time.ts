// Turning a source's `When` into a wire instant (ISO 8601 UTC, second precision, `Z`). Carriers give instants,
// offset-less local times and bare dates; the last two only mean something in the place's IANA zone.
import { isoSeconds } from '../lib/dates.js';
import { isKnownZone, zonedToUtcMs, zoneOffsetMs } from '../lib/time-zones.js';
import type { When } from '../sources/contract.js';

export { isKnownZone, zonedToUtcMs, zoneOffsetMs };

/** ISO 8601 UTC with second precision and `Z`, e.g. `2026-02-25T15:03:44Z`: the only instant form the engine keeps. */
export type IsoInstant = string;

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
    return Number.isNaN(ms) ? null : { at: isoSeconds(ms), timezone: z };
  }
  let localMs: number | null = null;
  const dt = when.localDateTime ? LOCAL_DATE_TIME.exec(when.localDateTime) : null;
  const d = !dt && when.localDate ? LOCAL_DATE.exec(when.localDate) : null;
  if (dt) localMs = Date.UTC(+dt[1]!, +dt[2]! - 1, +dt[3]!, +dt[4]!, +dt[5]!, +(dt[6] ?? 0));
  else if (d) localMs = Date.UTC(+d[1]!, +d[2]! - 1, +d[3]!);
  if (localMs === null || Number.isNaN(localMs)) return null;
  return { at: isoSeconds(z ? zonedToUtcMs(localMs, z) : localMs), timezone: z };
}

/** Milliseconds of a wire instant (NaN for null). */
export function msOf(at: IsoInstant | null): number {
  return at === null ? Number.NaN : Date.parse(at);
}
