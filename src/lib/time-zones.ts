// IANA time-zone arithmetic on epoch milliseconds, with Intl doing the zone rules. Shared by the tracking
// engine (source times read in a place's zone) and the sandbox world (local dates of its stories).

interface Zone {
  format: Intl.DateTimeFormat;
  /** Offset (ms) per UTC hour block (epoch ms / BLOCK_MS, floored); NaN for an hour in which it changes. */
  blocks: Map<number, number>;
}

const zones = new Map<string, Zone | null>();

function zoneFor(zone: string): Zone | null {
  let z = zones.get(zone);
  if (z === undefined) {
    try {
      const format = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
      z = { format, blocks: new Map() };
    } catch {
      // An unknown zone name: callers fall back to UTC.
      z = null;
    }
    zones.set(zone, z);
  }
  return z;
}

/** Whether `zone` is an IANA zone this runtime knows. */
export function isKnownZone(zone: string): boolean {
  return zoneFor(zone) !== null;
}

function intlWallClockMs(utcMs: number, format: Intl.DateTimeFormat): number {
  const parts: Record<string, number> = {};
  for (const p of format.formatToParts(new Date(utcMs))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

// formatToParts takes microseconds, and the engine converts many times in a few zones a few days apart, so
// offsets are kept per UTC hour. Offsets change at odd instants (LMT ends, Goose Bay's 00:01 changes), but from 1800 to
// 2500 never twice within days in any zone: an hour whose first and last millisecond share an offset has it
// throughout. Outside those years, and for fractional or invalid instants, Intl answers directly.
const BLOCK_MS = 3_600_000;
const CACHED_FROM_MS = Date.UTC(1800, 0, 1);
const CACHED_UNTIL_MS = Date.UTC(2500, 0, 1);
/** Per zone; over it the zone's blocks are dropped (a working set is a few days, far below). */
const MAX_BLOCKS = 8192;

/** The zone's offset at `utcMs` from its hour block, or NaN when Intl must answer. */
function cachedOffsetMs(utcMs: number, z: Zone): number {
  if (!Number.isInteger(utcMs) || utcMs < CACHED_FROM_MS || utcMs >= CACHED_UNTIL_MS) return Number.NaN;
  const block = Math.floor(utcMs / BLOCK_MS);
  let offset = z.blocks.get(block);
  if (offset === undefined) {
    const start = block * BLOCK_MS;
    const end = start + BLOCK_MS - 1;
    const first = intlWallClockMs(start, z.format) - start;
    const last = intlWallClockMs(end, z.format) - (end - 999);
    offset = first === last ? first : Number.NaN;
    if (z.blocks.size >= MAX_BLOCKS) z.blocks.clear();
    z.blocks.set(block, offset);
  }
  return offset;
}

/** The zone's wall clock at an instant, as if it were UTC (ms); the instant itself for an unknown zone. */
export function wallClockMs(utcMs: number, zone: string): number {
  const z = zoneFor(zone);
  if (!z) return Math.floor(utcMs / 1000) * 1000;
  const offset = cachedOffsetMs(utcMs, z);
  return Number.isNaN(offset) ? intlWallClockMs(utcMs, z.format) : Math.floor(utcMs / 1000) * 1000 + offset;
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
  const withBefore = localMs - before;
  // The same offset either side (the usual case) leaves one candidate, the answer whether or not it checks out.
  // Within a day it lies between two instants Intl took, so checking it could not have thrown either.
  if (after === before && Math.abs(before) < DAY_MS) return withBefore;
  const withAfter = localMs - after;
  const beforeHolds = zoneOffsetMs(withBefore, zone) === localMs - withBefore;
  const afterHolds = zoneOffsetMs(withAfter, zone) === localMs - withAfter;
  if (beforeHolds && afterHolds) return Math.min(withBefore, withAfter);
  if (afterHolds) return withAfter;
  return withBefore;
}
