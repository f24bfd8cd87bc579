// The sandbox panel (shown only while the sandbox is on, to accounts with `sandbox_control`): the world time
// and buttons that advance it (POST /sandbox/clock/advance), so a newcomer can watch a journey play out. After
// an advance the world clock is read again and every page showing tracked data loads again.
import { useState } from 'preact/hooks';
import { api, messageOf } from '../lib/api';
import { refreshWorldClock, useWorldNow } from '../lib/clock';
import { hasFeature, type Session } from '../lib/session';
import { formatWithZone } from '../lib/time';
import { announceWorldAdvanced } from '../lib/world';

const STEPS: { label: string; body: { hours: number } | { days: number }; words: string }[] = [
  { label: '+6 h', body: { hours: 6 }, words: '6 hours' },
  { label: '+1 day', body: { days: 1 }, words: '1 day' },
  { label: '+3 days', body: { days: 3 }, words: '3 days' },
  { label: '+1 week', body: { days: 7 }, words: '1 week' },
];

export function SandboxPanel({ session }: { session: Session | null | undefined }) {
  if (!session?.sandbox || !hasFeature(session, 'sandbox_control')) return null;
  return <Panel />;
}

function Panel() {
  const now = useWorldNow();
  const [busy, setBusy] = useState<string | null>(null);
  const [said, setSaid] = useState<{ text: string; error: boolean } | null>(null);

  const advance = async (step: (typeof STEPS)[number]) => {
    setBusy(step.words);
    setSaid(null);
    try {
      const res = await api.post<{ world_time: string; refreshed: number }>('/sandbox/clock/advance', step.body);
      await refreshWorldClock();
      announceWorldAdvanced();
      setSaid({
        text: `Advanced ${step.words}: ${res.refreshed} tracked item${res.refreshed === 1 ? '' : 's'} refreshed.`,
        error: false,
      });
    } catch (err) {
      setSaid({ text: messageOf(err), error: true });
    } finally {
      setBusy(null);
    }
  };

  return (
    <section class="sandbox-panel" aria-labelledby="sandbox-panel-title">
      <div class="sandbox-clock">
        <h2 id="sandbox-panel-title" class="sandbox-title">
          Sandbox world
        </h2>
        <p class="sandbox-time">
          <span class="muted">World time </span>
          <time dateTime={now.toISOString()} data-testid="world-time">
            {formatWithZone(now)}
          </time>
        </p>
      </div>
      <fieldset class="sandbox-actions">
        <legend class="visually-hidden">Advance the world clock by</legend>
        {STEPS.map((s) => (
          <button
            key={s.label}
            type="button"
            class="button-secondary button-small"
            disabled={busy !== null}
            onClick={() => advance(s)}
          >
            {s.label}
          </button>
        ))}
      </fieldset>
      <p class={`sandbox-status${said?.error ? ' error-text' : ''}`} role="status" aria-live="polite">
        {busy ? `Advancing ${busy}… the world is catching up.` : (said?.text ?? '')}
      </p>
    </section>
  );
}
