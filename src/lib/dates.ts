// Calendar-checked ISO 8601 input: Date.parse quietly turns 2026-02-30 into 2 March; a user's typo must be a 422.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

function realDate(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** `YYYY-MM-DD` naming a day that exists. */
export function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  return !!m && realDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** An ISO 8601 date-time with a zone (`Z` or an offset) whose date and time exist. */
export function isIsoInstant(value: string): boolean {
  const m = INSTANT.exec(value);
  if (!m) return false;
  const [h, min, s] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  return realDate(Number(m[1]), Number(m[2]), Number(m[3])) && h < 24 && min < 60 && s < 60 && !Number.isNaN(Date.parse(value));
}

/**
 * An instant as the wire and the engine write it: ISO 8601 UTC, whole seconds (the fraction dropped, rounding down
 * also before 1970), `Z` — e.g. `2026-02-25T15:03:44Z`. The one formatter of instants; unknown stays null.
 */
export function isoSeconds(at: Date | number): string;
export function isoSeconds(at: Date | number | null | undefined): string | null;
export function isoSeconds(at: Date | number | null | undefined): string | null {
  if (at === null || at === undefined) return null;
  const ms = typeof at === 'number' ? at : at.getTime();
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
