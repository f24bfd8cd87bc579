import { describe, expect, it } from 'vitest';
import { attentionOf } from './attention.js';
import { deriveContainer, emptyContainer } from './snapshot.js';

const LA = 'America/Los_Angeles';
// 2026-03-10 06:30 UTC is still 9 March in Los Angeles (23:30 PDT), and 10 March in Chicago (01:30 CDT).
const NOW = new Date('2026-03-10T06:30:00Z');

const box = (fields: Partial<ReturnType<typeof emptyContainer>>) => ({ ...emptyContainer('MSKU9070323'), pod_timezone: LA, ...fields });
// Last free days are local midnights: 00:00 in Los Angeles (PDT since 8 March) is 07:00 UTC.
const lfdOn = (day: string) => `${day}T07:00:00Z`;

describe('attentionOf', () => {
  it.each([
    ['nothing known yet', box({}), { lfd: null, lfd_days_left: null, needs_action: false }],
    [
      'LFD tomorrow in LA (the UTC date is already the 10th)',
      box({ current_status: 'available', pickup_lfd_binding: lfdOn('2026-03-10'), pickup_lfd_binding_timezone: LA }),
      { lfd: 'tomorrow', lfd_days_left: 1 },
    ],
    [
      'LFD today in LA',
      box({ current_status: 'not_available', pickup_lfd_binding: lfdOn('2026-03-09'), pickup_lfd_binding_timezone: LA }),
      { lfd: 'today', lfd_days_left: 0, needs_action: true },
    ],
    // 7 March is before the clocks changed: its local midnight is 08:00 UTC (PST).
    [
      'LFD passed: demurrage accrues',
      box({ current_status: 'available', pickup_lfd_binding: '2026-03-07T08:00:00Z', pickup_lfd_binding_timezone: LA }),
      { lfd: 'passed', lfd_days_left: -2, demurrage_accruing: true },
    ],
    [
      'LFD next week',
      box({ current_status: 'not_available', pickup_lfd_binding: lfdOn('2026-03-16'), pickup_lfd_binding_timezone: LA }),
      { lfd: 'later', lfd_days_left: 7, needs_action: false },
    ],
    [
      'picked up: nothing to do, whatever the LFD',
      box({ current_status: 'picked_up', pickup_lfd_binding: lfdOn('2026-03-01'), pickup_lfd_binding_timezone: LA }),
      { lfd: null, demurrage_accruing: false, needs_action: false },
    ],
    [
      'holds that block (pending ones do not)',
      box({
        current_status: 'not_available',
        holds_at_pod_terminal: [
          { name: 'customs', status: 'hold', description: null },
          { name: 'freight', status: 'pending', description: null },
        ],
      }),
      { holds: ['customs'], needs_action: true },
    ],
    ['available', box({ current_status: 'available', available_for_pickup: true }), { available: true, needs_action: true }],
    [
      'a last free day no calendar holds (a typo of the source) is none',
      box({ current_status: 'available', pickup_lfd_binding: '+010000-01-01T00:00:00.000Z', pickup_lfd_binding_timezone: LA }),
      { lfd: null, lfd_days_left: null, needs_action: false },
    ],
    [
      'a demurrage fee already billed',
      box({ current_status: 'available', fees_at_pod_terminal: [{ type: 'demurrage', amount: 150, currency_code: 'USD' }] }),
      { demurrage_accruing: true },
    ],
    [
      'a total line alone is not demurrage',
      box({ current_status: 'available', fees_at_pod_terminal: [{ type: 'total', amount: 150, currency_code: 'USD' }] }),
      { demurrage_accruing: false },
    ],
    [
      'a rail move: the inland facility’s LFD in its own zone (Chicago)',
      box({
        current_status: 'available',
        rail_move: true,
        final_destination_timezone: 'America/Chicago',
        pickup_lfd_rail: '2026-03-11T05:00:00Z',
        pickup_lfd_binding: '2026-03-11T05:00:00Z',
        pickup_lfd_binding_timezone: 'America/Chicago',
        inland_at: '2026-03-09T05:00:00Z',
        ind_facility_holds: [{ name: 'other', status: 'hold', description: 'Rail hold' }],
      }),
      { lfd: 'tomorrow', lfd_days_left: 1, holds: ['other'] },
    ],
  ])('%s', (_name, c, expected) => {
    expect(attentionOf(c, NOW)).toMatchObject(expected);
  });
});

describe('attentionOf counts days to the binding last free day (the earliest that applies where the box is)', () => {
  // KKFU1025779: terminal LFD 9 Dec, line LFD 14 Dec, at the POD terminal. On 9 Dec the terminal's free time ends.
  const atTerminal = (fields: Partial<ReturnType<typeof emptyContainer>>) =>
    deriveContainer(
      {
        ...emptyContainer('KKFU1025779'),
        pod_timezone: LA,
        pod_discharged_at: '2026-12-04T10:00:00Z',
        pod_terminal_available_for_pickup: true,
        ...fields,
      },
      null,
    );
  const dec = (d: number) => `2026-12-${String(d).padStart(2, '0')}T08:00:00Z`; // local midnight in LA (PST)
  it.each([
    ['the terminal’s date is earlier: it binds', { pickup_lfd_terminal: dec(9), pickup_lfd_line: dec(14) }, 'terminal', 'today', 0],
    ['the line’s date is earlier: it binds', { pickup_lfd_terminal: dec(14), pickup_lfd_line: dec(10) }, 'line', 'tomorrow', 1],
    ['only the line gives one', { pickup_lfd_line: dec(12) }, 'line', 'later', 3],
    ['the same local day: the terminal is named', { pickup_lfd_terminal: dec(9), pickup_lfd_line: dec(9) }, 'terminal', 'today', 0],
  ] as const)('%s', (_name, fields, party, lfd, days) => {
    const c = atTerminal(fields);
    // pickup_lfd keeps the reference's coalescing (the line's first), whichever binds.
    const given: { pickup_lfd_line?: string; pickup_lfd_terminal?: string } = fields;
    expect(c.pickup_lfd).toBe(given.pickup_lfd_line ?? given.pickup_lfd_terminal);
    expect(c.pickup_lfd_binding_party).toBe(party);
    expect(c.pickup_lfd_binding_timezone).toBe(LA);
    expect(attentionOf(c, new Date('2026-12-09T20:00:00Z'))).toMatchObject({ lfd, lfd_days_left: days });
  });

  it('a rail move: the rail and line dates apply, the POD terminal’s does not', () => {
    const c = deriveContainer(
      {
        ...emptyContainer('HLXU7025996'),
        pod_timezone: LA,
        final_destination_timezone: 'America/Chicago',
        rail_move: true,
        pod_discharged_at: '2026-12-01T10:00:00Z',
        pod_rail_departed_at: '2026-12-03T10:00:00Z',
        ind_rail_unloaded_at: '2026-12-07T10:00:00Z',
        pickup_lfd_terminal: dec(5),
        pickup_lfd_line: dec(15),
        pickup_lfd_rail: '2026-12-10T06:00:00Z',
      },
      null,
    );
    expect(c).toMatchObject({
      pickup_lfd_binding: '2026-12-10T06:00:00Z',
      pickup_lfd_binding_party: 'rail',
      pickup_lfd_binding_timezone: 'America/Chicago',
    });
  });

  it('picked up: the count stops', () => {
    const c = atTerminal({ pickup_lfd_terminal: dec(9), pod_full_out_at: '2026-12-08T18:00:00Z' });
    expect(c.current_status).toBe('picked_up');
    expect(attentionOf(c, new Date('2026-12-12T20:00:00Z'))).toMatchObject({ lfd: null, lfd_days_left: null, needs_action: false });
  });
});
