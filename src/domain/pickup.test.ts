import { describe, expect, it } from 'vitest';
import {
  atInlandRampOnTheWire,
  holdNames,
  holdsAtPickupPlace,
  isLeftStatus,
  leftPickupPlace,
  type PickupHold,
  type Readiness,
  type ReadinessFields,
  readiness,
} from './pickup.js';

const customs: PickupHold = { name: 'customs', status: 'hold', description: null };
const freight: PickupHold = { name: 'freight', status: 'hold', description: null };
const usdaPending: PickupHold = { name: 'USDA', status: 'pending', description: null };
const railHold: PickupHold = { name: 'other', status: 'hold', description: 'Rail hold' };

const ARRIVED = '2026-03-02T10:00:00Z';
const DISCHARGED = '2026-03-03T10:00:00Z';

/** A box as the API serves it: nothing known yet, then the fields a row sets. */
function box(fields: Partial<ReadinessFields> = {}): ReadinessFields {
  return {
    current_status: 'new',
    ready_for_pickup: false,
    available_for_pickup: null,
    availability_known: false,
    pod_arrived_at: null,
    pod_discharged_at: null,
    pod_full_out_at: null,
    final_destination_full_out_at: null,
    holds_at_pod_terminal: [],
    ind_facility_holds: null,
    pod_rail_loaded_at: null,
    pod_rail_departed_at: null,
    ind_ata_at: null,
    ind_rail_unloaded_at: null,
    ...fields,
  };
}
const atTerminal = (fields: Partial<ReadinessFields> = {}) =>
  box({ pod_arrived_at: ARRIVED, pod_discharged_at: DISCHARGED, current_status: 'grounded', ...fields });
/** A rail move at its inland ramp (unloaded there), as the API serves it. */
const inland = (fields: Partial<ReadinessFields> = {}) =>
  atTerminal({
    pod_rail_loaded_at: '2026-03-05T10:00:00Z',
    pod_rail_departed_at: '2026-03-05T12:00:00Z',
    ind_ata_at: '2026-03-08T10:00:00Z',
    ind_rail_unloaded_at: '2026-03-08T14:00:00Z',
    ...fields,
  });

describe('which statuses mean the box has left its pickup place', () => {
  it.each([
    ['picked_up', true],
    ['delivered', true],
    ['empty_returned', true],
    // Drayage states Tidemark never derives: the box has left the pickup place all the same (docs/tracking.md).
    ['dropped', true],
    ['loaded', true],
    // Still to be picked up, from the off-dock yard.
    ['off_dock', false],
    ['available', false],
    ['not_available', false],
    ['grounded', false],
    ['on_rail', false],
    ['awaiting_inland_transfer', false],
    ['on_ship', false],
    ['new', false],
  ])('%s → %s', (status, left) => {
    expect(isLeftStatus(status)).toBe(left);
    expect(leftPickupPlace(box({ current_status: status }))).toBe(left);
  });

  it.each([
    ['a full out at the POD', { pod_full_out_at: '2026-03-04T10:00:00Z' }],
    ['a full out at the inland ramp', { final_destination_full_out_at: '2026-03-09T10:00:00Z' }],
  ])('a full-out time the status has not caught up with counts too: %s', (_name, fields) => {
    expect(leftPickupPlace(box({ current_status: 'available', ...fields }))).toBe(true);
  });
});

describe('the holds of the pickup place', () => {
  it.each([
    ['at the POD terminal: its holds', { holds_at_pod_terminal: [customs], ind_facility_holds: [railHold] }, false, [customs]],
    [
      'at the inland ramp: the ramp’s, not the port’s',
      { holds_at_pod_terminal: [customs], ind_facility_holds: [railHold] },
      true,
      [railHold],
    ],
    ['at the inland ramp, none reported there', { holds_at_pod_terminal: [customs], ind_facility_holds: null }, true, []],
    ['none reported at the port', { holds_at_pod_terminal: null }, false, []],
  ])('%s', (_name, lists, atInlandRamp, expected) => {
    expect(holdsAtPickupPlace(lists, atInlandRamp)).toEqual(expected);
  });

  it('names each blocking or pending hold once, in the order given', () => {
    const holds = [customs, usdaPending, freight, { ...customs, description: 'again' }];
    expect(holdNames(holds, 'hold')).toEqual(['customs', 'freight']);
    expect(holdNames(holds, 'pending')).toEqual(['USDA']);
  });
});

describe('whether a rail move is at its inland ramp, from what the API serves', () => {
  it.each([
    ['a box that never went by rail, available at the POD', atTerminal({ current_status: 'available' }), false],
    ['on its rail car, departed from the port', atTerminal({ current_status: 'on_rail', pod_rail_departed_at: ARRIVED }), false],
    ['loaded on rail, still at the port', atTerminal({ current_status: 'on_rail', pod_rail_loaded_at: ARRIVED }), false],
    ['discharged, waiting for the rail car', atTerminal({ current_status: 'awaiting_inland_transfer' }), false],
    ['the railroad’s arrival at the ramp (still on its car)', atTerminal({ current_status: 'on_rail', ind_ata_at: ARRIVED }), true],
    ['unloaded at the ramp', atTerminal({ current_status: 'grounded', ind_rail_unloaded_at: ARRIVED }), true],
    [
      'gone by rail and offered for pickup (the ramp gives availability only once it holds the box)',
      atTerminal({ current_status: 'available', pod_rail_departed_at: ARRIVED }),
      true,
    ],
  ])('%s → %s', (_name, c, expected) => {
    expect(atInlandRampOnTheWire(c)).toBe(expected);
  });
});

describe('readiness: the release verdict', () => {
  it.each<[string, ReadinessFields, Readiness]>([
    ['nothing known yet', box(), { state: 'not_arrived' }],
    ['on the water', box({ current_status: 'on_ship' }), { state: 'not_arrived' }],
    // Pre-arrival holds are real: the board counts them too.
    [
      'on the water with a customs hold',
      box({ current_status: 'on_ship', holds_at_pod_terminal: [customs] }),
      { state: 'on_hold', holds: ['customs'] },
    ],
    [
      'two holds, the same one twice',
      atTerminal({ holds_at_pod_terminal: [customs, freight, customs] }),
      { state: 'on_hold', holds: ['customs', 'freight'] },
    ],
    [
      'picked up',
      atTerminal({ current_status: 'picked_up', pod_full_out_at: '2026-03-04T10:00:00Z' }),
      { state: 'left', status: 'picked_up' },
    ],
    ['delivered (by hand)', atTerminal({ current_status: 'delivered' }), { state: 'left', status: 'delivered' }],
    ['empty returned', atTerminal({ current_status: 'empty_returned' }), { state: 'left', status: 'empty_returned' }],
    ['loaded at the consignee (a drayage state): gone', atTerminal({ current_status: 'loaded' }), { state: 'left', status: 'loaded' }],
    ['dropped at the consignee: gone', atTerminal({ current_status: 'dropped' }), { state: 'left', status: 'dropped' }],
    [
      'gone, whatever holds are left in the last answer',
      atTerminal({ current_status: 'picked_up', holds_at_pod_terminal: [customs] }),
      { state: 'left', status: 'picked_up' },
    ],
    [
      'a full out the status has not caught up with',
      atTerminal({ current_status: 'available', final_destination_full_out_at: '2026-03-09T10:00:00Z' }),
      { state: 'left', status: 'picked_up' },
    ],
    ['off dock, ready', atTerminal({ current_status: 'off_dock', ready_for_pickup: true }), { state: 'off_dock', ready: true }],
    ['off dock, not yet offered', atTerminal({ current_status: 'off_dock' }), { state: 'off_dock', ready: false }],
    [
      'arrived, not discharged, no status of the terminal yet',
      box({ current_status: 'on_ship', pod_arrived_at: ARRIVED }),
      { state: 'not_arrived' },
    ],
    [
      'discharged, waiting for the rail car',
      atTerminal({ current_status: 'awaiting_inland_transfer' }),
      { state: 'awaiting_inland_transfer' },
    ],
    [
      'loaded on rail at the port',
      atTerminal({ current_status: 'on_rail', pod_rail_loaded_at: '2026-03-05T10:00:00Z' }),
      { state: 'on_rail', departed: false },
    ],
    [
      'on rail, departed',
      atTerminal({ current_status: 'on_rail', pod_rail_loaded_at: '2026-03-05T10:00:00Z', pod_rail_departed_at: '2026-03-05T12:00:00Z' }),
      { state: 'on_rail', departed: true },
    ],
    [
      'arrived at the ramp, still on its car (on_rail until unloaded or offered)',
      inland({ current_status: 'on_rail', ind_rail_unloaded_at: null }),
      { state: 'inland_not_unloaded' },
    ],
    [
      'at the ramp: the port’s old customs hold does not hold it there',
      inland({
        current_status: 'available',
        available_for_pickup: true,
        availability_known: true,
        ready_for_pickup: true,
        holds_at_pod_terminal: [customs],
      }),
      { state: 'ready' },
    ],
    [
      'at the ramp: the ramp’s own hold does',
      inland({
        current_status: 'available',
        available_for_pickup: true,
        availability_known: true,
        holds_at_pod_terminal: [],
        ind_facility_holds: [railHold],
      }),
      { state: 'on_hold', holds: ['other'] },
    ],
    [
      'a hold under review',
      atTerminal({
        current_status: 'available',
        available_for_pickup: true,
        availability_known: true,
        ready_for_pickup: true,
        holds_at_pod_terminal: [usdaPending],
      }),
      { state: 'hold_pending', holds: ['USDA'] },
    ],
    [
      'ready',
      atTerminal({ current_status: 'available', available_for_pickup: true, availability_known: true, ready_for_pickup: true }),
      { state: 'ready' },
    ],
    ['discharged, the terminal has said nothing', atTerminal(), { state: 'availability_unknown' }],
    [
      'available but not released (the engine says not ready)',
      atTerminal({ current_status: 'available', available_for_pickup: true, availability_known: true }),
      { state: 'available_not_released' },
    ],
    [
      'the terminal offers nothing, the box still on board',
      box({ current_status: 'not_available', pod_arrived_at: ARRIVED, available_for_pickup: false, availability_known: true }),
      { state: 'not_discharged' },
    ],
    [
      'discharged, not available',
      atTerminal({ current_status: 'not_available', available_for_pickup: false, availability_known: true }),
      { state: 'not_available' },
    ],
  ])('%s', (_name, c, expected) => {
    expect(readiness(c)).toEqual(expected);
  });

  it('weighs the holds of the place it is told the box is at (the engine knows it exactly)', () => {
    // Only the line's inland arrival says so (the shipment's destination_ata_at): the wire cannot tell, the engine can.
    const c = atTerminal({
      current_status: 'on_rail',
      pod_rail_departed_at: ARRIVED,
      holds_at_pod_terminal: [customs],
      ind_facility_holds: [railHold],
    });
    expect(readiness(c)).toEqual({ state: 'on_hold', holds: ['customs'] });
    expect(readiness(c, true)).toEqual({ state: 'on_hold', holds: ['other'] });
  });
});
