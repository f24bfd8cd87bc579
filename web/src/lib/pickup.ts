// Whether a container can be picked up, in plain words. Its last free days are lib/lfd.ts's.
import type { Tone } from './lfd';
import type { ContainerDetail } from './tracking';
import { holdWord, listWords } from './tracking';

export type { Tone } from './lfd';

export interface Verdict {
  /** "Ready for pickup", "Not released: customs hold", … */
  text: string;
  /** A second sentence saying why or what next (may be empty). */
  detail: string;
  tone: Tone;
}

const GONE: Record<string, string> = {
  empty_returned: 'Done: the empty container was returned',
  delivered: 'Delivered',
  picked_up: 'Picked up',
  dropped: 'Dropped at the consignee',
  loaded: 'Loaded at the consignee',
};

/** The release-readiness verdict of a container, from its status, holds and availability. */
export function readiness(c: ContainerDetail): Verdict {
  const status = c.current_status;
  if (GONE[status]) return { text: GONE[status]!, detail: '', tone: 'neutral' };
  if (c.pod_full_out_at || c.final_destination_full_out_at) return { text: 'Picked up', detail: '', tone: 'neutral' };
  const holds = (c.holds_at_pod_terminal ?? []).filter((h) => h.status === 'hold');
  const pending = (c.holds_at_pod_terminal ?? []).filter((h) => h.status === 'pending');
  if (holds.length) {
    const words = listWords([...new Set(holds.map((h) => holdWord(h.name)))]);
    return {
      text: `Not released: ${words} hold${holds.length > 1 ? 's' : ''}`,
      detail: 'The terminal will not let it out until the hold is lifted.',
      tone: 'bad',
    };
  }
  if (status === 'off_dock') {
    // Still to be picked up: from the off-dock yard it was moved to, where the last free days still count.
    return c.ready_for_pickup
      ? { text: 'Ready for pickup off dock', detail: 'At the off-dock yard with no holds.', tone: 'good' }
      : { text: 'Moved off dock', detail: 'It waits at an off-dock yard and is picked up from there.', tone: 'warn' };
  }
  if (status === 'new' || status === 'on_ship' || (!c.pod_arrived_at && !c.pod_discharged_at && status !== 'on_rail')) {
    return { text: 'Not arrived yet', detail: 'Still on the water: the terminal has nothing to say yet.', tone: 'info' };
  }
  const railing = !!(c.pod_rail_loaded_at || c.pod_rail_departed_at) && !c.ind_ata_at && !c.ind_rail_unloaded_at;
  if (railing || status === 'on_rail') {
    return {
      text: c.pod_rail_departed_at ? 'On rail: not at the pickup place yet' : 'Loaded on rail at the port',
      detail: 'It becomes available at the inland rail facility.',
      tone: 'info',
    };
  }
  if (c.ind_ata_at && !c.ind_rail_unloaded_at && !c.ready_for_pickup) {
    return { text: 'Arrived inland, not unloaded yet', detail: 'The railroad has not made it available yet.', tone: 'info' };
  }
  if (status === 'awaiting_inland_transfer') {
    return {
      text: 'Waiting for the inland move',
      detail: 'It goes on by rail and becomes available at the inland rail facility.',
      tone: 'info',
    };
  }
  if (pending.length) {
    const words = listWords([...new Set(pending.map((h) => holdWord(h.name)))]);
    return { text: `Not released: ${words} hold pending`, detail: 'The terminal has a hold under review.', tone: 'warn' };
  }
  if (c.ready_for_pickup) return { text: 'Ready for pickup', detail: 'Available at the terminal with no holds.', tone: 'good' };
  if (!c.availability_known) return { text: 'Availability not known yet', detail: 'The terminal has not said whether it can go.', tone: 'neutral' };
  if (c.available_for_pickup) return { text: 'Available, not released yet', detail: 'The terminal lists it as available.', tone: 'warn' };
  if (!c.pod_discharged_at) return { text: 'Not available: not discharged yet', detail: 'The vessel is in; the box is still on board.', tone: 'warn' };
  return { text: 'Not available yet', detail: 'Discharged, but the terminal does not offer it for pickup yet.', tone: 'warn' };
}
