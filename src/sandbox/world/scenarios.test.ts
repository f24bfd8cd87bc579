import { describe, expect, it } from 'vitest';
import type { MilestoneFact, YardFact } from '../../sources/contract.js';
import { CARRIERS, carrierByScac } from '../../sources/reference/index.js';
import type { CarrierAnswer, TerminalAnswer } from '../answers.js';
import { carrierAnswer, railAnswer, terminalAnswer, terminalAnswerAt } from './answers.js';
import { carrierProfile, terminalProfile } from './profiles.js';
import { type SandboxExample, type ScenarioName, sandboxExamples } from './scenarios.js';
import { type Story, tellStory, terminalYardPlace } from './story.js';
import { DAY, HOUR } from './time.js';

const ANCHOR = new Date('2026-05-10T09:00:00Z');
const STEP = 6 * HOUR;
const SPAN = 60 * DAY;

function storyOf(ex: SandboxExample, seed = 'scenario-seed'): Story {
  return tellStory({ seed, scac: ex.scac ?? 'MAEU', numberType: ex.request_type, number: ex.request_number, anchorAt: ANCHOR });
}

/** The world every 6 hours for 60 days from the anchor. */
function timeline<T>(f: (w: Date) => T): { t: number; v: T }[] {
  const out: { t: number; v: T }[] = [];
  for (let t = ANCHOR.getTime(); t <= ANCHOR.getTime() + SPAN; t += STEP) out.push({ t, v: f(new Date(t)) });
  return out;
}

const example = (scenario: ScenarioName) => sandboxExamples().find((e) => e.scenario === scenario)!;
const ok = (a: CarrierAnswer) => {
  if (a.status !== 'ok') throw new Error(`expected ok, got ${a.status}`);
  return a.facts;
};
const yardOf = (a: TerminalAnswer): YardFact | null => (a.status === 'ok' ? a.yard : null);
const actual = (ms: MilestoneFact[], m: string) => ms.find((x) => x.milestone === m && x.classifier === 'actual');
/** Consecutive distinct values of a sequence. */
function runs<T>(xs: T[]): T[] {
  const out: T[] = [];
  for (const x of xs) if (out.length === 0 || JSON.stringify(out.at(-1)) !== JSON.stringify(x)) out.push(x);
  return out;
}

describe('sandboxExamples', () => {
  const required: ScenarioName[] = [
    'succeeded',
    'multi_container',
    'transshipment',
    'rail',
    'holds',
    'fees',
    'terminal_change',
    'lfd_change',
    'flicker',
    'awaiting_manifest',
    'expired',
    'flaky',
    'retries_exhausted',
    'not_found',
    'invalid_number',
    'booking_cancelled',
    'scac_auto_detect_failed',
    'date_only',
    'no_seal_no_weight',
    'container',
    'test_succeeded',
    'test_failed',
    'booked_ahead',
    'feeder',
    'off_dock',
    'pickup_appointment',
    'exam_long_stay',
    'hold_other',
    'line_silent',
    'never_returned',
  ];

  it.each(required)('lists an example for %s', (scenario) => {
    expect(sandboxExamples().some((e) => e.scenario === scenario)).toBe(true);
  });

  it.each(sandboxExamples().map((e) => [e.request_number, e] as const))('%s uses a realistic SCAC and its BL prefix', (_, e) => {
    if (e.scac === null) {
      expect(CARRIERS.some((c) => c.bolPrefixes.some((p) => e.request_number.startsWith(p)))).toBe(false);
      return;
    }
    if (e.scac === 'TEST') {
      expect(e.request_number).toMatch(/^TEST-TR-/);
      return;
    }
    const carrier = carrierByScac(e.scac)!;
    expect(carrier).toBeDefined();
    if (e.request_type !== 'container') expect(carrier.bolPrefixes.some((p) => e.request_number.startsWith(p))).toBe(true);
    // The carrier's DCSA face must accept the number type.
    if (e.request_type === 'container') expect(carrier.trackByContainer || e.expected_outcome !== 'created').toBe(true);
  });

  it('maps every documented number to its scenario, whatever the SCAC', () => {
    for (const e of sandboxExamples()) {
      expect(tellStory({ seed: 's', scac: 'MSCU', numberType: e.request_type, number: e.request_number, anchorAt: ANCHOR }).scenario).toBe(
        e.scenario,
      );
    }
  });
});

describe('carrier outcomes over world time', () => {
  const statuses = (scenario: ScenarioName) => timeline((w) => carrierAnswer(storyOf(example(scenario)), w).status);

  it.each([
    ['expired', ['awaiting_manifest']],
    ['retries_exhausted', ['unavailable']],
    ['not_found', ['not_found']],
    ['test_failed', ['not_found']],
    ['invalid_number', ['invalid_number']],
    ['booking_cancelled', ['cancelled']],
    ['succeeded', ['ok']],
    ['test_succeeded', ['ok']],
  ] as const)('%s answers %j for 60 days', (scenario, expected) => {
    expect(runs(statuses(scenario).map((x) => x.v))).toEqual(expected);
  });

  it('awaiting_manifest flips to ok after 3 world days', () => {
    const seq = statuses('awaiting_manifest');
    expect(runs(seq.map((x) => x.v))).toEqual(['awaiting_manifest', 'ok']);
    const flip = seq.find((x) => x.v === 'ok')!.t;
    expect(flip).toBe(ANCHOR.getTime() + 3 * DAY);
    const before = carrierAnswer(storyOf(example('awaiting_manifest')), ANCHOR);
    expect(before.status === 'awaiting_manifest' && before.bookingNumber).toBeTruthy();
  });

  it('flaky is unavailable with a Retry-After for the first 12 world hours, then ok', () => {
    const seq = statuses('flaky');
    expect(runs(seq.map((x) => x.v))).toEqual(['unavailable', 'ok']);
    expect(seq.find((x) => x.v === 'ok')!.t).toBe(ANCHOR.getTime() + 12 * HOUR);
    const a = carrierAnswer(storyOf(example('flaky')), ANCHOR);
    expect(a.status === 'unavailable' && a.retryAfterSeconds).toBeGreaterThan(0);
  });
});

describe('scenario stories', () => {
  it.each(['succeeded', 'multi_container', 'transshipment', 'date_only', 'no_seal_no_weight', 'container', 'test_succeeded'] as const)(
    '%s runs to the empty return of every container within 60 days',
    (scenario) => {
      const s = storyOf(example(scenario));
      const facts = ok(carrierAnswer(s, new Date(ANCHOR.getTime() + SPAN)));
      for (const c of s.containers) {
        const mine = facts.milestones.filter((m) => m.containerNumber === c);
        expect(mine.every((m) => m.classifier === 'actual')).toBe(true);
        if (carrierProfile(s.carrierScac).emptyReturn) expect(actual(mine, 'empty_in'), c).toBeDefined();
        expect(actual(mine, 'vessel_discharged')).toBeDefined();
      }
    },
  );

  it('multi_container has 4–6 containers, each with its own events', () => {
    const s = storyOf(example('multi_container'));
    expect(s.containers.length).toBeGreaterThanOrEqual(4);
    expect(s.containers.length).toBeLessThanOrEqual(6);
    const facts = ok(carrierAnswer(s, new Date(ANCHOR.getTime() + SPAN)));
    for (const c of s.containers) expect(facts.milestones.filter((m) => m.containerNumber === c).length).toBeGreaterThanOrEqual(6);
  });

  it('transshipment moves through a hub with transshipment or feeder events', () => {
    const s = storyOf(example('transshipment'));
    expect(s.legs.length).toBeGreaterThanOrEqual(2);
    const facts = ok(carrierAnswer(s, new Date(ANCHOR.getTime() + SPAN)));
    const hub = facts.milestones.filter((m) => /^(transshipment|feeder)_/.test(m.milestone));
    expect(hub.map((m) => m.milestone.replace(/^(transshipment|feeder)_/, ''))).toEqual(
      expect.arrayContaining(['arrived', 'discharged', 'loaded', 'departed']),
    );
    expect(new Set(facts.milestones.filter((m) => m.vessel).map((m) => m.vessel!.imo)).size).toBeGreaterThanOrEqual(2);
  });

  it('rail shows the full rail sequence in order within 60 days, with an interchange, a rail ETA and a rail LFD', () => {
    const s = storyOf(example('rail'));
    const c = s.containers[0]!;
    expect(s.railCarrierScac).toBe('BNSF');
    const seen: string[] = [];
    let etaSeen = false;
    let lfd: string | null = null;
    for (const { v } of timeline((w) => railAnswer(s, c, w))) {
      if (v.status !== 'ok') continue;
      for (const m of v.milestones) {
        const label = `${m.milestone}@${m.place!.locode}`;
        if (m.classifier === 'actual' && !seen.includes(label)) seen.push(label);
        if (m.milestone === 'rail_arrived' && m.classifier === 'estimated') etaSeen = true;
      }
      lfd ??= v.yard?.lastFreeDay?.localDate ?? null;
    }
    const dest = s.destination!.locode;
    expect(seen).toEqual([
      `rail_loaded@${s.pod!.locode}`,
      `rail_departed@${s.pod!.locode}`,
      'rail_arrived@USCHI',
      'rail_departed@USCHI',
      `rail_arrived@${dest}`,
      `rail_unloaded@${dest}`,
      `available@${dest}`,
      `full_out@${dest}`,
      `empty_in@${dest}`,
    ]);
    expect(etaSeen).toBe(true);
    expect(lfd).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const last = railAnswer(s, c, new Date(ANCHOR.getTime() + SPAN));
    expect(last.status === 'ok' && last.milestones.some((m) => m.railCarrierScac === 'CSXT')).toBe(true);
    const facts = ok(carrierAnswer(s, new Date(ANCHOR.getTime() + SPAN)));
    expect(facts.shipment!.destination!.locode).toBe(dest);
    // The carrier speaks DCSA: its rail legs name no railroad (the railroads' own answers do).
    expect(
      facts.milestones.filter((m) => m.milestone.startsWith('rail_')).every((m) => m.mode === 'rail' && m.railCarrierScac === null),
    ).toBe(true);
  });

  it('holds: a customs hold appears after discharge and clears within 60 days', () => {
    const s = storyOf(example('holds'));
    const c = s.containers[0]!;
    const discharged = s.yards[0]!.dischargedAt;
    const seq = timeline((w) => yardOf(terminalAnswer(s, c, w)));
    const customs = seq.map(({ t, v }) => ({ t, on: v?.holds?.some((h) => h.name === 'customs' && h.status === 'hold') ?? false }));
    expect(runs(customs.map((x) => x.on))).toEqual([false, true, false]);
    expect(customs.find((x) => x.on)!.t).toBeGreaterThan(discharged);
    // Not available while held; available once every hold has cleared.
    expect(seq.filter(({ v }) => v?.holds?.length).every(({ v }) => v!.available !== true)).toBe(true);
    expect(seq.some(({ v }) => v?.available === true)).toBe(true);
  });

  it('fees: demurrage grows day by day after the LFD within 60 days; the total line is separate', () => {
    const s = storyOf(example('fees'));
    const c = s.containers[0]!;
    const profile = terminalProfile(s.podTerminals[0]!.key);
    expect(profile.fees && profile.feeTotalLine).toBe(true);
    const seq = timeline((w) => yardOf(terminalAnswer(s, c, w)));
    const demurrage = seq.map(({ v }) => v?.fees?.find((f) => f.type === 'demurrage')?.amount ?? 0);
    const distinct = runs(demurrage);
    expect(distinct[0]).toBe(0);
    expect(distinct.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < distinct.length; i++) expect(distinct[i]!).toBeGreaterThan(distinct[i - 1]!);
    for (const { t, v } of seq) {
      const fees = v?.fees ?? [];
      const total = fees.filter((f) => f.type === 'total');
      const others = fees.filter((f) => f.type !== 'total');
      if (others.length === 0) expect(total).toEqual([]);
      else expect(total).toEqual([{ type: 'total', amount: others.reduce((x, f) => x + f.amount, 0), currencyCode: 'USD' }]);
      // No demurrage on or before the LFD.
      const lfd = v?.lastFreeDay?.localDate;
      if (lfd && fees.some((f) => f.type === 'demurrage')) expect(new Date(t).toISOString().slice(0, 10) >= lfd).toBe(true);
    }
  });

  it('terminal_change: the POD terminal changes while the vessel is at sea', () => {
    const s = storyOf(example('terminal_change'));
    const arrival = s.events.find((e) => e.milestone === 'vessel_arrived')!.at;
    const seq = timeline((w) => ok(carrierAnswer(s, w)).shipment!.portOfDischarge!.facilityCode);
    expect(runs(seq.map((x) => x.v)).length).toBe(2);
    const change = seq.find((x) => x.v !== seq[0]!.v)!.t;
    expect(change).toBeLessThan(arrival);
    expect(change).toBeGreaterThan(ANCHOR.getTime());
    expect(s.podTerminalFirms.length).toBe(2);
    const after = terminalAnswer(s, s.containers[0]!, new Date(arrival + DAY));
    expect(after.status === 'ok' && after.yard.facility.facilityCode).toBe(s.podTerminalFirms[1]);
  });

  it('lfd_change: the terminal LFD changes after discharge', () => {
    const s = storyOf(example('lfd_change'));
    const seq = timeline((w) => yardOf(terminalAnswer(s, s.containers[0]!, w))?.lastFreeDay?.localDate ?? null);
    const values = runs(seq.map((x) => x.v).filter((x) => x !== null));
    expect(values.length).toBe(2);
    expect(values[1]! > values[0]!).toBe(true);
    // The line gives its own LFD (a YardFact with only lineLastFreeDay), which changes too and differs.
    const line = runs(
      timeline((w) => {
        const a = carrierAnswer(s, w);
        return a.status === 'ok' ? (a.facts.yard[0]?.lineLastFreeDay?.localDate ?? null) : null;
      })
        .map((x) => x.v)
        .filter((x) => x !== null),
    );
    expect(line.length).toBe(2);
    expect(line).not.toEqual(values);
  });

  it('flicker: the terminal reports its LFD, withdraws it (null), then reports it again', () => {
    const s = storyOf(example('flicker'));
    const seq = runs(timeline((w) => yardOf(terminalAnswer(s, s.containers[0]!, w))?.lastFreeDay?.localDate ?? null).map((x) => x.v));
    const firstReported = seq.findIndex((x) => x !== null);
    expect(seq.slice(firstReported, firstReported + 3).map((x) => x !== null)).toEqual([true, false, true]);
    expect(seq[firstReported]).toBe(seq[firstReported + 2]);
  });

  it('date_only: every time is a local date', () => {
    const facts = ok(carrierAnswer(storyOf(example('date_only')), new Date(ANCHOR.getTime() + SPAN)));
    for (const m of facts.milestones) {
      expect(m.when.at).toBeNull();
      expect(m.when.localDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('no_seal_no_weight: no seal numbers and no weights', () => {
    const facts = ok(carrierAnswer(storyOf(example('no_seal_no_weight')), ANCHOR));
    expect(facts.containers.every((c) => c.sealNumber === null && c.weightLbs === null)).toBe(true);
  });

  it('container: the story is built around the requested container', () => {
    const e = example('container');
    const s = storyOf(e);
    expect(s.containers[0]).toBe(e.request_number);
    expect(ok(carrierAnswer(s, ANCHOR)).containers[0]!.number).toBe(e.request_number);
  });

  it.each(['rail', 'holds', 'fees', 'terminal_change', 'lfd_change', 'flicker'] as const)(
    '%s arrives at the POD 3–12 days after the anchor',
    (scenario) => {
      const s = storyOf(example(scenario));
      const arrival = s.events.find((e) => e.milestone === 'vessel_arrived')!.at;
      expect(arrival - ANCHOR.getTime()).toBeGreaterThanOrEqual(3 * DAY);
      expect(arrival - ANCHOR.getTime()).toBeLessThanOrEqual(12 * DAY);
    },
  );

  it.each(['seed-1', 'seed-2', 'seed-3'])('scenarios hold in other seeds too (%s)', (seed) => {
    for (const scenario of ['holds', 'fees', 'flicker', 'terminal_change', 'rail'] as const) {
      const s = storyOf(example(scenario), seed);
      expect(s.scenario).toBe(scenario);
      const arrival = s.events.find((e) => e.milestone === 'vessel_arrived')!.at;
      expect(arrival - ANCHOR.getTime()).toBeGreaterThanOrEqual(3 * DAY);
      expect(arrival - ANCHOR.getTime()).toBeLessThanOrEqual(12 * DAY);
    }
  });
});

describe('stories told from before sailing', () => {
  const firstDeparture = (s: Story) => s.events.find((e) => e.milestone === 'vessel_departed')!.at;

  it.each(['booked_ahead', 'feeder', 'line_silent'] as const)('%s is first seen at least 14 days before the first sailing', (scenario) => {
    for (const seed of ['scenario-seed', 'seed-1', 'seed-2']) {
      const s = storyOf(example(scenario), seed);
      expect(firstDeparture(s) - ANCHOR.getTime(), seed).toBeGreaterThanOrEqual(14 * DAY);
      // Known to the line from before it is first asked about.
      expect(s.bookedAt).toBeLessThanOrEqual(ANCHOR.getTime());
    }
  });

  it('an ordinary booking number is first seen at least 14 days before its first sailing, whatever the number', () => {
    for (let i = 0; i < 40; i++) {
      const s = tellStory({
        seed: 'bookings',
        scac: 'MAEU',
        numberType: 'booking_number',
        number: `26${String(1000 + i * 37)}91`,
        anchorAt: ANCHOR,
      });
      expect(s.scenario).toBe('ordinary');
      expect(firstDeparture(s) - ANCHOR.getTime()).toBeGreaterThanOrEqual(14 * DAY);
    }
  });

  it('booked_ahead: empty out, full in, the departure estimate, the departure and the loading all come after first sight', () => {
    const s = storyOf(example('booked_ahead'));
    const at0 = ok(carrierAnswer(s, ANCHOR));
    expect(at0.milestones.filter((m) => m.classifier === 'actual')).toEqual([]);
    expect(at0.milestones.some((m) => m.milestone === 'vessel_departed' && m.classifier !== 'actual')).toBe(true);
    const end = ok(carrierAnswer(s, new Date(ANCHOR.getTime() + SPAN)));
    for (const m of ['empty_out', 'full_in', 'vessel_loaded', 'vessel_departed'] as const) {
      const f = actual(end.milestones, m);
      expect(f, m).toBeDefined();
      expect(Date.parse(f!.when.at!), m).toBeGreaterThan(ANCHOR.getTime());
    }
  });
});

describe('terminal stories', () => {
  it('off_dock: after discharge the terminal tells of the box at an off-dock yard, without an LFD of its own, and it leaves from there', () => {
    const s = storyOf(example('off_dock'));
    const y = s.yards[0]!;
    expect(y.offDock).not.toBeNull();
    const seq = timeline((w) => yardOf(terminalAnswer(s, y.container, w)));
    const moved = seq.filter(({ t }) => t >= y.offDock!.at && t < y.fullOutAt!);
    expect(moved.length).toBeGreaterThan(0);
    for (const { v } of moved) {
      expect(v!.offDock).toBe(true);
      expect(v!.facility.facilityCode).toBe(y.offDock!.key);
      expect(v!.lastFreeDay).toBeNull();
    }
    expect(moved.some(({ v }) => v!.available === true)).toBe(true);
    const before = seq.filter(({ t }) => t >= y.dischargedAt && t < y.offDock!.at);
    expect(before.every(({ v }) => !v!.offDock && v!.facility.facilityCode !== y.offDock!.key)).toBe(true);
    const end = terminalAnswer(s, y.container, new Date(ANCHOR.getTime() + SPAN));
    expect(end.status === 'ok' && actual(end.milestones, 'full_out')!.place!.facilityCode).toBe(y.offDock!.key);
    // Asked by facility code: the marine terminal still answers for the box it moved, the off-dock yard answers for
    // its own, any other terminal does not know it (services/sandbox.ts serves this).
    const movedAt = new Date(y.offDock!.at + HOUR);
    const marine = terminalYardPlace(s.podTerminals[0]!.key).facilityCode!;
    expect(terminalAnswerAt(s, marine, y.container, movedAt).status).toBe('ok');
    expect(terminalAnswerAt(s, y.offDock!.key, y.container, movedAt).status).toBe('ok');
    expect(terminalAnswerAt(s, 'E425', y.container, movedAt).status).toBe('not_found'); // a terminal of another port
    // Before the move, the off-dock yard does not know it.
    expect(terminalAnswerAt(s, y.offDock!.key, y.container, new Date(y.offDock!.at - HOUR)).status).toBe('not_found');
  });

  it('pickup_appointment: an appointment is booked, rescheduled before its slot, and the box leaves in the new slot', () => {
    const s = storyOf(example('pickup_appointment'));
    const y = s.yards[0]!;
    const slots = runs(timeline((w) => yardOf(terminalAnswer(s, y.container, w))?.appointmentAt ?? null).map((x) => x.v)).filter(
      (x) => x !== null,
    );
    expect(slots.length).toBe(2);
    expect(Date.parse(slots[1]!)).toBeGreaterThan(Date.parse(slots[0]!));
    expect(y.appointments[1]!.from).toBeLessThan(y.appointments[0]!.at);
    expect(y.fullOutAt! - Date.parse(slots[1]!)).toBeLessThan(HOUR);
  });

  it('exam_long_stay: a customs hold and an exam fee, then demurrage and extended dwell time before the pickup', () => {
    const s = storyOf(example('exam_long_stay'));
    const y = s.yards[0]!;
    const seq = timeline((w) => yardOf(terminalAnswer(s, y.container, w)));
    expect(seq.some(({ v }) => v?.holds?.some((h) => h.name === 'customs'))).toBe(true);
    const fees = new Set(seq.flatMap(({ v }) => (v?.fees ?? []).map((f) => f.type)));
    for (const type of ['exam', 'demurrage', 'extended_dwell_time'] as const) expect(fees.has(type), type).toBe(true);
    expect(y.fullOutAt! - y.dischargedAt).toBeGreaterThan(9 * DAY);
  });

  it('hold_other: a hold named other appears after discharge and clears', () => {
    const s = storyOf(example('hold_other'));
    const y = s.yards[0]!;
    const on = timeline((w) => yardOf(terminalAnswer(s, y.container, w))?.holds?.some((h) => h.name === 'other') ?? false);
    expect(runs(on.map((x) => x.v))).toEqual([false, true, false]);
    expect(on.find((x) => x.v)!.t).toBeGreaterThan(y.dischargedAt);
    // Offered, taken off by the hold, offered again, then gone.
    const offered = timeline((w) => yardOf(terminalAnswer(s, y.container, w))?.available ?? null).filter(({ t }) => t >= y.dischargedAt);
    expect(runs(offered.map((x) => x.v)).filter((x) => x !== null)).toEqual([false, true, false, true, false]);
  });
});

describe('stories in which tracking stops by itself', () => {
  it('line_silent: the line answers the same from shortly after sailing on; nobody reports the empty return', () => {
    const s = storyOf(example('line_silent'));
    expect(s.lineSilentFrom).not.toBeNull();
    const frozen = JSON.stringify(carrierAnswer(s, new Date(s.lineSilentFrom!)));
    expect(JSON.stringify(carrierAnswer(s, new Date(s.lineSilentFrom! + 40 * DAY)))).toBe(frozen);
    expect(s.lineSilentFrom!).toBeGreaterThan(s.events.find((e) => e.milestone === 'vessel_departed')!.at);
    expect(s.events.some((e) => e.milestone === 'empty_in')).toBe(false);
    // The terminal still tells the discharge and the full out.
    const end = terminalAnswer(s, s.containers[0]!, new Date(ANCHOR.getTime() + SPAN));
    expect(end.status === 'ok' && actual(end.milestones, 'full_out')).toBeTruthy();
  });

  it('never_returned: picked up, and no empty return is ever reported', () => {
    const s = storyOf(example('never_returned'));
    expect(s.yards.every((y) => y.fullOutAt !== null && y.emptyInAt === null)).toBe(true);
    expect(s.events.some((e) => e.milestone === 'empty_in')).toBe(false);
  });
});
