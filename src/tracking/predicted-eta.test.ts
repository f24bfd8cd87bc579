import { describe, expect, it } from 'vitest';
import { seaRoute } from '../lib/sea-routes/index.js';
import { type EtaInput, predictPodEta, recentSpeedKnots, reportedLocode, type VesselFix } from './predicted-eta.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const LOS_ANGELES = { latitude: 33.74, longitude: -118.26, name: 'Los Angeles' };
const MID_PACIFIC = { latitude: 35.0, longitude: -150.0 };
const h = (hours: number) => new Date(NOW.getTime() + hours * 3600_000);
const fix = (hoursAgo: number, speedKnots: number | null, at = MID_PACIFIC): VesselFix => ({ ...at, at: h(-hoursAgo), speedKnots });

const input = (over: Partial<EtaInput>): EtaInput => ({
  now: NOW,
  positions: [fix(6, 18), fix(3, 18), fix(1, 18)],
  pod: LOS_ANGELES,
  boundFor: null,
  carrierEta: null,
  podArrivedAt: null,
  ...over,
});

describe('recentSpeedKnots', () => {
  it.each([
    ['no positions', [], null],
    ['the median under way', [fix(1, 10), fix(2, 20), fix(3, 14)], 14],
    ['an even count averages the middle two', [fix(1, 10), fix(2, 20), fix(3, 14), fix(4, 16)], 15],
    ['drifting and unknown speeds are left out', [fix(1, 0.4), fix(2, null), fix(3, 17)], 17],
    ['only slow fixes: no speed', [fix(1, 0.2), fix(2, 2.9)], null],
    ['readings no ship makes are left out', [fix(1, 102.3), fix(2, 60), fix(3, 12)], 12],
    ['fixes more than a day before the latest are left out', [fix(1, 12), fix(30, 22), fix(40, 22)], 12],
  ] as const)('%s', (_name, positions, expected) => {
    expect(recentSpeedKnots(positions)).toBe(expected);
  });
});

describe('predictPodEta', () => {
  const distance = seaRoute(
    { lat: MID_PACIFIC.latitude, lon: MID_PACIFIC.longitude },
    { lat: LOS_ANGELES.latitude, lon: LOS_ANGELES.longitude },
  ).distanceNm;
  const expectedAt = new Date(h(-1).getTime() + (distance / 18) * 3600_000);

  it.each([
    ['arrived already', { podArrivedAt: h(-2) }],
    ['no port of discharge', { pod: null }],
    ['no positions', { positions: [] }],
    ['only a stale position', { positions: [fix(49, 18)] }],
    ['waiting at anchor (no speed under way)', { positions: [fix(3, 0.3), fix(1, 0.1)] }],
  ] as const)('nothing to predict: %s', (_name, over) => {
    expect(predictPodEta(input(over))).toBeNull();
  });

  it('extrapolates the remaining sea-route distance at the recent speed from the last fix', () => {
    const p = predictPodEta(input({}))!;
    expect(distance).toBeGreaterThan(1500);
    expect(p.distanceNm).toBeCloseTo(distance, 6);
    expect(p.speedKnots).toBe(18);
    expect(p.at.toISOString()).toBe(expectedAt.toISOString());
    expect(p.reason).toBeNull();
  });

  it('gives no reason within 12 hours of the carrier ETA', () => {
    const carrierEta = new Date(expectedAt.getTime() - 11 * 3600_000);
    expect(predictPodEta(input({ carrierEta }))!.reason).toBeNull();
  });

  it.each([
    ['later', 3 * 24, /arrives 3\.0 days after the carrier's ETA/],
    ['earlier', -20, /arrives 20 hours before the carrier's ETA/],
  ] as const)('says why when it is more than 12 hours %s than the carrier ETA', (_name, hoursAfterCarrier, text) => {
    const carrierEta = new Date(expectedAt.getTime() - hoursAfterCarrier * 3600_000);
    const p = predictPodEta(input({ carrierEta }))!;
    expect(p.reason).toMatch(text);
    expect(p.reason).toMatch(/nm by sea from Los Angeles at a recent 18\.0 kn/);
  });

  it('is the last fix time when the vessel is at the port already', () => {
    const atPort = { latitude: 33.745, longitude: -118.255 };
    const p = predictPodEta(input({ positions: [fix(2, 0.5, atPort)] }))!;
    expect(p.at.toISOString()).toBe(h(-2).toISOString());
    expect(p.distanceNm).toBe(0);
  });

  it.each([
    ['bound for the POD', { latitude: 33.74, longitude: -118.26, locode: 'USLAX' }],
    ['bound for the port beside it (Long Beach for Los Angeles)', { latitude: 33.75, longitude: -118.2, locode: 'USLGB' }],
    ['reporting no destination', null],
  ] as const)('predicts when %s', (_name, boundFor) => {
    expect(predictPodEta(input({ boundFor }))?.at.toISOString()).toBe(expectedAt.toISOString());
  });

  it('predicts nothing while the vessel is bound for another port: it calls there first', () => {
    const oakland = { latitude: 37.8, longitude: -122.3, locode: 'USOAK' };
    expect(predictPodEta(input({ boundFor: oakland }))).toBeNull();
  });
});

describe('reportedLocode', () => {
  const known = (code: string) => ['USSAV', 'USLAX', 'CNSHA', 'KRPUS'].includes(code);
  it.each([
    ['USSAV', 'USSAV'],
    [' us sav ', 'USSAV'],
    ['US-SAV', 'USSAV'],
    ['CNSHA>USLAX', 'USLAX'],
    ['CNSHA => USLAX', 'USLAX'],
    ['KRPUS>', null],
    ['SAVANNAH', null],
    ['BUSAN', null],
    ['FOR ORDERS', null],
    ['XXABC', null],
    ['', null],
    [null, null],
  ] as const)('%j → %j', (destination, expected) => {
    expect(reportedLocode(destination, known)).toBe(expected);
  });
});
