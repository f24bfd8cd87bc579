// Pure mapping of a DCSA Track & Trace payload (2.2 event array or 3.0 `{ events }`) to canonical facts.
// No I/O and no clock; the same events give the same facts whatever order the carrier sent them in.
import { normalizeContainerNumber } from '../../../domain/container-number.js';
import { CLASSIFIERS, type Classifier, MILESTONES, type Milestone, type TransportMode } from '../../../domain/milestones.js';
import {
  type CanonicalFacts,
  type ContainerFact,
  type MilestoneFact,
  type Place,
  type ShipmentFact,
  SourceError,
  type TrackTarget,
  type VesselRef,
  type When,
  type YardFact,
} from '../../contract.js';
import { stableJson } from '../../http.js';
import { arrivalNoticePorts, arrivalNoticeReference, mergeArrivalNotices } from './arrival-notice.js';
import {
  CLASSIFIER,
  dcsaCode,
  type InternalCode,
  LEG_MILESTONES,
  PLACE_FREE_EQUIPMENT_MILESTONES,
  SHIPMENT_MILESTONES,
  TRANSSHIPMENT_MILESTONES,
  type WaterOrLand,
} from './codes.js';
import { type Event22, type Event30, type Location22, Page22, Page30, type TransportCall22, validate } from './raw.js';

export { stableJson };

export interface ParseOptions {
  /** The carrier whose API answered; DCSA events do not name it. */
  carrierScac: string;
  /** What was asked for: when several B/L or booking numbers appear, the asked-for one is preferred. */
  target?: Pick<TrackTarget, 'numberType' | 'number'>;
}

type Mode = InternalCode<'mode'>;
type DocumentKind = InternalCode<'documentType'>;

/** Where an event says the container or vehicle is: one stop of one vehicle. */
interface CallRef {
  id: string | null;
  mode: Mode | null;
  locode: string | null;
  place: Place | null;
  vessel: VesselRef | null;
  /** IMO, else vessel name, else voyage: what tells two vehicles of the same mode apart. */
  vehicle: string | null;
  exportVoyage: string | null;
  importVoyage: string | null;
  seq: number | null;
}

/** One event in version-free terms. */
interface Norm {
  id: string;
  retracted: boolean;
  /** Ordering of versions of the same eventID: created (2.2) or updated (3.0) time. */
  versionMs: number;
  /** `eventCreatedDateTime` (2.2) or `eventUpdatedDateTime` (3.0), as given. */
  reportedAt: string | null;
  /** Canonical JSON of the event as received: breaks every tie without depending on payload order. */
  fingerprint: string;
  eventType: InternalCode<'eventType'> | null;
  sourceCode: string;
  classifier: Classifier | null;
  transport: InternalCode<'transportEvent'> | null;
  equipment: InternalCode<'equipmentEvent'> | null;
  shipment: InternalCode<'shipmentEvent'> | null;
  /** For shipment events: the kind of document the status is about. */
  shipmentDocument: DocumentKind | null;
  when: When;
  ms: number;
  place: Place | null;
  call: CallRef | null;
  container: string | null;
  isoCode: string | null;
  /** Every seal number the event states, in its order. */
  seals: string[];
  empty: InternalCode<'emptyIndicator'> | null;
  /** Where it happened: the 2.2 transport call's `facilityTypeCode`, the 3.0 event location's facility type. */
  facilityType: InternalCode<'facilityType'> | null;
  /** 3.0 only: the carrier's import/export/transshipment classification of an equipment move. */
  movement: InternalCode<'movement'> | null;
  documents: { kind: DocumentKind; value: string }[];
}

/** A stop of one vehicle as seen across all events, with what happened there. */
interface Call {
  key: string;
  group: Group;
  /** The first transport call that named this stop: voyages for events that name none. */
  ref: CallRef;
  /** The first vessel named at this stop, for events at it that name none. */
  vessel: VesselRef | null;
  locode: string | null;
  place: Place | null;
  seq: number | null;
  minMs: number;
  maxMs: number;
  events: Norm[];
  load: boolean;
  disc: boolean;
  arr: boolean;
  dep: boolean;
  board: boolean;
  alight: boolean;
}

interface Group {
  key: string;
  /** The leg's mode: the most specific word its events use (a carrier's FEEDER, then BARGE, then VESSEL). */
  mode: Mode | null;
  modes: Set<Mode>;
  kind: WaterOrLand | null;
  calls: Call[];
  firstMs: number;
  /** Laden and empty loads and discharges on this vehicle. */
  laden: number;
  empty: number;
}

/**
 * A stored DCSA payload in its parts: a Track & Trace payload alone (2.2 event array, 3.0 `{ events }`), or, when
 * arrival notices were read, `{ events: <that TNT payload>, arrivalNotices: [...] }`. 3.0 payloads never carry
 * `arrivalNotices`, so the two object shapes cannot be confused.
 */
export function splitDcsaPayload(payload: unknown): { events: unknown; arrivalNotices: unknown[] | null } {
  if (payload !== null && typeof payload === 'object' && !Array.isArray(payload) && 'arrivalNotices' in payload) {
    const { events, arrivalNotices } = payload as { events?: unknown; arrivalNotices: unknown };
    if (!Array.isArray(arrivalNotices)) throw new SourceError('bad_response', 'DCSA payload: `arrivalNotices` is not an array');
    return { events, arrivalNotices };
  }
  return { events: payload, arrivalNotices: null };
}

/** Facts from a DCSA payload (see `splitDcsaPayload`): the events', completed by the arrival notices when present. */
export function parseDcsaEvents(payload: unknown, options: ParseOptions): CanonicalFacts {
  const { events, arrivalNotices } = splitDcsaPayload(payload);
  const facts = parseTnt(events, options, null);
  if (arrivalNotices === null) return facts;
  const reference = arrivalNoticeReference(facts, options.target);
  // The notice states the bill of lading's own ports: they bound the main legs (see buildPlan).
  const ports = arrivalNoticePorts(arrivalNotices, reference);
  const bounded = ports.pol || ports.pod ? parseTnt(events, options, ports) : facts;
  return mergeArrivalNotices(bounded, arrivalNotices, reference);
}

function parseTnt(payload: unknown, options: ParseOptions, ports: BillOfLadingPorts | null): CanonicalFacts {
  const norms = normalize(payload);
  const events = latestVersions(norms);
  if (events.length === 0) return { shipment: null, containers: [], milestones: [], yard: [], vesselPositions: [] };

  const plan = buildPlan(events, ports);
  const milestones = events.flatMap((event) => {
    const fact = milestoneOf(event, plan);
    return fact ? [fact] : [];
  });
  milestones.sort(compareMilestones);

  return {
    shipment: shipmentOf(events, plan, options),
    containers: containersOf(events),
    milestones,
    yard: offDockYard(events, plan),
    vesselPositions: [],
  };
}

/**
 * What the events say about the booking before any facts: `cancelled` when a shipment event cancels the
 * booking (`CANC`/`CANCELLED` of `BKG`); `awaiting_manifest` when there are only shipment events and none is
 * about a transport document (the carrier knows the booking, nothing is manifested yet); else `ok`.
 */
export type DcsaBookingStatus =
  | { status: 'ok' }
  | { status: 'awaiting_manifest'; bookingNumber: string | null }
  | { status: 'cancelled'; bookingNumber: string | null; when: When };

export function dcsaBookingStatus(payload: unknown): DcsaBookingStatus {
  const events = latestVersions(normalize(splitDcsaPayload(payload).events));
  const bookingOf = (e: Norm) => e.documents.find((d) => d.kind === 'booking')?.value ?? null;
  const cancel = events.find((e) => e.eventType === 'shipment' && e.shipment === 'cancelled' && e.shipmentDocument === 'booking');
  if (cancel) return { status: 'cancelled', bookingNumber: bookingOf(cancel), when: cancel.when };
  const onlyShipment = events.length > 0 && events.every((e) => e.eventType === 'shipment');
  const manifested = events.some((e) => e.documents.some((d) => d.kind === 'transport_document'));
  if (onlyShipment && !manifested) {
    const booking = events.map(bookingOf).find((b) => b !== null) ?? null;
    return { status: 'awaiting_manifest', bookingNumber: booking };
  }
  return { status: 'ok' };
}

// ---------------------------------------------------------------------------------------------------------
// Validation and normalization

function normalize(payload: unknown): Norm[] {
  if (Array.isArray(payload)) {
    const result = validate(Page22, payload);
    if (!result.ok) throw new SourceError('bad_response', `DCSA TNT 2.2 events: ${result.message}`);
    return result.value.map((event, i) => from22(event, payload[i]));
  }
  if (payload !== null && typeof payload === 'object' && 'events' in payload) {
    const result = validate(Page30, payload);
    if (!result.ok) throw new SourceError('bad_response', `DCSA TNT 3.0 events: ${result.message}`);
    const raw = (payload as { events: unknown[] }).events;
    return result.value.events.map((event, i) => from30(event, raw[i]));
  }
  throw new SourceError('bad_response', 'DCSA events: expected a TNT 2.2 event array or a TNT 3.0 object with `events`');
}

function from22(tagged: Event22, raw: unknown): Norm {
  const e = tagged.event;
  const base = {
    id: e.eventID,
    retracted: false,
    versionMs: Date.parse(e.eventCreatedDateTime),
    reportedAt: e.eventCreatedDateTime,
    fingerprint: stableJson(raw),
    eventType: dcsaCode('eventType', e.eventType),
    classifier: classifierOf(e.eventClassifierCode),
    ...whenOf(e.eventDateTime),
  };
  const none = {
    transport: null,
    equipment: null,
    shipment: null,
    shipmentDocument: null,
    place: null,
    call: null,
    container: null,
    isoCode: null,
    seals: [],
    empty: null,
    facilityType: null,
    movement: null,
    documents: [],
  };
  switch (tagged.kind) {
    case 'TRANSPORT': {
      const t = tagged.event;
      const call = call22(t.transportCall);
      return {
        ...base,
        ...none,
        sourceCode: `${t.eventType}/${t.transportEventTypeCode}/${t.eventClassifierCode}`,
        transport: dcsaCode('transportEvent', t.transportEventTypeCode),
        place: call.place,
        call,
        facilityType: dcsaCode('facilityType', t.transportCall.facilityTypeCode),
        documents: documents22(t.documentReferences),
      };
    }
    case 'EQUIPMENT': {
      const q = tagged.event;
      const call = q.transportCall ? call22(q.transportCall) : null;
      return {
        ...base,
        ...none,
        sourceCode: `${q.eventType}/${q.equipmentEventTypeCode}/${q.eventClassifierCode}`,
        equipment: dcsaCode('equipmentEvent', q.equipmentEventTypeCode),
        place: mergePlaces(location22(q.eventLocation), call?.place ?? null),
        call,
        container: containerOf(q.equipmentReference),
        isoCode: clean(q.ISOEquipmentCode)?.toUpperCase() ?? null,
        seals: sealsOf((q.seals ?? []).map((x) => x.sealNumber)),
        empty: dcsaCode('emptyIndicator', q.emptyIndicatorCode),
        // 2.2 locations have no facility type; the event's transport call carries it (OFFD for an off-dock yard).
        facilityType: dcsaCode('facilityType', q.transportCall?.facilityTypeCode),
        documents: documents22(q.documentReferences),
      };
    }
    case 'SHIPMENT': {
      const s = tagged.event;
      const document = dcsaCode('documentType', s.documentTypeCode);
      return {
        ...base,
        ...none,
        sourceCode: `${s.eventType}/${s.shipmentEventTypeCode}/${s.eventClassifierCode}`,
        shipment: dcsaCode('shipmentEvent', s.shipmentEventTypeCode),
        shipmentDocument: document,
        documents: document ? [{ kind: document, value: s.documentID.trim() }] : [],
      };
    }
    case 'OTHER':
      return { ...base, ...none, sourceCode: `${e.eventType}//${e.eventClassifierCode}` };
  }
}

function call22(tc: TransportCall22): CallRef {
  const fromCall = tc.facilityCode ? { code: tc.facilityCode, list: tc.facilityCodeListProvider } : null;
  const fromLocation = tc.location?.facilityCode ? { code: tc.location.facilityCode, list: tc.location.facilityCodeListProvider } : null;
  const facility = fromCall ?? fromLocation;
  const locode = clean(tc.UNLocationCode) ?? clean(tc.location?.UNLocationCode);
  const vessel = vesselOf(tc.vessel?.vesselIMONumber, tc.vessel?.vesselName);
  const exportVoyage = clean(tc.exportVoyageNumber) ?? clean(tc.carrierVoyageNumber);
  const importVoyage = clean(tc.importVoyageNumber);
  return {
    id: clean(tc.transportCallID),
    mode: dcsaCode('mode', tc.modeOfTransport),
    locode,
    place: placeOf(locode, tc.location?.locationName, facility?.code, facility?.list),
    vessel,
    vehicle: vehicleOf(vessel, exportVoyage ?? importVoyage),
    exportVoyage,
    importVoyage,
    seq: tc.transportCallSequenceNumber ?? null,
  };
}

function location22(l: Location22 | null | undefined): Place | null {
  return l ? placeOf(l.UNLocationCode, l.locationName, l.facilityCode, l.facilityCodeListProvider) : null;
}

function documents22(refs: { documentReferenceType: string; documentReferenceValue: string }[] | null | undefined) {
  return (refs ?? []).flatMap((r) => {
    const kind = dcsaCode('documentType', r.documentReferenceType);
    return kind ? [{ kind, value: r.documentReferenceValue.trim() }] : [];
  });
}

function from30(e: Event30, raw: unknown): Norm {
  const c = e.eventClassification;
  const typeWord = c?.eventTypeCode ?? c?.eventType ?? '';
  const classifierWord = c?.eventClassifierCode ?? c?.eventClassifier ?? '';
  const eventType = dcsaCode('eventType', typeWord);
  const subtypeWord =
    eventType === 'shipment'
      ? (c?.shipmentEventTypeCode ?? c?.shipmentEventType)
      : eventType === 'transport'
        ? (c?.transportEventTypeCode ?? c?.transportEventType)
        : eventType === 'equipment'
          ? (c?.equipmentEventTypeCode ?? c?.equipmentEventType)
          : null;
  const loc = e.eventLocation;
  const place = loc
    ? placeOf(loc.UNLocationCode, loc.locationName, loc.facility?.facilityCode, loc.facility?.facilityCodeListProvider)
    : null;
  const tc = e.transportDetails?.transportCall;
  let call: CallRef | null = null;
  if (tc) {
    const vessel = vesselOf(tc.vesselTransport?.vesselIMONumber, tc.vesselTransport?.vesselName);
    const exportVoyage =
      clean(tc.exportVoyageNumberOrReference?.carrierVoyageNumber) ?? clean(tc.exportVoyageNumberOrReference?.universalVoyageReference);
    const importVoyage =
      clean(tc.importVoyageNumberOrReference?.carrierVoyageNumber) ?? clean(tc.importVoyageNumberOrReference?.universalVoyageReference);
    // modeOfTransport is optional in 3.0; the transport detail block that is present says the same thing.
    const mode =
      dcsaCode('mode', tc.modeOfTransport) ??
      (tc.vesselTransport ? 'vessel' : tc.railTransport ? 'rail' : tc.truckTransport ? 'truck' : null);
    call = {
      id: clean(tc.transportCallReference),
      mode,
      locode: place?.locode ?? null,
      place,
      vessel,
      vehicle: vehicleOf(vessel, exportVoyage ?? importVoyage),
      exportVoyage,
      importVoyage,
      seq: tc.transportCallSequenceNumber ?? null,
    };
  }
  const refs = [e.shipmentDetails?.documentReference, ...(e.shipmentDetails?.additionalDocumentReferences ?? [])];
  const documents = refs.flatMap((r) => {
    const kind = r ? dcsaCode('documentType', r.typeCode ?? r.type) : null;
    return r && kind ? [{ kind, value: r.reference.trim() }] : [];
  });
  const primary = e.shipmentDetails?.documentReference;
  const q = e.equipmentDetails;
  return {
    id: e.eventID,
    retracted: e.isRetracted === true,
    // A retraction may carry nothing but the id; it must still win over the versions it retracts.
    versionMs: e.eventUpdatedDateTime
      ? Date.parse(e.eventUpdatedDateTime)
      : e.isRetracted
        ? Number.POSITIVE_INFINITY
        : Number.NEGATIVE_INFINITY,
    reportedAt: e.eventUpdatedDateTime ?? null,
    fingerprint: stableJson(raw),
    eventType,
    sourceCode: `${typeWord}/${subtypeWord ?? ''}/${classifierWord}`,
    classifier: classifierOf(classifierWord),
    transport: eventType === 'transport' ? dcsaCode('transportEvent', subtypeWord) : null,
    equipment: eventType === 'equipment' ? dcsaCode('equipmentEvent', subtypeWord) : null,
    shipment: eventType === 'shipment' ? dcsaCode('shipmentEvent', subtypeWord) : null,
    shipmentDocument: eventType === 'shipment' && primary ? dcsaCode('documentType', primary.typeCode ?? primary.type) : null,
    ...(e.eventDateTime ? whenOf(e.eventDateTime) : { when: { at: null, localDateTime: null, localDate: null }, ms: Number.NaN }),
    place,
    call,
    container: containerOf(q?.equipmentReference),
    isoCode: clean(q?.ISOEquipmentCode)?.toUpperCase() ?? null,
    seals: sealsOf((q?.seals ?? []).map((x) => x.number)),
    empty: dcsaCode('emptyIndicator', q?.emptyIndicatorCode ?? q?.emptyIndicator),
    facilityType: dcsaCode('facilityType', loc?.facilityTypeCode ?? loc?.facilityType),
    movement: dcsaCode('movement', q?.movementType ?? q?.transportPhase),
    documents,
  };
}

/** Keeps the newest version of each eventID (DCSA: a later version overrides), then drops retractions. */
function latestVersions(norms: Norm[]): Norm[] {
  const latest = new Map<string, Norm>();
  for (const n of norms) {
    const current = latest.get(n.id);
    if (!current || n.versionMs > current.versionMs || (n.versionMs === current.versionMs && n.fingerprint > current.fingerprint)) {
      latest.set(n.id, n);
    }
  }
  return [...latest.values()].filter((n) => !n.retracted).sort(byTime);
}

// ---------------------------------------------------------------------------------------------------------
// The transport plan: vehicles (groups), their stops (calls), and which stops board or land the cargo.

/** The bill of lading's own ports when the carrier states them (its arrival notice), as UN/LOCODEs. */
export interface BillOfLadingPorts {
  pol: string | null;
  pod: string | null;
}

interface Plan {
  callOf: Map<Norm, Call>;
  pol: Call | null;
  pod: Call | null;
  /** The last stop after the POD where the cargo leaves a rail or feeder leg: the inland destination. */
  destination: Call | null;
  /** Latest time at a main-vessel boarding stop at the POL: a laden gate-in until then is `full_in`. */
  polLimitMs: number | null;
  global: Sides;
  byContainer: Map<string, Sides>;
  /** Per container: times of its actual laden gate moves at an off-dock facility. */
  offDockMoves: Map<string, number[]>;
}

/** Until when an event is on the export side and from when on the import side of the journey. */
interface Sides {
  exportUntilMs: number;
  importFromMs: number | null;
}

const LEG_KIND: Record<Mode, WaterOrLand | null> = {
  vessel: 'main',
  barge: 'feeder',
  feeder: 'feeder',
  rail: 'rail',
  truck: null,
  multimodal: null,
};

const WATER: ReadonlySet<Mode> = new Set<Mode>(['vessel', 'barge', 'feeder']);

/** An equipment LOAD/DISC of an empty box: repositioning, no part of the cargo's journey. */
function isEmptyMove(e: Norm): boolean {
  const action = actionOf(e);
  return (action === 'loaded' || action === 'discharged') && e.empty === 'empty';
}

function buildPlan(events: Norm[], ports: BillOfLadingPorts | null): Plan {
  const groups = new Map<string, Group>();
  const calls = new Map<string, Call>();
  const callOf = new Map<Norm, Call>();

  // Events at one transport call do not all repeat the vessel block; the call id says they share a vehicle,
  // so each call id gets the strongest identity any of its events gives (IMO, then name, then voyage).
  const vehicleByCallId = new Map<string, string>();
  for (const event of events) {
    const { id, vehicle } = event.call ?? {};
    if (!id || !vehicle) continue;
    const current = vehicleByCallId.get(id);
    if (!current || vehicleRank(vehicle) < vehicleRank(current) || (vehicleRank(vehicle) === vehicleRank(current) && vehicle < current)) {
      vehicleByCallId.set(id, vehicle);
    }
  }

  const join = (event: Norm, call: Call) => {
    callOf.set(event, call);
    call.events.push(event);
    call.minMs = Math.min(call.minMs, event.ms);
    call.maxMs = Math.max(call.maxMs, event.ms);
    const action = actionOf(event);
    if (action === 'loaded') call.load = true;
    if (action === 'discharged') call.disc = true;
    if (action === 'loaded' || action === 'discharged') call.group.laden++;
    if (action === 'arrived') call.arr = true;
    if (action === 'departed') call.dep = true;
  };

  for (const event of events) {
    const ref = event.call;
    if (!ref?.mode) continue;
    const vehicle = (ref.id && vehicleByCallId.get(ref.id)) || ref.vehicle;
    // One ship is one leg whatever water word an event uses for it (a carrier may write FEEDER on some events and
    // VESSEL on others); a voyage number alone is too weak an identity to join two modes on.
    const named = vehicle !== null && !vehicle.startsWith('voyage:');
    const groupKey = `${WATER.has(ref.mode) && named ? 'water' : ref.mode}|${vehicle ?? ''}`;
    let group = groups.get(groupKey);
    if (!group) {
      group = { key: groupKey, mode: null, modes: new Set(), kind: null, calls: [], firstMs: Number.POSITIVE_INFINITY, laden: 0, empty: 0 };
      groups.set(groupKey, group);
    }
    group.modes.add(ref.mode);
    // An empty box's load or discharge makes no stop of the cargo's: the vehicle only counts it.
    if (isEmptyMove(event)) {
      group.empty++;
      continue;
    }
    const callKey = `${groupKey}@${ref.locode ?? (ref.id ? `id:${ref.id}` : '?')}`;
    let call = calls.get(callKey);
    if (!call) {
      call = {
        key: callKey,
        group,
        ref,
        vessel: null,
        locode: ref.locode,
        place: ref.place,
        seq: ref.seq,
        minMs: Number.POSITIVE_INFINITY,
        maxMs: Number.NEGATIVE_INFINITY,
        events: [],
        load: false,
        disc: false,
        arr: false,
        dep: false,
        board: false,
        alight: false,
      };
      calls.set(callKey, call);
      group.calls.push(call);
    }
    call.seq ??= ref.seq;
    call.vessel ??= ref.vessel;
    // Transport events name the port call itself; prefer their place over an equipment event's yard.
    if (event.eventType === 'transport' && ref.place && call.events.every((e) => e.eventType !== 'transport')) call.place = ref.place;
    call.place ??= ref.place;
    join(event, call);
  }

  for (const g of groups.values()) {
    // The most specific word any event uses for the vehicle: a carrier's FEEDER, then BARGE, then what is left.
    g.mode = g.modes.has('feeder') ? 'feeder' : g.modes.has('barge') ? 'barge' : ([...g.modes][0] ?? null);
    // A vehicle that only moved the box empty (repositioning before it was stuffed, or after it was stripped) is
    // no leg of the cargo's.
    g.kind = g.mode === null || g.calls.length === 0 || (g.empty > 0 && g.laden === 0) ? null : LEG_KIND[g.mode];
  }

  // A load or discharge without a transport call (allowed in 3.0) belongs to the stop at the same place, if
  // any vehicle stops there; otherwise there is no telling which vehicle it was, and it is skipped.
  for (const event of events) {
    if (event.call || !event.place?.locode || isEmptyMove(event)) continue;
    const action = actionOf(event);
    if (action !== 'loaded' && action !== 'discharged') continue;
    const candidates = [...calls.values()].filter((c) => c.locode === event.place?.locode && c.group.kind !== null);
    candidates.sort((a, b) => Math.abs(a.minMs - event.ms) - Math.abs(b.minMs - event.ms) || cmp(a.key, b.key));
    if (candidates[0]) join(event, candidates[0]);
  }

  const ordered = [...groups.values()].filter((g) => g.calls.length > 0);
  for (const g of ordered) {
    g.calls.sort(g.calls.every((c) => c.seq !== null) ? (a, b) => a.seq! - b.seq! || byCallTime(a, b) : byCallTime);
    g.firstMs = Math.min(...g.calls.map((c) => c.minMs));
  }
  ordered.sort((a, b) => a.firstMs - b.firstMs || cmp(a.key, b.key));

  // BARGE is inland water transport and FEEDER a carrier's own word: either is a feeder once a sea-going VESSEL
  // leg exists (without one, the barge legs are the journey's main legs).
  const hasVessel = ordered.some((g) => g.mode === 'vessel' && g.kind !== null);
  for (const g of ordered) if (g.kind === 'feeder' && !hasVessel) g.kind = 'main';

  for (const g of ordered) {
    if (g.kind === null) continue;
    const earlier = ordered.some(
      (o) => o !== g && o.kind !== null && (o.firstMs < g.firstMs || (o.firstMs === g.firstMs && o.key < g.key)),
    );
    assignRoles(g, earlier);
  }

  // POL and POD as DCSA defines them: where the cargo boards the first and leaves the last sea-going vessel. A
  // VESSEL leg is a feeder only when the bill of lading's own ports (its arrival notice) put it before the POL
  // or after the POD: water pre- or on-carriage. Nothing else moves them.
  const mainCalls = () => ordered.filter((g) => g.kind === 'main').flatMap((g) => g.calls);
  let main = mainCalls();
  let pol = first(
    main.filter((c) => c.board),
    byCallTime,
  );
  let pod = last(
    main.filter((c) => c.alight),
    byCallTime,
  );
  let statedPol: Call | null = null;
  let statedPod: Call | null = null;
  if (ports) {
    const sea = main.filter((c) => c.group.mode === 'vessel');
    statedPol = ports.pol
      ? first(
          sea.filter((c) => c.board && c.locode === ports.pol),
          byCallTime,
        )
      : null;
    statedPod = ports.pod
      ? last(
          sea.filter((c) => c.alight && c.locode === ports.pod),
          byCallTime,
        )
      : null;
    for (const g of ordered) {
      if (g.kind !== 'main' || g.mode !== 'vessel') continue;
      const moves = g.calls.filter((c) => c.board || c.alight);
      if (moves.length === 0) continue;
      const before = statedPol !== null && g !== statedPol.group && Math.min(...moves.map((c) => c.minMs)) < statedPol.minMs;
      const after = statedPod !== null && g !== statedPod.group && Math.max(...moves.map((c) => c.maxMs)) > statedPod.maxMs;
      if (before || after) g.kind = 'feeder';
    }
    main = mainCalls();
    pol =
      statedPol ??
      first(
        main.filter((c) => c.board),
        byCallTime,
      );
    pod =
      statedPod ??
      last(
        main.filter((c) => c.alight),
        byCallTime,
      );
  }

  // A 3.0 carrier that calls the structural POL's loads (POD's discharges) a transshipment says the B/L's port is
  // another one that the events do not show yet (the data starts or ends mid-journey): unknown, not this one.
  if (pol && pol !== statedPol && stopMovement(pol, 'loaded') === 'transshipment') pol = null;
  if (pod && pod !== statedPod && stopMovement(pod, 'discharged') === 'transshipment') pod = null;

  const classified = ordered.filter((g) => g.kind !== null).flatMap((g) => g.calls);
  const polPort = pol ? portOf(pol) : null;
  const polBoards = polPort ? main.filter((c) => c.board && portOf(c) === polPort) : [];
  const finalStop = last(
    classified.filter((c) => c.alight),
    byCallTime,
  );
  const destination =
    pod && finalStop && finalStop.group.kind !== 'main' && finalStop.minMs > pod.minMs && portOf(finalStop) !== portOf(pod)
      ? finalStop
      : null;

  return {
    callOf,
    pol,
    pod,
    destination,
    polLimitMs: polBoards.length ? Math.max(...polBoards.map((c) => c.maxMs)) : null,
    global: sidesOf(
      classified.filter((c) => c.board),
      classified.filter((c) => c.alight),
    ),
    byContainer: containerSides(events, callOf),
    offDockMoves: offDockMoves(events),
  };
}

/**
 * Which stops of one vehicle board the cargo and which land it. Equipment events say so directly (LOAD,
 * DISC). Without them the first stop boards and the last one lands; a vehicle seen at one stop only boards
 * if it departs from there and is the first leg, else lands.
 */
function assignRoles(g: Group, hasEarlierLeg: boolean): void {
  const calls = g.calls;
  for (const c of calls) {
    c.board = c.load;
    c.alight = c.disc;
  }
  const boards = calls.filter((c) => c.board);
  const alights = calls.filter((c) => c.alight);
  if (boards.length === 0 && alights.length === 0) {
    if (calls.length >= 2) {
      calls[0]!.board = true;
      calls[calls.length - 1]!.alight = true;
    } else if (calls[0]) {
      const only = calls[0];
      only.board = only.dep && !(only.arr && hasEarlierLeg);
      only.alight = only.arr && !only.board;
    }
    return;
  }
  if (boards.length === 0 && calls.indexOf(alights[0]!) > 0) calls[0]!.board = true;
  if (alights.length === 0 && calls.indexOf(boards[boards.length - 1]!) < calls.length - 1) calls[calls.length - 1]!.alight = true;
}

function sidesOf(boards: Call[], alights: Call[]): Sides {
  const firstBoard = first(boards, byCallTime);
  const firstAlight = first(alights, byCallTime);
  const lastBoard = last(boards, byCallTime);
  const lastAlight = last(alights, byCallTime);
  return {
    exportUntilMs: firstBoard?.maxMs ?? firstAlight?.minMs ?? Number.POSITIVE_INFINITY,
    importFromMs: lastAlight && (!lastBoard || lastAlight.minMs >= lastBoard.minMs) ? lastAlight.minMs : null,
  };
}

/** Sides per container from its own loads and discharges: containers of one B/L can sail apart. */
function containerSides(events: Norm[], callOf: Map<Norm, Call>): Map<string, Sides> {
  const moves = new Map<string, { boards: Call[]; alights: Call[] }>();
  for (const event of events) {
    const call = callOf.get(event);
    if (!event.container || !call || call.group.kind === null) continue;
    const action = actionOf(event);
    if (action !== 'loaded' && action !== 'discharged') continue;
    const m = moves.get(event.container) ?? { boards: [], alights: [] };
    (action === 'loaded' ? m.boards : m.alights).push(call);
    moves.set(event.container, m);
  }
  return new Map([...moves].map(([container, m]) => [container, sidesOf(m.boards, m.alights)]));
}

/** A laden box gated in or out at an off-dock yard, as a fact (estimates of a move there decide nothing). */
function isOffDockMove(e: Norm): boolean {
  return (
    e.eventType === 'equipment' &&
    (e.equipment === 'gated_in' || e.equipment === 'gated_out') &&
    e.empty === 'laden' &&
    e.facilityType === 'off_dock' &&
    e.classifier === 'actual' &&
    e.container !== null
  );
}

function offDockMoves(events: Norm[]): Map<string, number[]> {
  const moves = new Map<string, number[]>();
  for (const e of events) if (isOffDockMove(e)) moves.set(e.container!, [...(moves.get(e.container!) ?? []), e.ms]);
  return moves;
}

// ---------------------------------------------------------------------------------------------------------
// Events to milestones

type Action = 'loaded' | 'discharged' | 'arrived' | 'departed';

function actionOf(e: Norm): Action | null {
  if (e.eventType === 'transport') return e.transport === 'arrived' || e.transport === 'departed' ? e.transport : null;
  if (e.eventType === 'equipment') return e.equipment === 'loaded' || e.equipment === 'discharged' ? e.equipment : null;
  return null;
}

function milestoneOf(e: Norm, plan: Plan): MilestoneFact | null {
  if (!e.classifier) return null;
  const fact = (milestone: Milestone, extra: Partial<MilestoneFact> = {}): MilestoneFact => ({
    milestone,
    classifier: e.classifier!,
    when: e.when,
    place: e.place,
    vessel: null,
    voyage: null,
    mode: null,
    containerNumber: e.eventType === 'transport' ? null : e.container,
    railCarrierScac: null,
    sourceCode: e.sourceCode,
    sourceEventId: e.id,
    reportedAt: e.reportedAt,
    ...extra,
  });

  const action = actionOf(e);
  if (action) {
    const call = plan.callOf.get(e);
    const kind = call?.group.kind;
    if (!call || !kind) return null;
    const boarding = action === 'loaded' || action === 'departed';
    if (boarding ? !call.board : !call.alight) return null;
    let milestone: Milestone = kind === 'main' ? mainMilestone(e, call, action, plan) : LEG_MILESTONES[kind][action];
    if (action === 'arrived' && e.facilityType === 'berth') {
      // Alongside at the POD is the berthing, not a second arrival. Elsewhere there is no berthing milestone:
      // the berth arrival stands for the arrival only when the carrier gives no other of that kind.
      if (milestone === 'vessel_arrived') milestone = 'vessel_berthed';
      else if (call.events.some((x) => x !== e && actionOf(x) === 'arrived' && x.facilityType !== 'berth' && x.classifier === e.classifier))
        return null;
    }
    // The cargo leaves a stop on the export voyage and reaches one on the import voyage.
    const voyageOf = (r: CallRef | null) =>
      r ? (boarding ? (r.exportVoyage ?? r.importVoyage) : (r.importVoyage ?? r.exportVoyage)) : null;
    return fact(milestone, {
      place: e.place ?? call.place,
      mode: transportMode(call.group.mode),
      vessel: kind === 'rail' ? null : (e.call?.vessel ?? call.vessel),
      voyage: voyageOf(e.call) ?? voyageOf(call.ref),
    });
  }

  if (e.eventType === 'equipment' && e.equipment) {
    const placeFree = PLACE_FREE_EQUIPMENT_MILESTONES[e.equipment];
    if (placeFree) return fact(placeFree);
    const gate = gateMilestone(e, plan);
    // Carriers often hang the outbound vessel's call on a gate-in; only a TRUCK call says how the box moved.
    return gate ? fact(gate, { mode: e.call?.mode === 'truck' ? 'truck' : null }) : null;
  }

  if (e.eventType === 'shipment') {
    const rule = SHIPMENT_MILESTONES.find((r) => r.status === e.shipment && r.document === e.shipmentDocument);
    return rule ? fact(rule.milestone) : null;
  }
  return null;
}

/**
 * A main leg's stop is the B/L's (vessel_*) or a transshipment's. The carrier's own classification decides where
 * it gives one (3.0 `movementType`/`transportPhase`: EXPORT or IMPORT → vessel_*, TRANSSHIPMENT →
 * transshipment_*); an arrival or departure takes that of the discharges or loads at its stop. Otherwise the port
 * does: loads and departures at the POL and arrivals and discharges at the POD are vessel_*, all others
 * transshipment_* (by port, not by leg: two vessels from the same POL both load there).
 */
function mainMilestone(e: Norm, call: Call, action: Action, plan: Plan): Milestone {
  const boarding = action === 'loaded' || action === 'departed';
  const phase = e.movement ?? stopMovement(call, boarding ? 'loaded' : 'discharged');
  if (phase === 'transshipment') return TRANSSHIPMENT_MILESTONES[action];
  if (phase === 'export' || phase === 'import') return LEG_MILESTONES.main[action];
  const home = boarding ? plan.pol : plan.pod;
  return home && portOf(home) === portOf(call) ? LEG_MILESTONES.main[action] : TRANSSHIPMENT_MILESTONES[action];
}

/** The one movement the carrier gives the stop's loads (or discharges), if they agree on one. */
function stopMovement(call: Call, action: 'loaded' | 'discharged'): InternalCode<'movement'> | null {
  const phases = new Set(call.events.filter((x) => actionOf(x) === action && x.movement !== null).map((x) => x.movement));
  return phases.size === 1 ? [...phases][0]! : null;
}

/**
 * Gate moves are named by which side of the sea leg they are on: an empty out before the first load is the
 * empty pick-up, a laden in at the POL before it sails is `full_in`, a laden out after the last discharge is
 * the pick-up for delivery and an empty in after it is the return. Anything else (an empty returned unused,
 * a laden gate-out at a transshipment terminal) has no canonical name and is skipped.
 */
function gateMilestone(e: Norm, plan: Plan): Milestone | null {
  if (e.equipment !== 'gated_in' && e.equipment !== 'gated_out') return null;
  const sides = (e.container && plan.byContainer.get(e.container)) || plan.global;
  const afterLastDischarge = sides.importFromMs !== null && e.ms >= sides.importFromMs;
  if (e.equipment === 'gated_out' && e.empty === 'empty') return e.ms <= sides.exportUntilMs ? 'empty_out' : null;
  if (e.equipment === 'gated_out' && e.empty === 'laden') {
    if (!afterLastDischarge) return null;
    // Out of the marine terminal and then in at an off-dock yard is a transfer; the pick-up is the gate-out there.
    const offDock = (e.container && plan.offDockMoves.get(e.container)) || [];
    if (e.facilityType !== 'off_dock' && offDock.some((ms) => ms > e.ms)) return null;
    return 'full_out';
  }
  if (e.equipment === 'gated_in' && e.empty === 'empty') return afterLastDischarge ? 'empty_in' : null;
  if (e.equipment === 'gated_in' && e.empty === 'laden') {
    if (!plan.pol || plan.polLimitMs === null) return e.ms <= sides.exportUntilMs ? 'full_in' : null;
    const there = e.place?.locode ?? null;
    return (there === null || there === plan.pol.locode) && e.ms <= plan.polLimitMs ? 'full_in' : null;
  }
  return null;
}

function transportMode(mode: Mode | null): TransportMode | null {
  switch (mode) {
    case 'vessel':
    case 'feeder':
      return 'vessel';
    case 'barge':
      return 'barge';
    case 'rail':
      return 'rail';
    case 'truck':
      return 'truck';
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Shipment and container facts

function shipmentOf(events: Norm[], plan: Plan, options: ParseOptions): ShipmentFact {
  const docs = events.flatMap((e) => e.documents);
  const target = options.target;
  return {
    billOfLadingNumber: pickDocument(docs, 'transport_document', target?.numberType === 'bill_of_lading' ? target.number : null),
    bookingNumber: pickDocument(docs, 'booking', target?.numberType === 'booking_number' ? target.number : null),
    carrierScac: options.carrierScac,
    portOfLading: plan.pol?.place ?? null,
    portOfDischarge: plan.pod?.place ?? null,
    destination: plan.destination?.place ?? null,
  };
}

/** The asked-for number when the carrier names it, else the one named most often (ties: alphabetical). */
function pickDocument(docs: { kind: DocumentKind; value: string }[], kind: DocumentKind, asked: string | null): string | null {
  const counts = new Map<string, number>();
  for (const d of docs) if (d.kind === kind && d.value) counts.set(d.value, (counts.get(d.value) ?? 0) + 1);
  if (asked) {
    const match = [...counts.keys()].filter((v) => v.toUpperCase() === asked.trim().toUpperCase()).sort(cmp)[0];
    if (match) return match;
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]));
  return ranked[0]?.[0] ?? null;
}

/**
 * One fact per container; size-type and seal from the latest event that states them, except that once the box
 * was resealed (an actual RSEA) the latest reseal's new seal is its seal: carriers keep repeating the booking's
 * seal on later events.
 */
function containersOf(events: Norm[]): ContainerFact[] {
  const byNumber = new Map<string, ContainerFact>();
  const resealed = new Set<string>();
  for (const e of events) {
    if (!e.container) continue;
    const fact = byNumber.get(e.container) ?? {
      number: e.container,
      isoSizeType: null,
      sealNumber: null,
      weightLbs: null,
      weightIsShipmentAverage: false,
    };
    if (e.isoCode) fact.isoSizeType = e.isoCode;
    if (e.eventType === 'equipment' && e.equipment === 'resealed' && e.classifier === 'actual' && e.seals.length > 0) {
      // The seal put on is the one it names that the box did not carry before (some carriers list both).
      const before = fact.sealNumber;
      fact.sealNumber = e.seals.find((n) => n !== before) ?? e.seals[0]!;
      resealed.add(e.container);
    } else if (e.seals[0] && !resealed.has(e.container)) {
      fact.sealNumber = e.seals[0];
    }
    byNumber.set(e.container, fact);
  }
  return [...byNumber.values()].sort((a, b) => cmp(a.number, b.number));
}

/**
 * The POD's off-dock yard, when the carrier says the box went there: its latest actual laden gate move at an
 * off-dock facility (2.2 transport call `facilityTypeCode` OFFD, 3.0 `OFFD`/`OFF_DOCK_STORAGE`) after its last
 * discharge, at the POD's UN/LOCODE. A yard fact with only `offDock` set: DCSA says nothing of holds or fees there.
 */
function offDockYard(events: Norm[], plan: Plan): YardFact[] {
  const latest = new Map<string, Norm>();
  for (const e of events) {
    if (!isOffDockMove(e) || !e.place) continue;
    const sides = plan.byContainer.get(e.container!) ?? plan.global;
    if (sides.importFromMs === null || e.ms < sides.importFromMs) continue;
    const podLocode = plan.pod?.locode ?? null;
    if (e.place.locode !== null && podLocode !== null && e.place.locode !== podLocode) continue;
    latest.set(e.container!, e);
  }
  return [...latest.values()]
    .map((e) => ({
      containerNumber: e.container!,
      facility: { ...e.place!, locode: e.place!.locode ?? plan.pod?.locode ?? null },
      available: null,
      holds: null,
      fees: null,
      lastFreeDay: null,
      lineLastFreeDay: null,
      appointmentAt: null,
      offDock: true,
      yardLocation: null,
      chassisNumber: null,
    }))
    .sort((a, b) => cmp(a.containerNumber, b.containerNumber));
}

// ---------------------------------------------------------------------------------------------------------
// Small pure helpers

function whenOf(value: string): { when: When; ms: number } {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value))
    return { when: { at: null, localDateTime: null, localDate: value }, ms: Date.parse(`${value}T00:00:00Z`) };
  if (/(?:Z|[+-]\d{2}:\d{2})$/.test(value)) return { when: { at: value, localDateTime: null, localDate: null }, ms: Date.parse(value) };
  // A wall-clock time without an offset is no instant until the place's zone is known: keep it as local
  // time (to seconds) for normalization to resolve, rather than invent an offset.
  const local = value.slice(0, 19).padEnd(19, ':00');
  return { when: { at: null, localDateTime: local, localDate: null }, ms: Date.parse(`${local}Z`) };
}

function classifierOf(code: string): Classifier | null {
  const internal = dcsaCode('classifier', code);
  return internal ? CLASSIFIER[internal] : null;
}

function sealsOf(numbers: (string | null | undefined)[]): string[] {
  return numbers.flatMap((n) => {
    const v = clean(n);
    return v ? [v] : [];
  });
}

function clean(value: string | null | undefined): string | null {
  const v = value?.trim();
  return v ? v : null;
}

function containerOf(reference: string | null | undefined): string | null {
  const v = clean(reference);
  return v ? normalizeContainerNumber(v) : null;
}

function placeOf(
  locode: string | null | undefined,
  name: string | null | undefined,
  facilityCode: string | null | undefined,
  list: string | null | undefined,
): Place | null {
  const code = clean(facilityCode);
  const place: Place = {
    locode: clean(locode),
    name: clean(name),
    facilityCode: code,
    facilityCodeList: code ? dcsaCode('facilityCodeList', list) : null,
  };
  return place.locode || place.name || place.facilityCode ? place : null;
}

/** The event's own location, completed from its transport call when both are the same place. */
function mergePlaces(own: Place | null, call: Place | null): Place | null {
  if (!own) return call;
  if (!call || (own.locode && call.locode && own.locode !== call.locode)) return own;
  const facility = own.facilityCode ? own : call;
  return {
    locode: own.locode ?? call.locode,
    name: own.name ?? call.name,
    facilityCode: facility.facilityCode,
    facilityCodeList: facility.facilityCodeList,
  };
}

/** IMO numbers carry a check digit; a number that fails it would create a vessel that does not exist. */
function imoOf(value: string | null | undefined): string | null {
  const v = clean(value)?.replace(/^IMO\s*/i, '');
  if (!v || !/^\d{7}$/.test(v)) return null;
  const digits = [...v].map(Number);
  const sum = digits.slice(0, 6).reduce((acc, d, i) => acc + d * (7 - i), 0);
  return sum % 10 === digits[6] ? v : null;
}

function vesselOf(imo: string | null | undefined, name: string | null | undefined): VesselRef | null {
  // DCSA carries no MMSI.
  const vessel = { name: clean(name), imo: imoOf(imo), mmsi: null };
  return vessel.name || vessel.imo ? vessel : null;
}

function vehicleOf(vessel: VesselRef | null, voyage: string | null): string | null {
  if (vessel?.imo) return `imo:${vessel.imo}`;
  if (vessel?.name) return `name:${vessel.name.toUpperCase()}`;
  return voyage ? `voyage:${voyage}` : null;
}

function vehicleRank(vehicle: string): number {
  return vehicle.startsWith('imo:') ? 0 : vehicle.startsWith('name:') ? 1 : 2;
}

function portOf(call: Call): string {
  return call.locode ?? call.key;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byTime(a: Norm, b: Norm): number {
  return a.ms - b.ms || cmp(a.fingerprint, b.fingerprint);
}

function byCallTime(a: Call, b: Call): number {
  return a.minMs - b.minMs || cmp(a.key, b.key);
}

function first<T>(items: T[], order: (a: T, b: T) => number): T | null {
  return items.length ? [...items].sort(order)[0]! : null;
}

function last<T>(items: T[], order: (a: T, b: T) => number): T | null {
  return items.length ? [...items].sort(order)[items.length - 1]! : null;
}

function compareMilestones(a: MilestoneFact, b: MilestoneFact): number {
  return (
    instantOf(a.when) - instantOf(b.when) ||
    MILESTONES.indexOf(a.milestone) - MILESTONES.indexOf(b.milestone) ||
    CLASSIFIERS.indexOf(a.classifier) - CLASSIFIERS.indexOf(b.classifier) ||
    cmp(a.containerNumber ?? '', b.containerNumber ?? '') ||
    cmp(a.sourceEventId ?? '', b.sourceEventId ?? '')
  );
}

function instantOf(when: When): number {
  if (when.at) return Date.parse(when.at);
  if (when.localDateTime) return Date.parse(`${when.localDateTime}Z`);
  return when.localDate ? Date.parse(`${when.localDate}T00:00:00Z`) : 0;
}
