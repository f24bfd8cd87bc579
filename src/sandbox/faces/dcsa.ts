// A simulated carrier's DCSA Track & Trace 2.2 endpoint (GET {base}/v2/events), rendered from the world's
// answer. It carries what DCSA 2.2 can carry and nothing else, so the real DCSA adapter parses it back to the
// answer's facts; `dcsaCarriableFacts` says exactly what comes back and what is dropped on the way.
import { isValidImo } from '../../domain/imo.js';
import { isUuid, referenceId } from '../../lib/ids.js';
import type { Milestone, TransportMode } from '../../domain/milestones.js';
import type {
  CanonicalFacts,
  ContainerFact,
  MilestoneFact,
  NumberType,
  Place,
  ShipmentFact,
  VesselRef,
  YardFact,
} from '../../sources/contract.js';
import type { CarrierAnswer } from '../answers.js';
import { type FaceResponse, json, whenText } from './types.js';

export interface DcsaEventsQuery {
  scac: string;
  numberType: NumberType;
  number: string;
  /** Page size (DCSA default 100). */
  limit?: number;
  /** A cursor from a previous page's `Next-Page`. */
  cursor?: string;
  /** DCSA filter: comma-separated SHIPMENT, TRANSPORT, EQUIPMENT. */
  eventType?: string;
}

export interface DcsaRenderOptions {
  /** The URL this page was requested at: `Next-Page` is a relative link built from its path and query. */
  pageSelfUrl: string;
  /** Wall time for `errorDateTime` of error bodies; omitted when not given (the renderer reads no clock). */
  now?: Date;
}

/** The query parameter each number type is sent in (the same in 2.2 and 3.0). */
export const DCSA_REFERENCE_PARAMETER: Record<NumberType, string> = {
  bill_of_lading: 'transportDocumentReference',
  booking_number: 'carrierBookingReference',
  container: 'equipmentReference',
};

const DEFAULT_LIMIT = 100;
const EVENT_TYPES = ['SHIPMENT', 'TRANSPORT', 'EQUIPMENT'] as const;
type EventType = (typeof EVENT_TYPES)[number];

// ---------------------------------------------------------------------------------------------------------
// What DCSA 2.2 can carry

type LegFamily = 'main' | 'transshipment' | 'feeder' | 'rail';
type Leg =
  | { family: LegFamily; type: 'EQUIPMENT'; code: 'LOAD' | 'DISC'; berth?: never }
  | { family: LegFamily; type: 'TRANSPORT'; code: 'ARRI' | 'DEPA'; berth?: true };

const LEGS: Partial<Record<Milestone, Leg>> = {
  vessel_loaded: { family: 'main', type: 'EQUIPMENT', code: 'LOAD' },
  vessel_departed: { family: 'main', type: 'TRANSPORT', code: 'DEPA' },
  vessel_arrived: { family: 'main', type: 'TRANSPORT', code: 'ARRI' },
  // An arrival whose transport call is at a berth (facilityTypeCode BRTH): the adapter reads it as the berthing.
  vessel_berthed: { family: 'main', type: 'TRANSPORT', code: 'ARRI', berth: true },
  vessel_discharged: { family: 'main', type: 'EQUIPMENT', code: 'DISC' },
  transshipment_arrived: { family: 'transshipment', type: 'TRANSPORT', code: 'ARRI' },
  transshipment_discharged: { family: 'transshipment', type: 'EQUIPMENT', code: 'DISC' },
  transshipment_loaded: { family: 'transshipment', type: 'EQUIPMENT', code: 'LOAD' },
  transshipment_departed: { family: 'transshipment', type: 'TRANSPORT', code: 'DEPA' },
  feeder_loaded: { family: 'feeder', type: 'EQUIPMENT', code: 'LOAD' },
  feeder_departed: { family: 'feeder', type: 'TRANSPORT', code: 'DEPA' },
  feeder_arrived: { family: 'feeder', type: 'TRANSPORT', code: 'ARRI' },
  feeder_discharged: { family: 'feeder', type: 'EQUIPMENT', code: 'DISC' },
  rail_loaded: { family: 'rail', type: 'EQUIPMENT', code: 'LOAD' },
  rail_departed: { family: 'rail', type: 'TRANSPORT', code: 'DEPA' },
  rail_arrived: { family: 'rail', type: 'TRANSPORT', code: 'ARRI' },
  rail_unloaded: { family: 'rail', type: 'EQUIPMENT', code: 'DISC' },
};

const GATES: Partial<Record<Milestone, { code: 'GTIN' | 'GTOT'; empty: 'EMPTY' | 'LADEN' }>> = {
  empty_out: { code: 'GTOT', empty: 'EMPTY' },
  full_in: { code: 'GTIN', empty: 'LADEN' },
  full_out: { code: 'GTOT', empty: 'LADEN' },
  empty_in: { code: 'GTIN', empty: 'EMPTY' },
};

/** Shipment-level statuses of a document: DCSA 2.2 shipment events name no container. */
const SHIPMENT_STATUSES: Partial<Record<Milestone, { code: 'RELS' | 'RECE'; document: 'SRM' | 'CUS' | 'VGM' }>> = {
  carrier_release: { code: 'RELS', document: 'SRM' },
  customs_release: { code: 'RELS', document: 'CUS' },
  vgm_received: { code: 'RECE', document: 'VGM' },
};

const CLASSIFIER_CODE = { actual: 'ACT', estimated: 'EST', planned: 'PLN' } as const;
const MODE_CODE: Record<TransportMode, string> = { vessel: 'VESSEL', barge: 'BARGE', rail: 'RAIL', truck: 'TRUCK' };

export interface DcsaCarriable {
  /** The facts the DCSA adapter gives back for the rendered events (when the answer is consistent, see README). */
  facts: CanonicalFacts;
  /** What the answer holds that DCSA 2.2 cannot carry, one line per kind of loss. */
  dropped: string[];
}

/**
 * The answer's facts as they come back through DCSA TNT 2.2: milestones DCSA has no event for, yard facts,
 * weights, MMSIs, rail carriers, FIRMS facility codes and vessel positions are dropped; arrivals and departures
 * are vehicle events (no container) and document statuses are shipment events (no container, place, vessel);
 * ids, report times and source codes become what the rendered events say. A world whose carrier answers have
 * no `dropped` lines is rendered losslessly.
 */
export interface DcsaCarriableOptions {
  /**
   * The carrier also publishes DCSA Arrival Notices (1.0.1) and the adapter reads them (the sandbox carriers do):
   * weights, seals, size-types, every container of the bill of lading and the line's last free day come back too.
   */
  arrivalNotices?: boolean;
}

export function dcsaCarriableFacts(facts: CanonicalFacts, scac: string, options: DcsaCarriableOptions = {}): DcsaCarriable {
  const dropped = new Set<string>();
  const milestones: MilestoneFact[] = [];
  for (const m of facts.milestones) {
    const projected = projectMilestone(m, scac, facts.shipment, dropped);
    if (projected) milestones.push(projected);
  }
  if (facts.vesselPositions.length) dropped.add('vessel positions: TNT 2.2 has none');

  const carriesDocuments = milestones.some((m) => !SHIPMENT_STATUSES[m.milestone]);
  const s = facts.shipment;
  if (s && !carriesDocuments && (s.billOfLadingNumber || s.bookingNumber)) {
    dropped.add('document numbers without a transport or equipment event: TNT 2.2 shipment events carry only their own document');
  }
  const shipment: ShipmentFact | null =
    milestones.length === 0
      ? null
      : {
          billOfLadingNumber: carriesDocuments ? (s?.billOfLadingNumber ?? null) : null,
          bookingNumber: carriesDocuments ? (s?.bookingNumber ?? null) : null,
          carrierScac: scac,
          portOfLading: carriablePlace(s?.portOfLading ?? null, dropped),
          portOfDischarge: carriablePlace(s?.portOfDischarge ?? null, dropped),
          destination: carriablePlace(s?.destination ?? null, dropped),
        };
  if (s && s.carrierScac !== null && s.carrierScac !== scac)
    dropped.add(`carrier SCAC ${s.carrierScac}: the adapter names the carrier it asked (${scac})`);

  // After projection only equipment events name a container.
  const equipmentContainers = new Set(milestones.flatMap((m) => (m.containerNumber ? [m.containerNumber] : [])));
  // The adapter asks for the notices of the bill of lading the events name.
  const notices = options.arrivalNotices === true && shipment?.billOfLadingNumber != null;
  const numbers = new Set([...equipmentContainers, ...(notices ? facts.containers.map((c) => c.number) : [])]);
  const containers: ContainerFact[] = [];
  for (const number of [...numbers].sort()) {
    const given = facts.containers.find((c) => c.number === number);
    if (!notices && given && (given.weightLbs !== null || given.weightIsShipmentAverage))
      dropped.add('container weights: TNT 2.2 has none');
    containers.push({
      number,
      isoSizeType: given?.isoSizeType?.toUpperCase() ?? null,
      sealNumber: given?.sealNumber ?? null,
      weightLbs: notices ? (given?.weightLbs ?? null) : null,
      weightIsShipmentAverage: false,
    });
  }
  for (const c of facts.containers) {
    if (!numbers.has(c.number)) dropped.add('containers without an equipment event: TNT 2.2 names containers only in equipment events');
  }
  if (notices) {
    // The notice's only signal of an average: every one of ≥ 2 containers has the same weight.
    const even = containers.length >= 2 && containers.every((c) => c.weightLbs !== null && c.weightLbs === containers[0]!.weightLbs);
    for (const c of containers) {
      c.weightIsShipmentAverage = even;
      const given = facts.containers.find((x) => x.number === c.number);
      if (given && given.weightIsShipmentAverage !== even) {
        dropped.add('weightIsShipmentAverage: an arrival notice shows an average only as equal weights on two or more containers');
      }
    }
  }

  const yard: YardFact[] = [];
  for (const y of facts.yard) {
    const lineLfdOnly =
      y.available === null &&
      y.holds === null &&
      y.fees === null &&
      y.lastFreeDay === null &&
      y.appointmentAt === null &&
      y.yardLocation === null &&
      y.chassisNumber === null;
    if (!notices || !lineLfdOnly || !y.lineLastFreeDay) {
      dropped.add(
        notices
          ? 'yard facts other than the line’s last free day (availability, holds, fees, terminal LFD): neither TNT 2.2 nor the arrival notice has them'
          : 'yard facts (availability, holds, fees, last free days): TNT 2.2 has none',
      );
      continue;
    }
    const pod = shipment?.portOfDischarge ?? null;
    const facility = carriablePlace(y.facility, dropped);
    if (!pod || !facility || !samePlace(pod, facility)) {
      dropped.add('line last free days at another place than the port of discharge: an arrival notice’s free time applies there');
      continue;
    }
    if (y.lineLastFreeDay.localDateTime !== null || !numbers.has(y.containerNumber)) {
      dropped.add('line last free days as a local date-time, or of containers the notice does not list');
      continue;
    }
    yard.push({ ...y, facility: pod });
  }
  yard.sort((a, b) => cmp(a.containerNumber, b.containerNumber));

  return { facts: { shipment, containers, milestones, yard, vesselPositions: [] }, dropped: [...dropped].sort() };
}

function projectMilestone(m: MilestoneFact, scac: string, shipment: ShipmentFact | null, dropped: Set<string>): MilestoneFact | null {
  const leg = LEGS[m.milestone];
  const gate = GATES[m.milestone];
  const status = SHIPMENT_STATUSES[m.milestone];
  if (!leg && !gate && !status) {
    dropped.add(`${m.milestone}: TNT 2.2 has no event for it`);
    return null;
  }
  if (m.railCarrierScac !== null) dropped.add('railCarrierScac: TNT 2.2 does not name the railroad');
  const base = { ...m, railCarrierScac: null, reportedAt: m.reportedAt ?? fallbackReportedAt(m) };

  if (leg) {
    const mode = legMode(leg.family, m.mode);
    if (mode === null) {
      dropped.add(`${m.milestone} by ${m.mode}: a ${m.mode} leg gives no milestone in DCSA`);
      return null;
    }
    if (m.mode !== null && m.mode !== mode) dropped.add(`${m.milestone}: mode ${m.mode} is rendered as ${mode}`);
    if (leg.berth && (!m.place?.locode || m.place.locode !== shipment?.portOfDischarge?.locode)) {
      dropped.add('vessel_berthed away from the port of discharge: DCSA has no berthing milestone elsewhere');
      return null;
    }
    // DCSA has no feeder mode: a feeder vessel is a VESSEL leg, which the adapter names like any other (vessel_* at
    // the POL and POD, transshipment_* elsewhere); only a barge is told apart.
    const milestone = leg.family === 'feeder' && mode === 'vessel' ? vesselLegMilestone(leg, m.place, shipment) : m.milestone;
    if (milestone !== m.milestone) dropped.add(`${m.milestone} by a vessel: DCSA has no feeder mode; it comes back as ${milestone}`);
    if (leg.type === 'TRANSPORT' && m.containerNumber !== null)
      dropped.add('containerNumber of arrivals and departures: TNT 2.2 transport events are per vehicle');
    const vessel = mode === 'rail' ? null : carriableVessel(m.vessel, dropped);
    if (mode === 'rail' && m.vessel) dropped.add('vessel of rail milestones');
    const fact: MilestoneFact = {
      ...base,
      milestone,
      place: carriablePlace(m.place, dropped),
      vessel,
      mode,
      containerNumber: leg.type === 'TRANSPORT' ? null : m.containerNumber,
      sourceCode: `${leg.type}/${leg.code}/${CLASSIFIER_CODE[m.classifier]}`,
    };
    return { ...fact, sourceEventId: eventIdOf(fact, scac, m.sourceEventId) };
  }
  if (gate) {
    // A gate move is a truck's: its TRUCK transport call carries the mode. Any other mode would make the
    // adapter see one more rail or vessel stop and change the legs, so only `truck` is carried.
    if (m.mode !== null && m.mode !== 'truck') dropped.add(`mode ${m.mode} of gate moves: rendered without a transport call`);
    if (m.vessel !== null || m.voyage !== null) dropped.add('vessel and voyage of gate moves: their transport call is a truck’s');
    const fact: MilestoneFact = {
      ...base,
      place: carriablePlace(m.place, dropped),
      vessel: null,
      voyage: null,
      mode: m.mode === 'truck' ? 'truck' : null,
      sourceCode: `EQUIPMENT/${gate.code}/${CLASSIFIER_CODE[m.classifier]}`,
    };
    return { ...fact, sourceEventId: eventIdOf(fact, scac, m.sourceEventId) };
  }
  const st = status!;
  if (m.containerNumber !== null || m.place !== null || m.vessel !== null || m.voyage !== null || m.mode !== null) {
    dropped.add(`container, place and vessel of ${m.milestone}: a TNT 2.2 shipment event has none`);
  }
  const fact: MilestoneFact = {
    ...base,
    place: null,
    vessel: null,
    voyage: null,
    mode: null,
    containerNumber: null,
    sourceCode: `SHIPMENT/${st.code}/${CLASSIFIER_CODE[m.classifier]}`,
  };
  return { ...fact, sourceEventId: eventIdOf(fact, scac, m.sourceEventId) };
}

function legMode(family: LegFamily, mode: TransportMode | null): TransportMode | null {
  if (family === 'rail') return mode === null || mode === 'rail' ? 'rail' : null;
  if (mode === 'truck' || mode === 'rail') return null;
  // DCSA does not say which vessel is a feeder: a barge feeder is a BARGE leg (the adapter calls BARGE legs
  // feeders once a VESSEL leg exists), a feeder vessel a VESSEL leg like the mother vessel.
  if (family === 'feeder') return mode === 'vessel' ? 'vessel' : 'barge';
  return mode ?? 'vessel';
}

/** What the adapter calls a VESSEL leg's move: vessel_* at the B/L's POL (boarding) or POD (landing), else transshipment_*. */
function vesselLegMilestone(leg: Leg, place: Place | null, shipment: ShipmentFact | null): Milestone {
  const boarding = leg.code === 'LOAD' || leg.code === 'DEPA';
  const home = boarding ? shipment?.portOfLading : shipment?.portOfDischarge;
  const action = { LOAD: 'loaded', DEPA: 'departed', ARRI: 'arrived', DISC: 'discharged' } as const;
  const atHome = home?.locode != null && place?.locode === home.locode;
  return `${atHome ? 'vessel' : 'transshipment'}_${action[leg.code]}` as Milestone;
}

function carriablePlace(place: Place | null, dropped: Set<string>): Place | null {
  if (!place) return null;
  // 2.2's facilityCodeListProvider is SMDG or BIC; a FIRMS code has no place in it.
  const keepFacility = place.facilityCode !== null && place.facilityCodeList !== 'firms';
  if (place.facilityCode !== null && !keepFacility) dropped.add('FIRMS facility codes: TNT 2.2 knows SMDG and BIC only');
  const p: Place = {
    locode: place.locode,
    name: place.name,
    facilityCode: keepFacility ? place.facilityCode : null,
    facilityCodeList: keepFacility ? place.facilityCodeList : null,
  };
  return p.locode || p.name || p.facilityCode ? p : null;
}

function samePlace(a: Place, b: Place): boolean {
  return a.locode === b.locode && a.name === b.name && a.facilityCode === b.facilityCode && a.facilityCodeList === b.facilityCodeList;
}

function carriableVessel(vessel: VesselRef | null, dropped: Set<string>): VesselRef | null {
  if (!vessel) return null;
  if (vessel.mmsi !== null) dropped.add('vessel MMSI: TNT 2.2 has none');
  const imo = vessel.imo && isValidImo(vessel.imo) ? vessel.imo : null;
  if (vessel.imo && !imo) dropped.add('IMO numbers that fail the check digit');
  return imo || vessel.name ? { name: vessel.name, imo, mmsi: null } : null;
}

/** 2.2 event ids are UUIDs: a world id that is one is kept, anything else gets a stable one derived from the fact. */
function eventIdOf(m: MilestoneFact, scac: string, given: string | null): string {
  if (given && isUuid(given)) return given.toLowerCase();
  const key = [scac, given ?? '', m.milestone, m.classifier, whenText(m.when) ?? '', m.containerNumber ?? '', m.place?.locode ?? ''].join(
    '|',
  );
  return referenceId('sandbox-dcsa-event', key);
}

/** `eventCreatedDateTime` is required in 2.2: without a report time the event's own instant stands in. */
function fallbackReportedAt(m: MilestoneFact): string {
  return m.when.at ?? `${(m.when.localDateTime ?? m.when.localDate ?? '1970-01-01').slice(0, 10)}T00:00:00Z`;
}

// ---------------------------------------------------------------------------------------------------------
// Rendering

type DcsaEvent = Record<string, unknown> & { eventID: string; eventType: EventType; eventDateTime: string };

export function renderDcsaEvents(answer: CarrierAnswer, query: DcsaEventsQuery, options: DcsaRenderOptions): FaceResponse {
  const parameter = DCSA_REFERENCE_PARAMETER[query.numberType];
  const bad = (property: string, message: string) => dcsaError(400, options, [{ reason: 'invalidQuery', message, property }]);

  const limit = query.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) return bad('limit', 'limit must be a positive integer');
  let offset = 0;
  if (query.cursor !== undefined) {
    const decoded = decodeCursor(query.cursor);
    if (decoded === null) return bad('cursor', 'cursor is not one this server issued');
    offset = decoded;
  }
  let types: Set<EventType> | null = null;
  if (query.eventType !== undefined) {
    const asked = query.eventType.split(',').map((t) => t.trim().toUpperCase());
    const unknown = asked.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t));
    if (unknown.length) return bad('eventType', `eventType must be SHIPMENT, TRANSPORT or EQUIPMENT (got ${unknown.join(', ')})`);
    types = new Set(asked as EventType[]);
  }

  let events: DcsaEvent[];
  switch (answer.status) {
    case 'unavailable': {
      const headers: Record<string, string> = answer.retryAfterSeconds === null ? {} : { 'retry-after': String(answer.retryAfterSeconds) };
      const body = errorBody(503, options, [{ reason: 'serviceUnavailable', message: 'The service is temporarily unavailable' }]);
      return json(503, body, headers);
    }
    case 'invalid_number':
      return bad(parameter, answer.message);
    case 'not_found':
      events = [];
      break;
    case 'awaiting_manifest':
      events = [bookingEvent(query.scac, answer.bookingNumber, 'RECE', answer.receivedAt)];
      break;
    case 'cancelled':
      events = [bookingEvent(query.scac, answer.bookingNumber, 'CANC', answer.cancelledAt)];
      break;
    case 'ok':
      events = renderFacts(dcsaCarriableFacts(answer.facts, query.scac).facts);
      break;
  }

  const selected = (types ? events.filter((e) => types.has(e.eventType)) : events).sort(
    (a, b) => instantMs(a.eventDateTime) - instantMs(b.eventDateTime) || cmp(a.eventID, b.eventID),
  );
  const page = selected.slice(offset, offset + limit);
  const headers: Record<string, string> = { 'api-version': '2.2.0' };
  if (offset + limit < selected.length) headers['next-page'] = nextPageLink(options.pageSelfUrl, offset + limit);
  return json(200, page, headers);
}

function renderFacts(facts: CanonicalFacts): DcsaEvent[] {
  const s = facts.shipment;
  const documentReferences = [
    ...(s?.bookingNumber ? [{ documentReferenceType: 'BKG', documentReferenceValue: s.bookingNumber }] : []),
    ...(s?.billOfLadingNumber ? [{ documentReferenceType: 'TRD', documentReferenceValue: s.billOfLadingNumber }] : []),
  ];
  const containers = new Map(facts.containers.map((c) => [c.number, c]));
  return facts.milestones.map((m) => {
    const base = {
      eventID: m.sourceEventId!,
      eventCreatedDateTime: m.reportedAt!,
      eventClassifierCode: CLASSIFIER_CODE[m.classifier],
      eventDateTime: whenText(m.when)!,
    };
    const refs = documentReferences.length ? { documentReferences } : {};
    const leg = LEGS[m.milestone];
    if (leg?.type === 'TRANSPORT') {
      return { ...base, eventType: 'TRANSPORT', transportEventTypeCode: leg.code, transportCall: transportCall(m, leg), ...refs };
    }
    const gate = GATES[m.milestone];
    if (leg || gate) {
      const container = m.containerNumber ? containers.get(m.containerNumber) : undefined;
      return {
        ...base,
        eventType: 'EQUIPMENT',
        equipmentEventTypeCode: leg?.code ?? gate!.code,
        ...(m.containerNumber ? { equipmentReference: m.containerNumber } : {}),
        ...(container?.isoSizeType ? { ISOEquipmentCode: container.isoSizeType } : {}),
        emptyIndicatorCode: gate?.empty ?? 'LADEN',
        ...(leg ? { transportCall: transportCall(m, leg) } : m.place ? { eventLocation: location(m.place) } : {}),
        ...(gate && m.mode === 'truck' ? { transportCall: truckCall(m) } : {}),
        // sealType is required by 2.2; ISO 17712 bolt seals are what containers carry.
        ...(container?.sealNumber ? { seals: [{ sealNumber: container.sealNumber, sealType: 'BLT' }] } : {}),
        ...refs,
      };
    }
    const st = SHIPMENT_STATUSES[m.milestone]!;
    const subject = s?.billOfLadingNumber ?? s?.bookingNumber ?? 'UNKNOWN';
    return {
      ...base,
      eventType: 'SHIPMENT',
      shipmentEventTypeCode: st.code,
      documentTypeCode: st.document,
      documentID: `${st.document}-${subject}`,
    };
  });
}

function transportCall(m: MilestoneFact, leg: Leg): Record<string, unknown> {
  const { code } = leg;
  const place = m.place;
  // What real DCSA carriers send: VESSEL for any sea-going ship, mother or feeder ("mother vessels and feeder
  // vessels", 2.2's vessel schema), BARGE for inland water transport only. 2.2 has no FEEDER mode.
  const mode = MODE_CODE[m.mode ?? 'vessel'];
  // One id per stop of one vehicle: events at the same stop share it, whatever their voyage fields say. The berth
  // is a call of its own (its facility type differs from the port call's).
  const key = [
    mode,
    m.vessel?.imo ?? '',
    m.vessel?.name ?? '',
    place?.locode ?? '',
    place?.facilityCode ?? '',
    place?.name ?? '',
    ...(leg.berth ? ['BRTH'] : []),
  ].join('|');
  // The cargo leaves a stop on the export voyage and reaches one on the import voyage.
  const boarding = code === 'LOAD' || code === 'DEPA';
  return {
    transportCallID: referenceId('sandbox-dcsa-call', key),
    modeOfTransport: mode,
    ...(place?.locode ? { UNLocationCode: place.locode } : {}),
    ...(place?.facilityCode ? { facilityCode: place.facilityCode, facilityCodeListProvider: place.facilityCodeList!.toUpperCase() } : {}),
    // BRTH is in DCSA's facility type list, though not in TNT 2.2's transport call enum: as real carriers send it.
    ...(leg.berth ? { facilityTypeCode: 'BRTH' } : {}),
    ...(place?.name ? { location: { locationName: place.name, ...(place.locode ? { UNLocationCode: place.locode } : {}) } } : {}),
    ...(m.voyage ? { carrierVoyageNumber: m.voyage, [boarding ? 'exportVoyageNumber' : 'importVoyageNumber']: m.voyage } : {}),
    // vesselIMONumber is required in 2.2; carriers send "" for a barge without one, and the adapter reads that as none.
    ...(m.vessel ? { vessel: { vesselIMONumber: m.vessel.imo ?? '', ...(m.vessel.name ? { vesselName: m.vessel.name } : {}) } } : {}),
  };
}

/** The truck of one gate move: its own call (one truck, one box, one move), at the gate's UN/LOCODE. */
function truckCall(m: MilestoneFact): Record<string, unknown> {
  const key = ['TRUCK', m.containerNumber ?? '', m.milestone, m.classifier, whenText(m.when) ?? '', m.place?.locode ?? ''].join('|');
  return {
    transportCallID: referenceId('sandbox-dcsa-call', key),
    modeOfTransport: 'TRUCK',
    ...(m.place?.locode ? { UNLocationCode: m.place.locode } : {}),
  };
}

function location(place: Place): Record<string, unknown> {
  return {
    ...(place.name ? { locationName: place.name } : {}),
    ...(place.locode ? { UNLocationCode: place.locode } : {}),
    ...(place.facilityCode ? { facilityCode: place.facilityCode, facilityCodeListProvider: place.facilityCodeList!.toUpperCase() } : {}),
  };
}

/** A booking-level shipment event: RECE (received, nothing manifested yet) or CANC (cancelled). */
function bookingEvent(scac: string, bookingNumber: string, code: 'RECE' | 'CANC', at: string): DcsaEvent {
  return {
    eventID: referenceId('sandbox-dcsa-event', `${scac}|${bookingNumber}|${code}`),
    eventCreatedDateTime: at,
    eventType: 'SHIPMENT',
    eventClassifierCode: 'ACT',
    // 2.2: "Value for eventDateTime must be the same value as eventCreatedDateTime" for shipment events.
    eventDateTime: at,
    shipmentEventTypeCode: code,
    documentTypeCode: 'BKG',
    documentID: bookingNumber,
  };
}

interface SubError {
  reason: string;
  message: string;
  property?: string;
}

function errorBody(status: number, options: DcsaRenderOptions, errors: SubError[]) {
  const url = new URL(options.pageSelfUrl, 'http://sandbox.invalid');
  return {
    httpMethod: 'GET',
    requestUri: url.pathname + url.search,
    statusCode: status,
    statusCodeText: status === 400 ? 'Bad Request' : 'Service Unavailable',
    ...(options.now ? { errorDateTime: options.now.toISOString() } : {}),
    errors,
  };
}

function dcsaError(status: number, options: DcsaRenderOptions, errors: SubError[]): FaceResponse {
  return json(status, errorBody(status, options, errors));
}

/** Opaque to clients: the offset into the sorted, filtered events. */
function encodeCursor(offset: number): string {
  return Buffer.from(`offset=${offset}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): number | null {
  const m = /^offset=(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m ? Number(m[1]) : null;
}

/** A relative link (path and query of this page, cursor replaced): it stays on whatever origin the client used. */
function nextPageLink(pageSelfUrl: string, offset: number): string {
  const url = new URL(pageSelfUrl, 'http://sandbox.invalid');
  url.searchParams.set('cursor', encodeCursor(offset));
  return url.pathname + url.search;
}

function instantMs(value: string): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return Date.parse(`${value}T00:00:00Z`);
  if (/(?:Z|[+-]\d{2}:\d{2})$/.test(value)) return Date.parse(value);
  return Date.parse(`${value}Z`);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
