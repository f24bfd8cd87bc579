// The sandbox world moved: the panel that advances the clock announces it, and the pages showing tracked data
// load again. Without the sandbox nobody announces anything.
import { useEffect, useRef } from 'preact/hooks';

const listeners = new Set<() => void>();

/** Tells every subscribed page that the world clock jumped (after POST /sandbox/clock/advance). */
export function announceWorldAdvanced() {
  for (const l of [...listeners]) l();
}

/** Calls `onAdvance` (the latest one given) whenever the sandbox world clock is advanced. */
export function useWorldAdvanced(onAdvance: () => void) {
  const latest = useRef(onAdvance);
  latest.current = onAdvance;
  useEffect(() => {
    const l = () => latest.current();
    listeners.add(l);
    return () => {
      listeners.delete(l);
    };
  }, []);
}
