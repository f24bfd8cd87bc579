// IANA time-zone arithmetic on epoch milliseconds, with Intl doing the zone rules. Shared by the tracking
// engine (source times read in a place's zone) and the sandbox world (local dates of its stories).

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
      // An unknown zone name: callers fall back to UTC.
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

/** The zone's wall clock at an instant, as if it were UTC (ms); the instant itself for an unknown zone. */
export function wallClockMs(utcMs: number, zone: string): number {
  const f = formatterFor(zone);
  if (!f) return Math.floor(utcMs / 1000) * 1000;
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(utcMs))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

/** The zone's offset from UTC at an instant, in ms (east positive); 0 for an unknown zone. */
export function zoneOffsetMs(utcMs: number, zone: string): number {
  return wallClockMs(utcMs, zone) - Math.floor(utcMs / 1000) * 1000;
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

/** ISO 8601 UTC with second precision and `Z`, e.g. `2026-02-25T15:03:44Z`. */
export function isoSecondsOf(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
