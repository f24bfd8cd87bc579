// Durations written by operators (`30s`, `10m`, `5d`) and comma lists of them. Lives in lib so that config can
// validate the webhook settings without importing webhooks/ (see the dependency rule).

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** More entries than anyone schedules on purpose: a longer list is a typo or a paste gone wrong. */
export const MAX_RETRY_SCHEDULE_ENTRIES = 50;

/** Longer than any sensible retry delay or deactivation window; keeps the arithmetic far from overflow. */
const MAX_DURATION_MS = 366 * UNIT_MS.d;

const DURATION = /^(\d+)(ms|s|m|h|d)$/;

/** `15000ms`, `30s`, `10m`, `12h`, `5d` → milliseconds. Whole numbers only; throws a sentence naming the input. */
export function parseDuration(text: string): number {
  const trimmed = text.trim();
  const m = DURATION.exec(trimmed);
  if (!m) {
    throw new Error(
      `${JSON.stringify(text)} is not a duration: write a whole number and a unit (ms, s, m, h or d), such as 30s, 10m or 5d`,
    );
  }
  const ms = Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  if (ms > MAX_DURATION_MS) throw new Error(`${JSON.stringify(text)} is too long: at most 366d`);
  return ms;
}

/** `5s,1m,5m,30m,2h,1d` → delays in milliseconds, in order. 1 to 50 entries, each a `parseDuration` duration. */
export function parseRetrySchedule(text: string): number[] {
  const entries = text.split(',').map((x) => x.trim());
  if (entries.length === 1 && entries[0] === '') throw new Error('the retry schedule is empty: list delays such as 5s,1m,5m,30m,2h,1d');
  if (entries.length > MAX_RETRY_SCHEDULE_ENTRIES) {
    throw new Error(`the retry schedule has ${entries.length} entries: at most ${MAX_RETRY_SCHEDULE_ENTRIES}`);
  }
  return entries.map((entry, i) => {
    if (entry === '') throw new Error(`entry ${i + 1} of the retry schedule is empty (a doubled or trailing comma?)`);
    try {
      return parseDuration(entry);
    } catch (error) {
      throw new Error(`entry ${i + 1} of the retry schedule: ${(error as Error).message}`);
    }
  });
}
