// What decides the pickup: the release-readiness verdict in words, the last free day that binds (the earliest that
// applies where the box is picked up, `pickup_lfd_binding`) named by whose it is with the days left, the other
// parties' dates beside it, its changes, the holds and the fees (the terminal's `total` line shown as given, never
// added up). Days are counted by src/domain/lfd.ts (through lib/lfd.ts) on the world clock, and not after pickup.
import { type Column, DataTable } from '../../components/DataTable';
import { Badge } from '../../components/Facts';
import { OtherLfds } from '../../components/Lfd';
import { Time } from '../../components/Time';
import { humanize, money } from '../../lib/labels';
import { type LfdSource, lfdSources, lfdStanding, standingSentence, standingWords, verdictLfdSentence } from '../../lib/lfd';
import { readinessVerdict } from '../../lib/readiness';
import type { Fee, Hold } from '../../lib/resources';
import { type ContainerAttributes, eventInfo, holdLabel, sourceLabel, type TransportEvent } from '../../lib/tracking';

/** The verdict, and what the binding last free day adds while the box still waits at the pickup place. */
export function VerdictBanner({ c, now }: { c: ContainerAttributes; now: Date }) {
  const v = readinessVerdict(c);
  const waiting = v.tone !== 'neutral' && v.tone !== 'info';
  const lfd = waiting ? verdictLfdSentence(lfdStanding(c, now)) : '';
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

const RELATION_WORDS: Record<NonNullable<LfdSource['relation']>, string> = {
  earlier: 'Earlier, but does not apply where the box is picked up',
  same_day: 'The same day',
  later: 'Later',
};

/** Every party's last free day; the binding one marked, with its days left (or how the pickup fell against it). */
export function LfdTable({ c, now }: { c: ContainerAttributes; now: Date }) {
  const rows = lfdSources(c);
  const words = standingWords(lfdStanding(c, now));
  const columns: Column<LfdSource>[] = [
    {
      key: 'source',
      header: 'Source',
      rowHeader: true,
      cell: (s) => (
        <span>
          {s.label}
          {s.binds && (
            <>
              {' '}
              <Badge tone="info">Binds</Badge>
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
      key: 'standing',
      header: 'Days',
      cell: (s) => {
        if (s.binds) return words ? <Badge tone={words.tone}>{words.text}</Badge> : '—';
        return s.relation ? <span class="muted">{RELATION_WORDS[s.relation]}</span> : '—';
      },
    },
  ];
  return (
    <DataTable
      caption="Last free day by source"
      hideCaption
      columns={columns}
      rows={rows}
      rowKey={(s) => s.party}
      rowClass={(s) => (s.binds ? 'row-selected row-applies' : undefined)}
    />
  );
}

/** The headline: whose last free day binds and where it stands ("Terminal’s last free day: today"), its date big, the others beside it. */
export function LfdHeadline({ c, now }: { c: ContainerAttributes; now: Date }) {
  const standing = lfdStanding(c, now);
  if (!standing.binding) {
    return (
      <p class="lfd-headline muted">
        {standing.others.length ? 'No last free day applies where the box is picked up yet.' : 'No last free day given yet.'}{' '}
        <OtherLfds standing={standing} prefix="Given: " />
      </p>
    );
  }
  const tone = standingWords(standing)?.tone ?? 'neutral';
  return (
    <p class="lfd-headline">
      <span class={`lfd-sentence lfd-${tone}`}>{standingSentence(standing)}</span>
      <span class="lfd-date">
        <Time domain value={standing.binding.value} zone={standing.binding.zone} dateOnly mode="absolute" />
      </span>
      <OtherLfds standing={standing} prefix="Also: " />
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
