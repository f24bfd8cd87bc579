// Data loading and form submission state, shared by every page.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, isAbort, messageOf } from './api';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Loads again (keeps showing the old data meanwhile). */
  reload: () => void;
  /** Replaces the data locally (after an edit whose answer is the new state). */
  setData: (data: T) => void;
}

/**
 * Runs `load` when the component mounts and whenever `deps` change; a previous load still in flight is
 * aborted. `load` gets an AbortSignal to pass to the api call. Pass `null` to load nothing (yet).
 */
export function useLoad<T>(load: ((signal: AbortSignal) => Promise<T>) | null, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(load !== null);
  const [tick, setTick] = useState(0);
  const latest = useRef(load);
  latest.current = load;

  // The caller's deps (and reload's tick) decide when to load again.
  useEffect(() => {
    const fn = latest.current;
    if (!fn) {
      setLoading(false);
      return;
    }
    const controller = new AbortController();
    setLoading(true);
    fn(controller.signal).then(
      (d) => {
        if (controller.signal.aborted) return;
        setData(d);
        setError(null);
        setLoading(false);
      },
      (err) => {
        if (controller.signal.aborted || isAbort(err)) return;
        setError(err);
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [...deps, tick]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload, setData };
}

export interface FormState {
  busy: boolean;
  /** Inline messages by field name. */
  fields: Record<string, string>;
  /** Messages for the summary (problems not tied to a shown field). */
  errors: string[];
  /**
   * Runs a submission: clears the old errors, sets `busy`, and on failure fills `fields` (for the names in
   * `shownFields`) and `errors`. Resolves to the action's result, or undefined when it failed.
   */
  run<T>(action: () => Promise<T>, shownFields?: readonly string[]): Promise<T | undefined>;
  /** Sets errors by hand (client-side checks). */
  fail(errors: string[], fields?: Record<string, string>): void;
  reset(): void;
}

export function useForm(): FormState {
  const [busy, setBusy] = useState(false);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<string[]>([]);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  const run = useCallback(async <T>(action: () => Promise<T>, shownFields: readonly string[] = []) => {
    setBusy(true);
    setFields({});
    setErrors([]);
    try {
      return await action();
    } catch (err) {
      if (!mounted.current) return undefined;
      if (err instanceof ApiError) {
        const all = err.fields;
        const shown: Record<string, string> = {};
        for (const f of shownFields) if (all[f]) shown[f] = all[f]!;
        setFields(shown);
        const general = err.general(Object.keys(shown));
        setErrors(general.length ? general : Object.keys(shown).length ? [] : [messageOf(err)]);
        if (err.status === 429) setErrors([messageOf(err)]);
      } else {
        setErrors([messageOf(err)]);
      }
      return undefined;
    } finally {
      if (mounted.current) setBusy(false);
    }
  }, []);

  const fail = useCallback((e: string[], f: Record<string, string> = {}) => {
    setErrors(e);
    setFields(f);
  }, []);
  const reset = useCallback(() => {
    setErrors([]);
    setFields({});
  }, []);
  return { busy, fields, errors, run, fail, reset };
}

/** Re-renders every `ms` (relative times stay fresh). */
export function useNow(ms = 30_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const id = window.setInterval(() => setNow(new Date()), ms);
    return () => window.clearInterval(id);
  }, [ms]);
  return now;
}
