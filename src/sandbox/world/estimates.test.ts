// Carrier ETAs are revised a few times per voyage (booking, departures on the way, close in, a congestion
// announcement), each held still until the next: over many ordinary stories, walked in 6-hour steps.
import { describe, expect, it } from 'vitest';
import { referenceId } from '../../lib/ids.js';
import { carrierAnswer, revisions } from './answers.js';
import { buildStory, type Story, type StoryEvent, tellStory } from './story.js';
import { DAY, HOUR } from './time.js';

const SCACS = ['MAEU', 'HLCU', 'ONEY', 'COSU', 'MSCU', 'CMDU'];

function stories(n: number, seed: string): Story[] {
  return Array.from({ length: n }, (_, i) =>
    tellStory({
      seed,
      scac: SCACS[i % SCACS.length]!,
      numberType: i % 2 ? 'booking_number' : 'bill_of_lading',
      number: `EST${200000 + i}`,
      anchorAt: new Date(Date.UTC(2026, 4, 1) + i * 7 * HOUR),
    }),
  );
}

/** The carrier's estimates of the event, in 6-hour steps from 21 days before it until it is recorded. */
function walk(s: Story, e: StoryEvent): { t: number; at: number; reportedAt: number }[] {
  const id = referenceId('sandbox-event', `${e.id}-E`);
  const out: { t: number; at: number; reportedAt: number }[] = [];
  for (let t = e.at - 21 * DAY; t < e.at + e.lag; t += 6 * HOUR) {
    const a = carrierAnswer(s, new Date(t));
    const m = a.status === 'ok' ? a.facts.milestones.find((x) => x.sourceEventId === id) : undefined;
    if (m?.when.at) out.push({ t, at: Date.parse(m.when.at), reportedAt: Date.parse(m.reportedAt!) });
  }
  return out;
}

const WORLD = stories(90, 'estimates');
const EVENTS = WORLD.flatMap((s) => s.events.filter((e) => e.estimable).map((e) => ({ s, e })));

describe('carrier estimates are revised a few times per voyage', () => {
  it('per event: a handful of distinct estimates, at most a few moves of 6 hours or more (what the engine notifies)', () => {
    const distinct: number[] = [];
    const moves: number[] = [];
    for (const { s, e } of EVENTS) {
      const seen = walk(s, e);
      if (seen.length === 0) continue;
      const values = seen.map((x) => x.at).filter((v, i, xs) => i === 0 || v !== xs[i - 1]);
      distinct.push(values.length);
      moves.push(values.filter((v, i) => i > 0 && Math.abs(v - values[i - 1]!) >= 6 * HOUR).length);
    }
    distinct.sort((a, b) => a - b);
    expect(distinct.length).toBeGreaterThan(150);
    expect(distinct[Math.floor(distinct.length * 0.95)]!).toBeLessThanOrEqual(6);
    expect(distinct.at(-1)!).toBeLessThanOrEqual(8);
    expect(Math.max(...moves)).toBeLessThanOrEqual(5);
    expect(moves.reduce((a, b) => a + b, 0) / moves.length).toBeLessThan(1.5);
  });

  it('converge on the truth: within five hours in the last three days, within two on the last day', () => {
    for (const { s, e } of EVENTS) {
      for (const x of walk(s, e)) {
        const left = e.at - x.t;
        if (left <= 3 * DAY) expect(Math.abs(x.at - e.at), `${e.id} ${left / HOUR} h before`).toBeLessThanOrEqual(5 * HOUR);
        if (left <= DAY) expect(Math.abs(x.at - e.at), `${e.id} ${left / HOUR} h before`).toBeLessThanOrEqual(2 * HOUR);
      }
    }
  });

  it('hold still between revisions: each estimate is reported at its revision instant', () => {
    for (const { s, e } of EVENTS.slice(0, 120)) {
      const rs = revisions(s, e);
      expect(rs[0]).toEqual({ from: e.estimateFrom, at: e.nominal });
      for (let i = 1; i < rs.length; i++) {
        expect(rs[i]!.from).toBeGreaterThan(rs[i - 1]!.from);
        expect(rs[i]!.from).toBeLessThan(e.at);
      }
      for (const x of walk(s, e)) {
        const r = rs.filter((y) => y.from <= x.t).at(-1)!;
        expect(x.at).toBe(r.at);
        expect([r.from, e.estimateFrom]).toContain(x.reportedAt);
      }
    }
  });

  it('a delay is shown well before the final days, and some stories announce it (the schedule until then)', () => {
    let announced = 0;
    let delayed = 0;
    for (const { s, e } of EVENTS) {
      if (e.mode !== 'vessel' || e.at - e.nominal < 12 * HOUR) continue;
      delayed++;
      const rs = revisions(s, e);
      const late = rs.filter((r) => r.from > rs[0]!.from);
      // Revisions that still lean on the schedule are within a residual of it; then the truth is admitted.
      const leaning = late.filter((r) => Math.abs(r.at - e.nominal) < Math.abs(r.at - e.at));
      if (leaning.length > 0) announced++;
      const lastLeaning = leaning.at(-1);
      if (lastLeaning) expect(e.at - lastLeaning.from).toBeGreaterThan(DAY);
    }
    expect(delayed).toBeGreaterThan(10);
    expect(announced).toBeGreaterThan(0);
    expect(announced).toBeLessThan(delayed);
  });

  it('are deterministic: the same story built twice revises at the same instants to the same values', () => {
    for (const s of WORLD.slice(0, 20)) {
      const again = buildStory(s.key);
      s.events.forEach((e, i) => {
        if (e.estimable) expect(revisions(again, again.events[i]!)).toEqual(revisions(s, e));
      });
    }
  });
});
