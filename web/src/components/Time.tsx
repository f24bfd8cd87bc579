// A moment as people read it: the relative phrase ("in 3 days") and the absolute local time WITH its IANA
// zone ("12 Mar 2026, 14:05 America/Los_Angeles"), in a <time> element carrying the exact instant.
import { useClockTick, worldNow } from '../lib/clock';
import { formatRelative, formatWithZone, parseInstant } from '../lib/time';

export function Time({
  value,
  zone,
  mode = 'both',
  dateOnly,
  seconds,
  now,
  domain,
  empty = '—',
}: {
  value: string | Date | null | undefined;
  /** The IANA zone to show it in (a port's `pod_timezone`…); the browser's zone when absent. */
  zone?: string | null | undefined;
  /** `both` (relative, then absolute), `absolute` or `relative` (the absolute one then is the tooltip). */
  mode?: 'both' | 'absolute' | 'relative';
  dateOnly?: boolean;
  seconds?: boolean;
  /**
   * A fact about the world (ETA, arrival, last free day, milestone): the relative phrase is measured from
   * domain time, the sandbox's world clock while the sandbox is on. Otherwise from the wall clock.
   */
  domain?: boolean;
  /** An explicit "now" for the relative phrase (overrides `domain`). */
  now?: Date;
  /** What to show when there is no value. */
  empty?: string;
}) {
  useClockTick();
  const d = parseInstant(value);
  if (!d) return <span class="time-empty">{empty}</span>;
  const absolute = formatWithZone(d, zone, { dateOnly: !!dateOnly, seconds: !!seconds });
  const relative = formatRelative(d, now ?? (domain ? worldNow() : new Date()));
  const iso = d.toISOString();
  if (mode === 'absolute')
    return (
      <time class="time" dateTime={iso}>
        {absolute}
      </time>
    );
  if (mode === 'relative')
    return (
      <time class="time" dateTime={iso} title={absolute}>
        {relative}
      </time>
    );
  return (
    <time class="time" dateTime={iso}>
      <span class="time-relative">{relative}</span> <span class="time-absolute">{absolute}</span>
    </time>
  );
}
