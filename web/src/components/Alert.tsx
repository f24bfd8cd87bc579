// Messages: errors (announced at once) and notices (announced politely).
import type { ComponentChildren } from 'preact';
import { messageOf } from '../lib/api';

/** An error box; with `messages` renders each as its own line. Nothing when there is nothing to say. */
export function ErrorMessage({ messages, children, title }: { messages?: string[]; children?: ComponentChildren; title?: string }) {
  const list = messages?.filter(Boolean) ?? [];
  if (!list.length && !children) return null;
  return (
    <div class="alert alert-error" role="alert">
      {title && <p class="alert-title">{title}</p>}
      {list.length === 1 && <p>{list[0]}</p>}
      {list.length > 1 && (
        <ul>
          {list.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
      {children}
    </div>
  );
}

/** The error of a failed load, with a way to try again. */
export function LoadError({ error, retry }: { error: unknown; retry?: () => void }) {
  return (
    <ErrorMessage messages={[messageOf(error)]}>
      {retry && (
        <p>
          <button type="button" class="button-secondary" onClick={retry}>
            Try again
          </button>
        </p>
      )}
    </ErrorMessage>
  );
}

export function Notice({ children, tone = 'info' }: { children: ComponentChildren; tone?: 'info' | 'success' | 'warning' }) {
  return (
    <div class={`alert alert-${tone}`} role="status">
      {children}
    </div>
  );
}

/** Shown while something loads; announced to screen readers. */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="loading" role="status" aria-live="polite">
      {label}
    </p>
  );
}
