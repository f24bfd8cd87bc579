// Copies a text to the clipboard and says so (to screen readers too). Falls back to a hidden text area and
// `execCommand('copy')` where the Clipboard API is unavailable (plain http on a non-local host).
import { useEffect, useRef, useState } from 'preact/hooks';

async function copy(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the old way
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'offscreen';
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

export function CopyButton({
  text,
  label = 'Copy',
  what,
}: {
  text: string;
  label?: string /** e.g. "API key", for the accessible name */;
  what?: string;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return (
    <span class="copy">
      <button
        type="button"
        class="button-secondary button-small"
        aria-label={what ? `${label} ${what}` : undefined}
        onClick={async () => {
          const ok = await copy(text);
          setState(ok ? 'copied' : 'failed');
          window.clearTimeout(timer.current);
          timer.current = window.setTimeout(() => setState('idle'), 2500);
        }}
      >
        {label}
      </button>
      <span class="copy-status" role="status" aria-live="polite">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Could not copy: select the text and copy it by hand' : ''}
      </span>
    </span>
  );
}

/** A value shown in full (monospace, selectable) with a copy button beside it. */
export function CopyField({ value, what, label }: { value: string; what: string; label?: string }) {
  return (
    <div class="copy-field">
      <code class="copy-value">{value}</code>
      <CopyButton text={value} what={what} {...(label ? { label } : {})} />
    </div>
  );
}
