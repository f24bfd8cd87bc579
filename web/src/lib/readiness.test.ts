// The release-readiness verdict in words (lib/readiness.ts): src/domain/pickup.ts decides, this file only says it.
import { describe, expect, it } from 'vitest';
import type { Readiness } from '../../../src/domain/pickup.js';
import { pickupPlaceHolds, readinessVerdict, verdictWords } from './readiness';
import type { ContainerAttributes } from './tracking';

describe('verdict words', () => {
  it.each<[Readiness, string, string]>([
    [{ state: 'left', status: 'picked_up' }, 'Picked up', 'neutral'],
    [{ state: 'left', status: 'loaded' }, 'Loaded at the consignee', 'neutral'],
    [{ state: 'left', status: 'empty_returned' }, 'Done: the empty container was returned', 'neutral'],
    [{ state: 'on_hold', holds: ['customs'] }, 'Not released: customs hold', 'bad'],
    [{ state: 'on_hold', holds: ['customs', 'VACIS', 'freight'] }, 'Not released: customs, VACIS exam and freight holds', 'bad'],
    [{ state: 'on_hold', holds: ['port_fee'] }, 'Not released: port fee hold', 'bad'],
    [{ state: 'off_dock', ready: true }, 'Ready for pickup off dock', 'good'],
    [{ state: 'off_dock', ready: false }, 'Moved off dock', 'warn'],
    [{ state: 'not_arrived' }, 'Not arrived yet', 'info'],
    [{ state: 'on_rail', departed: false }, 'Loaded on rail at the port', 'info'],
    [{ state: 'on_rail', departed: true }, 'On rail: not at the pickup place yet', 'info'],
    [{ state: 'inland_not_unloaded' }, 'Arrived inland, not unloaded yet', 'info'],
    [{ state: 'awaiting_inland_transfer' }, 'Waiting for the inland move', 'info'],
    [{ state: 'hold_pending', holds: ['USDA'] }, 'Not released: USDA hold pending', 'warn'],
    [{ state: 'ready' }, 'Ready for pickup', 'good'],
    [{ state: 'availability_unknown' }, 'Availability not known yet', 'neutral'],
    [{ state: 'available_not_released' }, 'Available, not released yet', 'warn'],
    [{ state: 'not_discharged' }, 'Not available: not discharged yet', 'warn'],
    [{ state: 'not_available' }, 'Not available yet', 'warn'],
  ])('%j → %s (%s)', (r, text, tone) => {
    const v = verdictWords(r);
    expect(v).toMatchObject({ text, tone });
    expect(typeof v.detail).toBe('string');
  });

  it('only a departed box has no second sentence', () => {
    expect(verdictWords({ state: 'left', status: 'delivered' }).detail).toBe('');
    expect(verdictWords({ state: 'ready' }).detail).toBe('Available at the terminal with no holds.');
  });
});

/** A rail move unloaded at its inland ramp, as GET /v2/containers/{id} serves it (the parts the verdict reads). */
function inlandBox(over: Partial<ContainerAttributes> = {}) {
  return {
    current_status: 'available' as const,
    ready_for_pickup: true,
    available_for_pickup: true,
    availability_known: true,
    pod_arrived_at: '2026-03-02T10:00:00Z',
    pod_discharged_at: '2026-03-03T10:00:00Z',
    pod_full_out_at: null,
    final_destination_full_out_at: null,
    pod_rail_loaded_at: '2026-03-05T10:00:00Z',
    pod_rail_departed_at: '2026-03-05T12:00:00Z',
    ind_ata_at: '2026-03-08T10:00:00Z',
    ind_rail_unloaded_at: '2026-03-08T14:00:00Z',
    holds_at_pod_terminal: [{ name: 'customs' as const, status: 'hold' as const, description: null }],
    ind_facility_holds: [],
    ...over,
  };
}

describe('a rail move at its inland ramp (the page used to weigh the port’s holds there)', () => {
  it('the port terminal’s last customs hold no longer reads "Not released"', () => {
    expect(readinessVerdict(inlandBox()).text).toBe('Ready for pickup');
    expect(pickupPlaceHolds(inlandBox())).toEqual([]);
  });

  it('the ramp’s own hold does, and is the one the page lists', () => {
    const held = inlandBox({ ready_for_pickup: false, ind_facility_holds: [{ name: 'other', status: 'hold', description: 'Rail hold' }] });
    expect(readinessVerdict(held).text).toBe('Not released: other hold');
    expect(pickupPlaceHolds(held)).toEqual([{ name: 'other', status: 'hold', description: 'Rail hold' }]);
  });

  it('before the ramp, the port terminal’s holds are the ones that count', () => {
    const onRail = inlandBox({ current_status: 'on_rail', ind_ata_at: null, ind_rail_unloaded_at: null, ready_for_pickup: false });
    expect(readinessVerdict(onRail).text).toBe('Not released: customs hold');
    expect(pickupPlaceHolds(onRail).map((h) => h.name)).toEqual(['customs']);
  });
});
