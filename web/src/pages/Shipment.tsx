// `/shipments/<id>`: the shipment's key facts (with Tidemark's predicted POD arrival when there is one); its route
// (port of lading → transshipments → port of discharge → inland destination) as a timeline and on a map drawn
// offline — for accounts with `routing`, the map of the selected (else first) container from its map_geojson:
// the vessel, its recorded track, the predicted and planned legs —; its containers (`?container=<id>` selects
// one, as the deep link does); the account's custom fields (edited in place); the ETA history.
import { Async } from '../components/Async';
import { CustomFields } from '../components/CustomFields';
import { Badge, type Fact, Facts } from '../components/Facts';
import { Page, Section } from '../components/Page';
import { PREDICTED_LABEL, PredictedEta } from '../components/PredictedEta';
import { RouteMap } from '../components/RouteMap';
import { SandboxPanel } from '../components/SandboxPanel';
import { Time } from '../components/Time';
import { ApiError, api } from '../lib/api';
import { loadContainerMap } from '../lib/containerMap';
import { etaShift } from '../lib/eta';
import { useLoad } from '../lib/hooks';
import { type Doc, Included } from '../lib/jsonapi';
import { carrierLabel, placeLabel, shipmentStatus } from '../lib/labels';
import { buildRoute } from '../lib/route';
import { Link, setQuery } from '../lib/router';
import { hasFeature } from '../lib/session';
import type { ContainerAttributes, ShipmentAttributes, TransportEvent } from '../lib/tracking';
import { useWorldAdvanced } from '../lib/world';
import type { PageProps } from '../routes';
import { EtaHistory } from './shipments/EtaHistory';
import { RouteTimeline } from './shipments/RouteTimeline';
import { SelectedContainer, ShipmentContainers } from './shipments/ShipmentContainers';

const INCLUDE = [
  'containers',
  'containers.transport_events',
  'containers.transport_events.location',
  'containers.transport_events.vessel',
  'port_of_lading',
  'port_of_discharge',
  'destination',
  'pod_terminal',
].join(',');

export default function ShipmentRoute(props: PageProps) {
  return <ShipmentPage {...props} />;
}

function ShipmentPage({ params, location, session }: PageProps) {
  const id = params.id!;
  const doc = useLoad(
    (signal) => api.get<Doc<ShipmentAttributes>>(`/v2/shipments/${encodeURIComponent(id)}`, { signal, query: { include: INCLUDE } }),
    [id],
  );
  const s = doc.data?.data.attributes;
  const routing = hasFeature(session, 'routing');
  // The map of the container whose route is shown: the one asked for, else the first.
  const ids = doc.data ? new Included(doc.data.included).many(doc.data.data, 'containers').map((c) => c.id) : [];
  const wanted = location.search.get('container');
  const mapOf = routing ? (ids.find((c) => c === wanted) ?? ids[0] ?? null) : null;
  const geo = useLoad(mapOf ? (signal) => loadContainerMap(mapOf, signal).then((map) => ({ id: mapOf, map })) : null, [mapOf]);
  useWorldAdvanced(() => {
    doc.reload();
    geo.reload();
  });

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
  const number = s?.bill_of_lading_number ?? s?.normalized_number ?? 'Shipment';
  return (
    <Page title={s ? `Shipment ${number}` : 'Shipment'}>
      <p class="breadcrumbs">
        <Link href="/shipments">Shipments</Link>
      </p>
      <SandboxPanel session={session} />
      <Async state={doc}>
        {(d) => {
          const a = d.data.attributes;
          const inc = new Included(d.included);
          const containers = inc.many<ContainerAttributes>(d.data, 'containers');
          const selected = containers.find((c) => c.id === wanted) ?? null;
          const routeOf = selected ?? containers[0];
          const events = routeOf ? inc.many<TransportEvent['attributes']>(routeOf, 'transport_events') : [];
          const route = buildRoute(a, events, d.included);
          const status = shipmentStatus(a);
          const shift = etaShift(a.pod_ata_at ?? a.pod_eta_at, a.pod_original_eta_at);
          const map = routing && routeOf && geo.data?.id === routeOf.id ? geo.data.map : null;
          const predicted = a.predicted_pod_eta_at ? { at: a.predicted_pod_eta_at, zone: a.pod_timezone } : null;
          return (
            <>
              {wanted && !selected && (
                <p class="alert alert-warning" role="status">
                  The container asked for is not part of this shipment; showing the shipment.
                </p>
              )}
              {selected && <SelectedContainer c={selected} />}
              <Facts
                items={[
                  ['Status', <Badge tone={status.tone}>{status.label}</Badge>],
                  ['Carrier', `${carrierLabel(a)}${a.shipping_line_scac ? ` (${a.shipping_line_scac})` : ''}`],
                  ['Port of lading', placeLabel(a.port_of_lading_name, a.port_of_lading_locode)],
                  ['Port of discharge', placeLabel(a.port_of_discharge_name, a.port_of_discharge_locode)],
                  [
                    'Arrival at POD',
                    a.pod_ata_at ? (
                      <>
                        <Badge tone="good">Actual</Badge> <Time domain value={a.pod_ata_at} zone={a.pod_timezone} />
                      </>
                    ) : a.pod_eta_at ? (
                      <>
                        <Badge tone="info">Estimated</Badge> <Time domain value={a.pod_eta_at} zone={a.pod_timezone} />
                      </>
                    ) : null,
                  ],
                  ...(a.predicted_pod_eta_at
                    ? [
                        [
                          PREDICTED_LABEL,
                          <PredictedEta at={a.predicted_pod_eta_at} reason={a.predicted_pod_eta_reason} zone={a.pod_timezone} />,
                        ] as Fact,
                      ]
                    : []),
                  [
                    'Change from the first ETA',
                    shift ? (
                      <span class={`eta-shift eta-shift-${shift.tone}`}>{shift.text}</span>
                    ) : a.pod_original_eta_at ? null : (
                      'No ETA yet'
                    ),
                  ],
                  ['Vessel / voyage', [a.pod_vessel_name, a.pod_voyage_number].filter(Boolean).join(' / ')],
                  [
                    'Inland destination',
                    a.destination_locode ? placeLabel(a.destination_name, a.destination_locode) : 'None (picked up at the port)',
                  ],
                  ['Customer', a.customer_name],
                  ['Reference numbers', (a.ref_numbers ?? []).join(', ')],
                  ['Tags', (a.tags ?? []).join(', ')],
                  [
                    'Tracking',
                    a.line_tracking_stopped_at ? (
                      <>
                        Stopped <Time domain value={a.line_tracking_stopped_at} mode="relative" />
                        {a.line_tracking_stopped_reason ? ` (${a.line_tracking_stopped_reason.replace(/_/g, ' ')})` : ''}
                      </>
                    ) : (
                      <>
                        Active
                        {a.line_tracking_last_succeeded_at && (
                          <>
                            , carrier last asked <Time domain value={a.line_tracking_last_succeeded_at} mode="relative" />
                          </>
                        )}
                      </>
                    ),
                  ],
                ]}
              />
              <Section
                id="route"
                title="Route"
                actions={
                  containers.length > 1 && routeOf ? (
                    <RouteOf containers={containers.map((c) => ({ id: c.id, number: c.attributes.number }))} current={routeOf.id} />
                  ) : undefined
                }
              >
                {routeOf && containers.length > 1 && <p class="muted">Stops and times of container {routeOf.attributes.number}.</p>}
                <div class="route-grid">
                  <RouteTimeline route={route} />
                  <RouteMap route={route} geo={map} predicted={predicted} />
                </div>
                {!routing && a.pod_vessel_imo && (
                  <p class="muted small">The vessel’s position and track show for accounts with the routing feature.</p>
                )}
                {routing && geo.error ? (
                  <p class="muted small">The container’s map (vessel, track and predicted route) could not be loaded.</p>
                ) : null}
              </Section>
              <Section id="containers" title={`Containers (${containers.length})`}>
                <ShipmentContainers containers={containers} selected={selected?.id ?? null} />
              </Section>
              <Section id="custom-fields" title="Custom fields">
                <CustomFields entity="shipments" id={d.data.id} />
              </Section>
              <Section id="eta-history" title="ETA history">
                <EtaHistory shipmentId={d.data.id} />
              </Section>
            </>
          );
        }}
      </Async>
    </Page>
  );
}

function RouteOf({ containers, current }: { containers: { id: string; number: string }[]; current: string }) {
  return (
    <label class="inline-select">
      <span>Route of</span>
      <select value={current} onInput={(e) => setQuery({ container: (e.currentTarget as HTMLSelectElement).value }, { replace: true })}>
        {containers.map((c) => (
          <option key={c.id} value={c.id}>
            {c.number}
          </option>
        ))}
      </select>
    </label>
  );
}
