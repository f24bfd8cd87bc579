import { describe, expect, it } from 'vitest';
import { attentionOf } from './attention.js';
import { emptyContainer } from './snapshot.js';

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
      box({ current_status: 'available', pickup_lfd: lfdOn('2026-03-10') }),
      { lfd: 'tomorrow', lfd_days_left: 1 },
    ],
    [
      'LFD today in LA',
      box({ current_status: 'not_available', pickup_lfd: lfdOn('2026-03-09') }),
      { lfd: 'today', lfd_days_left: 0, needs_action: true },
    ],
    // 7 March is before the clocks changed: its local midnight is 08:00 UTC (PST).
    [
      'LFD passed: demurrage accrues',
      box({ current_status: 'available', pickup_lfd: '2026-03-07T08:00:00Z' }),
      { lfd: 'passed', lfd_days_left: -2, demurrage_accruing: true },
    ],
    [
      'LFD next week',
      box({ current_status: 'not_available', pickup_lfd: lfdOn('2026-03-16') }),
      { lfd: 'later', lfd_days_left: 7, needs_action: false },
    ],
    [
      'picked up: nothing to do, whatever the LFD',
      box({ current_status: 'picked_up', pickup_lfd: lfdOn('2026-03-01') }),
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
      box({ current_status: 'available', pickup_lfd: '+010000-01-01T00:00:00.000Z' }),
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
        pickup_lfd: '2026-03-11T05:00:00Z',
        ind_facility_holds: [{ name: 'other', status: 'hold', description: 'Rail hold' }],
      }),
      { lfd: 'tomorrow', lfd_days_left: 1, holds: ['other'] },
    ],
  ])('%s', (_name, c, expected) => {
    expect(attentionOf(c, NOW)).toMatchObject(expected);
  });
});
