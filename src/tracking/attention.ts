// What a container needs from the people who pick it up, today (the web app's board): holds, availability,
// the last free day counted in the pickup place's own calendar, and demurrage. Pure: the domain time is given.
// Which statuses mean the box has gone and which holds block it are domain/pickup.ts's, the rules the web app's
// container page judges with too.
import { daysBetween, localDate } from '../domain/lfd.js';
import { holdsAtPickupPlace, isLeftStatus } from '../domain/pickup.js';
import type { ContainerSnapshot } from './snapshot.js';

export type LfdState = 'passed' | 'today' | 'tomorrow' | 'later';

export interface Attention {
  /** The names of the holds that block pickup (status `hold`). */
  holds: string[];
  available: boolean;
  /** Whole days from today to the binding last free day in its own calendar (negative once passed). */
  lfd_days_left: number | null;
  lfd: LfdState | null;
  /** The last free day has passed and the box is still there, or the terminal already bills demurrage. */
  demurrage_accruing: boolean;
  /** Whether anything here asks for action. */
  needs_action: boolean;
}

type Fields = Pick<
  ContainerSnapshot,
  | 'current_status'
  | 'holds_at_pod_terminal'
  | 'ind_facility_holds'
  | 'available_for_pickup'
  | 'pickup_lfd_binding'
  | 'pickup_lfd_binding_timezone'
  | 'fees_at_pod_terminal'
  | 'rail_move'
  | 'inland_at'
>;

/**
 * The calendar day (`YYYY-MM-DD`) an instant falls on in a zone (UTC when the zone is unknown or null): the same
 * reckoning (domain/lfd.ts) as the last free day it is compared with.
 */
export function localDayOf(instant: Date, zone: string | null): string {
  return localDate(instant.getTime(), zone) ?? instant.toISOString().slice(0, 10);
}

/**
 * What decides a container's place on the board apart from the day it is: the calendar its last free day is
 * counted in, that day, the holds blocking pickup, availability and a demurrage fee already billed. They depend on
 * the snapshot alone, so they are kept with the container when it is written (`pickup_*` columns) and the board
 * judges every container of an account from an index, given the day it is in each zone.
 */
export interface PickupFacts {
  /** The zone of the pickup place's calendar (null: UTC). */
  zone: string | null;
  /** The last free day in that calendar (`YYYY-MM-DD`), or null when none is known. */
  lfd_day: string | null;
  /** Holds that block pickup (status `hold`). */
  holds: number;
  available: boolean;
  /** The terminal already bills demurrage. */
  billed: boolean;
}

function factsWithHolds(c: Fields): PickupFacts & { hold_names: string[] } {
  // The binding last free day (the earliest that applies at the pickup place) is the one a person acts on; it is
  // counted in its own place's calendar. A rail move's holds are the inland facility's once the box is there.
  const zone = c.pickup_lfd_binding_timezone || null;
  const hold_names = holdsAtPickupPlace(c, Boolean(c.rail_move && c.inland_at))
    .filter((h) => h.status === 'hold')
    .map((h) => h.name);
  const lfdDay = c.pickup_lfd_binding ? localDate(Date.parse(c.pickup_lfd_binding), zone) : null;
  return {
    zone,
    lfd_day: lfdDay,
    holds: hold_names.length,
    hold_names,
    available: c.available_for_pickup === true,
    billed: (c.fees_at_pod_terminal ?? []).some((f) => f.type === 'demurrage' && f.amount > 0),
  };
}

/** A container's pickup facts (see `PickupFacts`), whatever its status. */
export function pickupFacts(c: Fields): PickupFacts {
  const { hold_names: _, ...facts } = factsWithHolds(c);
  return facts;
}

/** Attention from pickup facts, on the day `today` (`YYYY-MM-DD`) of the facts' zone. */
function attentionFromFacts(f: PickupFacts & { hold_names: string[] }, done: boolean, today: string): Attention {
  const holds = done ? [] : f.hold_names;
  const available = !done && f.available;
  const daysLeft = done || f.lfd_day === null ? null : daysBetween(today, f.lfd_day);
  const lfd: LfdState | null =
    daysLeft === null ? null : daysLeft < 0 ? 'passed' : daysLeft === 0 ? 'today' : daysLeft === 1 ? 'tomorrow' : 'later';
  const demurrage = !done && (lfd === 'passed' || f.billed);
  return {
    holds,
    available,
    lfd_days_left: daysLeft,
    lfd,
    demurrage_accruing: demurrage,
    needs_action: holds.length > 0 || available || lfd === 'passed' || lfd === 'today' || lfd === 'tomorrow' || demurrage,
  };
}

export function attentionOf(c: Fields, worldNow: Date): Attention {
  const facts = factsWithHolds(c);
  return attentionFromFacts(facts, isLeftStatus(c.current_status), localDayOf(worldNow, facts.zone));
}

/** The kinds of action the board counts and can be narrowed to. */
export const BOARD_KINDS = ['on_hold', 'available', 'lfd_today', 'lfd_tomorrow', 'lfd_passed', 'demurrage_accruing'] as const;
export type BoardKind = (typeof BOARD_KINDS)[number];

/** Whether a container's attention is of this kind. */
export function isKind(a: Attention, kind: BoardKind): boolean {
  switch (kind) {
    case 'on_hold':
      return a.holds.length > 0;
    case 'available':
      return a.available;
    case 'lfd_today':
      return a.lfd === 'today';
    case 'lfd_tomorrow':
      return a.lfd === 'tomorrow';
    case 'lfd_passed':
      return a.lfd === 'passed';
    case 'demurrage_accruing':
      return a.demurrage_accruing;
  }
}
