import { describe, expect, it } from 'vitest';
import { autoStopReason, CADENCE, decideAfterSourceError, MAX_TRIES, nextChecks, phaseOf, RETRY_GAPS_MINUTES } from './schedule.js';
import { type ContainerSnapshot, emptyContainer, emptyShipment, type ShipmentSnapshot } from './snapshot.js';

const NOW = new Date('2026-03-10T12:00:00Z');
const H = 3_600_000;
const D = 24 * H;
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs).toISOString();
const shipment = (over: Partial<ShipmentSnapshot> = {}): ShipmentSnapshot => ({ ...emptyShipment(), ...over });
const box = (over: Partial<ContainerSnapshot> = {}): ContainerSnapshot => ({ ...emptyContainer('MSCU1234565'), ...over });

describe('temporary source failures retry about 14 times over about 24 hours, then fail as retries_exhausted', () => {
  it('has 14 tries spread over 22 to 26 hours', () => {
    expect(MAX_TRIES).toBe(14);
    const total = RETRY_GAPS_MINUTES.reduce((a, b) => a + b, 0) / 60;
    expect(total).toBeGreaterThan(22);
    expect(total).toBeLessThan(26);
  });

  it.each([
    ['unavailable', 'shipping_line_unreachable'],
    ['rate_limited', 'shipping_line_unreachable'],
    ['bad_response', 'unrecognized_response'],
    ['auth', 'internal_processing_error'],
  ] as const)('%s is retried with failed_reason %s and a growing gap', (kind, reason) => {
    const first = decideAfterSourceError(kind, { retryCount: 0, awaitingSince: null }, NOW);
    expect(first).toEqual({
      status: 'pending',
      failedReason: reason,
      isRetrying: true,
      retryCount: 1,
      nextAttemptAt: new Date(at(2 * 60_000)),
    });
    const later = decideAfterSourceError(kind, { retryCount: 5, awaitingSince: null }, NOW);
    expect(later).toMatchObject({ retryCount: 6, nextAttemptAt: new Date(at(60 * 60_000)) });
  });

  it('gives up after the last try', () => {
    expect(decideAfterSourceError('unavailable', { retryCount: 13, awaitingSince: null }, NOW)).toEqual({
      status: 'failed',
      failedReason: 'retries_exhausted',
    });
  });

  it('waits at least as long as the source asks (Retry-After)', () => {
    const d = decideAfterSourceError('rate_limited', { retryCount: 0, awaitingSince: null }, NOW, 900);
    expect(d).toMatchObject({ nextAttemptAt: new Date(at(900_000)) });
  });
});

describe('permanent carrier answers fail at once', () => {
  it.each([
    ['not_found', 'not_found'],
    ['invalid_number', 'invalid_number'],
    ['cancelled', 'booking_cancelled'],
  ] as const)('%s → failed/%s', (kind, reason) => {
    expect(decideAfterSourceError(kind, { retryCount: 3, awaitingSince: null }, NOW)).toEqual({ status: 'failed', failedReason: reason });
  });
});

describe('a number not yet manifested is re-checked daily and expires after 7 days', () => {
  it('starts waiting and asks again a day later', () => {
    expect(decideAfterSourceError('awaiting_manifest', { retryCount: 0, awaitingSince: null }, NOW)).toEqual({
      status: 'awaiting_manifest',
      failedReason: 'awaiting_manifest',
      awaitingSince: NOW,
      nextAttemptAt: new Date(at(D)),
    });
  });

  it('keeps the first day it waited and never schedules past the expiry', () => {
    const since = new Date(NOW.getTime() - 6.5 * D);
    expect(decideAfterSourceError('awaiting_manifest', { retryCount: 0, awaitingSince: since }, NOW)).toMatchObject({
      awaitingSince: since,
      nextAttemptAt: new Date(since.getTime() + 7 * D),
    });
  });

  it('expires after seven days', () => {
    const since = new Date(NOW.getTime() - 7 * D);
    expect(decideAfterSourceError('awaiting_manifest', { retryCount: 0, awaitingSince: since }, NOW)).toEqual({
      status: 'failed',
      failedReason: 'expired',
    });
  });
});

describe('sources are asked more often near arrival, at the terminal and near the LFD; rarely when booked far ahead', () => {
  it.each([
    ['booked far ahead', shipment({ pol_etd_at: at(10 * D) }), [box()], 'booked'],
    ['on the water', shipment({ pol_atd_at: at(-5 * D), pod_eta_at: at(8 * D) }), [box()], 'on_water'],
    ['near arrival', shipment({ pol_atd_at: at(-5 * D), pod_eta_at: at(2 * D) }), [box()], 'near_arrival'],
    ['discharged, waiting for pickup', shipment({ pod_ata_at: at(-D) }), [box({ pod_discharged_at: at(-D) })], 'at_terminal'],
    ['on rail', shipment({ pod_ata_at: at(-3 * D) }), [box({ rail_move: true, pod_rail_loaded_at: at(-D) })], 'on_rail'],
    [
      'picked up, empty not back',
      shipment({ pod_ata_at: at(-3 * D) }),
      [box({ pod_discharged_at: at(-3 * D), pod_full_out_at: at(-D) })],
      'picked_up',
    ],
    ['every box returned empty', shipment({ pod_ata_at: at(-9 * D) }), [box({ empty_terminated_at: at(-D) })], 'done'],
  ] as const)('%s → %s', (_name, s, containers, phase) => {
    expect(phaseOf(s, containers, NOW)).toBe(phase);
    const checks = nextChecks(s, containers, NOW);
    expect(checks.phase).toBe(phase);
    expect(checks.line.getTime() - NOW.getTime()).toBe(CADENCE[phase].line);
    expect(checks.due.getTime()).toBe(
      Math.min(checks.line.getTime(), checks.terminal?.getTime() ?? Infinity, checks.rail?.getTime() ?? Infinity),
    );
  });

  it('the busiest container sets the phase of the shipment', () => {
    const s = shipment({ pod_ata_at: at(-2 * D) });
    expect(
      phaseOf(
        s,
        [box({ pod_discharged_at: at(-D), pod_full_out_at: at(-H) }), box({ number: 'TGHU9876544', pod_discharged_at: at(-D) })],
        NOW,
      ),
    ).toBe('at_terminal');
  });

  it('asks the terminal hourly within two days of the LFD', () => {
    const s = shipment({ pod_ata_at: at(-D) });
    const c = box({ rail_move: true, pod_rail_loaded_at: at(-H), pickup_lfd: at(D) });
    expect(nextChecks(s, [c], NOW).terminal).toEqual(new Date(at(H)));
    expect(nextChecks(s, [c], NOW).rail).toEqual(new Date(at(H)));
  });

  it('backs off from a failing line, doubling up to a day', () => {
    const s = shipment({ pol_atd_at: at(-5 * D), pod_eta_at: at(2 * D) });
    expect(nextChecks(s, [box()], NOW, 1).line).toEqual(new Date(at(6 * H)));
    expect(nextChecks(s, [box()], NOW, 10).line).toEqual(new Date(at(D)));
  });
});

describe('tracking stops by itself', () => {
  it('when every container is returned empty', () => {
    expect(autoStopReason(shipment(), [box({ empty_terminated_at: at(-H) })], NOW, NOW)).toBe('all_containers_terminated');
    expect(autoStopReason(shipment(), [box({ empty_terminated_at: at(-H) }), box({ number: 'TGHU9876544' })], NOW, NOW)).toBeNull();
  });

  it('56 days after arrival at the destination (or the POD without one)', () => {
    expect(autoStopReason(shipment({ pod_ata_at: at(-57 * D) }), [box()], NOW, NOW)).toBe('past_arrival_window');
    expect(autoStopReason(shipment({ pod_ata_at: at(-57 * D), destination_ata_at: at(-20 * D) }), [box()], NOW, NOW)).toBeNull();
    expect(autoStopReason(shipment({ pod_ata_at: at(-55 * D) }), [box()], NOW, NOW)).toBeNull();
  });

  it('after 56 days without an update from the line', () => {
    expect(autoStopReason(shipment(), [box()], new Date(at(-57 * D)), NOW)).toBe('no_updates_at_line');
    expect(autoStopReason(shipment(), [box()], new Date(at(-10 * D)), NOW)).toBeNull();
  });
});
