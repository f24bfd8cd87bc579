import { describe, expect, it } from 'vitest';
import { parseDuration, parseRetrySchedule } from './durations.js';

describe('parseDuration', () => {
  it.each([
    ['250ms', 250],
    ['0s', 0],
    ['30s', 30_000],
    ['10m', 600_000],
    ['2h', 7_200_000],
    ['5d', 432_000_000],
    [' 1d ', 86_400_000],
    ['366d', 366 * 86_400_000],
  ])('%s → %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '5', '5 days', '1.5h', '-1s', '1w', '5D', '1h30m', 'soon', '367d'])('refuses %o', (text) => {
    expect(() => parseDuration(text)).toThrow(JSON.stringify(text));
  });
});

describe('parseRetrySchedule', () => {
  it('reads a comma list in order, spaces allowed', () => {
    expect(parseRetrySchedule('5s,1m, 5m ,30m,2h,1d')).toEqual([5_000, 60_000, 300_000, 1_800_000, 7_200_000, 86_400_000]);
    expect(parseRetrySchedule('0ms')).toEqual([0]);
  });

  it.each([
    ['', 'empty'],
    ['5s,,1m', 'entry 2 of the retry schedule is empty'],
    ['5s,1m,', 'entry 3 of the retry schedule is empty'],
    ['5s,1x', 'entry 2 of the retry schedule: "1x" is not a duration'],
    [Array(51).fill('1s').join(','), 'has 51 entries: at most 50'],
  ])('refuses %o', (text, message) => {
    expect(() => parseRetrySchedule(text)).toThrow(message);
  });

  it('takes 50 entries', () => {
    expect(parseRetrySchedule(Array(50).fill('1s').join(','))).toHaveLength(50);
  });
});
