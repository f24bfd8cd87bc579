import { describe, expect, it } from 'vitest';
import { checkContainerNumber } from '../../domain/container-number.js';
import { MILESTONES } from '../../domain/milestones.js';
import type { NumberType } from '../../sources/contract.js';
import { carrierAnswer, nextChangeAt, railAnswer, terminalAnswer } from './answers.js';
import { isValidImo } from '../../domain/imo.js';
import { fleet, rotation, SERVICES, vesselSpeed, vesselStateAt, vesselsOfService } from './network.js';
import { buildStory, type Story, type StoryKey, tellStory } from './story.js';
import { DAY, HOUR } from './time.js';

const ANCHOR = new Date('2026-03-01T00:00:00Z');
const key = (number: string, over: Partial<StoryKey> = {}): StoryKey => ({
  seed: 'test-seed',
  scac: 'MAEU',
  numberType: 'bill_of_lading',
  number,
  anchorAt: ANCHOR,
  ...over,
});
const at = (days: number) => new Date(ANCHOR.getTime() + days * DAY);

/** A spread of ordinary stories: BLs, bookings and containers over several carriers. */
function ordinaryStories(n: number, seed = 'test-seed'): Story[] {
  const scacs = ['MAEU', 'MSCU', 'HLCU', 'ONEY', 'COSU', 'ZIMU', 'GOSU', 'ACLU', 'TEST'];
  const types: NumberType[] = ['bill_of_lading', 'booking_number', 'container'];
  const out: Story[] = [];
  for (let i = 0; i < n; i++) {
    const numberType = types[i % 3]!;
    const number = numberType === 'container' ? `TGHU${String(100000 + i).padStart(6, '0')}${'0'}` : `ORD${1000000 + i}`;
    const valid = numberType === 'container' ? fixCheckDigit(number) : number;
    out.push(
      tellStory(
        key(valid, { seed, scac: scacs[i % scacs.length]!, numberType, anchorAt: new Date(ANCHOR.getTime() + (i % 7) * 3 * HOUR) }),
      ),
    );
  }
  return out;
}

function fixCheckDigit(n: string): string {
  const c = checkContainerNumber(n);
  return c.valid ? c.normalized : `${n.slice(0, 10)}${c.valid === false && c.expectedCheckDigit !== undefined ? c.expectedCheckDigit : 0}`;
}

describe('determinism', () => {
  it.each(['MAEU123456789', 'HLCU987654321', 'ONEY555000111'])('the same key and world time give deep-equal answers (%s)', (number) => {
    const a = buildStory(key(number));
    const b = buildStory(key(number));
    expect(a).toEqual(b);
    for (const d of [-5, 0, 3, 10, 30, 60]) {
      expect(carrierAnswer(a, at(d))).toEqual(carrierAnswer(b, at(d)));
      for (const c of a.containers) {
        expect(terminalAnswer(a, c, at(d))).toEqual(terminalAnswer(b, c, at(d)));
        expect(railAnswer(a, c, at(d))).toEqual(railAnswer(b, c, at(d)));
      }
    }
  });

  it('a different seed tells a different world', () => {
    expect(fleet('seed-a').map((v) => v.imo)).not.toEqual(fleet('seed-b').map((v) => v.imo));
    const a = buildStory(key('MAEU123456789', { seed: 'seed-a' }));
    const b = buildStory(key('MAEU123456789', { seed: 'seed-b' }));
    expect(a.containers).not.toEqual(b.containers);
    expect(carrierAnswer(a, at(1))).not.toEqual(carrierAnswer(b, at(1)));
  });

  it('tells the same story from a cache after the first time, and fast', () => {
    ordinaryStories(30);
    const t0 = performance.now();
    const stories = ordinaryStories(30, 'test-seed');
    for (const s of stories) carrierAnswer(s, at(2));
    expect(performance.now() - t0).toBeLessThan(200);
  });
});

describe('fleet and network', () => {
  const vessels = fleet('test-seed');

  it('has 60–120 vessels with valid, unique IMO numbers, 9-digit MMSIs and names', () => {
    expect(vessels.length).toBeGreaterThanOrEqual(60);
    expect(vessels.length).toBeLessThanOrEqual(120);
    expect(new Set(vessels.map((v) => v.imo)).size).toBe(vessels.length);
    expect(new Set(vessels.map((v) => v.mmsi)).size).toBe(vessels.length);
    expect(new Set(vessels.map((v) => v.name)).size).toBe(vessels.length);
    for (const v of vessels) {
      expect(isValidImo(v.imo), v.imo).toBe(true);
      expect(v.mmsi).toMatch(/^\d{9}$/);
    }
  });

  it.each([
    ['9074729', true],
    ['9074728', false],
    ['9321483', true],
    ['123456', false],
  ])('IMO check digit of %s is %s', (imo, valid) => {
    expect(isValidImo(imo)).toBe(valid);
  });

  it.each(SERVICES.map((s) => [s.code, s] as const))(
    'service %s: speeds 14–20 kn (feeders 11–18), stays 12–48 h, calls in order',
    (_, s) => {
      for (const v of vesselsOfService('test-seed', s.code)) {
        const speed = vesselSpeed('test-seed', v.imo);
        if (s.kind === 'mainline') expect(speed, `${v.name}`).toBeGreaterThanOrEqual(13.9);
        else expect(speed).toBeGreaterThanOrEqual(10);
        expect(speed).toBeLessThanOrEqual(20.1);
        for (const k of [0, 50, 51, 200]) {
          const r = rotation('test-seed', v.imo, k);
          let last = r.start - 1;
          for (const c of r.calls) {
            expect(c.arrive).toBeGreaterThan(last);
            expect(c.depart - c.arrive).toBeGreaterThanOrEqual(12 * HOUR - 1);
            expect(c.depart - c.arrive).toBeLessThanOrEqual(s.kind === 'mainline' ? 48 * HOUR + 30 * HOUR + 1 : 24 * HOUR + 30 * HOUR + 1);
            last = c.depart;
          }
          expect(r.end).toBeGreaterThan(last);
        }
      }
    },
  );

  it('a vessel is in port between arrival and departure, at sea in between, with sane speeds', () => {
    const v = vessels[0]!;
    const r = rotation('test-seed', v.imo, 300);
    for (const c of r.calls) {
      const inPort = vesselStateAt('test-seed', v.imo, c.arrive + HOUR);
      expect(inPort.inPort).toBe(c.locode);
      expect(inPort.speedKnots).toBe(0);
      const atSea = vesselStateAt('test-seed', v.imo, c.depart + HOUR);
      expect(atSea.inPort).toBeNull();
      expect(atSea.speedKnots).toBeGreaterThan(8);
      expect(atSea.speedKnots).toBeLessThan(24);
      expect(atSea.headingDeg).toBeGreaterThanOrEqual(0);
      expect(atSea.headingDeg).toBeLessThan(360);
    }
  });
});

describe('stories', () => {
  const stories = ordinaryStories(90);

  it('every container number (and chassis number) is valid ISO 6346, every vessel IMO valid', () => {
    for (const s of stories) {
      expect(s.containers.length).toBeGreaterThanOrEqual(1);
      expect(s.containers.length).toBeLessThanOrEqual(6);
      for (const c of s.containers) expect(checkContainerNumber(c).valid, c).toBe(true);
      for (const y of s.yards) expect(checkContainerNumber(y.chassisNumber).valid).toBe(true);
      for (const imo of s.vesselImos) expect(isValidImo(imo)).toBe(true);
      for (const e of s.equipment) {
        expect(e.isoSizeType).toMatch(/^[24L][25][GRUTP][0-9]$/);
        expect(e.weightLbs).toBeGreaterThan(5000);
      }
    }
  });

  it('container requests build the story around the container; BL requests keep the BL; BLs use the carrier prefix', () => {
    for (const s of stories) {
      if (s.key.numberType === 'container') expect(s.containers[0]).toBe(s.number);
      if (s.key.numberType === 'bill_of_lading') expect(s.billOfLading).toBe(s.number);
      if (s.key.numberType === 'booking_number') expect(s.bookingNumber).toBe(s.number);
    }
    const hapag = stories.filter((s) => s.carrierScac === 'HLCU' && s.key.numberType !== 'bill_of_lading');
    expect(hapag.length).toBeGreaterThan(0);
    for (const s of hapag) expect(s.billOfLading).toMatch(/^HLCU\d{9,10}$/);
  });

  it('mixes direct, transshipment and rail journeys over real ports, US/CA PODs with a terminal', () => {
    expect(stories.some((s) => s.legs.length === 1)).toBe(true);
    expect(stories.some((s) => s.legs.length > 1)).toBe(true);
    const rail = stories.filter((s) => s.rail !== null).length;
    expect(rail / stories.length).toBeGreaterThan(0.1);
    expect(rail / stories.length).toBeLessThan(0.5);
    for (const s of stories) {
      expect(['US', 'CA']).toContain(s.pod!.locode.slice(0, 2));
      expect(s.podTerminalFirms.length).toBeGreaterThanOrEqual(1);
    }
  });

  it('actual milestones are chronological in the logical order for every container, with stable ids and reportedAt ≤ world time', () => {
    const order = (m: string) => MILESTONES.indexOf(m as (typeof MILESTONES)[number]);
    for (const s of stories) {
      const w = at(90);
      const a = carrierAnswer(s, w);
      if (a.status !== 'ok') continue;
      const actual = a.facts.milestones.filter((m) => m.classifier === 'actual');
      for (const m of a.facts.milestones) {
        expect(Date.parse(m.reportedAt!)).toBeLessThanOrEqual(w.getTime());
        if (m.containerNumber === null && m.mode !== 'rail') {
          expect([
            'vessel_departed',
            'vessel_arrived',
            'vessel_berthed',
            'transshipment_arrived',
            'transshipment_departed',
            'feeder_arrived',
            'feeder_departed',
          ]).toContain(m.milestone);
          expect(m.vessel).not.toBeNull();
          expect(m.voyage).not.toBeNull();
          expect(m.mode).toBe('vessel');
        }
        if (m.milestone.startsWith('rail_')) {
          // DCSA carriers name no railroad, and a train's departure or arrival is not one container's.
          expect(m.railCarrierScac).toBeNull();
          expect(m.mode).toBe('rail');
          expect(m.containerNumber === null).toBe(m.milestone === 'rail_departed' || m.milestone === 'rail_arrived');
        }
      }
      expect(new Set(a.facts.milestones.map((m) => m.sourceEventId)).size).toBe(a.facts.milestones.length);
      const times = (m: (typeof actual)[number]) => Date.parse(m.when.at ?? `${m.when.localDate}T00:00:00Z`);
      for (let i = 1; i < actual.length; i++)
        expect(times(actual[i]!)).toBeGreaterThanOrEqual(times(actual[i - 1]!) - (actual[0]!.when.at ? 0 : DAY));
      for (const c of s.containers) {
        const seq = s.events.filter((e) => e.container === c);
        expect(seq[0]!.milestone).toBe('empty_out');
        expect(seq.at(-1)!.milestone).toBe('empty_in');
        const pick = (m: string) => seq.find((e) => e.milestone === m)!.at;
        expect(pick('empty_out')).toBeLessThan(pick('full_in'));
        expect(pick('full_in')).toBeLessThan(pick('vessel_loaded'));
        expect(pick('vessel_loaded')).toBeLessThan(pick('vessel_discharged'));
        if (s.rail) expect(pick('vessel_discharged')).toBeLessThan(pick('rail_loaded'));
        else expect(pick('vessel_discharged')).toBeLessThan(pick('available'));
        void order;
      }
    }
  });

  it('a fact keeps its id and time across world times once actual', () => {
    for (const s of stories.slice(0, 20)) {
      const a1 = carrierAnswer(s, at(40));
      const a2 = carrierAnswer(s, at(80));
      if (a1.status !== 'ok' || a2.status !== 'ok') continue;
      for (const m of a1.facts.milestones.filter((x) => x.classifier === 'actual')) {
        const again = a2.facts.milestones.find((x) => x.sourceEventId === m.sourceEventId);
        expect(again).toEqual(m);
      }
    }
  });

  it('whoever tells a box discharged at the POD has told the vessel arrived and berthed there: the terminal tells its vessel visit', () => {
    let seen = 0;
    for (const s of stories.slice(0, 60)) {
      const berth = s.events.find((e) => e.milestone === 'vessel_berthed')!;
      const last = Math.max(...s.events.filter((e) => e.milestone === 'vessel_discharged').map((e) => e.at + e.lag));
      for (let w = berth.at; w <= last + HOUR; w += 10 * 60_000) {
        const t = new Date(w);
        const actual = (ms: { milestone: string; classifier: string; containerNumber: string | null }[], c: string | null) =>
          new Set(ms.filter((m) => m.classifier === 'actual' && (c === null || m.containerNumber === c)).map((m) => m.milestone));
        for (const c of s.containers) {
          const terminal = terminalAnswer(s, c, t);
          if (terminal.status !== 'ok') continue;
          const told = actual(terminal.milestones, c);
          if (!told.has('vessel_discharged')) continue;
          seen++;
          expect([...told]).toEqual(expect.arrayContaining(['vessel_arrived', 'vessel_berthed']));
          for (const m of terminal.milestones) expect(m.containerNumber).toBe(c);
        }
        const carrier = carrierAnswer(s, t);
        if (carrier.status !== 'ok' || !carrier.facts.milestones.some((m) => m.milestone === 'vessel_departed')) continue;
        const told = actual(carrier.facts.milestones, null);
        if (told.has('vessel_discharged')) expect([...told]).toEqual(expect.arrayContaining(['vessel_arrived', 'vessel_berthed']));
      }
    }
    expect(seen).toBeGreaterThan(100);
  });

  it('vessel positions agree with carrier events: at the POD when the arrival is actual, in port at the POL before departure', () => {
    for (const s of stories.slice(0, 40)) {
      const leg = s.legs.at(-1)!;
      const arrival = s.events.find((e) => e.milestone === 'vessel_arrived')!;
      expect(arrival.vessel!.imo).toBe(leg.imo);
      const state = vesselStateAt(s.key.seed, leg.imo, arrival.at + 30 * 60_000);
      expect(state.inPort).toBe(s.pod!.locode);
      const discharged = s.events.filter((e) => e.milestone === 'vessel_discharged');
      for (const d of discharged) expect(vesselStateAt(s.key.seed, leg.imo, d.at).inPort).toBe(s.pod!.locode);
      const first = s.legs[0]!;
      const departed = s.events.find((e) => e.milestone === 'vessel_departed')!;
      expect(vesselStateAt(s.key.seed, first.imo, departed.at - HOUR).inPort).toBe(s.pol!.locode);
      expect(vesselStateAt(s.key.seed, first.imo, departed.at + HOUR).inPort).toBeNull();
    }
  });

  it('estimated arrivals change over time while the voyage drifts, then become actual', () => {
    let changing = 0;
    let checked = 0;
    for (const s of stories) {
      const arrival = s.events.find((e) => e.milestone === 'vessel_arrived')!;
      if (arrival.at - s.anchorMs < 5 * DAY) continue;
      checked++;
      const seen = new Set<string>();
      for (let t = s.anchorMs; t < arrival.at; t += 12 * HOUR) {
        const a = carrierAnswer(s, new Date(t));
        if (a.status !== 'ok') continue;
        const m = a.facts.milestones.find((x) => x.milestone === 'vessel_arrived');
        if (m && m.classifier === 'estimated') seen.add(m.when.at ?? m.when.localDate!);
      }
      if (seen.size >= 2) changing++;
      const after = carrierAnswer(s, new Date(arrival.at + arrival.lag));
      if (after.status === 'ok' && after.facts.milestones.some((x) => x.milestone === 'vessel_arrived')) {
        expect(after.facts.milestones.find((x) => x.milestone === 'vessel_arrived')!.classifier).toBe('actual');
      }
    }
    expect(checked).toBeGreaterThan(10);
    expect(changing / checked).toBeGreaterThan(0.8);
  });

  it('anchors ordinary stories mostly mid-voyage, sometimes before departure, rarely after discharge; bookings well before sailing', () => {
    const all = ordinaryStories(150, 'anchor-seed');
    const many = all.filter((s) => s.key.numberType !== 'booking_number');
    for (const s of all.filter((s) => s.key.numberType === 'booking_number')) {
      expect(s.legs[0]!.departAt - s.anchorMs).toBeGreaterThanOrEqual(14 * DAY);
    }
    let before = 0;
    let during = 0;
    let after = 0;
    for (const s of many) {
      const dep = s.legs[0]!.departAt;
      const arr = s.legs.at(-1)!.arriveAt;
      if (s.anchorMs < dep) before++;
      else if (s.anchorMs < arr) during++;
      else after++;
    }
    expect(during / many.length).toBeGreaterThan(0.6);
    expect(before).toBeGreaterThan(0);
    expect(after / many.length).toBeLessThan(0.2);
  });

  it('nextChangeAt returns an instant at which something really changes, and nothing changes before it', () => {
    const fp = (s: Story, t: number) =>
      JSON.stringify([
        carrierAnswer(s, new Date(t)),
        ...s.containers.flatMap((c) => [terminalAnswer(s, c, new Date(t)), railAnswer(s, c, new Date(t))]),
      ]);
    for (const s of stories.slice(0, 12)) {
      let t = s.anchorMs;
      for (let step = 0; step < 25; step++) {
        const next = nextChangeAt(s, new Date(t));
        if (!next) {
          expect(fp(s, t)).toBe(fp(s, t + 400 * DAY));
          break;
        }
        const n = next.getTime();
        expect(n).toBeGreaterThan(t);
        expect(fp(s, n)).not.toBe(fp(s, t));
        expect(fp(s, n - 1)).toBe(fp(s, t));
        t = n + step * 7 * HOUR;
      }
    }
  });

  it('a story over is over: nextChangeAt is null long after the empty return', () => {
    const s = stories[0]!;
    expect(nextChangeAt(s, new Date(s.events.at(-1)!.at + 30 * DAY))).toBeNull();
  });
});

describe('number validity', () => {
  it.each([
    ['bill_of_lading', 'MAEU12', 'ok'],
    ['bill_of_lading', ' maeu123456789 ', 'ok'],
    ['bill_of_lading', 'ABC12', 'invalid_number'],
    ['bill_of_lading', 'MAEU-12345678', 'invalid_number'],
    ['booking_number', '123456789012345678901', 'invalid_number'],
    ['booking_number', '12345678901234567890', 'ok'],
    ['container', 'MSKU1234565', 'ok'],
    ['container', 'MSKU12345', 'invalid_number'],
  ] as const)('%s %j → %s', (numberType, number, status) => {
    const a = carrierAnswer(tellStory(key(number, { numberType })), at(1));
    expect(a.status).toBe(status);
  });
});
