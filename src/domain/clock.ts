// Time is injected, never read ad hoc. Two clocks (see docs/architecture.md): the wall clock for the
// service's own records, and the world clock for everything that happens to containers.

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until moved; for tests and run-once workers. */
export class FixedClock implements Clock {
  #ms: number;
  constructor(start: Date | string = '2026-01-01T00:00:00Z') {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
  set(to: Date | string): void {
    this.#ms = new Date(to).getTime();
  }
}

export interface Clocks {
  /** Wall time: records, deliveries, sessions, tokens, rate limits. */
  wall: Clock;
  /** Domain time: source facts, schedules, LFD, demurrage. Equals wall time with the sandbox off. */
  world: Clock;
}
