import { describe, expect, it, vi } from 'vitest';
import { isKnownZone, wallClockMs, zonedToUtcMs, zoneOffsetMs } from './time-zones.js';
import { seededRandom } from '../../test/kit/random.js';

// The uncached computation: Intl on every call. The module caches offsets; every answer must match this one.
const referenceFormats = new Map<string, Intl.DateTimeFormat | null>();

function referenceFormat(zone: string): Intl.DateTimeFormat | null {
  if (!referenceFormats.has(zone)) {
    let f: Intl.DateTimeFormat | null = null;
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
    } catch {}
    referenceFormats.set(zone, f);
  }
  return referenceFormats.get(zone)!;
}

function referenceWallClockMs(utcMs: number, zone: string): number {
  const f = referenceFormat(zone);
  if (!f) return Math.floor(utcMs / 1000) * 1000;
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(utcMs))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

function referenceOffsetMs(utcMs: number, zone: string): number {
  return referenceWallClockMs(utcMs, zone) - Math.floor(utcMs / 1000) * 1000;
}

function referenceZonedToUtcMs(localMs: number, zone: string): number {
  const before = referenceOffsetMs(localMs - 86_400_000, zone);
  const after = referenceOffsetMs(localMs + 86_400_000, zone);
  const valid = [before, after].map((o) => localMs - o).filter((utc) => referenceOffsetMs(utc, zone) === localMs - utc);
  if (valid.length > 0) return Math.min(...valid);
  return localMs - before;
}

/** The result of `fn`, or the thrown error's class and message, so throwing inputs compare too. */
function outcome(fn: () => number): number | string {
  try {
    return fn();
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`;
  }
}

function expectSameAsReference(utcMs: number, zone: string): void {
  expect(
    outcome(() => wallClockMs(utcMs, zone)),
    `wallClockMs(${utcMs}, ${zone})`,
  ).toBe(outcome(() => referenceWallClockMs(utcMs, zone)));
  expect(
    outcome(() => zoneOffsetMs(utcMs, zone)),
    `zoneOffsetMs(${utcMs}, ${zone})`,
  ).toBe(outcome(() => referenceOffsetMs(utcMs, zone)));
}

function expectSameLocalAsReference(localMs: number, zone: string): void {
  expect(
    outcome(() => zonedToUtcMs(localMs, zone)),
    `zonedToUtcMs(${localMs}, ${zone})`,
  ).toBe(outcome(() => referenceZonedToUtcMs(localMs, zone)));
}

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Offsets from a transition that straddle it and the hour blocks around it. */
const AROUND = [-2 * HOUR - 1, -HOUR - 1, -HOUR, -HOUR + 1, -1001, -1000, -999, -1, 0, 1, 999, 1000, 1001, HOUR - 1, HOUR, 2 * HOUR];

describe('offsets across transitions', () => {
  // [zone, transition, offset before (s), offset after (s)]
  it.each([
    ['America/New_York', '2026-03-08T07:00:00Z', -18000, -14400],
    ['America/New_York', '2026-11-01T06:00:00Z', -14400, -18000],
    ['America/New_York', '1883-11-18T17:00:00Z', -17762, -18000],
    ['Europe/Berlin', '2026-03-29T01:00:00Z', 3600, 7200],
    ['Europe/Berlin', '2026-10-25T01:00:00Z', 7200, 3600],
    ['Australia/Lord_Howe', '2026-04-04T15:00:00Z', 39600, 37800],
    ['Australia/Lord_Howe', '2026-10-03T15:30:00Z', 37800, 39600],
    ['Asia/Kathmandu', '1985-12-31T18:30:00Z', 19800, 20700],
    ['Pacific/Chatham', '2026-04-04T14:00:00Z', 49500, 45900],
    ['Pacific/Chatham', '2026-09-26T14:00:00Z', 45900, 49500],
    // LMT (+00:17:30) ending; this runtime's Amsterdam follows Brussels.
    ['Europe/Amsterdam', '1892-05-01T00:00:00Z', 1050, 0],
    // Changes away from the hour and quarter hour in UTC.
    ['Africa/Monrovia', '1919-03-01T00:43:08Z', -2588, -2670],
    ['Africa/Monrovia', '1972-01-07T00:44:30Z', -2670, 0],
    ['America/Goose_Bay', '1988-04-03T04:01:00Z', -14400, -7200],
    ['America/Goose_Bay', '1988-10-30T02:01:00Z', -7200, -14400],
  ])('%s at %s: %d s → %d s', (zone, iso, before, after) => {
    const t = Date.parse(iso);
    expect(zoneOffsetMs(t - 1, zone)).toBe(before * 1000);
    expect(zoneOffsetMs(t, zone)).toBe(after * 1000);
    for (const d of AROUND) {
      expectSameAsReference(t + d, zone);
      expectSameLocalAsReference(t + d + before * 1000, zone);
      expectSameLocalAsReference(t + d + after * 1000, zone);
    }
    for (let local = t + before * 1000 - 3 * HOUR; local <= t + after * 1000 + 3 * HOUR; local += 60_000) {
      expectSameLocalAsReference(local, zone);
    }
  });
});

describe('wallClockMs', () => {
  it.each([
    ['2026-03-08T06:59:59.999Z', 'America/New_York', '2026-03-08T01:59:59Z'],
    ['2026-03-08T07:00:00.000Z', 'America/New_York', '2026-03-08T03:00:00Z'],
    ['2026-10-03T15:30:00Z', 'Australia/Lord_Howe', '2026-10-04T02:30:00Z'],
    ['2026-06-01T12:00:00.750Z', 'Asia/Kathmandu', '2026-06-01T17:45:00Z'],
    ['1880-06-01T00:00:00Z', 'Europe/Amsterdam', '1880-06-01T00:17:30Z'],
    ['1900-06-01T00:00:00Z', 'Europe/Amsterdam', '1900-06-01T00:00:00Z'],
    ['1960-06-01T00:00:00Z', 'Africa/Monrovia', '1960-05-31T23:15:30Z'],
    ['1969-12-31T23:59:59.999Z', 'Asia/Kolkata', '1970-01-01T05:29:59Z'],
    ['2026-06-01T12:34:56.789Z', 'Not/A_Zone', '2026-06-01T12:34:56Z'],
  ])('%s in %s is %s', (iso, zone, wall) => {
    expect(wallClockMs(Date.parse(iso), zone)).toBe(Date.parse(wall));
  });

  // Edges: negative and fractional epochs (Date truncates, the floor does not), the cached years' bounds, years
  // Date.UTC misreads (0 to 99), the Date range and invalid instants (Intl throws for a known zone).
  it.each([
    ['zero', 0],
    ['negative zero', -0],
    ['one ms', 1],
    ['minus one ms', -1],
    ['999 ms', 999],
    ['-999 ms', -999],
    ['-1000 ms', -1000],
    ['-1001 ms', -1001],
    ['half a ms', 0.5],
    ['minus half a ms', -0.5],
    ['-1000.5 ms', -1000.5],
    ['a fraction in 2026', 1_780_000_000_000.25],
    ['1920', -86_400_000 * 365 * 50 - 1],
    ['just before 1800', Date.UTC(1800, 0, 1) - 1],
    ['1800', Date.UTC(1800, 0, 1)],
    ['just before 2500', Date.UTC(2500, 0, 1) - 1],
    ['2500', Date.UTC(2500, 0, 1)],
    ['1200', Date.UTC(1200, 5, 1)],
    ['year 50', Date.parse('0050-06-01T00:00:00Z')],
    ['year 0', Date.parse('0000-06-01T00:00:00Z')],
    ['year -200000', Date.parse('-200000-06-01T00:00:00Z')],
    ['the last Date', 8.64e15],
    ['past the last Date', 8.64e15 + 1],
    ['the first Date', -8.64e15],
    ['NaN', Number.NaN],
    ['infinity', Number.POSITIVE_INFINITY],
    ['minus infinity', Number.NEGATIVE_INFINITY],
  ])('%s matches Intl in every zone, unknown included', (_, t) => {
    for (const zone of ['America/New_York', 'Europe/Amsterdam', 'Asia/Kathmandu', 'Pacific/Chatham', 'UTC', 'Not/A_Zone']) {
      expectSameAsReference(t, zone);
      expectSameLocalAsReference(t, zone);
    }
  });
});

describe('unknown zones', () => {
  it('are unknown, and read as UTC', () => {
    const t = Date.parse('2026-06-01T12:34:56.789Z');
    for (const zone of ['Not/A_Zone', 'Mars/Olympus_Mons', 'Europe/Berln']) {
      expect(isKnownZone(zone)).toBe(false);
      expect(wallClockMs(t, zone)).toBe(Date.parse('2026-06-01T12:34:56Z'));
      expect(zoneOffsetMs(t, zone)).toBe(0);
      expect(zonedToUtcMs(t, zone)).toBe(t);
    }
    expect(isKnownZone('Europe/Berlin')).toBe(true);
    expect(isKnownZone('UTC')).toBe(true);
  });
});

describe('zonedToUtcMs', () => {
  // Ambiguous wall times are their first occurrence; skipped ones are read with the offset before the jump.
  it.each([
    ['2026-03-08T02:30:00Z', 'America/New_York', '2026-03-08T07:30:00Z'],
    ['2026-11-01T01:30:00Z', 'America/New_York', '2026-11-01T05:30:00Z'],
    ['2026-03-29T02:30:00Z', 'Europe/Berlin', '2026-03-29T01:30:00Z'],
    ['2026-10-25T02:30:00Z', 'Europe/Berlin', '2026-10-25T00:30:00Z'],
    ['2026-10-04T02:15:00Z', 'Australia/Lord_Howe', '2026-10-03T15:45:00Z'],
    ['2026-04-05T01:45:00Z', 'Australia/Lord_Howe', '2026-04-04T14:45:00Z'],
    ['2026-09-27T03:00:00Z', 'Pacific/Chatham', '2026-09-26T14:15:00Z'],
    ['2026-04-05T03:00:00Z', 'Pacific/Chatham', '2026-04-04T13:15:00Z'],
    ['1986-01-01T00:10:00Z', 'Asia/Kathmandu', '1985-12-31T18:40:00Z'],
    ['2026-06-01T00:00:00Z', 'Asia/Kathmandu', '2026-05-31T18:15:00Z'],
    ['1880-06-01T00:17:30Z', 'Europe/Amsterdam', '1880-06-01T00:00:00Z'],
    ['2026-06-01T12:00:00Z', 'Not/A_Zone', '2026-06-01T12:00:00Z'],
  ])('%s in %s is %s', (local, zone, utc) => {
    expect(zonedToUtcMs(Date.parse(local), zone)).toBe(Date.parse(utc));
    expectSameLocalAsReference(Date.parse(local), zone);
  });
});

const ZONES = [
  'America/New_York',
  'America/Los_Angeles',
  'America/Sao_Paulo',
  'America/St_Johns',
  'Europe/Berlin',
  'Europe/Amsterdam',
  'Asia/Kathmandu',
  'Asia/Shanghai',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Africa/Casablanca',
];

describe('sweeps match Intl', () => {
  it('over random instants from 1970 to 2040, twice (cold, then cached)', () => {
    const next = seededRandom(20260601);
    const from = Date.UTC(1970, 0, 1);
    const to = Date.UTC(2040, 0, 1);
    const cases = Array.from(
      { length: 4000 },
      () => [from + Math.floor(next() * (to - from)), ZONES[Math.floor(next() * ZONES.length)]!] as const,
    );
    for (let pass = 0; pass < 2; pass++) {
      for (const [t, zone] of cases) {
        expectSameAsReference(t, zone);
        expectSameLocalAsReference(t, zone);
      }
    }
  });

  it('over random instants in LMT eras and outside the cached years', () => {
    const next = seededRandom(1892);
    const spans = [
      [Date.UTC(1000, 0, 1), Date.UTC(1800, 0, 1)],
      [Date.UTC(1800, 0, 1), Date.UTC(1970, 0, 1)],
      [Date.UTC(2040, 0, 1), Date.UTC(2600, 0, 1)],
    ];
    const zones = [...ZONES, 'Africa/Monrovia', 'America/Goose_Bay', 'Asia/Kolkata', 'Europe/Dublin'];
    for (const [from, to] of spans) {
      for (let i = 0; i < 800; i++) {
        const t = from! + Math.floor(next() * (to! - from!));
        const zone = zones[Math.floor(next() * zones.length)]!;
        expectSameAsReference(t, zone);
        expectSameLocalAsReference(t, zone);
      }
    }
  });

  it('over a month of nearby instants with milliseconds, as the engine converts them', () => {
    const next = seededRandom(7);
    const from = Date.UTC(2026, 2, 15);
    for (let i = 0; i < 3000; i++) {
      const t = from + Math.floor(next() * 31 * DAY);
      const zone = ZONES[i % ZONES.length]!;
      expectSameAsReference(t, zone);
      expectSameLocalAsReference(t, zone);
      expectSameLocalAsReference(Math.floor(t / 60_000) * 60_000, zone);
    }
  });

  it('hour by hour for longer than the cache holds', () => {
    const from = Date.UTC(2025, 0, 1);
    for (let t = from; t < from + 9000 * HOUR; t += HOUR) expectSameAsReference(t + 1_799_999, 'Europe/Berlin');
  });
});

describe('the offset cache', () => {
  it('answers repeat conversions in a known hour without Intl', () => {
    const t = Date.parse('2031-07-14T09:00:00Z');
    wallClockMs(t, 'Europe/Berlin');
    const formatToParts = vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
    try {
      for (let i = 0; i < 100; i++)
        expect(wallClockMs(t + i * 36_000, 'Europe/Berlin')).toBe(Math.floor((t + i * 36_000) / 1000) * 1000 + 2 * HOUR);
      expect(formatToParts).not.toHaveBeenCalled();
    } finally {
      formatToParts.mockRestore();
    }
  });
});
