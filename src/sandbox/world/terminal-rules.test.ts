import { describe, expect, it } from 'vitest';
import { TERMINALS, terminalNaturalKey } from '../../sources/reference/index.js';
import {
  addWorkingDays,
  demurrageAmount,
  demurrageDaysAt,
  demurrageStartsAt,
  exportCutoffAt,
  exportDwell,
  exportEmptyOutAt,
  exportFullInAt,
  extendedDwellAmount,
  extendedDwellStartsAt,
  type GateCalendar,
  gateOpenAt,
  type HolidayCalendar,
  holidayOn,
  isWorkingDay,
  lastGateTimeAtOrBefore,
  lineFreeTimeExtension,
  lineLastFreeDay,
  nextGateTime,
  placeGateCalendar,
  type TerminalRules,
  terminalLastFreeDay,
  terminalRules,
} from './terminal-rules.js';
import { addDays, DAY, HOUR, localDate, MINUTE } from './time.js';

const at = (s: string) => Date.parse(s);

describe('holidays', () => {
  // biome-ignore format: one case per row
  const cases: [HolidayCalendar, string, string | null][] = [
    ['US', '2025-11-27', 'Thanksgiving Day'],
    ['US', '2024-11-28', 'Thanksgiving Day'],
    ['US', '2025-05-26', 'Memorial Day'],
    ['US', '2025-09-01', 'Labor Day'],
    ['US', '2025-01-20', 'Martin Luther King Jr. Day'],
    ['US', '2025-06-19', 'Juneteenth'],
    ['US', '2020-06-19', null], // before it became a federal holiday
    ['US', '2026-07-03', 'Independence Day'], // 4 July 2026 is a Saturday
    ['US', '2021-12-31', "New Year's Day"], // 1 January 2022 is a Saturday: observed the year before
    ['US', '2022-12-26', 'Christmas Day'], // 25 December 2022 is a Sunday
    ['US', '2025-12-24', null],
    ['US', '2025-07-01', null],
    ['CA', '2025-04-18', 'Good Friday'],
    ['CA', '2024-03-29', 'Good Friday'],
    ['CA', '2025-05-19', 'Victoria Day'], // 24 May 2025 is a Saturday
    ['CA', '2024-05-20', 'Victoria Day'],
    ['CA', '2025-07-01', 'Canada Day'],
    ['CA', '2023-07-03', 'Canada Day'], // 1 July 2023 is a Saturday
    ['CA', '2025-09-30', 'National Day for Truth and Reconciliation'],
    ['CA', '2025-10-13', 'Thanksgiving'],
    ['CA', '2021-12-27', 'Christmas Day'], // 25 December 2021 is a Saturday
    ['CA', '2021-12-28', 'Boxing Day'], // and Boxing Day a Sunday
    ['CA', '2025-11-27', null], // the US Thanksgiving
    ['CA', '2025-07-04', null],
    ['MX', '2025-09-16', 'Día de la Independencia'],
    ['MX', '2025-02-03', 'Día de la Constitución'],
    ['MX', '2025-11-17', 'Día de la Revolución'],
    ['none', '2025-12-25', null],
  ];
  it.each(cases)('%s %s → %s', (calendar, date, name) => {
    expect(holidayOn(calendar, date)?.name ?? null).toBe(name);
  });

  it('has every holiday of every year on a weekday (the US and Canada move weekend ones)', () => {
    for (const calendar of ['US', 'CA'] as const)
      for (let y = 2000; y <= 2060; y++)
        for (let d = `${y}-01-01`; d < `${y + 1}-01-01`; d = addDays(d, 1)) {
          const wd = new Date(`${d}T00:00:00Z`).getUTCDay();
          if (wd === 0 || wd === 6) expect(holidayOn(calendar, d), `${calendar} ${d}`).toBeNull();
        }
  });

  // biome-ignore format: one case per row
  const working: [HolidayCalendar, string, number, string][] = [
    ['US', '2025-11-25', 4, '2025-12-02'], // Wed, (Thanksgiving), Fri, Mon, Tue
    ['US', '2025-12-29', 3, '2026-01-02'], // Tue, Wed, (New Year), Fri
    ['CA', '2025-06-27', 2, '2025-07-02'], // Mon, (Canada Day), Wed
    ['none', '2025-06-13', 1, '2025-06-16'], // weekends still skipped
  ];
  it.each(working)('%s: %s plus %i working days is %s', (calendar, date, n, expected) => {
    expect(addWorkingDays(calendar, date, n)).toBe(expected);
    expect(isWorkingDay(calendar, expected)).toBe(true);
  });
});

describe('terminal rules', () => {
  it('gives every reference terminal rules in its own zone, with weekday gates and an ascending tariff', () => {
    for (const t of TERMINALS) {
      const key = terminalNaturalKey(t);
      const r = terminalRules(key);
      expect(r.key).toBe(key);
      expect(r.timeZone).toBe(t.timezone);
      expect(r.holidays).toBe(t.country);
      expect(r.currency).toBe(t.country === 'CA' ? 'CAD' : 'USD');
      expect(r.gateHours).toHaveLength(7);
      for (let wd = 1; wd <= 5; wd++) expect(r.gateHours[wd]!.length, `${key} weekday ${wd}`).toBeGreaterThan(0);
      expect(r.gateHours[0]).toEqual([]);
      expect(r.freeDays).toBeGreaterThanOrEqual(3);
      expect(r.freeDays).toBeLessThanOrEqual(7);
      expect(r.demurrage[0]!.fromDay).toBe(1);
      for (let i = 0; i < r.demurrage.length; i++) {
        const tier = r.demurrage[i]!;
        expect(tier.perDay40).toBeGreaterThanOrEqual(tier.perDay20);
        if (i > 0) {
          expect(tier.fromDay).toBeGreaterThan(r.demurrage[i - 1]!.fromDay);
          expect(tier.perDay20).toBeGreaterThan(r.demurrage[i - 1]!.perDay20);
        }
      }
      expect(r.extendedDwell !== null).toBe(t.portLocode === 'USLAX' || t.portLocode === 'USLGB');
    }
  });

  it('is fixed per terminal, whichever code it is asked by', () => {
    expect(terminalRules('y790')).toBe(terminalRules('Y790'));
    expect(terminalRules('CAVAN:DLT')).toBe(terminalRules('cavan:dlt'));
    expect(terminalRules('WBA5')).toBe(terminalRules('Y738')); // the older FIRMS code
    expect(terminalRules('uslgb:ref:sta').key).toBe('USLGB:REF:STA');
    expect(() => terminalRules('ZZZZ')).toThrow(/no terminal/);
  });

  // biome-ignore format: one case per row
  const gateways: [string, string, number, TerminalRules['counting']][] = [
    ['Y790', 'gateway', 4, 'working_days'], // Yusen, Los Angeles
    ['W182', 'gateway', 4, 'working_days'], // PCT, Long Beach
    ['E416', 'gateway', 4, 'working_days'], // Maher, New York/New Jersey
    ['L737', 'gateway', 5, 'working_days'], // Garden City, Savannah
    ['S787', 'gateway', 7, 'calendar_days'], // Barbours Cut, Houston
    ['CAVAN:DLT', 'gateway', 4, 'calendar_days'],
    ['CAMTR:MGTRAC', 'gateway', 4, 'working_days'],
    ['CAHAL:HAFXT', 'gateway', 5, 'working_days'],
  ];
  it.each(gateways)('%s is a %s row: %i %s', (key, basis, freeDays, counting) => {
    const r = terminalRules(key);
    expect([r.basis, r.freeDays, r.counting]).toEqual([basis, freeDays, counting]);
  });

  it('hashes the others', () => {
    expect(terminalRules('M669').basis).toBe('hashed'); // Tampa
  });
});

describe('terminal last free day', () => {
  // biome-ignore format: one case per row
  const cases: [string, string, string, string][] = [
    ['Y790', '2025-11-25T20:00:00Z', '2025-12-02', 'Tue noon: Wed, (Thanksgiving), Fri, Mon, Tue'],
    ['Y790', '2025-11-26T06:30:00Z', '2025-12-02', 'still Tuesday in Los Angeles (22:30)'],
    ['Y790', '2025-11-26T08:30:00Z', '2025-12-03', 'Wednesday 00:30 in Los Angeles'],
    ['Y790', '2025-06-13T22:00:00Z', '2025-06-20', 'Friday: Mon, Tue, Wed, (Juneteenth), Fri'],
    ['S787', '2025-07-03T15:00:00Z', '2025-07-10', 'Houston: 7 calendar days, holidays count'],
    ['S787', '2025-11-02T05:30:00Z', '2025-11-09', 'the night the clocks go back'],
    ['L737', '2025-12-23T17:00:00Z', '2025-12-31', 'Savannah: Wed, (Christmas), Fri, Mon, Tue, Wed'],
    ['L737', '2025-12-29T17:00:00Z', '2026-01-06', 'over New Year'],
    ['CAHAL:HAFXT', '2025-06-27T15:00:00Z', '2025-07-07', 'Halifax: Canada Day skipped, 4 July counts'],
    ['CAVAN:DLT', '2025-03-08T20:00:00Z', '2025-03-12', 'Vancouver: 4 calendar days from Saturday'],
    ['CAMTR:MGTRAC', '2025-10-10T16:00:00Z', '2025-10-17', 'Montreal: Thanksgiving Monday skipped'],
  ];
  it.each(cases)('%s, call completed %s → %s (%s)', (key, completed, lfd) => {
    expect(terminalLastFreeDay(terminalRules(key), at(completed))).toBe(lfd);
  });

  it('counts from the completion day itself where the rule says so', () => {
    const rules = { ...terminalRules('Y790'), countFrom: 'completion_day' as const };
    expect(terminalLastFreeDay(rules, at('2025-11-25T20:00:00Z'))).toBe('2025-12-01');
  });

  it('lands on a counted day after the completion day at every terminal, all year round', () => {
    for (const t of TERMINALS) {
      const r = terminalRules(terminalNaturalKey(t));
      for (let c = at('2025-01-01T12:00:00Z'); c < at('2026-01-01T00:00:00Z'); c += 3 * DAY + 7 * HOUR) {
        const lfd = terminalLastFreeDay(r, c);
        const completed = localDate(c, r.timeZone);
        expect(lfd > completed || (r.countFrom === 'completion_day' && lfd >= completed)).toBe(true);
        if (r.counting === 'working_days') expect(isWorkingDay(r.holidays, lfd)).toBe(true);
        else expect(lfd).toBe(addDays(completed, r.freeDays - (r.countFrom === 'completion_day' ? 1 : 0)));
      }
    }
  });
});

describe("the line's last free day", () => {
  // biome-ignore format: one case per row
  const cases: [string, string, number, string][] = [
    ['2025-12-02', 'MAEU', 0.5, '2025-12-02'], // beyond every carrier's contract share: equal
    ['2025-12-02', 'MSCU', 0.99, '2025-12-02'],
    ['2025-12-02', 'MAEU', 0, '2025-12-05'], // the shortest extension
    ['2025-12-30', 'HLCU', 0, '2026-01-02'],
  ];
  it.each(cases)('terminal %s, %s, draw %f → %s', (lfd, scac, draw, expected) => {
    expect(lineLastFreeDay(lfd, scac, draw)).toBe(expected);
  });

  it('is most often the terminal LFD, otherwise 3–10 days later', () => {
    for (const scac of ['MAEU', 'MSCU', 'CMDU', 'HLCU', 'ONEY', 'COSU', 'ZIMU']) {
      const ext = Array.from({ length: 1000 }, (_, i) => lineFreeTimeExtension(scac, i / 1000));
      const equal = ext.filter((x) => x === 0).length;
      expect(equal).toBeGreaterThanOrEqual(550);
      expect(equal).toBeLessThanOrEqual(800);
      for (const x of ext) expect(x === 0 || (x >= 3 && x <= 10)).toBe(true);
      expect(new Set(ext)).toEqual(new Set([0, 3, 4, 5, 6, 7, 8, 9, 10]));
    }
  });
});

describe('fees', () => {
  const la = terminalRules('Y790');
  const houston = terminalRules('S787');

  // biome-ignore format: one case per row
  const amounts: [number, 1 | 2, number][] = [
    [0, 1, 0], [1, 1, 150], [4, 1, 600], [5, 1, 850], [9, 1, 2000], [9, 2, 2415],
  ];
  it.each(amounts)('LA/LB demurrage for %i days, %i TEU: %i', (days, teu, amount) => {
    expect(demurrageAmount(la, days, teu)).toBe(amount);
  });

  // biome-ignore format: one case per row
  const days: [string, number][] = [
    ['2025-03-08T07:59:00Z', 0], // Friday 23:59 in Los Angeles: still the last free day
    ['2025-03-08T08:00:00Z', 1], // Saturday 00:00
    ['2025-03-10T07:30:00Z', 3], // Monday 00:30 PDT, the clocks went forward on Sunday
  ];
  it.each(days)('LFD 2025-03-07 at %s: %i demurrage days', (when, n) => {
    expect(demurrageDaysAt(la, '2025-03-07', at(when))).toBe(n);
  });

  it('starts demurrage at local midnight after the LFD', () => {
    expect(demurrageStartsAt(la, '2025-03-07')).toBe(at('2025-03-08T08:00:00Z'));
    expect(demurrageStartsAt(houston, '2025-07-10')).toBe(at('2025-07-11T05:00:00Z'));
  });

  // biome-ignore format: one case per row
  const dwell: [string, number, number][] = [
    ['Y790', 9 * DAY - 1, 0],
    ['Y790', 9 * DAY, 100],
    ['Y790', 11 * DAY + HOUR, 300],
    ['S787', 30 * DAY, 0],
  ];
  it.each(dwell)('%s extended dwell after %i ms: %i', (key, after, amount) => {
    const discharged = at('2025-01-01T10:00:00Z');
    expect(extendedDwellAmount(terminalRules(key), discharged, discharged + after)).toBe(amount);
  });

  it('tells when extended dwell starts', () => {
    expect(extendedDwellStartsAt(la, 0)).toBe(9 * DAY);
    expect(extendedDwellStartsAt(houston, 0)).toBeNull();
  });
});

describe('gate hours', () => {
  const day = { open: '08:00', close: '17:00' };
  const night = { open: '18:00', close: '03:00' };
  const LA: GateCalendar = {
    timeZone: 'America/Los_Angeles',
    holidays: 'US',
    gateHours: [[], [day, night], [day, night], [day, night], [day, night], [day], []],
  };
  const SATURDAY_NIGHT: GateCalendar = { ...LA, gateHours: [[], [], [], [], [], [], [night]] };

  // biome-ignore format: one case per row
  const open: [GateCalendar, string, boolean, string][] = [
    [LA, '2025-06-10T09:00:00Z', true, "Tuesday 02:00: Monday's night shift"],
    [LA, '2025-06-10T10:00:00Z', false, 'Tuesday 03:00: the night shift has closed'],
    [LA, '2025-06-10T15:00:00Z', true, 'Tuesday 08:00'],
    [LA, '2025-06-11T00:30:00Z', false, 'Tuesday 17:30: between shifts'],
    [LA, '2025-06-14T09:00:00Z', false, 'Saturday 02:00: no Friday night shift'],
    [LA, '2025-11-27T18:00:00Z', false, 'Thanksgiving 10:00'],
    [LA, '2025-11-27T09:00:00Z', true, "Thanksgiving 01:00: Wednesday's night shift"],
    [SATURDAY_NIGHT, '2025-03-09T09:30:00Z', true, 'Sunday 01:30 PST, before the clocks go forward'],
    [SATURDAY_NIGHT, '2025-03-09T10:30:00Z', false, 'Sunday 03:30 PDT: the shift ended at 03:00 PDT (10:00Z)'],
    [SATURDAY_NIGHT, '2025-11-02T10:30:00Z', true, 'Sunday 02:30 PST, after the clocks went back'],
    [SATURDAY_NIGHT, '2025-11-02T11:00:00Z', false, 'Sunday 03:00 PST'],
  ];
  it.each(open)('%# %s open: %s (%s)', (cal, when, expected) => {
    expect(gateOpenAt(cal, at(when))).toBe(expected);
  });

  // biome-ignore format: one case per row
  const next: [GateCalendar, string, number, string, string][] = [
    [LA, '2025-06-10T09:00:00Z', 0, '2025-06-10T09:00:00Z', 'open: unchanged'],
    [LA, '2025-06-10T11:00:00Z', 0, '2025-06-10T15:00:00Z', 'Tuesday 04:00 → 08:00'],
    [LA, '2025-06-10T11:00:00Z', 95 * MINUTE, '2025-06-10T16:35:00Z', 'with an offset into the shift'],
    [LA, '2025-06-10T11:00:00Z', 600 * MINUTE, '2025-06-10T16:00:00Z', 'an offset beyond the 9-hour shift wraps'],
    [LA, '2025-06-14T09:00:00Z', 0, '2025-06-16T15:00:00Z', 'Saturday 02:00 → Monday 08:00'],
    [LA, '2025-11-27T01:30:00Z', 0, '2025-11-27T02:00:00Z', 'Wednesday 17:30 → the night shift at 18:00'],
    [LA, '2025-11-27T12:00:00Z', 0, '2025-11-28T16:00:00Z', 'Thanksgiving 04:00 → Friday 08:00'],
    [LA, '2025-03-08T02:00:00Z', 0, '2025-03-10T15:00:00Z', 'Friday 18:00 PST → Monday 08:00 PDT'],
    [LA, '2025-11-01T01:00:00Z', 0, '2025-11-03T16:00:00Z', 'Friday 18:00 PDT → Monday 08:00 PST'],
  ];
  it.each(next)('%# next gate after %s (offset %i) is %s: %s', (cal, earliest, offset, expected) => {
    expect(new Date(nextGateTime(cal, at(earliest), offset)).toISOString()).toBe(new Date(at(expected)).toISOString());
  });

  it('moves a 02:00 gate-out in Houston and Savannah to the morning gate', () => {
    // Tuesday 2025-06-10, 02:00 local in each.
    expect(nextGateTime(terminalRules('S787'), at('2025-06-10T07:00:00Z'))).toBe(at('2025-06-10T12:00:00Z'));
    expect(nextGateTime(terminalRules('L737'), at('2025-06-10T06:00:00Z'))).toBe(at('2025-06-10T10:00:00Z'));
  });

  // biome-ignore format: one case per row
  const last: [string, number, string, string][] = [
    ['2025-06-10T17:00:00Z', 0, '2025-06-10T17:00:00Z', 'open: unchanged'],
    ['2025-06-11T00:30:00Z', 0, '2025-06-10T23:59:00Z', 'Tuesday 17:30 → 16:59'],
    ['2025-06-11T00:30:00Z', 60 * MINUTE, '2025-06-10T22:59:00Z', 'with an offset before the close'],
    ['2025-06-15T19:00:00Z', 0, '2025-06-13T23:59:00Z', 'Sunday noon → Friday 16:59'],
    ['2025-06-10T12:00:00Z', 0, '2025-06-10T09:59:00Z', "Tuesday 05:00 → Monday's night shift, 02:59"],
  ];
  it.each(last)('%# last gate at or before %s (offset %i) is %s: %s', (latest, offset, expected) => {
    expect(new Date(lastGateTimeAtOrBefore(LA, at(latest), offset)).toISOString()).toBe(new Date(at(expected)).toISOString());
  });

  it('finds open gates within days at every terminal, at any hour of the year', () => {
    for (const t of TERMINALS) {
      const r = terminalRules(terminalNaturalKey(t));
      for (let w = at('2025-01-01T00:00:00Z'); w < at('2026-01-01T00:00:00Z'); w += 2 * DAY + 5 * HOUR + 17 * MINUTE) {
        const n = nextGateTime(r, w, 3 * HOUR);
        expect(n).toBeGreaterThanOrEqual(w);
        expect(n - w).toBeLessThan(5 * DAY);
        expect(gateOpenAt(r, n), `${r.key} ${new Date(w).toISOString()}`).toBe(true);
        const p = lastGateTimeAtOrBefore(r, w, 2 * HOUR);
        expect(p).toBeLessThanOrEqual(w);
        expect(gateOpenAt(r, p)).toBe(true);
      }
    }
  });

  it('opens a place that is no terminal Monday to Saturday, 07:00–19:00', () => {
    const sh = placeGateCalendar('Asia/Shanghai');
    expect(gateOpenAt(sh, at('2025-06-14T10:00:00Z'))).toBe(true); // Saturday 18:00
    expect(gateOpenAt(sh, at('2025-06-14T11:00:00Z'))).toBe(false); // Saturday 19:00
    expect(gateOpenAt(sh, at('2025-06-15T04:00:00Z'))).toBe(false); // Sunday noon
    expect(gateOpenAt(sh, at('2025-01-01T04:00:00Z'))).toBe(true); // no foreign holidays
  });
});

describe('export dwell', () => {
  // biome-ignore format: one case per row
  const dwell: [number, number][] = [[0, 1 * DAY], [1, 5 * DAY], [0.5, Math.round((1 + 4 * 0.5 ** 1.6) * DAY)]];
  it.each(dwell)('draw %f → %i ms', (draw, ms) => {
    expect(exportDwell(draw)).toBe(ms);
  });

  const shanghai = placeGateCalendar('Asia/Shanghai');
  // Monday 2025-06-16 08:00 in Shanghai, 30 hours alongside.
  const call = { arrive: at('2025-06-16T00:00:00Z'), depart: at('2025-06-17T06:00:00Z') };

  // biome-ignore format: one case per row
  const fullIn: [number, string, string][] = [
    [0, '2025-06-14T10:59:00Z', 'a day before arrival is Sunday: back to Saturday 18:59'],
    [1, '2025-06-11T00:00:00Z', 'five days before: Wednesday 08:00, open'],
  ];
  it.each(fullIn)('draw %f → full in at %s (%s)', (draw, expected) => {
    expect(new Date(exportFullInAt(shanghai, call, draw)).toISOString()).toBe(new Date(at(expected)).toISOString());
  });

  it('puts the full gate-in in gate hours, before the cutoff, a day or more before loading can start', () => {
    for (let i = 0; i < 400; i++) {
      const arrive = at('2025-01-01T00:00:00Z') + i * 21.7 * HOUR;
      const c = { arrive, depart: arrive + (12 + (i % 37)) * HOUR };
      const draw = (i * 0.618) % 1;
      const f = exportFullInAt(shanghai, c, draw, (i % 9) * HOUR);
      expect(gateOpenAt(shanghai, f)).toBe(true);
      expect(f).toBeLessThanOrEqual(exportCutoffAt(c));
      expect(c.arrive - f).toBeGreaterThanOrEqual(DAY);
      expect(c.arrive - f).toBeLessThan(7 * DAY);
      const e = exportEmptyOutAt(shanghai, f, 1 - draw, (i % 5) * HOUR);
      expect(gateOpenAt(shanghai, e)).toBe(true);
      expect(f - e).toBeGreaterThanOrEqual(DAY);
      expect(f - e).toBeLessThan(10 * DAY);
    }
  });

  it('sets the cutoff 12 h before arrival and at least 24 h before departure', () => {
    expect(exportCutoffAt({ arrive: 100 * HOUR, depart: 148 * HOUR })).toBe(88 * HOUR);
    expect(exportCutoffAt({ arrive: 100 * HOUR, depart: 110 * HOUR })).toBe(86 * HOUR);
  });
});
