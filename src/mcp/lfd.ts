// Where a container's binding last free day stands at the world time, for tool results: a model knows neither
// Tidemark's world clock (the sandbox's, while it is on) nor the place's calendar, so it is told the days left
// instead of counting them. Counted by src/domain/lfd.ts, as the board and the web app count; never after pickup.
import { z } from 'zod';
import { type LfdParty, lfdCountdown, localDate } from '../domain/lfd.js';
import { isLeftStatus } from '../domain/pickup.js';
import { isoSeconds } from '../lib/dates.js';


const PARTY_WORDS: Record<LfdParty, string> = { line: "the shipping line's", terminal: "the terminal's", rail: "the railroad's" };

export const lastFreeDayOutput = z.object({
  world_time: z.string(),
  binding: z
    .object({
      date: z.string().nullable(),
      timestamp: z.string(),
      party: z.enum(['line', 'terminal', 'rail']),
      timezone: z.string().nullable(),
    })
    .nullable(),
  state: z.enum(['counting', 'picked_up', 'left_pickup_place', 'none']),
  days_left: z.number().nullable(),
  picked_up_days_before_lfd: z.number().nullable(),
  summary: z.string(),
});
export type LastFreeDay = z.infer<typeof lastFreeDayOutput>;

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The binding last free day of a rendered container (its /v2 attributes) at `worldNow`. */
export function lastFreeDay(attributes: Record<string, unknown>, worldNow: Date): LastFreeDay {
  const timestamp = str(attributes.pickup_lfd_binding);
  const party = str(attributes.pickup_lfd_binding_party) as LfdParty | null;
  const timezone = str(attributes.pickup_lfd_binding_timezone);
  const status = str(attributes.current_status) ?? '';
  const pickedUpAt = str(attributes.pod_full_out_at) ?? str(attributes.final_destination_full_out_at);
  const left = isLeftStatus(status) || pickedUpAt !== null;
  const base = { world_time: isoSeconds(worldNow)!, days_left: null, picked_up_days_before_lfd: null };
  if (!timestamp || !party) {
    return {
      ...base,
      binding: null,
      state: left ? 'left_pickup_place' : 'none',
      summary: left
        ? 'The container has left its pickup place; no last free day counts any more.'
        : 'No last free day applies where the container is picked up yet (pickup_lfd_binding is null).',
    };
  }
  const date = localDate(Date.parse(timestamp), timezone);
  const binding = { date, timestamp, party, timezone };
  const whose = `${PARTY_WORDS[party]} last free day, ${date ?? timestamp}${timezone ? ` (${timezone})` : ''}`;
  if (left && !pickedUpAt) {
    return {
      ...base,
      binding,
      state: 'left_pickup_place',
      summary: `The container has left its pickup place (status ${status}); ${whose}, no longer counts.`,
    };
  }
  const countdown = lfdCountdown({ timestamp, timezone }, worldNow, left ? pickedUpAt : null);
  if (countdown.state === 'picked_up') {
    const d = countdown.days_before_lfd;
    const how = d === 0 ? 'on' : d > 0 ? `${plural(d, 'day')} before` : `${plural(-d, 'day')} after`;
    return {
      ...base,
      binding,
      state: 'picked_up',
      picked_up_days_before_lfd: d,
      summary: `Picked up ${how} ${whose}; no days are counted after pickup.`,
    };
  }
  if (countdown.state === 'counting') {
    const d = countdown.days_left;
    const when = d > 1 ? `${d} days left` : d === 1 ? 'tomorrow (1 day left)' : d === 0 ? 'today' : `passed ${plural(-d, 'day')} ago`;
    return { ...base, binding, state: 'counting', days_left: d, summary: `Binding: ${whose} — ${when}.` };
  }
  return { ...base, binding, state: 'none', summary: `Binding: ${whose}.` };
}
