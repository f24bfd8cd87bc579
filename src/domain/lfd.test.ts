import { describe, expect, it } from 'vitest';
import { bindingLfd, daysBetween, lfdCountdown, localDate } from './lfd.js';

const LA = 'America/Los_Angeles';
const CHI = 'America/Chicago';

describe('localDate: the calendar day of an instant in a zone', () => {
  it.each([
    ['LA evening is still the day before in UTC terms', '2026-03-10T06:30:00Z', LA, '2026-03-09'],
    ['Chicago is already the next day', '2026-03-10T06:30:00Z', CHI, '2026-03-10'],
    ['no zone: UTC', '2026-03-10T06:30:00Z', null, '2026-03-10'],
    ['an unknown zone: UTC', '2026-03-10T06:30:00Z', 'Mars/Olympus', '2026-03-10'],
    ['a year no calendar holds: none', '+010000-01-01T00:00:00.000Z', LA, null],
    ['before 1900: none', '1800-01-01T00:00:00Z', LA, null],
  ])('%s', (_name, at, zone, day) => {
    expect(localDate(Date.parse(at), zone)).toBe(day);
  });
});

describe('bindingLfd: the earliest applicable last free day, compared as local dates', () => {
  it.each([
    [
      'terminal earlier than line',
      [
        { party: 'line', timestamp: '2026-12-14T08:00:00Z', timezone: LA },
        { party: 'terminal', timestamp: '2026-12-09T08:00:00Z', timezone: LA },
      ],
      'terminal',
    ],
    [
      'the same local day in two zones (Chicago and LA midnights are different instants): the pickup place is named',
      [
        { party: 'line', timestamp: '2026-12-09T08:00:00Z', timezone: LA },
        { party: 'rail', timestamp: '2026-12-09T06:00:00Z', timezone: CHI },
      ],
      'rail',
    ],
    [
      'same local day: the pickup place is named',
      [
        { party: 'line', timestamp: '2026-12-09T08:00:00Z', timezone: LA },
        { party: 'terminal', timestamp: '2026-12-09T08:00:00Z', timezone: LA },
      ],
      'terminal',
    ],
    ['none known', [{ party: 'line', timestamp: null, timezone: LA }], null],
  ] as const)('%s', (_name, candidates, party) => {
    expect(bindingLfd(candidates)?.party ?? null).toBe(party);
  });
});

describe('lfdCountdown: days left on the domain clock; after pickup the count stops', () => {
  const lfd = { timestamp: '2026-12-09T08:00:00Z', timezone: LA };
  it.each([
    ['two days before', '2026-12-07T20:00:00Z', null, { state: 'counting', days_left: 2 }],
    ['the day itself, late evening LA (next day in UTC)', '2026-12-10T06:00:00Z', null, { state: 'counting', days_left: 0 }],
    ['passed', '2026-12-11T20:00:00Z', null, { state: 'counting', days_left: -2 }],
    ['picked up a day before', '2026-12-20T00:00:00Z', '2026-12-08T18:00:00Z', { state: 'picked_up', days_before_lfd: 1 }],
    ['picked up three days after', '2026-12-20T00:00:00Z', '2026-12-12T18:00:00Z', { state: 'picked_up', days_before_lfd: -3 }],
  ] as const)('%s', (_name, now, pickedUp, expected) => {
    expect(lfdCountdown(lfd, new Date(now), pickedUp)).toEqual(expected);
  });
  it('no last free day', () => expect(lfdCountdown(null, new Date(), null)).toEqual({ state: 'none' }));
  it('daysBetween', () => expect(daysBetween('2026-02-27', '2026-03-02')).toBe(3));
});
