// Renders a `useLoad` result: a loading line the first time, the error with a retry, else the data.
import type { ComponentChildren } from 'preact';
import type { Loaded } from '../lib/hooks';
import { Loading, LoadError } from './Alert';

export function Async<T>({ state, children, label }: { state: Loaded<T>; children: (data: T) => ComponentChildren; label?: string }) {
  if (state.error && state.data === undefined) return <LoadError error={state.error} retry={state.reload} />;
  if (state.data === undefined) return <Loading {...(label ? { label } : {})} />;
  return (
    <>
      {state.error ? <LoadError error={state.error} retry={state.reload} /> : null}
      {children(state.data)}
    </>
  );
}
