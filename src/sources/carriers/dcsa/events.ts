// Validation and normalization: DCSA 2.2 and 3.0 events in version-free terms, retracted and superseded versions settled.
import type { CallRef, Norm } from './model.js';
import { type Place, SourceError } from '../../contract.js';
import { stableJson } from '../../http.js';
import { dcsaCode } from './codes.js';
import { type Event22, type Event30, type Location22, Page22, Page30, type TransportCall22, validate } from './raw.js';
import { byTime, classifierOf, clean, containerOf, mergePlaces, placeOf, sealsOf, vehicleOf, vesselOf, whenOf } from './values.js';

export function normalize(payload: unknown): Norm[] {
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

export function from22(tagged: Event22, raw: unknown): Norm {
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

export function call22(tc: TransportCall22): CallRef {
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

export function location22(l: Location22 | null | undefined): Place | null {
  return l ? placeOf(l.UNLocationCode, l.locationName, l.facilityCode, l.facilityCodeListProvider) : null;
}

export function documents22(refs: { documentReferenceType: string; documentReferenceValue: string }[] | null | undefined) {
  return (refs ?? []).flatMap((r) => {
    const kind = dcsaCode('documentType', r.documentReferenceType);
    return kind ? [{ kind, value: r.documentReferenceValue.trim() }] : [];
  });
}

export function from30(e: Event30, raw: unknown): Norm {
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
export function latestVersions(norms: Norm[]): Norm[] {
  const latest = new Map<string, Norm>();
  for (const n of norms) {
    const current = latest.get(n.id);
    if (!current || n.versionMs > current.versionMs || (n.versionMs === current.versionMs && n.fingerprint > current.fingerprint)) {
      latest.set(n.id, n);
    }
  }
  return [...latest.values()].filter((n) => !n.retracted).sort(byTime);
}
