// Whether a container can be picked up, in plain words. The verdict itself is src/domain/pickup.ts's, the module
// the server's board judges holds and departures with, so the container page and the board cannot disagree; this
// file only says it.
import {
  atInlandRampOnTheWire,
  type HoldLists,
  holdsAtPickupPlace,
  type PickupHold,
  type RailFields,
  type Readiness,
  type ReadinessFields,
  readiness,
} from '../../../src/domain/pickup.js';
import type { Tone } from './lfd';
import { holdWord, listWords } from './tracking';

export interface Verdict {
  /** "Ready for pickup", "Not released: customs hold", … */
  text: string;
  /** A second sentence saying why or what next (may be empty). */
  detail: string;
  tone: Tone;
}

const LEFT: Record<Extract<Readiness, { state: 'left' }>['status'], string> = {
  empty_returned: 'Done: the empty container was returned',
  delivered: 'Delivered',
  picked_up: 'Picked up',
  dropped: 'Dropped at the consignee',
  loaded: 'Loaded at the consignee',
};

const holdList = (names: string[]) => listWords(names.map(holdWord));

/** A verdict in words. */
export function verdictWords(r: Readiness): Verdict {
  switch (r.state) {
    case 'left':
      return { text: LEFT[r.status], detail: '', tone: 'neutral' };
    case 'on_hold':
      return {
        text: `Not released: ${holdList(r.holds)} hold${r.holds.length > 1 ? 's' : ''}`,
        detail: 'The terminal will not let it out until the hold is lifted.',
        tone: 'bad',
      };
    case 'off_dock':
      // Still to be picked up: from the off-dock yard it was moved to, where the last free days still count.
      return r.ready
        ? { text: 'Ready for pickup off dock', detail: 'At the off-dock yard with no holds.', tone: 'good' }
        : { text: 'Moved off dock', detail: 'It waits at an off-dock yard and is picked up from there.', tone: 'warn' };
    case 'not_arrived':
      return { text: 'Not arrived yet', detail: 'Still on the water: the terminal has nothing to say yet.', tone: 'info' };
    case 'on_rail':
      return {
        text: r.departed ? 'On rail: not at the pickup place yet' : 'Loaded on rail at the port',
        detail: 'It becomes available at the inland rail facility.',
        tone: 'info',
      };
    case 'inland_not_unloaded':
      return { text: 'Arrived inland, not unloaded yet', detail: 'The railroad has not made it available yet.', tone: 'info' };
    case 'awaiting_inland_transfer':
      return {
        text: 'Waiting for the inland move',
        detail: 'It goes on by rail and becomes available at the inland rail facility.',
        tone: 'info',
      };
    case 'hold_pending':
      return { text: `Not released: ${holdList(r.holds)} hold pending`, detail: 'The terminal has a hold under review.', tone: 'warn' };
    case 'ready':
      return { text: 'Ready for pickup', detail: 'Available at the terminal with no holds.', tone: 'good' };
    case 'availability_unknown':
      return { text: 'Availability not known yet', detail: 'The terminal has not said whether it can go.', tone: 'neutral' };
    case 'available_not_released':
      return { text: 'Available, not released yet', detail: 'The terminal lists it as available.', tone: 'warn' };
    case 'not_discharged':
      return { text: 'Not available: not discharged yet', detail: 'The vessel is in; the box is still on board.', tone: 'warn' };
    case 'not_available':
      return { text: 'Not available yet', detail: 'Discharged, but the terminal does not offer it for pickup yet.', tone: 'warn' };
  }
}

/** The release-readiness verdict of a container, in words. */
export const readinessVerdict = (c: ReadinessFields): Verdict => verdictWords(readiness(c));

/** The holds of the place the box is picked up from: the ones the verdict weighs (the inland ramp's once it is there). */
export function pickupPlaceHolds<H extends PickupHold>(c: HoldLists<H> & RailFields & { current_status: string }): H[] {
  return [...holdsAtPickupPlace(c, atInlandRampOnTheWire(c))];
}
