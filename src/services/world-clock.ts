// The sandbox world clock: domain time while the sandbox is on. Its base is a row in PostgreSQL, so every
// process reads the same world time; `now()` stays synchronous by computing from a cached copy of the row,
// which `refresh()` reloads (the worker before each job, the sandbox endpoints before answering, and a
// timer once a second).
import type { Clock } from '../domain/clock.js';
import type { Queryable } from '../storage/db.js';
import { ensureClock, getClock, setClock, type SandboxClockRow } from '../storage/repositories/sandbox.js';

export class SandboxWorldClock implements Clock {
  #row: SandboxClockRow;

  private constructor(
    private readonly db: Queryable,
    private readonly wall: Clock,
    row: SandboxClockRow,
  ) {
    this.#row = row;
  }

  /**
   * The shared clock, created at the current wall time on first use. A different configured `speed`
   * re-bases it at the current world time, so changing the speed never makes the world jump.
   */
  static async open(db: Queryable, wall: Clock, speed: number): Promise<SandboxWorldClock> {
    const now = wall.now();
    const row = await ensureClock(db, now, now, speed);
    const clock = new SandboxWorldClock(db, wall, row);
    if (row.speed !== speed) clock.#row = await setClock(db, clock.now(), now, speed);
    return clock;
  }

  now(): Date {
    const r = this.#row;
    const elapsed = this.wall.now().getTime() - r.baseWallAt.getTime();
    return new Date(r.baseWorldAt.getTime() + Math.max(0, elapsed) * r.speed);
  }

  get speed(): number {
    return this.#row.speed;
  }

  async refresh(): Promise<void> {
    const row = await getClock(this.db);
    if (row) this.#row = row;
  }

  /** Moves the world to `world` (never backwards) from this wall instant on; returns the new world time. */
  async moveTo(q: Queryable, world: Date): Promise<Date> {
    await this.refresh();
    const current = this.now();
    const target = world.getTime() > current.getTime() ? world : current;
    this.#row = await setClock(q, target, this.wall.now(), this.#row.speed);
    return this.now();
  }
}
