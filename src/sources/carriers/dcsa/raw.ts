// What DCSA Track & Trace carriers send: TNT 2.2 (GET /v2/events) and TNT 3.0 (GET /events, in both the
// 4-letter conformance spelling and the full-word information-model spelling).
import { z } from 'zod';

// Strict where we read (required fields, types, 2.2 UUID event ids, timestamps, UN/LOCODEs), so a broken
// response fails loudly instead of becoming wrong facts. Open where DCSA grows between versions: code values
// stay strings (codes.ts maps them; an unknown one skips only that event) and objects keep unknown fields.

/** RFC 3339 date-time with an offset (`Z` or `±hh:mm`), or a date alone, or a local date-time without offset. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

function isRealDateTime(value: string, requireOffset: boolean): boolean {
  const m = DATE_TIME.exec(value);
  if (!m) return false;
  const [, y, mo, d, h, mi, s, offset] = m;
  if (requireOffset && (h === undefined || offset === undefined)) return false;
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  // Date.UTC rolls 2021-02-30 over to March: a real calendar date round-trips unchanged.
  if (date.getUTCFullYear() !== Number(y) || date.getUTCMonth() !== Number(mo) - 1 || date.getUTCDate() !== Number(d)) return false;
  if (h !== undefined && (Number(h) > 23 || Number(mi) > 59 || Number(s ?? 0) > 59)) return false;
  if (offset !== undefined && offset !== 'Z' && (Number(offset.slice(1, 3)) > 23 || Number(offset.slice(4, 6)) > 59)) return false;
  return true;
}

/** When something happened or will happen: an instant, a date alone, or (degraded later) a local date-time. */
export const EventDateTime = z.string().refine((v) => isRealDateTime(v, false), 'expected an ISO 8601 date or date-time');
/** Metadata timestamps (created/updated) are always instants. */
export const Instant = z.string().refine((v) => isRealDateTime(v, true), 'expected an RFC 3339 date-time with offset');

export const UN_LOCODE = /^[A-Z]{2}[A-Z2-9]{3}$/;
// Carriers send "" for "not known" as often as they omit the field; "" is not a format error.
const Locode = z.union([z.literal(''), z.string().regex(UN_LOCODE, 'expected a UN/LOCODE')]);
const Text = z.string();
const Code = z.string().min(1);

// ---------------------------------------------------------------------------------------------------------
// TNT 2.2

export const Location22 = z.looseObject({
  locationName: Text.nullish(),
  UNLocationCode: Locode.nullish(),
  facilityCode: Text.nullish(),
  facilityCodeListProvider: Text.nullish(),
});

export const Vessel22 = z.looseObject({
  // Required by 2.2, but barges have none and carriers fill in ENI numbers: parse keeps only valid IMOs anyway.
  vesselIMONumber: Text.nullish(),
  vesselName: Text.nullish(),
});

export const TransportCall22 = z.looseObject({
  transportCallID: z.string().min(1),
  transportCallSequenceNumber: z.number().int().nullish(),
  carrierVoyageNumber: Text.nullish(),
  exportVoyageNumber: Text.nullish(),
  importVoyageNumber: Text.nullish(),
  UNLocationCode: Locode.nullish(),
  facilityCode: Text.nullish(),
  facilityCodeListProvider: Text.nullish(),
  // Where the call is: POTE (port terminal), OFFD (off-dock storage), … and, from DCSA's facility type list
  // though not in TNT 2.2's enum, BRTH (berth). Kept open like every code.
  facilityTypeCode: Text.nullish(),
  modeOfTransport: Code,
  location: Location22.nullish(),
  vessel: Vessel22.nullish(),
});

export const DocumentReference22 = z.looseObject({
  documentReferenceType: Code,
  documentReferenceValue: z.string().min(1),
});

const Base22 = z.looseObject({
  // The 2.2 schema leaves eventID optional, but it is how corrections and duplicates are recognised, and
  // DCSA's conformance suite treats a missing or non-UUID id as a wrong response.
  eventID: z.guid(),
  eventCreatedDateTime: Instant,
  eventDateTime: EventDateTime,
  eventClassifierCode: Code,
  eventType: Code,
});

export const TransportEvent22 = Base22.extend({
  eventType: z.literal('TRANSPORT'),
  transportEventTypeCode: Code,
  transportCall: TransportCall22,
  documentReferences: z.array(DocumentReference22).nullish(),
});

export const ShipmentEvent22 = Base22.extend({
  eventType: z.literal('SHIPMENT'),
  shipmentEventTypeCode: Code,
  documentID: z.string().min(1),
  documentTypeCode: Code,
});

export const Seal22 = z.looseObject({ sealNumber: z.string().min(1), sealType: Text.nullish() });

export const EquipmentEvent22 = Base22.extend({
  eventType: z.literal('EQUIPMENT'),
  equipmentEventTypeCode: Code,
  equipmentReference: Text.nullish(),
  ISOEquipmentCode: Text.nullish(),
  emptyIndicatorCode: Code,
  eventLocation: Location22.nullish(),
  transportCall: TransportCall22.nullish(),
  seals: z.array(Seal22).nullish(),
  documentReferences: z.array(DocumentReference22).nullish(),
});

/** An event type 2.2 does not define (e.g. a carrier's OPERATIONS events): kept valid, skipped by the parser. */
export const OtherEvent22 = Base22;

export type TransportEvent22 = z.infer<typeof TransportEvent22>;
export type ShipmentEvent22 = z.infer<typeof ShipmentEvent22>;
export type EquipmentEvent22 = z.infer<typeof EquipmentEvent22>;
export type TransportCall22 = z.infer<typeof TransportCall22>;
export type Location22 = z.infer<typeof Location22>;
export type OtherEvent22 = z.infer<typeof OtherEvent22>;

/** A validated 2.2 event, tagged by its type (the tag is ours; stored payloads stay as received). */
export type Event22 =
  | { kind: 'TRANSPORT'; event: TransportEvent22 }
  | { kind: 'SHIPMENT'; event: ShipmentEvent22 }
  | { kind: 'EQUIPMENT'; event: EquipmentEvent22 }
  | { kind: 'OTHER'; event: OtherEvent22 };

function tag22(event: { eventType: string }): { schema: z.ZodType; wrap: (e: unknown) => Event22 } {
  switch (event.eventType) {
    case 'TRANSPORT':
      return { schema: TransportEvent22, wrap: (e) => ({ kind: 'TRANSPORT', event: e as TransportEvent22 }) };
    case 'SHIPMENT':
      return { schema: ShipmentEvent22, wrap: (e) => ({ kind: 'SHIPMENT', event: e as ShipmentEvent22 }) };
    case 'EQUIPMENT':
      return { schema: EquipmentEvent22, wrap: (e) => ({ kind: 'EQUIPMENT', event: e as EquipmentEvent22 }) };
    default:
      return { schema: OtherEvent22, wrap: (e) => ({ kind: 'OTHER', event: e as OtherEvent22 }) };
  }
}

// zod's discriminated unions need a literal for every branch; the open "any other type" branch is
// dispatched here instead, so an error names the field that is wrong rather than "no branch matched".
const AnyEvent22 = z.looseObject({ eventType: Code }).transform((event, ctx): Event22 => {
  const { schema, wrap } = tag22(event);
  const result = schema.safeParse(event);
  if (!result.success) {
    for (const issue of result.error.issues) ctx.addIssue({ ...issue });
    return z.NEVER;
  }
  return wrap(result.data);
});

/** One GET /v2/events page, and the shape of a stored 2.2 payload: a bare array of events. */
export const Page22 = z.array(AnyEvent22);

// ---------------------------------------------------------------------------------------------------------
// TNT 3.0: one Event shape; the conformance spelling (`eventTypeCode`, `ACT`, `typeCode: BKG`) and the
// information-model spelling (`eventType`, `ACTUAL`, `type: BOOKING`) differ in field names and values.

export const Facility30 = z.looseObject({
  facilityName: Text.nullish(),
  facilityCode: Text.nullish(),
  facilityCodeListProvider: Text.nullish(),
});

export const Location30 = z.looseObject({
  locationName: Text.nullish(),
  UNLocationCode: Locode.nullish(),
  facility: Facility30.nullish(),
  // Conformance spelling `facilityTypeCode: OFFD`, information-model spelling `facilityType: OFF_DOCK_STORAGE`.
  facilityTypeCode: Text.nullish(),
  facilityType: Text.nullish(),
});

export const Classification30 = z.looseObject({
  eventTypeCode: Text.nullish(),
  eventType: Text.nullish(),
  eventClassifierCode: Text.nullish(),
  eventClassifier: Text.nullish(),
  shipmentEventTypeCode: Text.nullish(),
  shipmentEventType: Text.nullish(),
  transportEventTypeCode: Text.nullish(),
  transportEventType: Text.nullish(),
  equipmentEventTypeCode: Text.nullish(),
  equipmentEventType: Text.nullish(),
});

export const DocumentReference30 = z.looseObject({
  typeCode: Text.nullish(),
  type: Text.nullish(),
  reference: z.string().min(1),
});

const VoyageNumberOrReference30 = z.looseObject({
  carrierVoyageNumber: Text.nullish(),
  universalVoyageReference: Text.nullish(),
});

export const TransportCall30 = z.looseObject({
  transportCallReference: Text.nullish(),
  transportCallSequenceNumber: z.number().int().nullish(),
  modeOfTransport: Text.nullish(),
  exportVoyageNumberOrReference: VoyageNumberOrReference30.nullish(),
  importVoyageNumberOrReference: VoyageNumberOrReference30.nullish(),
  vesselTransport: z.looseObject({ vesselIMONumber: Text.nullish(), vesselName: Text.nullish() }).nullish(),
  railTransport: z.looseObject({}).nullish(),
  truckTransport: z.looseObject({}).nullish(),
});

export const Seal30 = z.looseObject({ number: z.string().min(1) });

export const EquipmentDetails30 = z.looseObject({
  equipmentReference: Text.nullish(),
  ISOEquipmentCode: Text.nullish(),
  emptyIndicatorCode: Text.nullish(),
  emptyIndicator: Text.nullish(),
  // The carrier's own import/export/transshipment classification of the move: `movementType` in the conformance
  // spelling, `transportPhase` in the information model.
  movementType: Text.nullish(),
  transportPhase: Text.nullish(),
  seals: z.array(Seal30).nullish(),
});

const SUBTYPE_FIELDS: Record<string, readonly [string, string]> = {
  SHIPMENT: ['shipmentEventTypeCode', 'shipmentEventType'],
  TRANSPORT: ['transportEventTypeCode', 'transportEventType'],
  EQUIPMENT: ['equipmentEventTypeCode', 'equipmentEventType'],
};

export const Event30 = z
  .looseObject({
    // 3.0 ids are free text (`evt-resp-ship-001`), not UUIDs; the id is still required to recognise updates.
    eventID: z.string().min(1),
    isRetracted: z.boolean().nullish(),
    eventDateTime: EventDateTime.nullish(),
    eventUpdatedDateTime: Instant.nullish(),
    eventLocation: Location30.nullish(),
    eventClassification: Classification30.nullish(),
    shipmentDetails: z
      .looseObject({
        documentReference: DocumentReference30.nullish(),
        additionalDocumentReferences: z.array(DocumentReference30).nullish(),
      })
      .nullish(),
    transportDetails: z.looseObject({ transportCall: TransportCall30.nullish() }).nullish(),
    equipmentDetails: EquipmentDetails30.nullish(),
  })
  .superRefine((event, ctx) => {
    // A retracted event only needs its id ("any event data other than the eventID is irrelevant").
    if (event.isRetracted) return;
    if (!event.eventDateTime) ctx.addIssue({ code: 'custom', path: ['eventDateTime'], message: 'required unless isRetracted' });
    const c = event.eventClassification;
    if (!c) {
      ctx.addIssue({ code: 'custom', path: ['eventClassification'], message: 'required unless isRetracted' });
      return;
    }
    const type = c.eventTypeCode ?? c.eventType;
    if (!type)
      ctx.addIssue({ code: 'custom', path: ['eventClassification', 'eventTypeCode'], message: 'eventTypeCode or eventType is required' });
    if (!(c.eventClassifierCode ?? c.eventClassifier)) {
      ctx.addIssue({
        code: 'custom',
        path: ['eventClassification', 'eventClassifierCode'],
        message: 'eventClassifierCode or eventClassifier is required',
      });
    }
    const subtype = type ? SUBTYPE_FIELDS[type.toUpperCase()] : undefined;
    if (subtype && !(c[subtype[0]] ?? c[subtype[1]])) {
      ctx.addIssue({ code: 'custom', path: ['eventClassification', subtype[0]], message: `${subtype[0]} or ${subtype[1]} is required` });
    }
  });

export type Event30 = z.infer<typeof Event30>;
export type TransportCall30 = z.infer<typeof TransportCall30>;
export type Location30 = z.infer<typeof Location30>;
export type DocumentReference30 = z.infer<typeof DocumentReference30>;

/** One GET /events page (and the shape of a stored 3.0 payload: all pages' events in one `events`). */
export const Page30 = z.looseObject({ events: z.array(Event30) });

// ---------------------------------------------------------------------------------------------------------
// Arrival Notice 1.0.1 (GET /arrival-notices): only what TNT lacks and we read — per-equipment cargo weights,
// seals, size-types, destination free time and the port of discharge it applies at. Everything else stays
// open (loose objects, optional fields), so a richer notice is still read.

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
export const AnDate = z.string().refine((v) => DATE_ONLY.test(v) && isRealDateTime(v, false), 'expected a date (YYYY-MM-DD)');

export const AnWeight = z.looseObject({ value: z.number().nonnegative(), unit: Code });

export const AnFacility = z.looseObject({ facilityCode: Text.nullish(), facilityCodeListProvider: Text.nullish() });

export const AnLocation = z.looseObject({
  locationName: Text.nullish(),
  UNLocationCode: Locode.nullish(),
  facility: AnFacility.nullish(),
});

export const AnFreeTime = z.looseObject({
  typeCodes: z.array(Code).nullish(),
  ISOEquipmentCodes: z.array(Text).nullish(),
  equipmentReferences: z.array(Text).nullish(),
  duration: z.number().int().nullish(),
  timeUnit: Text.nullish(),
  lastFreeDate: z.looseObject({ value: AnDate, classifier: Text.nullish() }).nullish(),
  lastFreeDateTime: z.looseObject({ value: Instant, classifier: Text.nullish() }).nullish(),
});

export const AnSeal = z.looseObject({ number: z.string().min(1), source: Text.nullish(), type: Text.nullish() });

export const AnUtilizedTransportEquipment = z.looseObject({
  equipment: z.looseObject({ equipmentReference: Text.nullish(), ISOEquipmentCode: Text.nullish() }).nullish(),
  seals: z.array(AnSeal).nullish(),
});

export const AnCargoItem = z.looseObject({ equipmentReference: Text.nullish(), cargoGrossWeight: AnWeight.nullish() });

export const AnConsignmentItem = z.looseObject({ cargoItems: z.array(AnCargoItem).nullish() });

export const ArrivalNotice = z.looseObject({
  issueDateTime: Instant,
  typeLabel: Text.nullish(),
  transportDocumentReference: z.string().min(1),
  transport: z.looseObject({ portOfLoading: AnLocation.nullish(), portOfDischarge: AnLocation.nullish() }).nullish(),
  freeTimes: z.array(AnFreeTime).nullish(),
  utilizedTransportEquipments: z.array(AnUtilizedTransportEquipment).nullish(),
  consignmentItems: z.array(AnConsignmentItem).nullish(),
});

export type ArrivalNotice = z.infer<typeof ArrivalNotice>;
export type AnLocation = z.infer<typeof AnLocation>;
export type AnFreeTime = z.infer<typeof AnFreeTime>;

/** One GET /arrival-notices page; `arrivalNotices` is optional in the spec, and absent means none. */
export const ArrivalNoticesPage = z.looseObject({ arrivalNotices: z.array(ArrivalNotice).nullish() });

/** The stored form: every page's notices, as received. */
export const ArrivalNotices = z.array(ArrivalNotice);

// ---------------------------------------------------------------------------------------------------------

export type Validated<T> = { ok: true; value: T } | { ok: false; message: string };

/** Validates with a schema and, on failure, says where: `[3].transportCall.UNLocationCode: expected a UN/LOCODE`. */
export function validate<S extends z.ZodType>(schema: S, data: unknown): Validated<z.output<S>> {
  const result = schema.safeParse(data);
  if (result.success) return { ok: true, value: result.data };
  const shown = result.error.issues.slice(0, 3).map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
  const more = result.error.issues.length > 3 ? ` (and ${result.error.issues.length - 3} more)` : '';
  return { ok: false, message: shown.join('; ') + more };
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('');
}
