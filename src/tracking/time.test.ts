import { describe, expect, it } from 'vitest';
import { resolveWhen } from './time.js';

const date = (localDate: string) => ({ at: null, localDateTime: null, localDate });
const wall = (localDateTime: string) => ({ at: null, localDateTime, localDate: null });
const inst = (at: string) => ({ at, localDateTime: null, localDate: null });

describe('resolveWhen: local times are read in the place zone', () => {
  it.each([
    ['date-only in summer (PDT)', date('2026-07-04'), 'America/Los_Angeles', '2026-07-04T07:00:00Z'],
    ['date-only in winter (PST)', date('2026-01-15'), 'America/Los_Angeles', '2026-01-15T08:00:00Z'],
    ['date-only east of UTC', date('2026-03-01'), 'Asia/Shanghai', '2026-02-28T16:00:00Z'],
    ['date-only with unknown zone is UTC midnight', date('2026-03-01'), null, '2026-03-01T00:00:00Z'],
    ['date-only with an invalid zone name is UTC midnight', date('2026-03-01'), 'Mars/Olympus', '2026-03-01T00:00:00Z'],
    ['wall time in Chicago (CDT)', wall('2026-09-23T04:00:00'), 'America/Chicago', '2026-09-23T09:00:00Z'],
    ['wall time without seconds', wall('2026-09-23T04:00'), 'America/Chicago', '2026-09-23T09:00:00Z'],
    ['wall time in a spring-forward gap lands after the jump', wall('2026-03-08T02:30:00'), 'America/New_York', '2026-03-08T07:30:00Z'],
    ['ambiguous fall-back wall time is its first occurrence', wall('2026-11-01T01:30:00'), 'America/New_York', '2026-11-01T05:30:00Z'],
    ['date-only on a DST change day', date('2026-03-08'), 'America/New_York', '2026-03-08T05:00:00Z'],
    ['an instant keeps its offset, to the second', inst('2026-09-17T06:00:00.750-07:00'), 'Asia/Tokyo', '2026-09-17T13:00:00Z'],
  ])('%s', (_name, when, zone, expected) => {
    expect(resolveWhen(when, zone)?.at).toBe(expected);
  });

  it('reports the zone used, and null when it was unknown', () => {
    expect(resolveWhen(date('2026-03-01'), 'America/Chicago')?.timezone).toBe('America/Chicago');
    expect(resolveWhen(date('2026-03-01'), 'Nope/Nowhere')?.timezone).toBeNull();
    expect(resolveWhen(date('2026-03-01'), null)?.timezone).toBeNull();
  });

  it('gives null for no time and for unreadable text', () => {
    expect(resolveWhen(null, 'UTC')).toBeNull();
    expect(resolveWhen({ at: null, localDateTime: null, localDate: null }, 'UTC')).toBeNull();
    expect(resolveWhen(inst('soon'), 'UTC')).toBeNull();
    expect(resolveWhen(date('03/01/2026'), 'UTC')).toBeNull();
  });
});
