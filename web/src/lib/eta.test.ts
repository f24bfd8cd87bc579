// How far an arrival moved from the first announced one (lib/eta.ts).
import { describe, expect, it } from 'vitest';
import { duration, etaShift } from './eta';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('duration', () => {
  it.each([
    [0, '1 min'],
    [40 * MIN, '40 min'],
    [-40 * MIN, '40 min'],
    [5 * HOUR, '5 h'],
    [5 * HOUR + 20 * MIN, '5 h'],
    [24 * HOUR, '1 d'],
    [52 * HOUR, '2 d 4 h'],
  ])('%d ms → %s', (ms, text) => {
    expect(duration(ms)).toBe(text);
  });
});

describe('etaShift', () => {
  const original = '2026-03-10T12:00:00Z';
  it.each([
    ['unknown current', null, original, null],
    ['unknown original', original, undefined, null],
    ['unreadable', 'soon', original, null],
    ['less than half an hour is no change', '2026-03-10T12:29:00Z', original, { ms: 0, text: 'as first announced', tone: 'neutral' }],
    ['5 hours later', '2026-03-10T17:00:00Z', original, { ms: 5 * HOUR, text: '5 h later', tone: 'warn' }],
    ['a day or more later is bad', '2026-03-12T16:00:00Z', original, { ms: 52 * HOUR, text: '2 d 4 h later', tone: 'bad' }],
    ['earlier is good', '2026-03-10T07:00:00Z', original, { ms: -5 * HOUR, text: '5 h earlier', tone: 'good' }],
  ])('%s', (_name, current, orig, expected) => {
    expect(etaShift(current, orig)).toEqual(expected);
  });
});
