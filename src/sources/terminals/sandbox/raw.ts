// What the sandbox terminal API sends (GET {base}/{facility}/containers/{number}), and the event, place and
// yard blocks the sandbox rail API shares with it. Strict on what we read, open to fields we do not.
import { z } from 'zod';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

function realDate(v: string): boolean {
  const [y, m, d] = v.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** An instant (with `Z` or an offset). */
export const WireInstant = z.string().refine((v) => INSTANT.test(v) && realDate(v), 'expected an ISO 8601 date-time with Z or an offset');
/** An instant, a local date-time in the facility's zone (`YYYY-MM-DDTHH:MM:SS`), or a date alone. */
export const WireTime = z
  .string()
  .refine(
    (v) => (INSTANT.test(v) || LOCAL.test(v) || DATE.test(v)) && realDate(v),
    'expected an ISO 8601 date, local date-time or date-time',
  );

export const WirePlace = z.looseObject({
  locode: z
    .string()
    .regex(/^[A-Z]{2}[A-Z2-9]{3}$/, 'expected a UN/LOCODE')
    .nullable(),
  name: z.string().min(1).nullable(),
  code: z.string().min(1).nullable(),
  code_list: z.enum(['firms', 'smdg', 'bic']).nullable(),
});

export const WireVessel = z.looseObject({
  name: z.string().min(1).nullable(),
  imo: z.string().nullable(),
  mmsi: z.string().nullable(),
});

export const WireEvent = z.looseObject({
  id: z.string().min(1).nullable(),
  /** One of codes.ts `EVENT_TYPE`; an unknown type skips the event. */
  type: z.string().min(1),
  /** The operator's own words for the event. */
  description: z.string().min(1).nullable(),
  classifier: z.enum(['actual', 'estimated', 'planned']),
  time: WireTime.nullable(),
  reported_at: WireInstant.nullable(),
  location: WirePlace.nullable(),
  vessel: WireVessel.nullable(),
  voyage: z.string().min(1).nullable(),
  mode: z.enum(['vessel', 'barge', 'rail', 'truck']).nullable(),
  container_number: z.string().min(1).nullable(),
  rail_carrier_scac: z.string().min(1).nullable(),
});

export const WireHold = z.looseObject({
  type: z.string().min(1),
  status: z.enum(['hold', 'pending', 'released']),
  description: z.string().min(1).nullable(),
});

export const WireFee = z.looseObject({
  type: z.string().min(1),
  amount: z.number().finite(),
  currency: z.string().regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code'),
});

/** A container at one facility: availability, holds, fees, last free days, appointment, where it stands. */
export const WireYard = z.looseObject({
  facility: WirePlace,
  /** IANA zone of the facility: local date-times and dates in this block are in it. */
  time_zone: z.string().min(1).nullable(),
  available: z.boolean().nullable(),
  /** null: not reported; []: none. */
  holds: z.array(WireHold).nullable(),
  fees: z.array(WireFee).nullable(),
  last_free_day: WireTime.nullable(),
  line_last_free_day: WireTime.nullable(),
  appointment: z.looseObject({ scheduled_at: WireInstant }).nullable(),
  yard_location: z.string().min(1).nullable(),
  chassis_number: z.string().min(1).nullable(),
  /** True when the box was moved from the marine terminal to the off-dock yard named in `facility`; absent: no. */
  off_dock: z.boolean().optional(),
});

export const TerminalContainer = WireYard.extend({
  container_number: z.string().min(1),
  events: z.array(WireEvent),
});

export type WirePlace = z.infer<typeof WirePlace>;
export type WireEvent = z.infer<typeof WireEvent>;
export type WireYard = z.infer<typeof WireYard>;
export type TerminalContainer = z.infer<typeof TerminalContainer>;
