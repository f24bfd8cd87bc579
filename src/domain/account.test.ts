import { describe, expect, it } from 'vitest';
import { activeContainerCap, applyFeatureChanges, hasFeature, rateLimitFor } from './account.js';

describe('account rules', () => {
  it.each([
    { current: [], enable: ['routing'], disable: [], expected: ['routing'] },
    { current: ['routing', 'refresh'], enable: [], disable: ['routing'], expected: ['refresh'] },
    { current: ['widget'], enable: ['routing', 'widget'], disable: [], expected: ['routing', 'widget'] },
    { current: ['refresh'], enable: ['refresh'], disable: ['refresh'], expected: [] },
  ] as const)('features $current +$enable -$disable → $expected', ({ current, enable, disable, expected }) => {
    expect(applyFeatureChanges(current, enable, disable)).toEqual(expected);
  });

  it('caps the free plan at 10 active containers and leaves unlimited uncapped', () => {
    expect(activeContainerCap('free')).toBe(10);
    expect(activeContainerCap('unlimited')).toBeNull();
  });

  it('uses the reference limits unless the account overrides a bucket', () => {
    const account = { rateLimits: { default: 5000 } };
    expect(rateLimitFor(account, 'default')).toBe(5000);
    expect(rateLimitFor(account, 'create_tracking_request')).toBe(100);
    expect(rateLimitFor(account, 'infer_number')).toBe(200);
    expect(rateLimitFor(account, 'refresh_container')).toBe(10);
  });

  it('checks features', () => {
    expect(hasFeature({ features: ['routing'] }, 'routing')).toBe(true);
    expect(hasFeature({ features: ['routing'] }, 'refresh')).toBe(false);
  });
});
