// `/containers/<id>`: the container's key facts — status, availability, last free day, holds and fees,
// milestones — and a link to its shipment.
import { Async } from '../components/Async';
import { type Column, DataTable } from '../components/DataTable';
import { Badge, Facts } from '../components/Facts';
import { Page, Section } from '../components/Page';
import { Time } from '../components/Time';
import { ApiError, api } from '../lib/api';
import { useLoad } from '../lib/hooks';
import { type Doc, Included } from '../lib/jsonapi';
import { containerStatusLabel, containerStatusTone, equipmentLabel, humanize, money } from '../lib/labels';
import type { ContainerAttributes, Fee, Hold, ShipmentAttributes } from '../lib/resources';
import { Link } from '../lib/router';
import type { PageProps } from '../routes';

export default function ContainerPage({ params }: PageProps) {
  const id = params.id!;
  const doc = useLoad(
    (signal) => api.get<Doc<ContainerAttributes>>(`/v2/containers/${encodeURIComponent(id)}`, { signal, query: { include: 'shipment' } }),
    [id],
  );

  if (doc.error instanceof ApiError && doc.error.status === 404) {
    return (
      <Page title="Container not found">
        <p>There is no such container in your account.</p>
        <p>
          <Link href="/shipments">All shipments</Link>
        </p>
      </Page>
    );
  }
  const number = doc.data?.data.attributes.number;
  return (
    <Page title={number ? `Container ${number}` : 'Container'}>
      <Async state={doc}>
        {(d) => {
          const c = d.data.attributes;
          const shipment = new Included(d.included).one<ShipmentAttributes>(d.data, 'shipment');
          const zone = c.pod_timezone;
          const holds = c.holds_at_pod_terminal ?? [];
          const fees = c.fees_at_pod_terminal ?? [];
          return (
            <>
              {shipment && (
                <p class="breadcrumbs">
                  <Link href="/shipments">Shipments</Link> <span aria-hidden="true">›</span>{' '}
                  <Link href={`/shipments/${shipment.id}`}>{shipment.attributes.bill_of_lading_number ?? 'Shipment'}</Link>
                </p>
              )}
              <Facts
                items={[
                  ['Status', <Badge tone={containerStatusTone(c.current_status)}>{containerStatusLabel(c.current_status)}</Badge>],
                  ['Equipment', equipmentLabel(c)],
                  [
                    'Available for pickup',
                    !c.availability_known
                      ? 'Not known yet'
                      : c.ready_for_pickup
                        ? 'Yes, ready'
                        : c.available_for_pickup
                          ? 'Available, but held'
                          : 'No',
                  ],
                  ['Last free day', <Time domain value={c.pickup_lfd} zone={zone} dateOnly />],
                  ['Pickup appointment', <Time domain value={c.pickup_appointment_at} zone={zone} />],
                  ['Location at terminal', c.location_at_pod_terminal],
                  ['Seal', c.seal_number],
                  ['Weight', c.weight_in_lbs ? `${c.weight_in_lbs.toLocaleString()} lbs` : null],
                  ['Reference numbers', (c.ref_numbers ?? []).join(', ')],
                ]}
              />
              <Section id="milestones" title="Milestones">
                <Facts
                  items={[
                    ['Arrived at POD', <Time domain value={c.pod_arrived_at} zone={zone} />],
                    ['Discharged', <Time domain value={c.pod_discharged_at} zone={zone} />],
                    ['Full out at POD', <Time domain value={c.pod_full_out_at} zone={zone} />],
                    [
                      'Full out at destination',
                      <Time domain value={c.final_destination_full_out_at} zone={c.final_destination_timezone} />,
                    ],
                    ['Delivered', <Time domain value={c.delivered_at} />],
                    ['Empty returned', <Time domain value={c.empty_terminated_at} zone={c.empty_terminated_timezone} />],
                  ]}
                />
              </Section>
              <Section id="holds" title="Holds">
                <HoldsTable holds={holds} />
              </Section>
              <Section id="fees" title="Fees">
                <FeesTable fees={fees} />
              </Section>
            </>
          );
        }}
      </Async>
    </Page>
  );
}

function HoldsTable({ holds }: { holds: Hold[] }) {
  const columns: Column<Hold>[] = [
    { key: 'name', header: 'Hold', rowHeader: true, cell: (h) => humanize(h.name) },
    {
      key: 'status',
      header: 'Status',
      cell: (h) => (h.status === 'hold' ? <Badge tone="bad">On hold</Badge> : <Badge tone="warn">Pending</Badge>),
    },
    { key: 'description', header: 'Description', cell: (h) => h.description ?? '—' },
  ];
  return (
    <DataTable
      caption="Holds"
      hideCaption
      columns={columns}
      rows={holds}
      rowKey={(h) => `${h.name}:${h.description ?? ''}`}
      empty="No holds."
    />
  );
}

/** The terminal's fee lines as given; a `total` line is shown as such and never added up with the others. */
function FeesTable({ fees }: { fees: Fee[] }) {
  const columns: Column<Fee>[] = [
    { key: 'type', header: 'Fee', rowHeader: true, cell: (f) => (f.type === 'total' ? <strong>Total</strong> : humanize(f.type)) },
    { key: 'amount', header: 'Amount', cell: (f) => money(f.amount, f.currency_code), align: 'end' },
  ];
  return (
    <DataTable caption="Fees" hideCaption columns={columns} rows={fees} rowKey={(f) => `${f.type}:${f.currency_code}`} empty="No fees." />
  );
}
