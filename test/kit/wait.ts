// Waiting for what no injected clock reaches: another process, a socket, a timer inside the code under test. Ask
// again and again until the answer is there, and fail naming what was awaited once the time is up, instead of
// each test hand-writing its own loop (and its own way of giving up silently).

/** What a probe answers while the thing awaited is not there yet. */
export type NotYet = null | undefined | false;

/**
 * Asks `probe` every `everyMs` until it answers something other than null, undefined or false, and answers that;
 * throws naming `what` (a string, or a function asked at the time, to say what was last seen) once `timeoutMs`
 * have passed. The probe is asked at once, then after each pause.
 */
export async function until<T>(
  what: string | (() => string),
  timeoutMs: number,
  probe: () => Promise<T | NotYet> | T | NotYet,
  everyMs = 200,
): Promise<Exclude<T, NotYet>> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined && value !== false) return value as Exclude<T, NotYet>;
    if (Date.now() - started > timeoutMs) throw new Error(`${typeof what === 'string' ? what : what()}: not after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
