// `/containers/<id>`: whether the container can be picked up (the verdict in words), its key facts (with the POD
// arrival and Tidemark's predicted arrival), for accounts with `routing` its map (from map_geojson: ports, the
// vessel, its recorded track, the predicted and planned legs, and the same in words), milestones (actual and
// estimated, local times with their zone), the last free day by source with the one that binds, holds and
// fees, the appointment, the rail leg, editable reference numbers, the account's custom fields (edited in place)
// and the raw events.
import { Async } from '../components/Async';
import { CustomFields } from '../components/CustomFields';
import { Badge, type Fact, Facts } from '../components/Facts';
import { Page, Section } from '../components/Page';
import { PREDICTED_LABEL, PredictedEta } from '../components/PredictedEta';
import { RouteMap } from '../components/RouteMap';
import { SandboxPanel } from '../components/SandboxPanel';
import { Time } from '../components/Time';
import { ApiError, api } from '../lib/api';
import { useWorldNow } from '../lib/clock';
import { loadContainerMap } from '../lib/containerMap';
import { useLoad } from '../lib/hooks';
import { type Doc, Included, type ListDoc } from '../lib/jsonapi';
import { containerStatusLabel, containerStatusTone, equipmentLabel } from '../lib/labels';
import { pickupPlaceHolds } from '../lib/readiness';
import { Link } from '../lib/router';
import { hasFeature } from '../lib/session';
import type {
  ContainerAttributes,
  RawEventAttributes,
  ShipmentAttributes,
  TerminalAttributes,
  TransportEventAttributes,
} from '../lib/tracking';
import { useWorldAdvanced } from '../lib/world';
import type { PageProps } from '../routes';
import { Milestones } from './container/Milestones';
import { FeesTable, HoldsTable, LfdHeadline, LfdTable, PickupChanges, VerdictBanner } from './container/Pickup';
import { RailLeg, hasRailLeg } from './container/RailLeg';
import { RawEventsTable } from './container/RawEvents';
import { RefNumbers } from './container/RefNumbers';

export default function ContainerPage({ params, session }: PageProps) {
  const id = params.id!;
  const path = `/v2/containers/${encodeURIComponent(id)}`;
  const now = useWorldNow();
  const doc = useLoad(
    (signal) => api.get<Doc<ContainerAttributes>>(path, { signal, query: { include: 'shipment,pod_terminal,pickup_facility' } }),
    [id],
  );
  const events = useLoad(
    (signal) =>
      api.get<ListDoc<TransportEventAttributes>>(`${path}/transport_events`, {
        signal,
        query: { include: 'location,terminal,vessel', 'page[size]': 100 },
      }),
    [id],
  );
  const raw = useLoad((signal) => api.get<ListDoc<RawEventAttributes>>(`${path}/raw_events`, { signal, query: { 'page[size]': 100 } }), [id]);
  const routing = hasFeature(session, 'routing');
  const geo = useLoad(routing ? (signal) => loadContainerMap(id, signal) : null, [id, routing]);
  useWorldAdvanced(() => {
    doc.reload();
    events.reload();
    raw.reload();
    geo.reload();
  });

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
          const inc = new Included(d.included);
          const shipment = inc.one<ShipmentAttributes>(d.data, 'shipment');
          const terminal = inc.one<TerminalAttributes>(d.data, 'pod_terminal')?.attributes;
          const pickupAt = inc.one<TerminalAttributes>(d.data, 'pickup_facility')?.attributes;
          const zone = c.pod_timezone;
          const s = shipment?.attributes;
          const podZone = s?.pod_timezone ?? zone;
          return (
            <>
              <p class="breadcrumbs">
                <Link href="/shipments">Shipments</Link>
                {shipment && (
                  <>
                    {' '}
                    <span aria-hidden="true">›</span>{' '}
                    <Link href={`/shipments/${shipment.id}?container=${d.data.id}`}>
                      Shipment {shipment.attributes.bill_of_lading_number ?? shipment.attributes.normalized_number}
                    </Link>
                  </>
                )}
              </p>
              <SandboxPanel session={session} />
              <VerdictBanner c={c} now={now} />
              <Facts
                items={[
                  ['Status', <Badge tone={containerStatusTone(c.current_status)}>{containerStatusLabel(c.current_status)}</Badge>],
                  ['Equipment', equipmentLabel(c)],
                  ...(s
                    ? ([
                        [
                          'Arrival at POD',
                          s.pod_ata_at ? (
                            <>
                              <Badge tone="good">Actual</Badge> <Time domain value={s.pod_ata_at} zone={podZone} />
                            </>
                          ) : s.pod_eta_at ? (
                            <>
                              <Badge tone="info">Estimated</Badge> <Time domain value={s.pod_eta_at} zone={podZone} />
                            </>
                          ) : null,
                        ],
                        ...(s.predicted_pod_eta_at
                          ? [[PREDICTED_LABEL, <PredictedEta at={s.predicted_pod_eta_at} reason={s.predicted_pod_eta_reason} zone={podZone} />]]
                          : []),
                      ] as Fact[])
                    : []),
                  [
                    'Available for pickup',
                    !c.availability_known ? 'Not known yet' : c.available_for_pickup ? (c.ready_for_pickup ? 'Yes, and released' : 'Yes, but not released') : 'No',
                  ],
                  ['Pickup appointment', <Time domain value={c.pickup_appointment_at} zone={zone} empty="None booked" />],
                  ['Terminal', terminal ? `${terminal.name}${terminal.firms_code ? ` (${terminal.firms_code})` : ''}` : null],
                  ['Location at terminal', c.location_at_pod_terminal],
                  ...(pickupAt ? ([['Pickup facility', pickupAt.name]] as [string, string][]) : []),
                  ['Terminal last checked', <Time domain value={c.terminal_checked_at} mode="relative" empty="Not yet" />],
                  ['Seal', c.seal_number],
                  ['Weight', c.weight_in_lbs ? `${c.weight_in_lbs.toLocaleString()} lbs` : null],
                ]}
              />
              {routing && (
                <Section id="route-map" title="Route map">
                  <Async state={geo} label="Loading the map…">
                    {(map) =>
                      map.ports.length ? (
                        <div class="container-map">
                          <RouteMap
                            geo={map}
                            predicted={s?.predicted_pod_eta_at ? { at: s.predicted_pod_eta_at, zone: podZone } : null}
                          />
                        </div>
                      ) : (
                        <p class="empty-state">No map yet: the carrier has not named this container’s ports.</p>
                      )
                    }
                  </Async>
                </Section>
              )}
              <div class="container-grid">
                <Section id="milestones" title="Milestones">
                  <Async state={events} label="Loading the milestones…">
                    {(ev) => <Milestones events={ev.data} included={ev.included} now={now} />}
                  </Async>
                </Section>
                <div>
                  <Section id="lfd" title="Last free day">
                    <LfdHeadline c={c} now={now} />
                    <LfdTable c={c} now={now} />
                    {events.data && <PickupChanges events={events.data.data} />}
                  </Section>
                  <Section id="holds" title="Holds">
                    <HoldsTable holds={pickupPlaceHolds(c)} />
                  </Section>
                  <Section id="fees" title="Fees">
                    <FeesTable fees={c.fees_at_pod_terminal ?? []} />
                  </Section>
                </div>
              </div>
              {hasRailLeg(c) && (
                <Section id="rail" title="Rail leg">
                  <RailLeg c={c} />
                </Section>
              )}
              <Section id="refs" title="Reference numbers">
                <RefNumbers
                  id={d.data.id}
                  value={c.ref_numbers ?? []}
                  onSaved={(saved) =>
                    doc.setData({ ...d, data: { ...d.data, attributes: { ...c, ref_numbers: saved.data.attributes.ref_numbers } } })
                  }
                />
              </Section>
              <Section id="custom-fields" title="Custom fields">
                <CustomFields entity="containers" id={d.data.id} />
              </Section>
              <Section id="raw" title="Raw events">
                <p class="muted">What each source said, in its own words, before Tidemark read it.</p>
                <Async state={raw} label="Loading the raw events…">
                  {(r) => <RawEventsTable events={r.data} />}
                </Async>
              </Section>
            </>
          );
        }}
      </Async>
    </Page>
  );
}
