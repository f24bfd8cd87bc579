// `/shipments`: the account's shipments, newest first, searchable (`?q=`) and paged (`?page=`), both kept in
// the URL so the list can be linked and Back works.
import { useEffect, useState } from 'preact/hooks';
import { Async } from '../components/Async';
import { type Column, DataTable } from '../components/DataTable';
import { Badge } from '../components/Facts';
import { TextField } from '../components/Field';
import { Page } from '../components/Page';
import { Pager } from '../components/Pager';
import { Time } from '../components/Time';
import { api } from '../lib/api';
import { useLoad } from '../lib/hooks';
import { type ListDoc, pageCount, refsOf } from '../lib/jsonapi';
import { carrierLabel, shipmentStatus } from '../lib/labels';
import type { Shipment, ShipmentAttributes } from '../lib/resources';
import { Link, setQuery } from '../lib/router';
import type { PageProps } from '../routes';

export const SHIPMENTS_PAGE_SIZE = 30;

export default function Shipments({ location }: PageProps) {
  const q = location.search.get('q') ?? '';
  const page = Math.max(1, Number.parseInt(location.search.get('page') ?? '1', 10) || 1);
  const [text, setText] = useState(q);
  useEffect(() => setText(q), [q]);

  const list = useLoad(
    (signal) =>
      api.get<ListDoc<ShipmentAttributes>>('/v2/shipments', {
        signal,
        query: { q: q || undefined, 'page[number]': page, 'page[size]': SHIPMENTS_PAGE_SIZE },
      }),
    [q, page],
  );

  const columns: Column<Shipment>[] = [
    {
      key: 'bl',
      header: 'Bill of lading',
      rowHeader: true,
      cell: (s) => <Link href={`/shipments/${s.id}`}>{s.attributes.bill_of_lading_number ?? s.attributes.normalized_number ?? s.id}</Link>,
      sortValue: (s) => s.attributes.bill_of_lading_number,
    },
    { key: 'carrier', header: 'Carrier', cell: (s) => carrierLabel(s.attributes), sortValue: (s) => carrierLabel(s.attributes) },
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
        </span>
      ),
      sortValue: (s) => `${s.attributes.port_of_lading_locode ?? ''}${s.attributes.port_of_discharge_locode ?? ''}`,
    },
    {
      key: 'vessel',
      header: 'Vessel / voyage',
      cell: (s) => [s.attributes.pod_vessel_name, s.attributes.pod_voyage_number].filter(Boolean).join(' / ') || '—',
      sortValue: (s) => s.attributes.pod_vessel_name,
    },
    {
      key: 'eta',
      header: 'ETA (POD)',
      cell: (s) =>
        s.attributes.pod_ata_at ? (
          <span>
            Arrived <Time domain value={s.attributes.pod_ata_at} zone={s.attributes.pod_timezone} dateOnly />
          </span>
        ) : (
          <Time domain value={s.attributes.pod_eta_at} zone={s.attributes.pod_timezone} dateOnly />
        ),
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
        return <Badge tone={st.tone}>{st.label}</Badge>;
      },
      sortValue: (s) => shipmentStatus(s.attributes).label,
    },
  ];

  return (
    <Page title="Shipments">
      <search>
        <form
          class="form form-inline search-form"
          onSubmit={(e) => {
            e.preventDefault();
            setQuery({ q: text.trim() || null, page: null });
          }}
        >
          <TextField
            label="Search shipments"
            type="search"
            name="q"
            hint="Bill of lading, booking, container or reference number, whole or in part."
            value={text}
            onValue={setText}
          />
          <div class="form-actions">
            <button type="submit" class="button-primary">
              Search
            </button>
            {q && (
              <button type="button" class="button-secondary" onClick={() => setQuery({ q: null, page: null })}>
                Clear
              </button>
            )}
          </div>
        </form>
      </search>
      <Async state={list}>
        {(d) => (
          <>
            <DataTable
              caption={q ? `Shipments matching “${q}”` : 'Shipments'}
              hideCaption={!q}
              columns={columns}
              rows={d.data}
              rowKey={(s) => s.id}
              empty={
                q ? `No shipment matches “${q}”.` : 'No shipments yet. Track a bill of lading, booking or container number through the API.'
              }
            />
            <Pager
              page={page}
              pages={pageCount(d, SHIPMENTS_PAGE_SIZE)}
              total={d.meta?.total}
              onPage={(p) => setQuery({ page: p === 1 ? null : p })}
              label="Shipment pages"
            />
          </>
        )}
      </Async>
    </Page>
  );
}
