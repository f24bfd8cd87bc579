// The sandbox's documented `succeeded` number (MAEU240100001) is mid-voyage at first sight on whatever day it is
// first tracked: its vessel left the POL, is under way to the POD (not lying at a call of its rotation on the way),
// so the AIS sweep's positions give a speed and Tidemark predicts its arrival (`predicted_pod_eta_at`). Its story is
// anchored at the world time of first sight, so the days and hours are swept. Pure: the sandbox world's story and
// AIS answer (what the sweep stores), the predictor and the port table, as VesselService.predictArrivals combines
// them. (Before the sandbox chose a sailing under way, a first sight between 21:00 on 2026-11-27 and 06:00 the next
// day UTC found the vessel berthed at Busan for the whole day the AIS answer covers: no speed, no prediction.)
import { describe, expect, it } from 'vitest';
import { aisAnswer, sandboxExamples, tellStory } from '../sandbox/world/index.js';
import { predictPodEta } from '../tracking/predicted-eta.js';
import { findPort } from './places.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const SUCCEEDED = sandboxExamples().find((e) => e.scenario === 'succeeded')!;

/** What Tidemark knows and predicts `hoursOn` after the number is first seen at `anchor`. */
function firstSight(seed: string, anchor: Date, hoursOn: number) {
  const story = tellStory({
    seed,
    scac: SUCCEEDED.scac!,
    numberType: SUCCEEDED.request_type,
    number: SUCCEEDED.request_number,
    anchorAt: anchor,
  });
  const leg = story.legs.at(-1)!;
  const now = new Date(anchor.getTime() + hoursOn * HOUR);
  const ais = aisAnswer(seed, leg.imo, now);
  if (ais.status !== 'ok') throw new Error(`no AIS track of ${leg.imo}`);
  const port = findPort(story.pod!.locode)!;
  const predicted = predictPodEta({
    now,
    positions: ais.positions.map((p) => ({ latitude: p.latitude, longitude: p.longitude, at: new Date(p.at), speedKnots: p.speedKnots })),
    pod: { latitude: port.latitude, longitude: port.longitude, name: port.name },
    carrierEta: null,
    podArrivedAt: null,
  });
  return { departAt: story.legs[0]!.departAt, arriveAt: leg.arriveAt, now: now.getTime(), predicted };
}

function expectPredicted(seed: string, anchor: Date) {
  // At first sight (the worker's first AIS sweep) and six hours on (the web flow's look at the map).
  for (const hoursOn of [0, 6]) {
    const s = firstSight(seed, anchor, hoursOn);
    const where = `${seed} first seen ${anchor.toISOString()}, ${hoursOn} h on`;
    expect(s.departAt, `${where}: departed the POL`).toBeLessThan(anchor.getTime());
    expect(s.arriveAt, `${where}: not yet at the POD`).toBeGreaterThan(s.now);
    expect(s.predicted, `${where}: a predicted arrival`).not.toBeNull();
    expect(s.predicted!.at.getTime(), `${where}: predicted ahead`).toBeGreaterThan(s.now);
  }
}

describe('the sandbox succeeded number has a predicted arrival whatever day it is first tracked', () => {
  it.each([
    '2026-11-25T23:23:36Z',
    '2026-11-26T23:23:36Z',
    '2026-11-27T23:23:36Z',
    '2026-11-28T00:00:00Z',
    '2026-11-28T05:00:00Z',
    '2026-11-28T23:23:36Z',
    '2026-12-05T00:00:00Z',
    '2026-12-05T12:00:00Z',
  ])('first tracked %s', (at) => {
    expectPredicted('tidemark', new Date(at));
  });

  it('every 7 hours over three weeks (every phase of a weekly service, every hour of the day), in two worlds', () => {
    for (const [seed, start] of [
      ['tidemark', '2027-01-04T00:00:00Z'],
      ['another-world', '2026-06-01T00:00:00Z'],
    ] as const) {
      for (let t = Date.parse(start); t < Date.parse(start) + 21 * DAY; t += 7 * HOUR) expectPredicted(seed, new Date(t));
    }
  });
});
