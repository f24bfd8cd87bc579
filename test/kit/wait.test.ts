import { describe, expect, it } from 'vitest';
import { until } from './wait.js';

describe('until', () => {
  it('asks again while the answer is null, undefined or false, and answers the first other one', async () => {
    const answers = [null, undefined, false, 0, 'late'];
    let asked = 0;
    // 0 is an answer: only the three "not yet" values are waited past.
    await expect(until('an answer', 1000, () => answers[asked++], 1)).resolves.toBe(0);
    expect(asked).toBe(4);
  });

  it('a condition waits until it holds', async () => {
    let n = 0;
    await expect(until('three asks', 1000, () => ++n >= 3, 1)).resolves.toBe(true);
  });

  it('fails naming what it waited for, with what was last seen', async () => {
    let last = 0;
    await expect(
      until(
        () => `the count at 1000 (last seen ${last})`,
        30,
        () => {
          last++;
          return null;
        },
        5,
      ),
    ).rejects.toThrow(/^the count at 1000 \(last seen \d+\): not after 30 ms$/);
    expect(last).toBeGreaterThan(1);
  });

  it('a probe that throws fails at once', async () => {
    await expect(
      until('never', 1000, () => {
        throw new Error('GET /x: 500');
      }),
    ).rejects.toThrow('GET /x: 500');
  });
});
