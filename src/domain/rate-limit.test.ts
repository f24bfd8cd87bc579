import { describe, expect, it } from 'vitest';
import { reservationSize, retryAfterSeconds, rollingCount, windowEdges } from './rate-limit.js';

const W = 60_000;
const at = (s: number) => 600_000 + s * 1000; // seconds past 00:10:00

describe('windowEdges', () => {
  it.each([
    { now: at(0), current: at(0), edge: at(-60), weight: 1 },
    { now: at(2), current: at(0), edge: at(-60), weight: 0.6 },
    { now: at(7.5), current: at(5), edge: at(-55), weight: 0.5 },
    { now: at(4.999), current: at(0), edge: at(-60), weight: 0.0002 },
  ])('at $now the current bucket starts at $current, the edge at $edge', ({ now, current, edge, weight }) => {
    const e = windowEdges(now, W);
    expect(e.currentStart).toBe(current);
    expect(e.edgeStart).toBe(edge);
    expect(e.edgeWeight).toBeCloseTo(weight, 6);
  });
});

describe('rollingCount', () => {
  const buckets = new Map([
    [at(-60), 10], // fades out during the first 5 s of the minute
    [at(-30), 20],
    [at(0), 5],
  ]);
  it.each([
    { now: at(0), expected: 35 },
    { now: at(2.5), expected: 30 },
    { now: at(5), expected: 25 },
    { now: at(31), expected: 5 + 16 },
    { now: at(35), expected: 5 },
    { now: at(65), expected: 0 },
  ])('at $now counts $expected', ({ now, expected }) => {
    expect(rollingCount(buckets, now, W)).toBe(expected);
  });

  it('does not count buckets after now', () => {
    expect(rollingCount(new Map([[at(10), 3]]), at(0), W)).toBe(0);
  });
});

describe('retryAfterSeconds', () => {
  it.each([
    // 100 requests at :00, limit 100: they must slide out; the first 20 go with the bucket's last second.
    { buckets: [[at(0), 100]], now: at(1), limit: 100, expected: 60 },
    // Old traffic fading at the edge: one second frees enough.
    {
      buckets: [
        [at(-60), 10],
        [at(0), 0],
      ],
      now: at(0),
      limit: 10,
      expected: 1,
    },
    // Spread traffic: wait until the first bucket with room has slid out.
    {
      buckets: [
        [at(-50), 40],
        [at(-20), 60],
      ],
      now: at(0),
      limit: 100,
      expected: 11,
    },
  ])('$expected s for $buckets at $now, limit $limit', ({ buckets, now, limit, expected }) => {
    expect(retryAfterSeconds(new Map(buckets as [number, number][]), now, limit, W)).toBe(expected);
  });

  it('after waiting the advised time, one more request fits; a second earlier it did not', () => {
    const cases: [Map<number, number>, number, number][] = [
      [new Map([[at(0), 100]]), at(1), 100],
      [
        new Map([
          [at(-45), 30],
          [at(-10), 70],
        ]),
        at(3),
        100,
      ],
      [
        new Map([
          [at(-58), 7],
          [at(-2), 3],
        ]),
        at(0.5),
        10,
      ],
    ];
    for (const [buckets, now, limit] of cases) {
      expect(rollingCount(buckets, now, W) + 1).toBeGreaterThan(limit);
      const wait = retryAfterSeconds(buckets, now, limit, W);
      expect(rollingCount(buckets, now + wait * 1000, W) + 1).toBeLessThanOrEqual(limit);
      if (wait > 1) expect(rollingCount(buckets, now + (wait - 1) * 1000, W) + 1).toBeGreaterThan(limit);
    }
  });
});

describe('reservationSize', () => {
  it.each([
    [1, 1],
    [100, 1],
    [9_999, 1],
    [10_000, 10],
    [25_500, 25],
    [1_000_000, 1_000],
  ])('limit %i a minute: %i slot(s) at a time', (limit, size) => {
    expect(reservationSize(limit)).toBe(size);
  });
});
