// The web app's last free day words (web/src/lib/lfd.ts): the binding date named by whose it is, the others beside
// it, days counted by src/domain/lfd.ts in the date's own calendar, and no count after pickup.
import { describe, expect, it } from 'vitest';
import { type LfdFields, lfdSources, lfdStanding, standingSentence, standingWords, verdictLfdSentence } from './lfd';

const LA = 'America/Los_Angeles';
/** Local midnight in Los Angeles (PST, UTC-8) of a December 2026 day. */
const dec = (day: number) => `2026-12-${String(day).padStart(2, '0')}T08:00:00Z`;

/** KKFU1025779 at the POD terminal: the terminal's last free day is 9 Dec, the line's 14 Dec. */
function kkfu(over: Partial<LfdFields> = {}): LfdFields {
  return {
    current_status: 'available',
    pickup_lfd_binding: dec(9),
    pickup_lfd_binding_party: 'terminal',
    pickup_lfd_binding_timezone: LA,
    import_deadlines: { pickup_lfd_line: dec(14), pickup_lfd_terminal: dec(9), pickup_lfd_rail: null },
    pod_timezone: LA,
    final_destination_timezone: null,
    pod_full_out_at: null,
    final_destination_full_out_at: null,
    ...over,
  };
}

describe('the binding last free day in words', () => {
  it('KKFU1025779 on 9 Dec: the terminal’s free time ends today (not "5 days left" from the line’s date)', () => {
    const s = lfdStanding(kkfu(), new Date('2026-12-09T18:00:00Z'));
    expect(s.binding).toEqual({ party: 'terminal', value: dec(9), zone: LA });
    expect(s.countdown).toEqual({ state: 'counting', days_left: 0 });
    expect(standingSentence(s)).toBe('Terminal’s last free day: today');
    expect(standingWords(s)).toEqual({ text: 'today', tone: 'bad' });
    expect(verdictLfdSentence(s)).toBe('Today is the terminal’s last free day.');
    // The line's date is beside it, later.
    expect(s.others).toEqual([expect.objectContaining({ party: 'line', value: dec(14), relation: 'later' })]);
  });

  it('counts in the date’s own calendar: 05:00 UTC on 10 Dec is still 9 Dec in Los Angeles', () => {
    expect(standingSentence(lfdStanding(kkfu(), new Date('2026-12-10T05:00:00Z')))).toBe('Terminal’s last free day: today');
    expect(standingSentence(lfdStanding(kkfu(), new Date('2026-12-10T09:00:00Z')))).toBe('Terminal’s last free day: passed 1 day ago');
    expect(verdictLfdSentence(lfdStanding(kkfu(), new Date('2026-12-11T20:00:00Z')))).toBe(
      'The terminal’s last free day passed 2 days ago: demurrage is accruing.',
    );
    expect(standingSentence(lfdStanding(kkfu(), new Date('2026-12-08T20:00:00Z')))).toBe('Terminal’s last free day: tomorrow');
    expect(standingSentence(lfdStanding(kkfu(), new Date('2026-12-04T20:00:00Z')))).toBe('Terminal’s last free day: 5 days left');
  });

  it('stops counting once the box is picked up and says how the pickup fell against the date', () => {
    const later = new Date('2026-12-30T12:00:00Z');
    const before = lfdStanding(kkfu({ current_status: 'picked_up', pod_full_out_at: '2026-12-07T19:00:00Z' }), later);
    expect(before.countdown).toEqual({ state: 'picked_up', days_before_lfd: 2 });
    expect(standingSentence(before)).toBe('Picked up 2 days before the terminal’s last free day');
    expect(verdictLfdSentence(before)).toBe('');
    const after = lfdStanding(kkfu({ current_status: 'picked_up', pod_full_out_at: '2026-12-11T19:00:00Z' }), later);
    expect(standingSentence(after)).toBe('Picked up 2 days after the terminal’s last free day');
    expect(standingWords(after)).toEqual({ text: 'picked up 2 days after the last free day', tone: 'warn' });
    const onTheDay = lfdStanding(kkfu({ current_status: 'delivered', pod_full_out_at: '2026-12-09T23:00:00Z' }), later);
    expect(standingSentence(onTheDay)).toBe('Picked up on the terminal’s last free day');
  });

  it('a box that has left without a pickup time is not counted at all', () => {
    for (const status of ['picked_up', 'delivered', 'empty_returned', 'dropped', 'loaded'] as const) {
      const s = lfdStanding(kkfu({ current_status: status }), new Date('2026-12-20T12:00:00Z'));
      expect(s.countdown, status).toEqual({ state: 'none' });
      expect(standingSentence(s), status).not.toMatch(/days? (left|ago)|today|tomorrow/);
      expect(verdictLfdSentence(s), status).toBe('');
    }
  });

  it('an off-dock box is still to be picked up: its days count', () => {
    const s = lfdStanding(kkfu({ current_status: 'off_dock' }), new Date('2026-12-08T18:00:00Z'));
    expect(s.countdown).toEqual({ state: 'counting', days_left: 1 });
  });

  it('a rail move: the rail date in the inland calendar binds; an earlier date that does not bind does not apply', () => {
    const chicago = 'America/Chicago';
    const c = kkfu({
      pickup_lfd_binding: '2026-12-12T06:00:00Z',
      pickup_lfd_binding_party: 'rail',
      pickup_lfd_binding_timezone: chicago,
      final_destination_timezone: chicago,
      import_deadlines: { pickup_lfd_line: dec(16), pickup_lfd_terminal: dec(9), pickup_lfd_rail: '2026-12-12T06:00:00Z' },
    });
    const s = lfdStanding(c, new Date('2026-12-10T12:00:00Z'));
    expect(standingSentence(s)).toBe('Railroad’s last free day: 2 days left');
    expect(lfdSources(c).map((x) => [x.party, x.binds, x.relation, x.zone])).toEqual([
      ['line', false, 'later', LA],
      ['terminal', false, 'earlier', LA],
      ['rail', true, null, chicago],
    ]);
  });

  it('no binding date: nothing is counted, the given dates are still listed', () => {
    const s = lfdStanding(
      kkfu({
        pickup_lfd_binding: null,
        pickup_lfd_binding_party: null,
        pickup_lfd_binding_timezone: null,
        import_deadlines: { pickup_lfd_line: null, pickup_lfd_terminal: null, pickup_lfd_rail: dec(9) },
      }),
      new Date('2026-12-09T18:00:00Z'),
    );
    expect(s.binding).toBeNull();
    expect(standingSentence(s)).toBeNull();
    expect(standingWords(s)).toBeNull();
    expect(s.others).toEqual([expect.objectContaining({ party: 'rail', relation: null })]);
  });
});
