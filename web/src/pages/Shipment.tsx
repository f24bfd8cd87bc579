// `/shipments/<id>`: the shipment's key facts and its containers.
import { Async } from '../components/Async';
import { type Column, DataTable } from '../components/DataTable';
import { Badge, Facts } from '../components/Facts';
import { Page, Section } from '../components/Page';
import { Time } from '../components/Time';
import { ApiError, api } from '../lib/api';
import { useLoad } from '../lib/hooks';
import { type Doc, Included } from '../lib/jsonapi';
import { carrierLabel, containerStatusLabel, containerStatusTone, equipmentLabel, placeLabel, shipmentStatus } from '../lib/labels';
import type { Container, ContainerAttributes, ShipmentAttributes } from '../lib/resources';
import { Link } from '../lib/router';
import type { PageProps } from '../routes';

export default function ShipmentPage({ params }: PageProps) {
  const id = params.id!;
  const doc = useLoad(
    (signal) => api.get<Doc<ShipmentAttributes>>(`/v2/shipments/${encodeURIComponent(id)}`, { signal, query: { include: 'containers' } }),
    [id],
  );

  if (doc.error instanceof ApiError && doc.error.status === 404) {
    return (
      <Page title="Shipment not found">
        <p>There is no such shipment in your account.</p>
        <p>
          <Link href="/shipments">All shipments</Link>
        </p>
      </Page>
    );
  }
  const a = doc.data?.data.attributes;
  const number = a?.bill_of_lading_number ?? a?.normalized_number ?? 'Shipment';
  return (
    <Page title={a ? `Shipment ${number}` : 'Shipment'}>
      <p class="breadcrumbs">
        <Link href="/shipments">Shipments</Link>
      </p>
      <Async state={doc}>
        {(d) => {
          const s = d.data.attributes;
          const containers = new Included(d.included).many<ContainerAttributes>(d.data, 'containers');
          const status = shipmentStatus(s);
          return (
            <>
              <Facts
                items={[
                  ['Status', <Badge tone={status.tone}>{status.label}</Badge>],
                  ['Carrier', `${carrierLabel(s)}${s.shipping_line_scac ? ` (${s.shipping_line_scac})` : ''}`],
                  ['Port of lading', placeLabel(s.port_of_lading_name, s.port_of_lading_locode)],
                  [
                    'Departure',
                    s.pol_atd_at ? (
                      <Time domain value={s.pol_atd_at} zone={s.pol_timezone} />
                    ) : (
                      <Estimated value={s.pol_etd_at} zone={s.pol_timezone} />
                    ),
                  ],
                  ['Port of discharge', placeLabel(s.port_of_discharge_name, s.port_of_discharge_locode)],
                  [
                    'Arrival',
                    s.pod_ata_at ? (
                      <Time domain value={s.pod_ata_at} zone={s.pod_timezone} />
                    ) : (
                      <Estimated value={s.pod_eta_at} zone={s.pod_timezone} />
                    ),
                  ],
                  ['Vessel / voyage', [s.pod_vessel_name, s.pod_voyage_number].filter(Boolean).join(' / ')],
                  ['Destination', s.destination_locode ? placeLabel(s.destination_name, s.destination_locode) : null],
                  ['Customer', s.customer_name],
                  ['Reference numbers', s.ref_numbers.join(', ')],
                  ['Tags', s.tags.join(', ')],
                  [
                    'Tracking',
                    s.line_tracking_stopped_at ? (
                      <>
                        Stopped <Time domain value={s.line_tracking_stopped_at} mode="relative" />
                        {s.line_tracking_stopped_reason ? ` (${s.line_tracking_stopped_reason.replace(/_/g, ' ')})` : ''}
                      </>
                    ) : (
                      <>
                        Active
                        {s.line_tracking_last_succeeded_at && (
                          <>
                            , last checked <Time domain value={s.line_tracking_last_succeeded_at} mode="relative" />
                          </>
                        )}
                      </>
                    ),
                  ],
                ]}
              />
              <Section id="containers" title={`Containers (${containers.length})`}>
                <ContainersTable containers={containers} />
              </Section>
            </>
          );
        }}
      </Async>
    </Page>
  );
}

function Estimated({ value, zone }: { value: string | null; zone: string | null }) {
  if (!value) return <span>—</span>;
  return (
    <span>
      <span class="estimate-label">Estimated</span> <Time domain value={value} zone={zone} />
    </span>
  );
}

export function ContainersTable({ containers }: { containers: Container[] }) {
  const columns: Column<Container>[] = [
    {
      key: 'number',
      header: 'Container',
      rowHeader: true,
      cell: (c) => <Link href={`/containers/${c.id}`}>{c.attributes.number}</Link>,
      sortValue: (c) => c.attributes.number,
    },
    {
      key: 'status',
      header: 'Status',
      cell: (c) => (
        <Badge tone={containerStatusTone(c.attributes.current_status)}>{containerStatusLabel(c.attributes.current_status)}</Badge>
      ),
      sortValue: (c) => c.attributes.current_status,
    },
    { key: 'equipment', header: 'Equipment', cell: (c) => equipmentLabel(c.attributes) },
    {
      key: 'holds',
      header: 'Holds',
      cell: (c) => (c.attributes.holds_at_pod_terminal ?? []).map((h) => h.name).join(', ') || 'None',
      sortValue: (c) => (c.attributes.holds_at_pod_terminal ?? []).length,
    },
    {
      key: 'lfd',
      header: 'Last free day',
      cell: (c) => <Time domain value={c.attributes.pickup_lfd} zone={c.attributes.pod_timezone} dateOnly />,
      sortValue: (c) => c.attributes.pickup_lfd,
    },
  ];
  return (
    <DataTable caption="Containers" hideCaption columns={columns} rows={containers} rowKey={(c) => c.id} empty="No containers known yet." />
  );
}
