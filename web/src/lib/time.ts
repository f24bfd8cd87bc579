// Dates as people read them: local time in a named IANA zone (the place's, else the browser's) and a relative
// phrase ("in 3 days", "2 hours ago").

/** The browser's IANA zone, e.g. `Europe/Berlin`. */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const locale = () => (typeof navigator !== 'undefined' && navigator.language) || 'en-US';

function validZone(zone: string | null | undefined): string {
  if (!zone) return browserZone();
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return browserZone();
  }
}

export function parseInstant(value: string | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** `12 Mar 2026, 14:05` in `zone` (default: the browser's), without the zone name. */
export function formatDateTime(value: string | Date, zone?: string | null, opts: { seconds?: boolean } = {}): string {
  const d = parseInstant(value);
  if (!d) return '';
  return new Intl.DateTimeFormat(locale(), {
    timeZone: validZone(zone),
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    ...(opts.seconds ? { second: '2-digit' } : {}),
    hourCycle: 'h23',
  }).format(d);
}

/** `12 Mar 2026` in `zone`. */
export function formatDate(value: string | Date, zone?: string | null): string {
  const d = parseInstant(value);
  if (!d) return '';
  return new Intl.DateTimeFormat(locale(), { timeZone: validZone(zone), year: 'numeric', month: 'short', day: 'numeric' }).format(d);
}

/** The date and time with the zone it is in: `12 Mar 2026, 14:05 America/Los_Angeles`. */
export function formatWithZone(value: string | Date, zone?: string | null, opts: { dateOnly?: boolean; seconds?: boolean } = {}): string {
  const z = validZone(zone);
  const text = opts.dateOnly ? formatDate(value, z) : formatDateTime(value, z, opts);
  return text ? `${text} ${z}` : '';
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** `in 3 days`, `2 hours ago`, `now`, relative to `now`. */
export function formatRelative(value: string | Date, now: Date = new Date()): string {
  const d = parseInstant(value);
  if (!d) return '';
  const seconds = Math.round((d.getTime() - now.getTime()) / 1000);
  const abs = Math.abs(seconds);
  const rtf = new Intl.RelativeTimeFormat(locale(), { numeric: 'auto' });
  if (abs < 45) return rtf.format(0, 'second');
  for (const [unit, size] of UNITS) {
    if (abs >= size * 0.9 || unit === 'second') return rtf.format(Math.round(seconds / size), unit);
  }
  return rtf.format(seconds, 'second');
}
