// The two clocks of Tidemark (see the architecture): wall time, and domain time — when things happen in the
// world, which is the sandbox's world clock while the sandbox is on. ETAs, arrivals, last free days and every
// other fact about the world are "in 3 days" relative to domain time; records (created, last used, delivery
// attempts) relative to wall time.
import { useEffect, useState } from 'preact/hooks';
import { api, isAbort } from './api';
import { getSession } from './session';

interface WorldClock {
  /** The world time the server last told, and the wall time (ms) we heard it at. */
  worldAt: number;
  wallAt: number;
  /** How many times faster than real time the world runs (0: only when advanced). */
  speed: number;
}

let clock: WorldClock | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

/** Domain time now: the world clock projected from its last reading, or the wall clock without a sandbox. */
export function worldNow(): Date {
  if (!clock) return new Date();
  return new Date(clock.worldAt + (Date.now() - clock.wallAt) * clock.speed);
}

/** Reads the sandbox world clock again (after advancing it, say); nothing without the sandbox. */
export function refreshWorldClock(): Promise<void> {
  if (!getSession()?.sandbox) {
    clock = null;
    return Promise.resolve();
  }
  loading = api
    .get<{ world_time: string; speed: number }>('/sandbox/clock', { on401: 'throw' })
    .then(
      (c) => {
        clock = { worldAt: Date.parse(c.world_time), wallAt: Date.now(), speed: c.speed };
        for (const l of [...listeners]) l();
      },
      (err) => {
        // Without the clock, relative phrases fall back to the wall clock.
        if (!isAbort(err)) clock = null;
      },
    )
    .finally(() => {
      loading = null;
    });
  return loading;
}

let timer: number | undefined;
const tickers = new Set<() => void>();

/**
 * Re-renders the component every 30 seconds (one timer shared by all) and whenever the world clock is read
 * again; the first user reads the world clock when the sandbox is on. Answers a counter to use as a dependency.
 */
export function useClockTick(): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const bump = () => setTick((t) => t + 1);
    tickers.add(bump);
    listeners.add(bump);
    if (timer === undefined)
      timer = window.setInterval(() => {
        for (const t of [...tickers]) t();
      }, 30_000);
    if (!clock && !loading && getSession()?.sandbox) void refreshWorldClock();
    return () => {
      tickers.delete(bump);
      listeners.delete(bump);
      if (!tickers.size && timer !== undefined) {
        window.clearInterval(timer);
        timer = undefined;
      }
    };
  }, []);
  return tick;
}

/** Domain time, kept fresh (see useClockTick). */
export function useWorldNow(): Date {
  useClockTick();
  return worldNow();
}
