// `/shipments`: the account's shipments, newest first: search and filters (carrier, port of discharge,
// container status, arriving between, tracking stopped) and the page kept in the URL so the list can be
// linked and Back works; columns to read at a glance, with one custom field of the user's choice (`cf_column`, fed
// by `include=custom_fields`) and a filter by a custom field (`cf.<api_slug>`); "Track new" and a CSV upload for
// bulk tracking.
import { useEffect, useState } from 'preact/hooks';
import { Async } from '../components/Async';
import { type Column, DataTable } from '../components/DataTable';
import { Badge } from '../components/Facts';
import { Page, Section } from '../components/Page';
import { Pager } from '../components/Pager';
import { SandboxPanel } from '../components/SandboxPanel';
import { Time } from '../components/Time';
import { api } from '../lib/api';
import type { Definition } from '../lib/custom-fields';
import { loadDefinitions } from '../lib/custom-fields-api';
import { COLUMN_PARAM, columnOf, includedDisplayValue } from '../lib/custom-fields-query';
import { etaShift } from '../lib/eta';
import { useLoad } from '../lib/hooks';
import { Included, type ListDoc, pageCount, refsOf } from '../lib/jsonapi';
import { carrierLabel, containerStatusLabel, shipmentStatus } from '../lib/labels';
import type { ContainerAttributes, Shipment, ShipmentAttributes } from '../lib/resources';
import { Link, setQuery } from '../lib/router';
import { useWorldAdvanced } from '../lib/world';
import type { PageProps } from '../routes';
import { BulkUpload } from './shipments/BulkUpload';
import { FiltersForm } from './shipments/FiltersForm';
import { activeFilterCount, apiQuery, filtersOf } from './shipments/filters';
import { TrackForm } from './shipments/TrackForm';

export const SHIPMENTS_PAGE_SIZE = 30;

export default function Shipments({ location, session }: PageProps) {
  const filters = filtersOf(location.search);
  const page = Math.max(1, Number.parseInt(location.search.get('page') ?? '1', 10) || 1);
  const column = columnOf(location.search);
  const key = JSON.stringify({ ...filters, page, column });
  /** The open panel; null until the user chooses (then the form is open when there is nothing to list yet). */
  const [panel, setPanel] = useState<'track' | 'bulk' | 'none' | null>(null);

  const list = useLoad(
    (signal) =>
      api.get<ListDoc<ShipmentAttributes>>('/v2/shipments', {
        signal,
        query: {
          ...apiQuery(filters),
          include: column ? 'containers,custom_fields' : 'containers',
          'page[number]': page,
          'page[size]': SHIPMENTS_PAGE_SIZE,
        },
      }),
    [key],
  );
  // The account's shipment custom fields, for the filter and the column (none shown while they load or fail).
  const definitions = useLoad((signal) => loadDefinitions('Shipment', signal), []);
  useWorldAdvanced(list.reload);

  const filtered = !!filters.q || activeFilterCount(filters) > 0;
  // A new account sees the form at once.
  const empty = !filtered && list.data?.meta?.total === 0;
  const shown = panel ?? (empty ? 'track' : 'none');
  // Decided once, at the first answer: the form stays open after the first shipment comes in.
  useEffect(() => {
    if (panel === null && list.data) setPanel(empty ? 'track' : 'none');
  }, [list.data]);

  const toggle = (p: 'track' | 'bulk') => setPanel(shown === p ? 'none' : p);

  return (
    <Page
      title="Shipments"
      actions={
        <>
          <button type="button" class="button-primary" aria-expanded={shown === 'track'} aria-controls="track-panel" onClick={() => toggle('track')}>
            Track new
          </button>
          <button type="button" class="button-secondary" aria-expanded={shown === 'bulk'} aria-controls="bulk-panel" onClick={() => toggle('bulk')}>
            Upload CSV
          </button>
        </>
      }
    >
      <SandboxPanel session={session} />
      <div id="track-panel" hidden={shown !== 'track'}>
        {shown === 'track' && (
          <Section id="track" title="Track a new shipment">
            <TrackForm onTracked={list.reload} />
          </Section>
        )}
      </div>
      <div id="bulk-panel" hidden={shown !== 'bulk'}>
        {shown === 'bulk' && (
          <Section id="bulk" title="Track many numbers from a CSV file">
            <BulkUpload onTracked={list.reload} />
          </Section>
        )}
      </div>
      <div class="list-block">
        <FiltersForm filters={filters} definitions={definitions.data} />
        {definitions.data && (definitions.data.length > 0 || column) && <ColumnChooser definitions={definitions.data} column={column} />}
        <Async state={list}>
          {(d) => {
            if (!d.data.length) {
              return (
                <p class="empty-state" role="status">
                  {filtered
                    ? `No shipment matches${filters.q ? ` “${filters.q}”` : ''}${activeFilterCount(filters) ? ' with these filters' : ''}.`
                    : 'No shipments yet. Track a bill of lading, booking or container number with “Track new”, or upload a CSV file.'}
                </p>
              );
            }
            return (
              <>
                <ShipmentsTable
                  doc={d}
                  caption={filters.q ? `Shipments matching “${filters.q}”` : 'Shipments'}
                  hideCaption={!filters.q}
                  column={column ? { slug: column, name: definitions.data?.find((f) => f.slug === column)?.name ?? column } : null}
                />
                <Pager
                  page={page}
                  pages={pageCount(d, SHIPMENTS_PAGE_SIZE)}
                  total={d.meta?.total}
                  onPage={(p) => setQuery({ page: p === 1 ? null : p })}
                  label="Shipment pages"
                />
              </>
            );
          }}
        </Async>
      </div>
    </Page>
  );
}

/** Which custom field the list shows as a column (kept in the URL as `cf_column`). */
function ColumnChooser({ definitions, column }: { definitions: Definition[]; column: string | null }) {
  const known = !column || definitions.some((d) => d.slug === column);
  return (
    <div class="row-actions custom-field-column">
      <label class="inline-select">
        <span>Custom field column</span>
        <select
          value={column ?? ''}
          onInput={(e) => setQuery({ [COLUMN_PARAM]: (e.currentTarget as HTMLSelectElement).value || null }, { replace: true })}
        >
          <option value="">None</option>
          {!known && column && <option value={column}>{column}</option>}
          {definitions.map((d) => (
            <option key={d.slug} value={d.slug}>
              {d.name}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

function ShipmentsTable({
  doc,
  caption,
  hideCaption,
  column,
}: {
  doc: ListDoc<ShipmentAttributes>;
  caption: string;
  hideCaption: boolean;
  /** The custom field shown as a column. */
  column: { slug: string; name: string } | null;
}) {
  const inc = new Included(doc.included);
  const boxes = (s: Shipment) => inc.many<ContainerAttributes>(s, 'containers');
  const columns: Column<Shipment>[] = [
    {
      key: 'bl',
      header: 'Bill of lading',
      rowHeader: true,
      cell: (s) => (
        <Link href={`/shipments/${s.id}`} class="strong-link">
          {s.attributes.bill_of_lading_number ?? s.attributes.normalized_number ?? s.id}
        </Link>
      ),
      sortValue: (s) => s.attributes.bill_of_lading_number,
    },
    ...(column
      ? [
          {
            key: `cf-${column.slug}`,
            header: column.name,
            cell: (s: Shipment) => includedDisplayValue(s, inc, column.slug) ?? <span class="muted">—</span>,
            sortValue: (s: Shipment) => includedDisplayValue(s, inc, column.slug),
          },
        ]
      : []),
    {
      key: 'carrier',
      header: 'Carrier',
      cell: (s) => (
        <span title={s.attributes.shipping_line_name ?? undefined}>
          {carrierLabel(s.attributes)}
          {s.attributes.shipping_line_scac && <span class="muted small"> {s.attributes.shipping_line_scac}</span>}
        </span>
      ),
      sortValue: (s) => carrierLabel(s.attributes),
    },
    {
      key: 'route',
      header: 'POL → POD',
      class: 'nowrap',
      cell: (s) => (
        <span>
          <abbr title={s.attributes.port_of_lading_name ?? undefined}>{s.attributes.port_of_lading_locode ?? '—'}</abbr>
          <span aria-hidden="true"> → </span>
          <span class="visually-hidden"> to </span>
          <abbr title={s.attributes.port_of_discharge_name ?? undefined}>{s.attributes.port_of_discharge_locode ?? '—'}</abbr>
          {s.attributes.destination_locode && s.attributes.destination_locode !== s.attributes.port_of_discharge_locode && (
            <>
              <span aria-hidden="true"> → </span>
              <span class="visually-hidden"> then inland to </span>
              <abbr title={s.attributes.destination_name ?? undefined}>{s.attributes.destination_locode}</abbr>
            </>
          )}
        </span>
      ),
      sortValue: (s) => `${s.attributes.port_of_lading_locode ?? ''}${s.attributes.port_of_discharge_locode ?? ''}`,
    },
    {
      key: 'vessel',
      header: 'Vessel / voyage',
      cell: (s) =>
        s.attributes.pod_vessel_name ? (
          <span>
            {s.attributes.pod_vessel_name}
            {s.attributes.pod_voyage_number && <span class="muted"> / {s.attributes.pod_voyage_number}</span>}
          </span>
        ) : (
          '—'
        ),
      sortValue: (s) => s.attributes.pod_vessel_name,
    },
    {
      key: 'eta',
      header: 'ETA at POD',
      cell: (s) => <EtaCell s={s.attributes} />,
      sortValue: (s) => s.attributes.pod_ata_at ?? s.attributes.pod_eta_at,
    },
    {
      key: 'containers',
      header: 'Containers',
      cell: (s) => refsOf(s, 'containers').length,
      sortValue: (s) => refsOf(s, 'containers').length,
      align: 'end',
    },
    {
      key: 'status',
      header: 'Status',
      cell: (s) => {
        const st = shipmentStatus(s.attributes);
        return (
          <span class="status-cell">
            <Badge tone={st.tone}>{st.label}</Badge>
            <ContainerSummary list={boxes(s).map((c) => c.attributes)} />
          </span>
        );
      },
      sortValue: (s) => shipmentStatus(s.attributes).label,
    },
  ];
  return (
    <>
      <p class="scroll-hint" aria-hidden="true">
        Swipe the table sideways for more columns.
      </p>
      <DataTable caption={caption} hideCaption={hideCaption} columns={columns} rows={doc.data} rowKey={(s) => s.id} />
    </>
  );
}

/** The ETA (or the arrival) and how far it moved from the first one announced. */
function EtaCell({ s }: { s: ShipmentAttributes }) {
  const current = s.pod_ata_at ?? s.pod_eta_at;
  const shift = etaShift(current, s.pod_original_eta_at);
  if (!current) return <span class="muted">Not known</span>;
  return (
    <span class="eta-cell">
      {s.pod_ata_at ? <span class="fact-word">Arrived</span> : <span class="estimate-label">Estimated</span>}{' '}
      <Time domain value={current} zone={s.pod_timezone} dateOnly mode="absolute" />
      {shift && shift.ms !== 0 && (
        <span class={`eta-shift eta-shift-${shift.tone}`}>
          {shift.text}
          <span class="visually-hidden"> than the first ETA</span>
        </span>
      )}
    </span>
  );
}

/** "2 available · 1 on the water": the containers by status, in one short line. */
function ContainerSummary({ list }: { list: ContainerAttributes[] }) {
  if (!list.length) return null;
  const held = list.filter((c) => (c.holds_at_pod_terminal ?? []).some((h) => h.status === 'hold')).length;
  const counts = new Map<string, number>();
  for (const c of list) counts.set(c.current_status, (counts.get(c.current_status) ?? 0) + 1);
  const parts = [...counts].map(([st, n]) => `${n} ${containerStatusLabel(st).toLowerCase()}`);
  if (held) parts.push(`${held} on hold`);
  return <span class="muted small container-summary">{parts.join(' · ')}</span>;
}
