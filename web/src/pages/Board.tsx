// `/board`: the containers that need action today (GET /v2/containers/board?include=shipment) — on hold (which
// holds), available, last free day today, tomorrow or passed, demurrage accruing — most urgent first, a page of
// 100 at a time, with a count per kind (each a toggle that narrows the list to it on the server: filter[needs])
// and columns that sort the page; every row links to its container. The kind and the page are kept in the URL.
// The last free day shown is the binding one (the earliest that applies where the box is picked up), named by whose
// it is, with the other parties' dates beside it; its days are counted by src/domain/lfd.ts at the world time, in
// the date's own calendar, the same module the server judges the kinds with.
import { Async } from '../components/Async';
import { type Column, DataTable } from '../components/DataTable';
import { Badge } from '../components/Facts';
import { bindingSortValue, LfdCell } from '../components/Lfd';
import { Page } from '../components/Page';
import { Pager } from '../components/Pager';
import { SandboxPanel } from '../components/SandboxPanel';
import { api } from '../lib/api';
import { useWorldNow } from '../lib/clock';
import { useLoad } from '../lib/hooks';
import { Included, type ListDoc, pageCount, type Resource } from '../lib/jsonapi';
import { containerStatusLabel, containerStatusTone, money } from '../lib/labels';
import type { BoardAttention, ContainerAttributes, ShipmentAttributes } from '../lib/tracking';
import { holdLabel } from '../lib/tracking';
import { Link, setQuery } from '../lib/router';
import { useWorldAdvanced } from '../lib/world';
import type { PageProps } from '../routes';

type BoardRow = Resource<ContainerAttributes> & { meta?: { attention?: BoardAttention } };
type Kind = 'on_hold' | 'available' | 'lfd_today' | 'lfd_tomorrow' | 'lfd_passed' | 'demurrage_accruing';

const KINDS: { key: Kind; label: string; test: (a: BoardAttention) => boolean }[] = [
  { key: 'on_hold', label: 'On hold', test: (a) => a.holds.length > 0 },
  { key: 'available', label: 'Available', test: (a) => a.available },
  { key: 'lfd_today', label: 'LFD today', test: (a) => a.lfd === 'today' },
  { key: 'lfd_tomorrow', label: 'LFD tomorrow', test: (a) => a.lfd === 'tomorrow' },
  { key: 'lfd_passed', label: 'LFD passed', test: (a) => a.lfd === 'passed' },
  { key: 'demurrage_accruing', label: 'Demurrage accruing', test: (a) => a.demurrage_accruing },
];

const NONE: BoardAttention = { holds: [], available: false, lfd: null, lfd_days_left: null, demurrage_accruing: false };
const attention = (r: BoardRow) => r.meta?.attention ?? NONE;

export const BOARD_PAGE_SIZE = 100;

export default function Board({ location, session }: PageProps) {
  const needs = location.search.get('needs');
  const only = KINDS.some((k) => k.key === needs) ? (needs as Kind) : null;
  const page = Math.max(1, Number.parseInt(location.search.get('page') ?? '1', 10) || 1);
  const board = useLoad(
    (signal) =>
      api.get<ListDoc<ContainerAttributes>>('/v2/containers/board', {
        signal,
        query: {
          include: 'shipment',
          ...(only ? { 'filter[needs]': only } : {}),
          'page[number]': page,
          'page[size]': BOARD_PAGE_SIZE,
        },
      }),
    [only, page],
  );
  useWorldAdvanced(board.reload);
  const setOnly = (kind: Kind | null) => setQuery({ needs: kind, page: null });
  const now = useWorldNow();

  return (
    <Page title="Board">
      <SandboxPanel session={session} />
      <p class="lead">
        The containers that need action today, most urgent first. The last free day shown is the one that binds: the earliest
        that applies where the box is picked up, counted in that place’s own calendar.
      </p>
      <Async state={board}>
        {(d) => {
          const rows = d.data as BoardRow[];
          const counts = (d.meta?.counts ?? {}) as Partial<Record<Kind | 'needs_action', number>>;
          const inc = new Included(d.included);
          const kind = KINDS.find((k) => k.key === only);
          // The server lists only the chosen kind; the test keeps the table honest while the next page loads.
          const shown = kind ? rows.filter((r) => kind.test(attention(r))) : rows;
          return (
            <>
              <ul class="counts board-counts" aria-label="Containers needing action, by kind">
                <li class="count count-total">
                  <span class="count-number">{counts.needs_action ?? rows.length}</span> <span class="count-label">Need action</span>
                </li>
                {KINDS.map((k) => (
                  <li key={k.key} class="count">
                    <button
                      type="button"
                      class={`count-button count-${k.key}`}
                      aria-pressed={only === k.key}
                      onClick={() => setOnly(only === k.key ? null : k.key)}
                    >
                      <span class="count-number">{counts[k.key] ?? rows.filter((r) => k.test(attention(r))).length}</span>{' '}
                      <span class="count-label">{k.label}</span>
                    </button>
                  </li>
                ))}
              </ul>
              {kind && (
                <p class="filter-note" role="status">
                  Showing only: {kind.label}.{' '}
                  <button type="button" class="button-quiet button-small" onClick={() => setOnly(null)}>
                    Show all
                  </button>
                </p>
              )}
              {shown.length ? (
                <>
                  <p class="scroll-hint" aria-hidden="true">
                    Swipe the table sideways for more columns.
                  </p>
                  <DataTable
                    caption={kind ? `Containers: ${kind.label}` : 'Containers that need action'}
                    hideCaption
                    columns={columns(inc, now)}
                    rows={shown}
                    rowKey={(r) => r.id}
                  />
                  <Pager
                    page={page}
                    pages={pageCount(d, BOARD_PAGE_SIZE)}
                    total={d.meta?.total as number | undefined}
                    onPage={(p) => setQuery({ page: p === 1 ? null : p })}
                    label="Board pages"
                  />
                </>
              ) : (
                <p class="empty-state" role="status">
                  {kind ? `No container is in “${kind.label}” right now.` : 'Nothing needs action right now.'}
                </p>
              )}
            </>
          );
        }}
      </Async>
    </Page>
  );
}

const URGENCY = (a: BoardAttention) =>
  (a.lfd === 'passed' ? 0 : a.lfd === 'today' ? 10 : a.lfd === 'tomorrow' ? 20 : 30) + (a.holds.length ? 0 : 5) + (a.available ? 0 : 1);

function columns(inc: Included, now: Date): Column<BoardRow>[] {
  return [
    {
      key: 'number',
      header: 'Container',
      rowHeader: true,
      cell: (r) => (
        <Link href={`/containers/${r.id}`} class="strong-link">
          {r.attributes.number}
        </Link>
      ),
      sortValue: (r) => r.attributes.number,
    },
    {
      key: 'needs',
      header: 'Needs',
      cell: (r) => <Needs a={attention(r)} />,
      sortValue: (r) => URGENCY(attention(r)),
    },
    {
      key: 'holds',
      header: 'Holds',
      cell: (r) => attention(r).holds.map(holdLabel).join(', ') || <span class="muted">None</span>,
      sortValue: (r) => attention(r).holds.join(',') || null,
    },
    {
      key: 'lfd',
      header: 'Last free day',
      cell: (r) => <LfdCell c={r.attributes} now={now} />,
      sortValue: (r) => bindingSortValue(r.attributes),
    },
    {
      key: 'status',
      header: 'Status',
      cell: (r) => (
        <Badge tone={containerStatusTone(r.attributes.current_status)}>{containerStatusLabel(r.attributes.current_status)}</Badge>
      ),
      sortValue: (r) => r.attributes.current_status,
    },
    {
      key: 'fees',
      header: 'Fees',
      align: 'end',
      cell: (r) => {
        const total = (r.attributes.fees_at_pod_terminal ?? []).find((f) => f.type === 'total');
        return total ? money(total.amount, total.currency_code) : <span class="muted">—</span>;
      },
      sortValue: (r) => (r.attributes.fees_at_pod_terminal ?? []).find((f) => f.type === 'total')?.amount ?? null,
    },
    {
      key: 'shipment',
      header: 'Shipment',
      cell: (r) => {
        const s = inc.one<ShipmentAttributes>(r, 'shipment');
        if (!s) return '—';
        return (
          <span class="shipment-cell">
            <Link href={`/shipments/${s.id}?container=${r.id}`}>
              {s.attributes.bill_of_lading_number ?? s.attributes.normalized_number}
            </Link>
            <span class="muted small">{s.attributes.port_of_discharge_name ?? s.attributes.port_of_discharge_locode}</span>
          </span>
        );
      },
      sortValue: (r) => inc.one<ShipmentAttributes>(r, 'shipment')?.attributes.bill_of_lading_number,
    },
  ];
}

function Needs({ a }: { a: BoardAttention }) {
  const tags: [string, 'bad' | 'warn' | 'good' | 'info'][] = [];
  if (a.demurrage_accruing) tags.push(['Demurrage accruing', 'bad']);
  if (a.lfd === 'passed') tags.push(['LFD passed', 'bad']);
  if (a.lfd === 'today') tags.push(['LFD today', 'bad']);
  if (a.lfd === 'tomorrow') tags.push(['LFD tomorrow', 'warn']);
  if (a.holds.length) tags.push([`On hold: ${a.holds.map(holdLabel).join(', ')}`, 'bad']);
  if (a.available) tags.push(['Available', 'good']);
  if (!tags.length) return <span class="muted">—</span>;
  return (
    <span class="needs">
      {tags.map(([t, tone]) => (
        <Badge key={t} tone={tone}>
          {t}
        </Badge>
      ))}
    </span>
  );
}
