// Key facts of a resource as a description list; empty values show a dash.
import type { ComponentChildren } from 'preact';

export type Fact = [label: string, value: ComponentChildren];

export function Facts({ items }: { items: Fact[] }) {
  return (
    <dl class="facts">
      {items.map(([k, v]) => (
        <div class="fact" key={k}>
          <dt>{k}</dt>
          <dd>{v === null || v === undefined || v === '' ? '—' : v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A short status word with a colour that never carries the meaning alone (the word does). */
export function Badge({
  tone = 'neutral',
  children,
}: {
  tone?: 'neutral' | 'good' | 'warn' | 'bad' | 'info';
  children: ComponentChildren;
}) {
  return <span class={`badge badge-${tone}`}>{children}</span>;
}
