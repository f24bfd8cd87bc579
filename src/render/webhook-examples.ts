// The records behind the sample notification of every event (`GET /v2/webhook_notifications/examples`,
// `POST /v2/webhooks/trigger`): two Evergreen bills of lading from Shanghai to Los Angeles, one delivered locally
// by truck, one moving on by BNSF rail to Chicago. Hand-made rows shaped exactly as the database holds them, so
// the documents are rendered by the same resource kinds as real notifications. Ids are UUIDv5 of fixed keys and
// of the event name: the same event always gives the same sample.
import { referenceId } from '../lib/ids.js';
import { terminalByFirmsCode } from '../sources/reference/index.js';
import type { ContainerRecord, TransportEventRow } from '../storage/repositories/containers.js';
import type { EstimatedEventRow } from '../storage/repositories/notification-reads.js';
import type { ShipmentRecord } from '../storage/repositories/shipments.js';
import type { TrackingRequestRecord } from '../storage/repositories/tracking-requests.js';
import type { VesselRow } from '../storage/repositories/vessels.js';
import type { NotificationRow, WebhookView } from '../storage/repositories/webhooks.js';
import { EVENT_CATALOGUE, EVENT_NAMES, type EventName } from '../domain/event-catalogue.js';

/** A document of the document events, which Tidemark never sends: only their shape is shown. */
export interface ExampleDocumentRecords {
  document: { id: string; attributes: Record<string, unknown> };
  emailSubmission: { id: string; attributes: Record<string, unknown> };
  representation: { id: string; attributes: Record<string, unknown> };
}

/** Everything one event's sample document is rendered from. */
export interface NotificationExample {
  accountId: string;
  notification: NotificationRow;
  webhook: WebhookView;
  shipments: ShipmentRecord[];
  containers: ContainerRecord[];
  transportEvents: TransportEventRow[];
  estimatedEvents: EstimatedEventRow[];
  trackingRequests: TrackingRequestRecord[];
  vessels: VesselRow[];
  /** Only for `document.*` events. */
  document: ExampleDocumentRecords | null;
}

const ACCOUNT_ID = referenceId('account', 'example');
const id = (kind: string, key: string) => referenceId(`example_${kind}`, key);
const at = (iso: string) => new Date(iso);

const LA = 'America/Los_Angeles';
const CHICAGO = 'America/Chicago';
const SHANGHAI = 'Asia/Shanghai';
const SEOUL = 'Asia/Seoul';

const VESSEL = { imo: '9893890', name: 'EVER ACE', mmsi: '353136000', voyage: '1215-038E' };

/** A terminal of the reference table as the engine stores a source's facility (a FacilityRef). */
function terminalRef(firmsCode: string) {
  const t = terminalByFirmsCode(firmsCode);
  if (!t) throw new Error(`the example terminal ${firmsCode} is not in the reference table`);
  return { kind: 'terminal', id: t.id, code: firmsCode, codeList: 'firms', firmsCode, name: t.name };
}
const EVERPORT = terminalRef('Y124');
const FENIX = terminalRef('Y257');
/** Rail terminals have no reference table: the railroad's code and name are all there is. */
const LPC = { kind: 'rail_terminal', id: null, code: 'LPC', codeList: null, firmsCode: null, name: 'BNSF Logistics Park Chicago' };

// ---------- shipments and containers ----------

const LOCAL = { bl: 'EGLV142300123456', number: '142300123456', id: id('shipment', 'EGLV142300123456') };
const RAIL = { bl: 'EGLV142300123481', number: '142300123481', id: id('shipment', 'EGLV142300123481') };

function shipment(s: typeof LOCAL, inland: boolean, containerIds: string[]): ShipmentRecord {
  return {
    id: s.id,
    account_id: ACCOUNT_ID,
    customer_id: null,
    customer_name: null,
    bill_of_lading_number: s.bl,
    normalized_number: s.number,
    request_number: s.bl,
    ref_numbers: inland ? ['PO-88213'] : ['PO-88190', 'PO-88191'],
    tags: ['transpacific'],
    shipping_line_scac: 'EGLV',
    shipping_line_name: 'Evergreen Marine',
    shipping_line_short_name: 'Evergreen',
    port_of_lading_locode: 'CNSHA',
    port_of_lading_name: 'Shanghai',
    pol_etd_at: null,
    pol_atd_at: at('2026-02-08T03:00:00Z'),
    pol_original_etd_at: at('2026-02-07T22:00:00Z'),
    pol_timezone: SHANGHAI,
    port_of_discharge_locode: 'USLAX',
    port_of_discharge_name: 'Los Angeles',
    pod_terminal_firms_code: 'Y124',
    pod_vessel_name: VESSEL.name,
    pod_vessel_imo: VESSEL.imo,
    pod_voyage_number: VESSEL.voyage,
    pod_eta_at: null,
    pod_original_eta_at: at('2026-02-23T14:00:00Z'),
    pod_ata_at: at('2026-02-24T13:30:00Z'),
    pod_timezone: LA,
    destination_locode: inland ? 'USCHI' : null,
    destination_name: inland ? 'Chicago' : null,
    destination_eta_at: inland ? at('2026-03-03T06:00:00Z') : null,
    destination_ata_at: null,
    destination_original_eta_at: inland ? at('2026-03-02T18:00:00Z') : null,
    destination_timezone: inland ? CHICAGO : null,
    line_tracking_last_attempted_at: at('2026-02-26T15:45:00Z'),
    line_tracking_last_succeeded_at: at('2026-02-26T15:45:00Z'),
    line_tracking_stopped_at: null,
    line_tracking_next_attempt_at: at('2026-02-26T21:45:00Z'),
    container_ids: containerIds,
    line_tracking_stopped_reason: null,
    created_at: at('2026-02-02T09:15:12Z'),
    updated_at: at('2026-02-26T15:45:03Z'),
    snapshot: {
      pod_terminal: EVERPORT,
      destination_terminal: inland ? LPC : null,
      destination_location_type: inland ? 'metro_area' : null,
    },
  };
}

/** Every attribute of the engine's container snapshot, unknown until set. */
function containerSnapshot(number: string, fields: Record<string, unknown>): Record<string, unknown> {
  const nulls = [
    'seal_number',
    'weight_in_lbs',
    'location_at_pod_terminal',
    'pod_full_out_chassis_number',
    'pickup_facility',
    'pod_arrived_at',
    'pod_discharged_at',
    'pod_full_out_at',
    'pickup_appointment_at',
    'pod_terminal_available_for_pickup',
    'pickup_lfd',
    'pickup_lfd_line',
    'pickup_lfd_terminal',
    'pickup_lfd_rail',
    'ind_facility_lfd_on',
    'ssl_lfd',
    'pod_rail_carrier_scac',
    'ind_rail_carrier_scac',
    'pod_rail_loaded_at',
    'pod_rail_departed_at',
    'ind_eta_at',
    'ind_ata_at',
    'ind_rail_unloaded_at',
    'ind_facility_holds',
    'ind_facility_fees',
    'ind_facility_available_for_pickup',
    'final_destination_full_out_at',
    'final_destination_timezone',
    'empty_terminated_at',
    'empty_terminated_timezone',
    'delivered_at',
  ];
  return {
    ...Object.fromEntries(nulls.map((k) => [k, null])),
    number,
    iso_size_type: '45G1',
    equipment_type: 'dry',
    equipment_length: 40,
    equipment_height: 'high_cube',
    weight_is_shipment_average: false,
    current_status: 'available',
    availability_known: true,
    available_for_pickup: true,
    ready_for_pickup: true,
    pod_terminal: EVERPORT,
    pod_terminal_source: 'terminal',
    rail_move: false,
    holds_at_pod_terminal: [],
    fees_at_pod_terminal: [],
    pod_timezone: LA,
    empty_out_at: '2026-02-03T02:10:00Z',
    pol_full_in_at: '2026-02-05T06:40:00Z',
    pol_vessel_loaded_at: '2026-02-07T14:25:00Z',
    pol_vessel_departed_at: '2026-02-08T03:00:00Z',
    pod_arrived_at: '2026-02-24T13:30:00Z',
    pod_discharged_at: '2026-02-25T09:48:00Z',
    ...fields,
  };
}

interface ContainerSpec {
  number: string;
  shipment: typeof LOCAL;
  snapshot: Record<string, unknown>;
  refNumbers: string[];
}

const CONTAINERS: Record<'local' | 'local2' | 'rail', ContainerSpec> = {
  local: {
    number: 'EGHU9123457',
    shipment: LOCAL,
    refNumbers: ['PO-88190'],
    snapshot: containerSnapshot('EGHU9123457', {
      seal_number: 'EMCQX4412',
      weight_in_lbs: 38120,
      location_at_pod_terminal: 'Yard B-14',
      pickup_appointment_at: '2026-03-02T17:30:00Z',
      pickup_lfd: '2026-03-03T08:00:00Z',
      pickup_lfd_terminal: '2026-03-03T08:00:00Z',
      fees_at_pod_terminal: [{ type: 'demurrage', amount: 0, currency_code: 'USD' }],
    }),
  },
  local2: {
    number: 'EMCU5243818',
    shipment: LOCAL,
    refNumbers: ['PO-88191'],
    snapshot: containerSnapshot('EMCU5243818', {
      seal_number: 'EMCQX4413',
      weight_in_lbs: 41230,
      current_status: 'not_available',
      available_for_pickup: false,
      ready_for_pickup: false,
      location_at_pod_terminal: 'Yard B-15',
      pickup_lfd: '2026-03-03T08:00:00Z',
      pickup_lfd_terminal: '2026-03-03T08:00:00Z',
      holds_at_pod_terminal: [{ name: 'customs', status: 'hold', description: 'CBP exam hold' }],
    }),
  },
  rail: {
    number: 'EITU1234563',
    shipment: RAIL,
    refNumbers: ['PO-88213'],
    snapshot: containerSnapshot('EITU1234563', {
      seal_number: 'EMCQX4501',
      weight_in_lbs: 35870,
      current_status: 'available',
      rail_move: true,
      pickup_facility: LPC,
      location_at_pod_terminal: null,
      pod_rail_carrier_scac: 'BNSF',
      ind_rail_carrier_scac: 'BNSF',
      pod_rail_loaded_at: '2026-02-27T04:20:00Z',
      pod_rail_departed_at: '2026-02-27T11:05:00Z',
      ind_eta_at: null,
      ind_ata_at: '2026-03-03T09:40:00Z',
      ind_rail_unloaded_at: '2026-03-03T14:10:00Z',
      ind_facility_available_for_pickup: true,
      ind_facility_holds: [],
      ind_facility_fees: [],
      pickup_lfd: '2026-03-06T06:00:00Z',
      pickup_lfd_rail: '2026-03-06T06:00:00Z',
      ind_facility_lfd_on: '2026-03-06T06:00:00Z',
      final_destination_timezone: CHICAGO,
    }),
  },
};

function containerRecord(c: ContainerSpec, transportEventIds: string[]): ContainerRecord {
  return {
    id: id('container', c.number),
    account_id: ACCOUNT_ID,
    shipment_id: c.shipment.id,
    number: c.number,
    ref_numbers: c.refNumbers,
    current_status: c.snapshot.current_status as string,
    snapshot: c.snapshot,
    terminal_checked_at: at('2026-02-26T15:40:00Z'),
    terminal_next_check_at: at('2026-02-26T16:40:00Z'),
    rail_checked_at: c.snapshot.rail_move ? at('2026-03-03T14:30:00Z') : null,
    rail_next_check_at: c.snapshot.rail_move ? at('2026-03-03T15:30:00Z') : null,
    created_at: at('2026-02-02T09:15:40Z'),
    updated_at: at('2026-02-26T15:40:02Z'),
    shipment_last_tracking_request_at: at('2026-02-26T15:45:00Z'),
    tracked_shipment_id: null,
    transport_event_ids: transportEventIds,
    raw_event_ids: [],
  };
}

// ---------- transport events ----------

type Place = 'CNSHA' | 'KRPUS' | 'USLAX' | 'USLAX_TERMINAL' | 'USLAX_RAIL' | 'USCHI' | 'NONE';

interface TransportSpec {
  container: keyof typeof CONTAINERS;
  timestamp: string;
  place: Place;
  vessel?: boolean;
  classifier?: 'actual' | 'estimated';
  dataSource?: string;
  /** Pickup changes: the new LFD or appointment (the event's time too). */
  value?: boolean;
}

const TRANSPORT: Partial<Record<EventName, TransportSpec>> = {
  'container.transport.empty_out': { container: 'local', timestamp: '2026-02-03T02:10:00Z', place: 'CNSHA' },
  'container.transport.full_in': { container: 'local', timestamp: '2026-02-05T06:40:00Z', place: 'CNSHA' },
  'container.transport.vessel_loaded': { container: 'local', timestamp: '2026-02-07T14:25:00Z', place: 'CNSHA', vessel: true },
  'container.transport.vessel_departed': { container: 'local', timestamp: '2026-02-08T03:00:00Z', place: 'CNSHA', vessel: true },
  'container.transport.estimated.vessel_departed': {
    container: 'local',
    timestamp: '2026-02-08T02:00:00Z',
    place: 'CNSHA',
    vessel: true,
    classifier: 'estimated',
  },
  'container.transport.transshipment_arrived': { container: 'local', timestamp: '2026-02-10T05:30:00Z', place: 'KRPUS', vessel: true },
  'container.transport.transshipment_discharged': { container: 'local', timestamp: '2026-02-10T11:15:00Z', place: 'KRPUS', vessel: true },
  'container.transport.transshipment_loaded': { container: 'local', timestamp: '2026-02-11T20:05:00Z', place: 'KRPUS', vessel: true },
  'container.transport.transshipment_departed': { container: 'local', timestamp: '2026-02-12T02:45:00Z', place: 'KRPUS', vessel: true },
  'container.transport.feeder_arrived': { container: 'local', timestamp: '2026-02-10T05:30:00Z', place: 'KRPUS', vessel: true },
  'container.transport.feeder_discharged': { container: 'local', timestamp: '2026-02-10T11:15:00Z', place: 'KRPUS', vessel: true },
  'container.transport.feeder_loaded': { container: 'local', timestamp: '2026-02-09T09:20:00Z', place: 'CNSHA', vessel: true },
  'container.transport.feeder_departed': { container: 'local', timestamp: '2026-02-09T16:00:00Z', place: 'CNSHA', vessel: true },
  'container.transport.estimated.vessel_arrived': {
    container: 'local',
    timestamp: '2026-02-24T14:00:00Z',
    place: 'USLAX_TERMINAL',
    vessel: true,
    classifier: 'estimated',
  },
  'container.transport.vessel_arrived': { container: 'local', timestamp: '2026-02-24T13:30:00Z', place: 'USLAX', vessel: true },
  'container.transport.vessel_berthed': { container: 'local', timestamp: '2026-02-24T15:05:00Z', place: 'USLAX_TERMINAL', vessel: true },
  'container.transport.vessel_discharged': { container: 'local', timestamp: '2026-02-25T09:48:00Z', place: 'USLAX_TERMINAL', vessel: true },
  'container.transport.available': {
    container: 'local',
    timestamp: '2026-02-26T15:40:00Z',
    place: 'USLAX_TERMINAL',
    dataSource: 'terminal',
  },
  'container.transport.not_available': {
    container: 'local2',
    timestamp: '2026-02-26T15:40:00Z',
    place: 'USLAX_TERMINAL',
    dataSource: 'terminal',
  },
  'container.pickup_lfd.changed': {
    container: 'local',
    timestamp: '2026-03-03T08:00:00Z',
    place: 'USLAX_TERMINAL',
    value: true,
    dataSource: 'terminal',
  },
  'container.pickup_lfd_line.changed': { container: 'local', timestamp: '2026-03-04T08:00:00Z', place: 'USLAX', value: true },
  'container.pickup_lfd_terminal.changed': {
    container: 'local',
    timestamp: '2026-03-03T08:00:00Z',
    place: 'USLAX_TERMINAL',
    value: true,
    dataSource: 'terminal',
  },
  'container.pickup_appointment.changed': {
    container: 'local',
    timestamp: '2026-03-02T17:30:00Z',
    place: 'USLAX_TERMINAL',
    value: true,
    dataSource: 'terminal',
  },
  'container.transport.full_out': {
    container: 'local',
    timestamp: '2026-03-02T18:12:00Z',
    place: 'USLAX_TERMINAL',
    dataSource: 'terminal',
  },
  'container.transport.delivered': { container: 'local', timestamp: '2026-03-03T15:00:00Z', place: 'NONE', dataSource: 'user' },
  'container.transport.empty_in': {
    container: 'local',
    timestamp: '2026-03-06T20:40:00Z',
    place: 'USLAX_TERMINAL',
    dataSource: 'terminal',
  },
  'container.transport.rail_loaded': { container: 'rail', timestamp: '2026-02-27T04:20:00Z', place: 'USLAX_RAIL', dataSource: 'rail' },
  'container.transport.rail_departed': { container: 'rail', timestamp: '2026-02-27T11:05:00Z', place: 'USLAX_RAIL', dataSource: 'rail' },
  'container.transport.rail_arrived': { container: 'rail', timestamp: '2026-03-03T09:40:00Z', place: 'USCHI', dataSource: 'rail' },
  'container.transport.rail_unloaded': { container: 'rail', timestamp: '2026-03-03T14:10:00Z', place: 'USCHI', dataSource: 'rail' },
  'container.transport.estimated.arrived_at_inland_destination': {
    container: 'rail',
    timestamp: '2026-03-03T06:00:00Z',
    place: 'USCHI',
    classifier: 'estimated',
    dataSource: 'rail',
  },
  'container.transport.arrived_at_inland_destination': {
    container: 'rail',
    timestamp: '2026-03-03T09:40:00Z',
    place: 'USCHI',
    dataSource: 'rail',
  },
  'container.pickup_lfd_rail.changed': {
    container: 'rail',
    timestamp: '2026-03-06T06:00:00Z',
    place: 'USCHI',
    value: true,
    dataSource: 'rail',
  },
};

const PLACES: Record<Place, { locode: string | null; type: 'port' | 'metro_area' | null; timezone: string | null; terminal: unknown }> = {
  CNSHA: { locode: 'CNSHA', type: 'port', timezone: SHANGHAI, terminal: null },
  KRPUS: { locode: 'KRPUS', type: 'port', timezone: SEOUL, terminal: null },
  USLAX: { locode: 'USLAX', type: 'port', timezone: LA, terminal: null },
  USLAX_TERMINAL: { locode: 'USLAX', type: 'port', timezone: LA, terminal: EVERPORT },
  // On-dock rail at the terminal: the railroad names the port, not a ramp.
  USLAX_RAIL: { locode: 'USLAX', type: 'port', timezone: LA, terminal: null },
  USCHI: { locode: 'USCHI', type: 'metro_area', timezone: CHICAGO, terminal: LPC },
  NONE: { locode: null, type: null, timezone: LA, terminal: null },
};

function transportEventRow(event: EventName, spec: TransportSpec, containerId: string, shipmentId: string): TransportEventRow {
  const place = PLACES[spec.place];
  const c = CONTAINERS[spec.container];
  const classifier = spec.classifier ?? 'actual';
  const record = {
    key: `${event}:${c.number}:${place.locode ?? '-'}`,
    event,
    milestone: null,
    classifier,
    container_number: c.number,
    timestamp: spec.timestamp,
    timezone: place.timezone,
    location_locode: place.locode,
    location_type: place.type,
    terminal: place.terminal,
    vessel_name: spec.vessel ? VESSEL.name : null,
    vessel_imo: spec.vessel ? VESSEL.imo : null,
    voyage_number: spec.vessel ? VESSEL.voyage : null,
    rail_carrier_scac: spec.dataSource === 'rail' ? 'BNSF' : null,
    data_source: spec.dataSource ?? 'shipping_line',
    value: spec.value ? spec.timestamp : null,
    source_id: null,
    source_event_id: null,
    source_code: null,
    reported_at: null,
    // Domain time Tidemark learned of it (an actual when it happened; an estimate or a new LFD days before).
    observed_at: knownAt(spec).replace(/\.\d{3}Z$/, 'Z'),
    ...(spec.dataSource === 'user' ? { invalidated_at: null } : {}),
  };
  return {
    id: id('transport_event', event),
    account_id: ACCOUNT_ID,
    shipment_id: shipmentId,
    container_id: containerId,
    event,
    record,
    created_at: notifiedAt(knownAt(spec)),
    updated_at: notifiedAt(knownAt(spec)),
  };
}

/** When the change became known: an estimate, a new LFD or appointment is reported days before the time it names. */
function knownAt(spec: TransportSpec): string {
  const ahead = spec.classifier === 'estimated' || spec.value ? 2 * 86_400_000 : 0;
  return new Date(Date.parse(spec.timestamp) - ahead).toISOString();
}

/** Sources report a while after the fact: the notification is made at the next check. */
function notifiedAt(knownTime: string): Date {
  return new Date(Date.parse(knownTime) + 37 * 60_000);
}

// ---------- the rest ----------

const VESSEL_ROW: VesselRow = {
  id: referenceId('vessel', VESSEL.imo),
  imo: VESSEL.imo,
  name: VESSEL.name,
  mmsi: VESSEL.mmsi,
  latitude: 33.7406,
  longitude: -118.2611,
  speed_knots: 0.1,
  heading_degrees: 274,
  position_at: at('2026-02-24T15:10:00Z'),
  positions_checked_at: at('2026-02-24T15:10:00Z'),
  created_at: at('2026-02-02T09:16:00Z'),
  updated_at: at('2026-02-24T15:10:00Z'),
};

function trackingRequest(event: EventName, shipmentId: string | null): TrackingRequestRecord {
  const failed = event === 'tracking_request.failed';
  const awaiting = event === 'tracking_request.awaiting_manifest';
  const number = failed || awaiting ? '142300999999' : LOCAL.number;
  return {
    id: id('tracking_request', event),
    account_id: ACCOUNT_ID,
    request_type: 'bill_of_lading',
    request_number: number,
    scac: 'EGLV',
    auto_detect_scac: false,
    ref_numbers: ['PO-88190'],
    shipment_tags: ['transpacific'],
    customer_id: null,
    status: failed
      ? 'failed'
      : awaiting
        ? 'awaiting_manifest'
        : event === 'tracking_request.tracking_stopped'
          ? 'tracking_stopped'
          : 'created',
    failed_reason: failed ? 'not_found' : awaiting ? 'awaiting_manifest' : null,
    // Awaiting its manifest, it is asked again daily: retrying.
    is_retrying: awaiting,
    retry_count: failed ? 3 : null,
    shipment_id: shipmentId,
    next_attempt_at: awaiting ? at('2026-02-02T15:15:00Z') : null,
    awaiting_since: awaiting ? at('2026-02-02T09:15:30Z') : null,
    lease_until: null,
    created_at: at('2026-02-02T09:15:00Z'),
    updated_at: at(event === 'tracking_request.tracking_stopped' ? '2026-03-06T21:00:00Z' : '2026-02-02T09:15:30Z'),
  };
}

const WEBHOOK: WebhookView = {
  id: referenceId('webhook', 'example'),
  account_id: ACCOUNT_ID,
  url: 'https://example.com/webhooks/tidemark',
  active: true,
  events: [...EVENT_NAMES],
  headers: [],
  // Not a secret anyone uses: the samples are signed with the secret given to the trigger, if any.
  secret: 'whsec_ZXhhbXBsZS1vbmx5LW5vdC1hLXJlYWwtc2VjcmV0',
  previous_secret_expires_at: null,
  failing_since: null,
  deactivated_at: null,
  deactivated_reason: null,
  created_at: at('2026-01-15T17:02:44Z'),
  updated_at: at('2026-01-15T17:02:44Z'),
};

function documentRecords(event: EventName, shipmentBl: string, time: string): ExampleDocumentRecords {
  const failed = event === 'document.extraction_failed';
  const docId = id('document', event);
  const submissionId = id('email_submission', event);
  const representationId = id('document_representation', event);
  return {
    document: {
      id: docId,
      attributes: {
        name: `Arrival notice ${shipmentBl}`,
        document_type: 'arrival_notice',
        document_type_manual: null,
        classification_notes: null,
        source: 'email',
        file_name: `AN_${shipmentBl}.pdf`,
        file_content_type: 'application/pdf',
        file_size_bytes: 182734,
        created_at: '2026-02-20T16:02:10Z',
        updated_at: time,
      },
    },
    emailSubmission: {
      id: submissionId,
      attributes: {
        from: 'noreply@shipping-line.example',
        subject: `Arrival Notice - B/L ${shipmentBl} - ${VESSEL.name} ${VESSEL.voyage}`,
        attachments_count: 1,
        received_at: '2026-02-20T16:02:05Z',
        created_at: '2026-02-20T16:02:05Z',
      },
    },
    representation: {
      id: representationId,
      attributes: {
        status: failed ? 'failed' : 'extracted',
        schema_id: 'arrival_notice@2026-03-10',
        extracted_data: failed
          ? null
          : {
              bill_of_lading_number: shipmentBl,
              vessel_name: VESSEL.name,
              voyage_number: VESSEL.voyage,
              port_of_discharge_locode: 'USLAX',
              eta: '2026-02-24',
              container_numbers: [CONTAINERS.local.number, CONTAINERS.local2.number],
            },
        error: failed ? 'The document could not be read: the scan is blank on every page' : null,
        created_at: time,
        updated_at: time,
      },
    },
  };
}

/** The records of `event`'s sample notification. */
export function notificationExample(event: EventName): NotificationExample {
  const spec = EVENT_CATALOGUE[event];
  const sequence = String(1000 + EVENT_NAMES.indexOf(event));
  let occurredAt = '2026-02-26T15:40:00Z';
  let shipmentIds: string[] = [LOCAL.id];
  let containerKeys: (keyof typeof CONTAINERS)[] = ['local', 'local2'];
  const transportEvents: TransportEventRow[] = [];
  const estimatedEvents: EstimatedEventRow[] = [];
  const trackingRequests: TrackingRequestRecord[] = [];
  let document: ExampleDocumentRecords | null = null;
  const refs = {
    tracking_request_id: null as string | null,
    shipment_id: LOCAL.id as string | null,
    container_id: null as string | null,
    transport_event_id: null as string | null,
    estimated_event_id: null as string | null,
  };
  let payload: Record<string, unknown> = {};
  const localId = id('container', CONTAINERS.local.number);

  const transport = TRANSPORT[event];
  if (transport) {
    const c = CONTAINERS[transport.container];
    const containerId = id('container', c.number);
    const row = transportEventRow(event, transport, containerId, c.shipment.id);
    transportEvents.push(row);
    occurredAt = knownAt(transport);
    shipmentIds = [c.shipment.id];
    containerKeys = transport.container === 'rail' ? ['rail'] : ['local', 'local2'];
    Object.assign(refs, { shipment_id: c.shipment.id, container_id: containerId, transport_event_id: row.id });
    payload = { type: event, container_number: c.number, transport_event: row.record };
  } else if (spec.referenceObject === 'tracking_request') {
    const linked = event === 'tracking_request.succeeded' || event === 'tracking_request.tracking_stopped' ? LOCAL.id : null;
    const request = trackingRequest(event, linked);
    trackingRequests.push(request);
    shipmentIds = linked ? [LOCAL.id] : [];
    if (!linked) containerKeys = [];
    occurredAt = (event === 'tracking_request.tracking_stopped' ? request.updated_at : at('2026-02-02T09:15:30Z')).toISOString();
    Object.assign(refs, { tracking_request_id: request.id, shipment_id: linked });
    payload = {
      tracking_request_id: request.id,
      ...(linked ? { shipment_id: linked } : { status: request.status, failed_reason: request.failed_reason }),
      ...(event === 'tracking_request.tracking_stopped' ? { reason: 'all_containers_terminated' } : {}),
    };
  } else if (event === 'shipment.estimated.arrival') {
    occurredAt = '2026-02-20T04:12:00Z';
    const record = {
      key: `eta:USLAX:${VESSEL.voyage}`,
      event,
      estimated_timestamp: '2026-02-24T14:00:00Z',
      location_locode: 'USLAX',
      timezone: LA,
      voyage_number: VESSEL.voyage,
      vessel_name: VESSEL.name,
      vessel_imo: VESSEL.imo,
      data_source: 'shipping_line',
      reported_at: occurredAt,
    };
    const row: EstimatedEventRow = {
      id: id('estimated_event', event),
      account_id: ACCOUNT_ID,
      shipment_id: LOCAL.id,
      event,
      estimated_timestamp: at(record.estimated_timestamp),
      record,
      created_at: notifiedAt(occurredAt),
    };
    estimatedEvents.push(row);
    refs.estimated_event_id = row.id;
    payload = { type: event, estimated_event: record, previous_estimated_timestamp: '2026-02-23T14:00:00Z' };
  } else if (event === 'container.created') {
    occurredAt = '2026-02-02T09:15:30Z';
    refs.container_id = localId;
    payload = { type: event, container_number: CONTAINERS.local.number, timestamp: occurredAt, timezone: null };
  } else if (event === 'container.updated') {
    refs.container_id = localId;
    payload = {
      type: event,
      container_number: CONTAINERS.local.number,
      changeset: {
        available_for_pickup: [false, true],
        holds_at_pod_terminal: [[{ name: 'customs', status: 'hold', description: null }], []],
        pickup_lfd: [null, '2026-03-03T08:00:00Z'],
      },
      timestamp: occurredAt,
      timezone: LA,
      data_source: 'terminal',
      terminal: EVERPORT,
    };
  } else if (event === 'container.pod_terminal_changed') {
    occurredAt = '2026-02-21T18:30:00Z';
    refs.container_id = localId;
    payload = {
      type: event,
      container_number: CONTAINERS.local.number,
      timestamp: occurredAt,
      data_source: 'shipping_line',
      terminal: FENIX,
      previous_terminal: EVERPORT,
    };
  } else {
    // document.*: Tidemark does not process documents and never sends these; the sample shows their shape only.
    occurredAt = '2026-02-20T16:04:51Z';
    document = documentRecords(event, LOCAL.bl, occurredAt);
    Object.assign(refs, { shipment_id: null });
    shipmentIds = [];
    containerKeys = [];
    payload = { type: event, document_id: document.document.id };
  }

  const containers = containerKeys.map((k) => {
    const c = CONTAINERS[k];
    const cid = id('container', c.number);
    return containerRecord(
      event === 'container.pod_terminal_changed' && k === 'local' ? { ...c, snapshot: { ...c.snapshot, pod_terminal: FENIX } } : c,
      transportEvents.filter((e) => e.container_id === cid).map((e) => e.id),
    );
  });
  const shipments = shipmentIds.map((sid) => {
    const s = sid === RAIL.id ? RAIL : LOCAL;
    const record = shipment(
      s,
      s === RAIL,
      containers.filter((c) => c.shipment_id === sid).map((c) => c.id),
    );
    if (event === 'tracking_request.tracking_stopped') {
      Object.assign(record, {
        line_tracking_stopped_at: at('2026-03-06T21:00:00Z'),
        line_tracking_stopped_reason: 'all_containers_terminated',
        line_tracking_next_attempt_at: null,
      });
    }
    return record;
  });

  const createdAt = notifiedAt(occurredAt);
  return {
    accountId: ACCOUNT_ID,
    notification: {
      id: referenceId('webhook_notification', event),
      account_id: ACCOUNT_ID,
      webhook_id: WEBHOOK.id,
      account_event_id: id('account_event', event),
      event,
      delivery_status: 'pending',
      attempts: 0,
      retry_base: 0,
      next_attempt_at: createdAt,
      lease_until: null,
      body: null,
      delivered_at: null,
      created_at: createdAt,
      updated_at: createdAt,
      sequence,
      ...refs,
      payload,
      occurred_at: at(occurredAt),
    },
    webhook: WEBHOOK,
    shipments,
    containers,
    transportEvents,
    estimatedEvents,
    trackingRequests,
    vessels: [VESSEL_ROW],
    document,
  };
}
