import { describe, expect, it } from 'vitest';
import { isCalendarDate, isIsoInstant, isoSeconds } from './dates.js';

describe('calendar-checked dates', () => {
  it.each([
    ['2026-02-28', true],
    ['2028-02-29', true],
    ['2026-02-29', false],
    ['2026-02-30', false],
    ['2026-13-01', false],
    ['2026-3-1', false],
    ['03/01/2026', false],
  ])('date %s → %s', (value, ok) => expect(isCalendarDate(value)).toBe(ok));

  it.each([
    ['2026-03-01T10:00:00Z', true],
    ['2026-03-01T10:00Z', true],
    ['2026-03-01T10:00:00.250+02:00', true],
    ['2026-03-01T10:00:00+0200', true],
    ['2026-02-30T00:00:00Z', false],
    ['2026-03-01T24:00:00Z', false],
    ['2026-03-01T10:60:00Z', false],
    ['2026-03-01T10:00:00', false],
    ['2026-03-01', false],
  ])('instant %s → %s', (value, ok) => expect(isIsoInstant(value)).toBe(ok));
});

describe('isoSeconds', () => {
  it.each([
    [Date.parse('2026-02-25T15:03:44.999Z'), '2026-02-25T15:03:44Z'],
    [new Date('2026-02-25T15:03:44.001Z'), '2026-02-25T15:03:44Z'],
    [-1, '1969-12-31T23:59:59Z'],
    [0, '1970-01-01T00:00:00Z'],
    [null, null],
    [undefined, null],
  ])('%s → %s', (at, iso) => {
    expect(isoSeconds(at)).toBe(iso);
  });
});
