import { describe, expect, it } from 'vitest';
import { lastFreeDay } from './lfd.js';

const LA = 'America/Los_Angeles';
/** KKFU1025779 at the POD terminal: the terminal's 9 Dec binds, the line's 14 Dec is pickup_lfd. */
const kkfu = (over: Record<string, unknown> = {}) => ({
  current_status: 'available',
  pickup_lfd: '2026-12-14T08:00:00Z',
  pickup_lfd_binding: '2026-12-09T08:00:00Z',
  pickup_lfd_binding_party: 'terminal',
  pickup_lfd_binding_timezone: LA,
  pod_full_out_at: null,
  final_destination_full_out_at: null,
  ...over,
});

describe('lastFreeDay (tool results)', () => {
  it('counts to the binding date in its own calendar at the world time', () => {
    const on9 = lastFreeDay(kkfu(), new Date('2026-12-10T05:00:00Z')); // 21:00 on 9 Dec in Los Angeles
    expect(on9).toMatchObject({ state: 'counting', days_left: 0, binding: { date: '2026-12-09', party: 'terminal' } });
    expect(on9.summary).toBe("Binding: the terminal's last free day, 2026-12-09 (America/Los_Angeles) — today.");
    expect(lastFreeDay(kkfu(), new Date('2026-12-04T20:00:00Z')).summary).toMatch(/— 5 days left\.$/);
    expect(lastFreeDay(kkfu(), new Date('2026-12-08T20:00:00Z')).summary).toMatch(/— tomorrow \(1 day left\)\.$/);
    expect(lastFreeDay(kkfu(), new Date('2026-12-11T20:00:00Z'))).toMatchObject({
      days_left: -2,
      summary: expect.stringMatching(/passed 2 days ago/),
    });
  });

  it('an off-dock box still counts', () => {
    expect(lastFreeDay(kkfu({ current_status: 'off_dock' }), new Date('2026-12-08T20:00:00Z'))).toMatchObject({
      state: 'counting',
      days_left: 1,
    });
  });

  it('never counts days left after pickup', () => {
    const before = lastFreeDay(
      kkfu({ current_status: 'picked_up', pod_full_out_at: '2026-12-07T19:00:00Z' }),
      new Date('2026-12-30T00:00:00Z'),
    );
    expect(before).toMatchObject({ state: 'picked_up', days_left: null, picked_up_days_before_lfd: 2 });
    expect(before.summary).toMatch(/^Picked up 2 days before the terminal's last free day/);
    const rail = lastFreeDay(
      kkfu({ current_status: 'delivered', final_destination_full_out_at: '2026-12-09T20:00:00Z' }),
      new Date('2026-12-30T00:00:00Z'),
    );
    expect(rail.summary).toMatch(/^Picked up on the terminal's last free day/);
    for (const status of ['picked_up', 'delivered', 'empty_returned', 'dropped', 'loaded']) {
      const left = lastFreeDay(kkfu({ current_status: status }), new Date('2026-12-30T00:00:00Z'));
      expect(left, status).toMatchObject({ state: 'left_pickup_place', days_left: null, picked_up_days_before_lfd: null });
      expect(left.summary, status).toContain('no longer counts');
    }
  });

  it('without a binding date nothing is counted', () => {
    const none = lastFreeDay(kkfu({ pickup_lfd_binding: null, pickup_lfd_binding_party: null }), new Date('2026-12-08T20:00:00Z'));
    expect(none).toMatchObject({ binding: null, state: 'none', days_left: null });
    expect(none.summary).toContain('pickup_lfd_binding is null');
  });
});
