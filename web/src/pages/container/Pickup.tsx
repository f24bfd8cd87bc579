// What decides the pickup: the release-readiness verdict in words, the last free day by source (line, terminal,
// rail) with the one that applies highlighted and the days left, its changes, the holds and the fees (the
// terminal's `total` line shown as given, never added up).
import { type Column, DataTable } from '../../components/DataTable';
import { Badge } from '../../components/Facts';
import { Time } from '../../components/Time';
import { humanize, money } from '../../lib/labels';
import { daysLeft, type LfdSource, lfdSources, lfdZone, readiness } from '../../lib/pickup';
import type { Fee, Hold } from '../../lib/resources';
import { type ContainerDetail, eventInfo, holdLabel, sourceLabel, type TransportEvent } from '../../lib/tracking';

/** The verdict, and what the last free day adds while the box still waits at the pickup place. */
export function VerdictBanner({ c, now }: { c: ContainerDetail; now: Date }) {
  const v = readiness(c);
  const waiting = v.tone !== 'neutral' && v.tone !== 'info';
  const left = waiting ? daysLeft(c.pickup_lfd, now, lfdZone(c)) : null;
  let lfd = '';
  if (left && left.days < 0) lfd = `The last free day passed ${-left.days} day${left.days === -1 ? '' : 's'} ago: demurrage is accruing.`;
  else if (left && left.days === 0) lfd = 'Today is the last free day.';
  else if (left && left.days === 1) lfd = 'Tomorrow is the last free day.';
  const tone = lfd && v.tone === 'good' ? 'warn' : v.tone;
  return (
    <div class={`verdict verdict-${tone}`} role="status">
      <p class="verdict-text">
        <span class="visually-hidden">Release readiness: </span>
        {v.text}
      </p>
      {(v.detail || lfd) && <p class="verdict-detail">{[v.detail, lfd].filter(Boolean).join(' ')}</p>}
    </div>
  );
}

export function LfdTable({ c, now }: { c: ContainerDetail; now: Date }) {
  const rows = lfdSources(c);
  const columns: Column<LfdSource>[] = [
    {
      key: 'source',
      header: 'Source',
      rowHeader: true,
      cell: (s) => (
        <span>
          {s.label}
          {s.applies && (
            <>
              {' '}
              <Badge tone="info">Applies</Badge>
            </>
          )}
        </span>
      ),
    },
    {
      key: 'date',
      header: 'Last free day',
      cell: (s) => (s.value ? <Time domain value={s.value} zone={s.zone} dateOnly mode="absolute" /> : <span class="muted">Not given</span>),
    },
    {
      key: 'left',
      header: 'Days left',
      cell: (s) => {
        const left = daysLeft(s.value, now, s.zone);
        return left ? <Badge tone={s.applies ? left.tone : 'neutral'}>{left.text}</Badge> : '—';
      },
    },
  ];
  return (
    <DataTable
      caption="Last free day by source"
      hideCaption
      columns={columns}
      rows={rows}
      rowKey={(s) => s.key}
      rowClass={(s) => (s.applies ? 'row-selected row-applies' : undefined)}
    />
  );
}

/** The headline: the coalesced last free day, big, with the days left. */
export function LfdHeadline({ c, now }: { c: ContainerDetail; now: Date }) {
  const applies = lfdSources(c).find((s) => s.applies);
  if (!c.pickup_lfd) return <p class="lfd-headline muted">No last free day given yet.</p>;
  const left = daysLeft(c.pickup_lfd, now, applies?.zone);
  return (
    <p class="lfd-headline">
      <span class="lfd-date">
        <Time domain value={c.pickup_lfd} zone={applies?.zone} dateOnly mode="absolute" />
      </span>{' '}
      {left && <Badge tone={left.tone}>{left.text}</Badge>}{' '}
      <span class="muted small">from the {applies ? applies.label.toLowerCase() : 'sources'}</span>
    </p>
  );
}

/** LFD and appointment changes, newest first: in the API's order (by when Tidemark saw each, `observed_at`). */
export function PickupChanges({ events }: { events: TransportEvent[] }) {
  const rows = events.filter((e) => e.attributes.event.startsWith('container.pickup_'));
  if (!rows.length) return null;
  const columns: Column<TransportEvent>[] = [
    { key: 'what', header: 'Change', rowHeader: true, cell: (e) => eventInfo(e.attributes.event).label },
    {
      key: 'value',
      header: 'New value',
      cell: (e) => {
        const value = e.attributes.value ?? e.attributes.timestamp;
        const date = e.attributes.event.includes('lfd');
        return value ? <Time domain value={value} zone={e.attributes.timezone} dateOnly={date} mode="absolute" /> : 'Withdrawn';
      },
    },
    { key: 'source', header: 'Source', cell: (e) => sourceLabel(e.attributes.data_source) },
    {
      key: 'when',
      header: 'Heard',
      // When Tidemark saw the change, in the world's time (the row order); records from before it: when stored.
      cell: (e) =>
        e.attributes.observed_at ? (
          <Time domain value={e.attributes.observed_at} mode="relative" />
        ) : (
          <Time value={e.attributes.created_at} mode="relative" />
        ),
    },
  ];
  return (
    <details class="subsection">
      <summary>Changes of the last free day and appointment ({rows.length})</summary>
      <DataTable caption="Last free day and appointment changes" hideCaption columns={columns} rows={rows} rowKey={(e) => e.id} />
    </details>
  );
}

export function HoldsTable({ holds }: { holds: Hold[] }) {
  const columns: Column<Hold>[] = [
    { key: 'name', header: 'Hold', rowHeader: true, cell: (h) => holdLabel(h.name) },
    {
      key: 'status',
      header: 'Status',
      cell: (h) => (h.status === 'hold' ? <Badge tone="bad">On hold</Badge> : <Badge tone="warn">Pending</Badge>),
    },
    { key: 'description', header: 'Description', cell: (h) => h.description || '—' },
  ];
  if (!holds.length) return <p class="empty-state">No holds: nothing stops the release at the terminal.</p>;
  return <DataTable caption="Holds" hideCaption columns={columns} rows={holds} rowKey={(h) => `${h.name}:${h.description ?? ''}`} />;
}

/** The terminal's fee lines as given; a `total` line is shown as such and never added up with the others. */
export function FeesTable({ fees }: { fees: Fee[] }) {
  if (!fees.length) return <p class="empty-state">No fees reported by the terminal.</p>;
  const columns: Column<Fee>[] = [
    {
      key: 'type',
      header: 'Fee',
      rowHeader: true,
      cell: (f) => (f.type === 'total' ? <strong>Total (as given by the terminal)</strong> : humanize(f.type)),
    },
    { key: 'amount', header: 'Amount', cell: (f) => money(f.amount, f.currency_code), align: 'end' },
  ];
  return (
    <DataTable
      caption="Fees at the terminal"
      hideCaption
      columns={columns}
      rows={fees}
      rowKey={(f) => `${f.type}:${f.currency_code}:${f.amount}`}
      rowClass={(f) => (f.type === 'total' ? 'row-total' : undefined)}
    />
  );
}
