// Words for the API's codes (lib/labels.ts).
import { describe, expect, it } from 'vitest';
import { carrierLabel, containerStatusLabel, containerStatusTone, equipmentLabel, humanize, placeLabel, shipmentStatus } from './labels';
import type { ShipmentAttributes } from './resources';
import { CONTAINER_STATUSES } from './tracking';

describe('container statuses', () => {
  it.each([
    ['on_ship', 'On the water', 'info'],
    ['available', 'Available', 'good'],
    ['not_available', 'Not available', 'warn'],
    ['on_rail', 'On rail', 'info'],
    ['awaiting_inland_transfer', 'Awaiting inland transfer', 'neutral'],
    ['empty_returned', 'Empty returned', 'neutral'],
    [null, '—', 'neutral'],
  ])('%s → %s (%s)', (status, label, tone) => {
    expect(containerStatusLabel(status)).toBe(label);
    expect(containerStatusTone(status)).toBe(tone);
  });

  it('every status has words', () => {
    for (const s of CONTAINER_STATUSES) expect(containerStatusLabel(s), s).not.toMatch(/_/);
  });
});

describe('humanize', () => {
  it.each([
    ['vessel_discharged', 'Vessel discharged'],
    ['container.updated', 'Container updated'],
    ['__', ''],
  ])('%s → %j', (code, words) => {
    expect(humanize(code)).toBe(words);
  });
});

describe('small labels', () => {
  it.each([
    [{ shipping_line_short_name: 'Maersk', shipping_line_name: 'Maersk A/S', shipping_line_scac: 'MAEU' }, 'Maersk'],
    [{ shipping_line_short_name: null, shipping_line_name: 'Maersk A/S', shipping_line_scac: 'MAEU' }, 'Maersk A/S'],
    [{ shipping_line_short_name: null, shipping_line_name: null, shipping_line_scac: 'MAEU' }, 'MAEU'],
    [{ shipping_line_short_name: null, shipping_line_name: null, shipping_line_scac: null }, '—'],
  ])('carrierLabel %j → %s', (a, label) => {
    expect(carrierLabel(a)).toBe(label);
  });

  it.each([
    ['Los Angeles', 'USLAX', 'Los Angeles (USLAX)'],
    [null, 'USLAX', 'USLAX'],
    ['Los Angeles', null, 'Los Angeles'],
    [null, null, '—'],
  ])('placeLabel %j %j → %s', (name, locode, label) => {
    expect(placeLabel(name, locode)).toBe(label);
  });

  it.each([
    [{ equipment_length: 40 as const, equipment_height: 'high_cube' as const, equipment_type: 'dry' as const }, '40′ high cube dry'],
    [{ equipment_length: 20 as const, equipment_height: 'standard' as const, equipment_type: 'reefer' as const }, '20′ reefer'],
    [{ equipment_length: null, equipment_height: null, equipment_type: null }, '—'],
  ])('equipmentLabel %j → %s', (a, label) => {
    expect(equipmentLabel(a)).toBe(label);
  });
});

describe('shipmentStatus', () => {
  const none = { line_tracking_stopped_at: null, destination_ata_at: null, pod_ata_at: null, pol_atd_at: null };
  const at = '2026-03-01T00:00:00Z';
  it.each([
    ['booked', {}, 'Not departed'],
    ['departed', { pol_atd_at: at }, 'On the water'],
    ['arrived', { pol_atd_at: at, pod_ata_at: at }, 'Arrived'],
    ['inland', { pol_atd_at: at, pod_ata_at: at, destination_ata_at: at }, 'At destination'],
    ['stopped wins', { pol_atd_at: at, line_tracking_stopped_at: at }, 'Tracking stopped'],
  ])('%s', (_name, dates, label) => {
    expect(shipmentStatus({ ...none, ...dates } as ShipmentAttributes).label).toBe(label);
  });
});
