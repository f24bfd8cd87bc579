// The last free day as the pages say it: the binding one (`pickup_lfd_binding`: the earliest that applies where
// the box is picked up), whose date it is, the other parties' dates beside it, and the days left. Days are counted
// by src/domain/lfd.ts — the module the server's board counts with — on the world clock, so the pages and the
// board cannot disagree; nothing is counted once the box has left its pickup place (src/domain/pickup.ts says when).
import { type LfdCountdown, type LfdParty, lfdCountdown, localDate } from '../../../src/domain/lfd.js';
import { leftPickupPlace } from '../../../src/domain/pickup.js';

import type { ContainerAttributes } from './resources';

export type { LfdParty } from '../../../src/domain/lfd.js';

export type Tone = 'neutral' | 'good' | 'warn' | 'bad' | 'info';

/**
 * What the pages read of a container for its last free days (its /v2 attributes). The binding date's three fields
 * are absent on a container not refreshed since they were added: read as no binding date.
 */
export type LfdFields = Pick<
  ContainerAttributes,
  | 'current_status'
  | 'pickup_lfd_binding'
  | 'pickup_lfd_binding_party'
  | 'pickup_lfd_binding_timezone'
  | 'import_deadlines'
  | 'pod_timezone'
  | 'final_destination_timezone'
  | 'pod_full_out_at'
  | 'final_destination_full_out_at'
>;

const PARTY_WORDS: Record<LfdParty, { label: string; owner: string }> = {
  line: { label: 'Shipping line', owner: 'Shipping line’s' },
  terminal: { label: 'Terminal', owner: 'Terminal’s' },
  rail: { label: 'Rail', owner: 'Railroad’s' },
};

/** "Terminal", "Shipping line", "Rail". */
export const partyLabel = (p: LfdParty) => PARTY_WORDS[p].label;
/** "Terminal’s", "Shipping line’s", "Railroad’s" (capitalised, to begin a sentence). */
export const partyOwner = (p: LfdParty) => PARTY_WORDS[p].owner;
const ownerLower = (p: LfdParty) => PARTY_WORDS[p].owner.toLowerCase();

/** One party's last free day, as the container page's table lists them. */
export interface LfdSource {
  party: LfdParty;
  label: string;
  value: string | null;
  /** The zone the date is a local midnight in: the POD's for line and terminal, the inland destination's for rail. */
  zone: string | null;
  /** This is the binding date (`pickup_lfd_binding_party`). */
  binds: boolean;
  /**
   * Where the date falls against the binding one, as local dates. An earlier date that does not bind does not
   * apply where the box is picked up (a rail date while it is picked up at the POD terminal, say).
   */
  relation: 'earlier' | 'same_day' | 'later' | null;
}

const dayOf = (value: string | null | undefined, zone: string | null | undefined) =>
  value ? localDate(Date.parse(value), zone ?? null) : null;

/** Every party's last free day, line → terminal → rail, the binding one marked. */
export function lfdSources(c: LfdFields): LfdSource[] {
  const d = c.import_deadlines ?? { pickup_lfd_line: null, pickup_lfd_terminal: null, pickup_lfd_rail: null };
  const bindingDay = dayOf(c.pickup_lfd_binding, c.pickup_lfd_binding_timezone);
  const source = (party: LfdParty, value: string | null, zone: string | null): LfdSource => {
    const binds = party === c.pickup_lfd_binding_party && !!c.pickup_lfd_binding;
    const day = dayOf(value, zone);
    const relation = binds || !day || !bindingDay ? null : day < bindingDay ? 'earlier' : day === bindingDay ? 'same_day' : 'later';
    return { party, label: partyLabel(party), value, zone, binds, relation };
  };
  return [
    source('line', d.pickup_lfd_line, c.pod_timezone),
    source('terminal', d.pickup_lfd_terminal, c.pod_timezone),
    source('rail', d.pickup_lfd_rail, c.final_destination_timezone ?? c.pod_timezone),
  ];
}

/** Where the binding last free day stands today (world time). */
export interface LfdStanding {
  binding: { party: LfdParty; value: string; zone: string | null } | null;
  /** From src/domain/lfd.ts: days left while the box waits; once it is picked up, how the pickup fell against the date. */
  countdown: LfdCountdown;
  /** The box has left its pickup place: its last free day no longer counts down (even without a pickup time). */
  left: boolean;
  /** The other parties' dates that are given. */
  others: LfdSource[];
}

export function lfdStanding(c: LfdFields, now: Date): LfdStanding {
  const left = leftPickupPlace(c);
  const binding =
    c.pickup_lfd_binding && c.pickup_lfd_binding_party
      ? { party: c.pickup_lfd_binding_party, value: c.pickup_lfd_binding, zone: c.pickup_lfd_binding_timezone ?? null }
      : null;
  const pickedUpAt = c.pod_full_out_at ?? c.final_destination_full_out_at;
  const countdown: LfdCountdown =
    !binding || (left && !pickedUpAt)
      ? { state: 'none' }
      : lfdCountdown({ timestamp: binding.value, timezone: binding.zone }, now, left ? pickedUpAt : null);
  return { binding, countdown, left, others: lfdSources(c).filter((s) => !s.binds && s.value) };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Days left in a few words: "5 days left", "tomorrow", "today", "passed 2 days ago". */
export function daysLeftWords(days: number): { text: string; tone: Tone } {
  if (days > 1) return { text: `${days} days left`, tone: days <= 3 ? 'warn' : 'neutral' };
  if (days === 1) return { text: 'tomorrow', tone: 'warn' };
  if (days === 0) return { text: 'today', tone: 'bad' };
  return { text: `passed ${plural(-days, 'day')} ago`, tone: 'bad' };
}

/** How a pickup fell against the last free day: "picked up 2 days before the last free day", "… on …", "… after …". */
export function pickupWords(daysBeforeLfd: number, whose = 'the'): string {
  if (daysBeforeLfd === 0) return `picked up on ${whose} last free day`;
  const n = plural(Math.abs(daysBeforeLfd), 'day');
  return daysBeforeLfd > 0 ? `picked up ${n} before ${whose} last free day` : `picked up ${n} after ${whose} last free day`;
}

/**
 * The short words of a standing for a table cell (the party named beside them): "today", "5 days left",
 * "picked up 2 days before the last free day"; "picked up" when the pickup time is unknown; null without a date.
 */
export function standingWords(s: LfdStanding): { text: string; tone: Tone } | null {
  if (s.countdown.state === 'counting') return daysLeftWords(s.countdown.days_left);
  if (s.countdown.state === 'picked_up') {
    return { text: pickupWords(s.countdown.days_before_lfd), tone: s.countdown.days_before_lfd < 0 ? 'warn' : 'neutral' };
  }
  if (s.binding && s.left) return { text: 'picked up: no longer counted', tone: 'neutral' };
  return null;
}

/**
 * The standing as a sentence that names whose date binds: "Terminal’s last free day: today", "Shipping line’s
 * last free day: 5 days left", "Picked up 2 days before the terminal’s last free day"; null without a date.
 */
export function standingSentence(s: LfdStanding): string | null {
  if (!s.binding) return null;
  const { party } = s.binding;
  if (s.countdown.state === 'counting') return `${partyOwner(party)} last free day: ${daysLeftWords(s.countdown.days_left).text}`;
  if (s.countdown.state === 'picked_up') {
    return cap(pickupWords(s.countdown.days_before_lfd, `the ${ownerLower(party)}`));
  }
  return s.left ? `Picked up; the ${ownerLower(party)} last free day no longer counts` : null;
}

/**
 * What the last free day adds to the release verdict while the box waits: the date that binds today, tomorrow or
 * passed; empty otherwise.
 */
export function verdictLfdSentence(s: LfdStanding): string {
  if (!s.binding || s.countdown.state !== 'counting') return '';
  const whose = `the ${ownerLower(s.binding.party)}`;
  const days = s.countdown.days_left;
  if (days < 0) return `${cap(whose)} last free day passed ${plural(-days, 'day')} ago: demurrage is accruing.`;
  if (days === 0) return `Today is ${whose} last free day.`;
  if (days === 1) return `Tomorrow is ${whose} last free day.`;
  return '';
}
