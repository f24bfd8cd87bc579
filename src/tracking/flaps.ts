// Withdrawals held back for a window: what the merge of detectChanges keeps when a source stops reporting a value.
import type { Withdrawal } from './state.js';
import { isoSeconds } from '../lib/dates.js';

/**
 * A terminal value that disappears is still shown for this long (world time) before its withdrawal is
 * announced: if it comes back meanwhile, nothing fires at all instead of a withdrawn/restored pair.
 */
export const FLAP_WINDOW_MS = 2 * 60 * 60 * 1000;

/**
 * The flap filter of one merge: a terminal, rail or line-LFD value that goes missing is kept for FLAP_WINDOW_MS
 * before its withdrawal counts, so a value that drops out of one poll and comes back announces nothing.
 */
export class FlapFilter {
  readonly #kept: Withdrawal[] = [];
  readonly #pending: Map<string, number>;
  readonly #visited = new Set<string>();
  constructor(
    private readonly previous: readonly Withdrawal[],
    private readonly nowMs: number,
  ) {
    this.#pending = new Map(previous.map((w) => [FlapFilter.#key(w.container, w.field), Date.parse(w.since)]));
  }

  static #key(container: string, field: string): string {
    return `${container}\u0000${field}`;
  }

  /**
   * The value to store for a reported field: the new one; or, when it went missing, the old one until the
   * window has passed since it first went missing, then null.
   */
  scalar<T>(container: string, field: string, prev: T | null, next: T | null): T | null {
    this.#visited.add(FlapFilter.#key(container, field));
    if (next !== null || prev === null) return next;
    return this.#withdrawn(container, field) ? null : prev;
  }

  /** The same per item of a list (holds by name, fees by type): each missing item lingers for the window. */
  list<T>(
    container: string,
    field: string,
    prev: T[] | null,
    next: T[] | null,
    id: (t: T) => string,
    order: (a: T, b: T) => number,
    confirmed = false,
  ): T[] | null {
    if (next === null) return prev;
    if (confirmed) {
      for (const item of prev ?? []) this.#visited.add(FlapFilter.#key(container, `${field}:${id(item)}`));
      return [...next].sort(order);
    }
    for (const item of [...(prev ?? []), ...next]) this.#visited.add(FlapFilter.#key(container, `${field}:${id(item)}`));
    const nextIds = new Set(next.map(id));
    const lingering = (prev ?? []).filter((item) => !nextIds.has(id(item)) && !this.#withdrawn(container, `${field}:${id(item)}`));
    return [...next, ...lingering].sort(order);
  }

  /**
   * A facility's availability going from true to false is held (true) for the window: the terminal often drops it
   * one poll before its full out is read, and then the full out is the only news. Back to true, or a full out,
   * within the window: the drop is forgotten.
   */
  availability(container: string, field: string, prev: boolean | null, next: boolean | null, pickedUp: boolean): boolean | null {
    const key = `${field}:drop`;
    this.#visited.add(FlapFilter.#key(container, key));
    if (pickedUp || prev !== true || next !== false) return next;
    return !this.#withdrawn(container, key);
  }

  /** Forgets a field's pending withdrawal: its value no longer matters (the box has left). */
  forget(container: string, field: string): void {
    this.#visited.add(FlapFilter.#key(container, field));
  }

  /** Pending withdrawals after this merge: the ones still within the window, and the ones nobody reported on. */
  withdrawals(): Withdrawal[] {
    const untouched = this.previous.filter((w) => !this.#visited.has(FlapFilter.#key(w.container, w.field)));
    return [...this.#kept, ...untouched].sort((a, b) =>
      a.container !== b.container ? (a.container < b.container ? -1 : 1) : a.field < b.field ? -1 : 1,
    );
  }

  /** True once the value has been missing for the whole window; else remembers it as pending. */
  #withdrawn(container: string, field: string): boolean {
    const since = this.#pending.get(FlapFilter.#key(container, field)) ?? this.nowMs;
    if (this.nowMs - since >= FLAP_WINDOW_MS) return true;
    this.#kept.push({ container, field, since: isoSeconds(since) });
    return false;
  }
}
