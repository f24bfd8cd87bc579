// `/board`: the containers that need action — on hold, available, last free day today, tomorrow or passed —
// with counts, in one sortable table. Reads the newest containers of the account (one page of 100).
import { Async } from '../components/Async';
import { type Column, DataTable } from '../components/DataTable';
import { Badge } from '../components/Facts';
import { Page } from '../components/Page';
import { Time } from '../components/Time';
import { api } from '../lib/api';
import { useWorldNow } from '../lib/clock';
import { useLoad } from '../lib/hooks';
import type { ListDoc } from '../lib/jsonapi';
import { containerStatusLabel, containerStatusTone, humanize } from '../lib/labels';
import type { Container, ContainerAttributes } from '../lib/resources';
import { Link } from '../lib/router';
import { daysFrom } from '../lib/time';

const DONE = new Set(['picked_up', 'delivered', 'empty_returned', 'off_dock', 'dropped', 'loaded']);

interface Row {
  container: Container;
  held: boolean;
  available: boolean;
  lfdDays: number | null;
}

export default function Board() {
  const now = useWorldNow();
  const list = useLoad((signal) => api.get<ListDoc<ContainerAttributes>>('/v2/containers', { signal, query: { 'page[size]': 100 } }), []);

  const rowsOf = (d: ListDoc<ContainerAttributes>): Row[] =>
    d.data
      .filter((c) => !DONE.has(c.attributes.current_status))
      .map((c) => ({
        container: c,
        held: (c.attributes.holds_at_pod_terminal ?? []).some((h) => h.status === 'hold'),
        available: !!c.attributes.ready_for_pickup,
        lfdDays: c.attributes.pickup_lfd ? daysFrom(c.attributes.pickup_lfd, now, c.attributes.pod_timezone) : null,
      }))
      .filter((r) => r.held || r.available || (r.lfdDays !== null && r.lfdDays <= 1));

  const columns: Column<Row>[] = [
    {
      key: 'number',
      header: 'Container',
      rowHeader: true,
      cell: (r) => <Link href={`/containers/${r.container.id}`}>{r.container.attributes.number}</Link>,
      sortValue: (r) => r.container.attributes.number,
    },
    {
      key: 'status',
      header: 'Status',
      cell: (r) => (
        <Badge tone={containerStatusTone(r.container.attributes.current_status)}>
          {containerStatusLabel(r.container.attributes.current_status)}
        </Badge>
      ),
      sortValue: (r) => r.container.attributes.current_status,
    },
    {
      key: 'holds',
      header: 'Holds',
      cell: (r) =>
        (r.container.attributes.holds_at_pod_terminal ?? [])
          .filter((h) => h.status === 'hold')
          .map((h) => humanize(h.name))
          .join(', ') || 'None',
      sortValue: (r) => (r.held ? 0 : 1),
    },
    {
      key: 'lfd',
      header: 'Last free day',
      cell: (r) => (
        <span>
          <LfdBadge days={r.lfdDays} />{' '}
          <Time
            domain
            value={r.container.attributes.pickup_lfd}
            zone={r.container.attributes.pod_timezone}
            dateOnly
            mode="absolute"
            empty=""
          />
        </span>
      ),
      sortValue: (r) => r.lfdDays,
    },
  ];

  return (
    <Page title="Board">
      <Async state={list}>
        {(d) => {
          const rows = rowsOf(d);
          const counts = [
            ['On hold', rows.filter((r) => r.held).length],
            ['Available', rows.filter((r) => r.available).length],
            ['LFD passed', rows.filter((r) => r.lfdDays !== null && r.lfdDays < 0).length],
            ['LFD today', rows.filter((r) => r.lfdDays === 0).length],
            ['LFD tomorrow', rows.filter((r) => r.lfdDays === 1).length],
          ] as const;
          return (
            <>
              <ul class="counts" aria-label="Counts">
                {counts.map(([label, n]) => (
                  <li key={label} class="count">
                    <span class="count-number">{n}</span> <span class="count-label">{label}</span>
                  </li>
                ))}
              </ul>
              <DataTable
                caption="Containers that need action"
                hideCaption
                columns={columns}
                rows={rows}
                rowKey={(r) => r.container.id}
                initialSort={{ key: 'lfd', dir: 'asc' }}
                empty="Nothing needs action right now."
              />
              {(d.meta?.total ?? 0) > d.data.length && (
                <p class="muted">Showing what needs action among the {d.data.length} newest containers.</p>
              )}
            </>
          );
        }}
      </Async>
    </Page>
  );
}

function LfdBadge({ days }: { days: number | null }) {
  if (days === null) return null;
  if (days < 0) return <Badge tone="bad">Passed</Badge>;
  if (days === 0) return <Badge tone="warn">Today</Badge>;
  if (days === 1) return <Badge tone="warn">Tomorrow</Badge>;
  return <Badge>In {days} days</Badge>;
}
