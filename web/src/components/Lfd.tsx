// The binding last free day in a table cell (its date, whose it is and where it stands) and the other parties'
// dates beside it; the board and the shipment's containers show the same words as the container page.
import type { ComponentChildren } from 'preact';
import { type LfdFields, type LfdStanding, lfdStanding, standingSentence, standingWords } from '../lib/lfd';
import { Time } from './Time';

/** The other parties' given dates: "Shipping line: 14 Dec 2026 America/Los_Angeles; Rail: …". */
export function OtherLfds({ standing, prefix }: { standing: LfdStanding; prefix?: string }) {
  if (!standing.others.length) return null;
  const parts: ComponentChildren[] = standing.others.map((o, i) => (
    <span key={o.party}>
      {i > 0 ? '; ' : (prefix ?? '')}
      {o.label}: <Time domain value={o.value} zone={o.zone} dateOnly mode="absolute" />
    </span>
  ));
  return <span class="lfd-others muted small">{parts}</span>;
}

/** The binding date, "Terminal’s last free day: today" (or how the pickup fell against it), the others below. */
export function LfdCell({ c, now }: { c: LfdFields; now: Date }) {
  const standing = lfdStanding(c, now);
  if (!standing.binding) {
    return (
      <span class="lfd-cell">
        <span class="muted">{standing.others.length ? 'None applies yet' : 'Not given'}</span>
        <OtherLfds standing={standing} prefix="Given: " />
      </span>
    );
  }
  const tone = standingWords(standing)?.tone ?? 'neutral';
  return (
    <span class="lfd-cell">
      <Time domain value={standing.binding.value} zone={standing.binding.zone} dateOnly mode="absolute" />
      <span class={`small lfd-sentence lfd-${tone}`}>{standingSentence(standing)}</span>
      <OtherLfds standing={standing} prefix="Also: " />
    </span>
  );
}

/** Sorts rows by the binding date (none last). */
export const bindingSortValue = (c: Pick<LfdFields, 'pickup_lfd_binding'>) =>
  c.pickup_lfd_binding ? Date.parse(c.pickup_lfd_binding) : null;
