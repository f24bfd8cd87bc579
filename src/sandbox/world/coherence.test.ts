// The world hangs together the way a logistics user expects (issue "Container truth II", section 2): one vessel
// call, one terminal and one last free day for all its boxes; the line's LFD equal to the terminal's or longer by
// contract; trucks at the gates only in gate hours; export boxes in the stack days before their vessel loads them.
// Pure: many ordinary stories across carriers, number types and seeds.
import { describe, expect, it } from 'vitest';
import type { NumberType } from '../../sources/contract.js';
import { carrierAnswer } from './answers.js';
import { podTerminalAt, type Story, tellStory } from './story.js';
import { gateOpenAt, terminalRules } from './terminal-rules.js';
import { DAY, HOUR, localDate } from './time.js';

const ANCHOR = Date.parse('2026-04-06T00:00:00Z');
const SCACS = ['MAEU', 'MSCU', 'HLCU', 'ONEY', 'CMDU', 'COSU', 'EGLV', 'ZIMU', 'YMLU', 'OOLU', 'HDMU'];

function stories(n: number, seed: string): Story[] {
  const types: NumberType[] = ['bill_of_lading', 'booking_number'];
  const out: Story[] = [];
  for (let i = 0; i < n; i++) {
    // Anchors a day apart, so many stories share the weekly calls of the same services.
    out.push(
      tellStory({
        seed,
        scac: SCACS[i % SCACS.length]!,
        numberType: types[i % 2]!,
        number: `COH${seed.length}${String(100000 + i)}`,
        anchorAt: new Date(ANCHOR + (i % 40) * DAY),
      }),
    );
  }
  return out;
}

const SAMPLE = [...stories(260, 'coherence'), ...stories(140, 'tidemark')];

describe('one vessel call', () => {
  it('discharges at one terminal and gives all its boxes one terminal LFD (a box bound for rail aside)', () => {
    const calls = new Map<string, { terminal: string; lfd: string; who: string }>();
    let shared = 0;
    for (const s of SAMPLE) {
      if (s.scenario !== 'ordinary') continue;
      const leg = s.legs.at(-1)!;
      for (const y of s.yards) {
        if (y.railLoadedAt !== null) continue;
        const call = `${s.key.seed}|${leg.imo}|${leg.voyage}|${leg.to}`;
        const mine = { terminal: podTerminalAt(s, y.dischargedAt)!, lfd: y.terminalLfd[0]!.date, who: `${s.number}/${y.container}` };
        const seen = calls.get(call);
        if (!seen) {
          calls.set(call, mine);
          continue;
        }
        shared++;
        expect(mine.terminal, `${call}: ${seen.who} and ${mine.who}`).toBe(seen.terminal);
        expect(mine.lfd, `${call}: ${seen.who} and ${mine.who}`).toBe(seen.lfd);
      }
    }
    // The sample must really put boxes of different bills of lading on the same calls.
    expect(shared).toBeGreaterThan(100);
  });
});

describe('last free days', () => {
  it("the line's LFD is the terminal's or later by a contract of 3 to 10 days, and often the same", () => {
    let equal = 0;
    let all = 0;
    for (const s of SAMPLE) {
      for (const y of s.yards) {
        if (y.railLoadedAt !== null || s.scenario !== 'ordinary') continue;
        const terminal = Date.parse(y.terminalLfd[0]!.date);
        const line = Date.parse(y.lineLfd[0]!.date);
        const days = (line - terminal) / DAY;
        all++;
        if (days === 0) equal++;
        else {
          expect(days, `${s.number}`).toBeGreaterThanOrEqual(3);
          expect(days, `${s.number}`).toBeLessThanOrEqual(10);
        }
      }
    }
    expect(equal / all).toBeGreaterThan(0.5);
    expect(equal / all).toBeLessThan(0.95);
  });

  it('the terminal LFD is a few days after the call, never before the discharge', () => {
    for (const s of SAMPLE) {
      for (const y of s.yards) {
        if (y.railLoadedAt !== null) continue;
        const tz = s.pod!.timeZone;
        const discharged = localDate(y.dischargedAt, tz);
        const lfd = y.terminalLfd[0]!.date;
        expect(lfd >= discharged, `${s.number}: ${discharged} → ${lfd}`).toBe(true);
        expect((Date.parse(lfd) - Date.parse(discharged)) / DAY, `${s.number}`).toBeLessThanOrEqual(14);
      }
    }
  });
});

describe('gates and dwell', () => {
  it("full outs and empty returns at the POD terminal fall in the terminal's gate hours", () => {
    let checked = 0;
    for (const s of SAMPLE) {
      for (const y of s.yards) {
        const rules = terminalRules(podTerminalAt(s, y.dischargedAt)!);
        for (const t of [y.fullOutAt, y.emptyInAt]) {
          if (t === null || y.railLoadedAt !== null) continue;
          checked++;
          expect(gateOpenAt(rules, t), `${s.number}/${y.container} at ${new Date(t).toISOString()} (${rules.timeZone})`).toBe(true);
        }
      }
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('an export box is gated in at least a day before its vessel loads it, and picked up empty before that', () => {
    for (const s of SAMPLE) {
      for (const c of s.containers) {
        const of = (m: string) => s.events.find((e) => e.container === c && e.milestone === m)?.at;
        const emptyOut = of('empty_out')!;
        const fullIn = of('full_in')!;
        const loaded = of('vessel_loaded') ?? of('feeder_loaded')!;
        expect(fullIn - emptyOut, `${s.number}/${c}`).toBeGreaterThanOrEqual(12 * HOUR);
        expect(loaded - fullIn, `${s.number}/${c}`).toBeGreaterThanOrEqual(12 * HOUR);
        expect(loaded - fullIn, `${s.number}/${c}`).toBeLessThanOrEqual(8 * DAY);
      }
    }
  });
});

describe('estimates', () => {
  it("a vessel's arrival is never said to come before its departure on the same leg", () => {
    for (const s of SAMPLE.slice(0, 120)) {
      for (let t = s.anchorMs; t < s.anchorMs + 60 * DAY; t += 12 * HOUR) {
        const a = carrierAnswer(s, new Date(t));
        if (a.status !== 'ok') break;
        const legs = new Map<string, { dep?: number; arr?: number }>();
        for (const m of a.facts.milestones) {
          if (m.containerNumber !== null || !m.vessel || !m.when.at) continue;
          const leg = legs.get(`${m.vessel.imo}|${m.voyage}`) ?? {};
          if (m.milestone.endsWith('_departed')) leg.dep = Date.parse(m.when.at);
          if (m.milestone.endsWith('_arrived')) leg.arr = Date.parse(m.when.at);
          legs.set(`${m.vessel.imo}|${m.voyage}`, leg);
        }
        for (const [k, leg] of legs) {
          if (leg.dep !== undefined && leg.arr !== undefined)
            expect(leg.arr, `${s.number} ${k} at ${new Date(t).toISOString()}`).toBeGreaterThan(leg.dep);
        }
      }
    }
  });
});
