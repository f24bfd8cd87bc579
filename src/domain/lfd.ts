// Which last free day binds a container, and how many days are left until it. Pure, on the domain clock passed
// in; the web app imports this same module, so the server's board and the pages count days the same way.
// Days are counted in the calendar of the place the date belongs to (a last free day is a local date).

export type LfdParty = 'line' | 'terminal' | 'rail';

/** One party's last free day: local midnight (`timestamp`) in the zone of the place it belongs to. */
export interface LfdCandidate {
  party: LfdParty;
  timestamp: string | null;
  timezone: string | null;
}

/** The last free day that binds: the earliest applicable one, compared as local dates. */
export interface BindingLfd {
  timestamp: string;
  party: LfdParty;
  timezone: string | null;
}

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat | null {
  let f = formatters.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    } catch {
      return null;
    }
    formatters.set(zone, f);
  }
  return f;
}

/** The calendar day (`YYYY-MM-DD`) an instant falls on in a zone; UTC when the zone is unknown or invalid. */
export function localDate(instantMs: number, zone: string | null): string | null {
  if (!Number.isFinite(instantMs)) return null;
  const d = new Date(instantMs);
  const year = d.getUTCFullYear();
  // Outside these years no calendar of ours holds the day (a source's typo): no day at all.
  if (year < 1900 || year > 9999) return null;
  const f = zone ? formatter(zone) : null;
  if (!f) return d.toISOString().slice(0, 10);
  const parts = Object.fromEntries(f.formatToParts(d).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** Whole days from one calendar day (`YYYY-MM-DD`) to another. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/**
 * Ties between parties on the same local date: the pickup place's own date (terminal, rail) is named, since it is
 * the place that refuses the truck; the line's is the same day anyway.
 */
const TIE_ORDER: readonly LfdParty[] = ['terminal', 'rail', 'line'];

/**
 * The earliest of the applicable last free days, compared as local dates in each one's own zone. Null when none
 * of them is known or readable.
 */
export function bindingLfd(candidates: readonly LfdCandidate[]): BindingLfd | null {
  let best: { day: string; c: LfdCandidate } | null = null;
  for (const c of candidates) {
    if (!c.timestamp) continue;
    const day = localDate(Date.parse(c.timestamp), c.timezone);
    if (!day) continue;
    if (!best || day < best.day || (day === best.day && TIE_ORDER.indexOf(c.party) < TIE_ORDER.indexOf(best.c.party))) {
      best = { day, c };
    }
  }
  return best ? { timestamp: best.c.timestamp!, party: best.c.party, timezone: best.c.timezone } : null;
}

/** Where the box is picked up, as far as last free days go. */
export type PickupPlace = 'pod_terminal' | 'off_dock' | 'inland_rail';

/** The parties whose last free day applies at a pickup place. */
export const APPLICABLE_PARTIES: Record<PickupPlace, readonly LfdParty[]> = {
  pod_terminal: ['line', 'terminal'],
  off_dock: ['terminal', 'line'],
  inland_rail: ['rail', 'line'],
};

/**
 * Where a last free day stands for a person on `now`: days left (0 = today, negative = passed) while the box is
 * at or bound for its pickup place; once it is picked up the count stops and says how the pickup fell against it
 * (`days_before_lfd` > 0: picked up that many days before the last free day; < 0: after it).
 */
export type LfdCountdown = { state: 'none' } | { state: 'counting'; days_left: number } | { state: 'picked_up'; days_before_lfd: number };

export function lfdCountdown(
  binding: Pick<BindingLfd, 'timestamp' | 'timezone'> | null,
  now: Date,
  pickedUpAt: string | null,
): LfdCountdown {
  if (!binding) return { state: 'none' };
  const lfdDay = localDate(Date.parse(binding.timestamp), binding.timezone);
  if (!lfdDay) return { state: 'none' };
  if (pickedUpAt) {
    const day = localDate(Date.parse(pickedUpAt), binding.timezone);
    return day ? { state: 'picked_up', days_before_lfd: daysBetween(day, lfdDay) } : { state: 'none' };
  }
  const today = localDate(now.getTime(), binding.timezone);
  return today ? { state: 'counting', days_left: daysBetween(today, lfdDay) } : { state: 'none' };
}
