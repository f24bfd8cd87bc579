import { describe, expect, it } from 'vitest';
import { retryAfterSeconds, rollingCount, windowPosition } from './rate-limit.js';

const W = 60_000;

describe('windowPosition', () => {
  it.each([
    { now: 0, start: 0, weight: 1 },
    { now: 15_000, start: 0, weight: 0.75 },
    { now: 59_999, start: 0, weight: 1 - 59_999 / W },
    { now: 60_000, start: 60_000, weight: 1 },
    { now: 125_000, start: 120_000, weight: 1 - 5_000 / W },
  ])('at $now ms the window starts at $start', ({ now, start, weight }) => {
    const pos = windowPosition(now, W);
    expect(pos.windowStart).toBe(start);
    expect(pos.previousWeight).toBeCloseTo(weight, 10);
  });
});

describe('rollingCount', () => {
  it.each([
    { previous: 0, current: 0, elapsed: 0, expected: 0 },
    { previous: 100, current: 0, elapsed: 0, expected: 100 },
    { previous: 100, current: 0, elapsed: 30_000, expected: 50 },
    { previous: 100, current: 10, elapsed: 45_000, expected: 35 },
    { previous: 99, current: 0, elapsed: 59_999, expected: 0 },
  ])('prev $previous, cur $current, $elapsed ms in → $expected', ({ previous, current, elapsed, expected }) => {
    expect(rollingCount(previous, current, windowPosition(600_000 + elapsed, W))).toBe(expected);
  });
});

describe('retryAfterSeconds', () => {
  it.each([
    // A full window early on: the next window's weighted remainder must fall under the limit.
    { now: 1_000, limit: 100, previous: 0, current: 100, expected: 60 },
    // Full window late: wait for the next window to start and for 1 % of it to slide out.
    { now: 59_000, limit: 100, previous: 0, current: 100, expected: 2 },
    // This window has room, the previous one is too heavy: wait until enough of it has slid out.
    { now: 600_000 + 5_000, limit: 100, previous: 100, current: 10, expected: 2 },
    { now: 600_000, limit: 10, previous: 10, current: 0, expected: 1 },
  ])('limit $limit, prev $previous, cur $current at $now → $expected s', ({ now, limit, previous, current, expected }) => {
    expect(retryAfterSeconds(now, W, limit, previous, current)).toBe(expected);
  });

  it('is never below one second', () => {
    expect(retryAfterSeconds(59_999, W, 100, 0, 100)).toBeGreaterThanOrEqual(1);
  });

  it('after waiting the advised time, one more request fits', () => {
    for (const [now, limit, previous, current] of [
      [1_000, 100, 0, 100],
      [605_000, 100, 100, 10],
      [600_000, 10, 10, 0],
      [630_000, 200, 150, 130],
    ] as const) {
      const wait = retryAfterSeconds(now, W, limit, previous, current);
      const later = now + wait * 1000;
      const pos = windowPosition(later, W);
      const sameWindow = pos.windowStart === windowPosition(now, W).windowStart;
      const seen = sameWindow ? rollingCount(previous, current, pos) : rollingCount(current, 0, pos);
      expect(seen + 1).toBeLessThanOrEqual(limit);
    }
  });
});
