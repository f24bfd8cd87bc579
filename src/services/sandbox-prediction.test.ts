// The sandbox's documented `succeeded` number (MAEU240100001) is mid-voyage at first sight on whatever day it is
// first tracked: its vessel left the POL, is under way to the POD (not lying at a call of its rotation on the way),
// so the AIS sweep's positions give a speed and Tidemark predicts its arrival (`predicted_pod_eta_at`). Its story is
// anchored at the world time of first sight, so the days and hours are swept. Pure: the sandbox world's story and
// AIS answer (what the sweep stores), the predictor and the port table, as VesselService.predictArrivals combines
// them. (Before the sandbox chose a sailing under way, a first sight between 21:00 on 2026-11-27 and 06:00 the next
// day UTC found the vessel berthed at Busan for the whole day the AIS answer covers: no speed, no prediction.)
import { describe, expect, it } from 'vitest';
import { aisAnswer, carrierAnswer, sandboxExamples, type Story, tellStory } from '../sandbox/world/index.js';
import { predictPodEta, reportedLocode } from '../tracking/predicted-eta.js';
import { findPort } from './places.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const SUCCEEDED = sandboxExamples().find((e) => e.scenario === 'succeeded')!;

/** The port an AIS destination names (as VesselService.predictArrivals reads it). */
const boundFor = (destination: string | null) => {
  const locode = reportedLocode(destination, (c) => findPort(c) !== undefined);
  const port = locode ? findPort(locode)! : null;
  return port && locode ? { latitude: port.latitude, longitude: port.longitude, locode } : null;
};

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
    // Bound for the POD: the story picks a sailing on its last passage at first sight (story.ts chainBackward).
    boundFor: boundFor(ais.positions.at(-1)!.destination ?? null),
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

// Issue 24: AIS positions follow the schedule. On the final leg (from the POD vessel's last call before the POD), in
// 12-hour steps, the prediction from the AIS answer's positions (bound for the POD, as the positions' destination
// says) agrees with the carrier's current vessel_arrived estimate within 12 hours; before it, while the vessel
// reports another destination (it calls there first, e.g. New York and Norfolk before Savannah), there is none.
// A story whose vessel is delayed (slow legs, waits at anchor in the rotation) shows both later than the schedule.

interface Step {
  t: number;
  predicted: number | null;
  carrier: number | null;
  destination: string | null;
}

/** What AIS, the predictor and the carrier say at t about the story's arrival at its POD. */
function stepAt(story: Story, t: number): Step {
  const leg = story.legs.at(-1)!;
  const ais = aisAnswer(story.key.seed, leg.imo, new Date(t));
  if (ais.status !== 'ok') throw new Error(`no AIS track of ${leg.imo}`);
  const port = findPort(story.pod!.locode)!;
  const destination = ais.positions.at(-1)!.destination;
  const predicted = predictPodEta({
    now: new Date(t),
    positions: ais.positions.map((p) => ({ latitude: p.latitude, longitude: p.longitude, at: new Date(p.at), speedKnots: p.speedKnots })),
    pod: { latitude: port.latitude, longitude: port.longitude, name: port.name },
    boundFor: boundFor(destination),
    carrierEta: null,
    podArrivedAt: null,
  });
  const answer = carrierAnswer(story, new Date(t));
  const eta =
    answer.status === 'ok'
      ? answer.facts.milestones.find((m) => m.milestone === 'vessel_arrived' && m.classifier === 'estimated')
      : undefined;
  return { t, predicted: predicted?.at.getTime() ?? null, carrier: eta?.when.at ? Date.parse(eta.when.at) : null, destination };
}

/** The POD vessel's last departure before the POD: the start of the final leg. */
function finalLegStart(story: Story): number {
  const leg = story.legs.at(-1)!;
  let t = leg.arriveAt - HOUR;
  while (t > leg.departAt) {
    const a = aisAnswer(story.key.seed, leg.imo, new Date(t), { from: new Date(t), to: new Date(t) });
    if (a.status !== 'ok' || a.positions[0]!.speedKnots === 0) break;
    t -= HOUR;
  }
  return t;
}

function ordinaryStories(n: number, seed: string): Story[] {
  const scacs = ['MAEU', 'HLCU', 'ONEY', 'COSU', 'MSCU', 'CMDU', 'EGLV', 'OOLU'];
  return Array.from({ length: n }, (_, i) =>
    tellStory({
      seed,
      scac: scacs[i % scacs.length]!,
      numberType: 'bill_of_lading',
      number: `AISETA${100000 + i}`,
      anchorAt: new Date(Date.UTC(2026, 5, 1) + i * 11 * HOUR),
    }),
  );
}

describe('AIS positions follow the schedule (sandbox world)', () => {
  const stories = [
    ...ordinaryStories(60, 'ais-eta'),
    tellStory({
      seed: 'ais-eta',
      scac: 'CMDU',
      numberType: 'bill_of_lading',
      number: 'CMDU240300003',
      anchorAt: new Date('2026-06-01T00:00:00Z'),
    }),
  ];

  it('on the final leg the prediction agrees with the carrier ETA within 12 hours, direct and with transshipment', () => {
    let compared = 0;
    let transshipped = 0;
    for (const story of stories) {
      const leg = story.legs.at(-1)!;
      const start = finalLegStart(story);
      let here = 0;
      for (let t = start + 12 * HOUR; t < leg.arriveAt; t += 12 * HOUR) {
        const s = stepAt(story, t);
        expect(s.destination, `${story.number} at ${new Date(t).toISOString()}`).toBe(story.pod!.locode);
        expect(s.predicted, `${story.number} at ${new Date(t).toISOString()}: a prediction`).not.toBeNull();
        if (s.carrier === null) continue;
        expect(Math.abs(s.predicted! - s.carrier) / HOUR, `${story.number} at ${new Date(t).toISOString()}`).toBeLessThanOrEqual(12);
        here++;
      }
      compared += here;
      if (here > 0 && story.legs.length > 1) transshipped++;
    }
    expect(compared).toBeGreaterThan(200);
    expect(transshipped).toBeGreaterThan(3);
  });

  it('before the final leg, a vessel bound for another call first gets no prediction', () => {
    let passing = 0;
    for (const story of stories) {
      const leg = story.legs.at(-1)!;
      const start = finalLegStart(story);
      for (let t = leg.departAt + 12 * HOUR; t < start; t += 12 * HOUR) {
        const s = stepAt(story, t);
        expect(s.destination).not.toBe(story.pod!.locode);
        expect(s.predicted, `${story.number} bound for ${s.destination} at ${new Date(t).toISOString()}`).toBeNull();
        passing++;
      }
    }
    expect(passing).toBeGreaterThan(20);
  });

  it('a delayed vessel shows both the prediction and the carrier ETA later than the schedule', () => {
    const delayed = stories.filter((s) => {
      const e = s.events.find((x) => x.milestone === 'vessel_arrived')!;
      return e.at - e.nominal >= 24 * HOUR;
    });
    expect(delayed.length).toBeGreaterThan(3);
    for (const story of delayed) {
      const e = story.events.find((x) => x.milestone === 'vessel_arrived')!;
      const start = finalLegStart(story);
      const s = stepAt(story, Math.min(start + 24 * HOUR, start + (e.at - start) / 2));
      expect(s.predicted! - e.nominal, story.number).toBeGreaterThan(12 * HOUR);
      expect(s.carrier! - e.nominal, story.number).toBeGreaterThan(12 * HOUR);
    }
  });
});
