import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_DELAYS_MS, nextRetryDelayMs, parseDuration, parseRetryAfter, parseRetrySchedule } from './retry-schedule.js';

const mid = () => 0.5;
const low = () => 0;
const high = () => 0.999_999;

describe('DEFAULT_RETRY_DELAYS_MS', () => {
  it('is 12 growing delays adding up to about a day', () => {
    expect(DEFAULT_RETRY_DELAYS_MS).toHaveLength(12);
    for (let i = 1; i < DEFAULT_RETRY_DELAYS_MS.length; i++) {
      expect(DEFAULT_RETRY_DELAYS_MS[i]!).toBeGreaterThan(DEFAULT_RETRY_DELAYS_MS[i - 1]!);
    }
    const total = DEFAULT_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total).toBe((23 * 60 + 18.5) * 60_000);
    expect(Object.isFrozen(DEFAULT_RETRY_DELAYS_MS)).toBe(true);
  });
});

describe('nextRetryDelayMs', () => {
  const base = { explicit: null, retryAfterSeconds: null, random: mid };

  it('walks the default schedule: 12 retries, then none (13 attempts)', () => {
    const delays = Array.from({ length: 13 }, (_, i) => nextRetryDelayMs({ ...base, attemptsMade: i + 1 }));
    expect(delays.slice(0, 12)).toEqual([...DEFAULT_RETRY_DELAYS_MS]);
    expect(delays[12]).toBeNull();
    expect(nextRetryDelayMs({ ...base, attemptsMade: 40 })).toBeNull();
  });

  it('jitters the default schedule by ±20 %', () => {
    expect(nextRetryDelayMs({ ...base, attemptsMade: 1, random: low })).toBe(24_000);
    expect(nextRetryDelayMs({ ...base, attemptsMade: 1, random: high })).toBe(36_000);
    expect(nextRetryDelayMs({ ...base, attemptsMade: 12, random: low })).toBe(0.8 * 9 * 3_600_000);
    for (let i = 0; i < 200; i++) {
      const d = nextRetryDelayMs({ ...base, attemptsMade: 3, random: Math.random })!;
      expect(d).toBeGreaterThanOrEqual(96_000);
      expect(d).toBeLessThanOrEqual(144_000);
    }
  });

  it('uses an explicit schedule exactly, without jitter', () => {
    const explicit = parseRetrySchedule('5s,1m,5m');
    const delays = [1, 2, 3, 4].map((attemptsMade) => nextRetryDelayMs({ ...base, explicit, attemptsMade, random: low }));
    expect(delays).toEqual([5_000, 60_000, 300_000, null]);
  });

  it.each([
    ['a longer Retry-After wins', 3, 600, 600_000],
    ['a shorter Retry-After does not shorten', 3, 10, 120_000],
    ['Retry-After is capped at one hour', 3, 86_400, 3_600_000],
    ['the cap never shortens the schedule', 12, 86_400, 9 * 3_600_000],
    ['Retry-After 0 is ignored', 1, 0, 30_000],
  ])('%s', (_name, attemptsMade, retryAfterSeconds, expected) => {
    expect(nextRetryDelayMs({ ...base, attemptsMade, retryAfterSeconds })).toBe(expected);
  });

  it('honours Retry-After with an explicit schedule too', () => {
    expect(nextRetryDelayMs({ ...base, explicit: [5_000], attemptsMade: 1, retryAfterSeconds: 120 })).toBe(120_000);
  });

  it('gives up even with a Retry-After when the schedule is spent', () => {
    expect(nextRetryDelayMs({ ...base, attemptsMade: 13, retryAfterSeconds: 60 })).toBeNull();
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses attemptsMade %d', (attemptsMade) => {
    expect(() => nextRetryDelayMs({ ...base, attemptsMade })).toThrow(RangeError);
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2025-03-04T10:00:00Z');

  it.each<[string | undefined, number | null]>([
    ['120', 120],
    [' 0 ', 0],
    ['Tue, 04 Mar 2025 10:05:00 GMT', 300],
    ['Tue, 04 Mar 2025 10:00:00 GMT', 0],
    ['Tue, 04 Mar 2025 09:00:00 GMT', 0],
    ['Tuesday, 04-Mar-25 10:01:00 GMT', 60],
    ['Tue Mar  4 10:00:30 2025', 30],
    [undefined, null],
    ['', null],
    ['-5', null],
    ['1.5', null],
    ['soon', null],
    ['foo 2025', null],
    ['Tue, 99 Foo 2025', null],
    ['99999999999999999999', null],
  ])('%o → %o', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});

describe('re-exported parsers', () => {
  it('are the lib ones', () => {
    expect(parseDuration('1m')).toBe(60_000);
    expect(parseRetrySchedule('1s,2s')).toEqual([1_000, 2_000]);
  });
});
