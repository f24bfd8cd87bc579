// The adapter contract's output as a zod schema: what every adapter must hand over (valid ISO 6346 container
// numbers, UN/LOCODEs, real ISO 8601 times, closed vocabularies). The contract suite checks every adapter's
// observations against it; a compile-time check keeps it equal to the interfaces in contract.ts.
import { z } from 'zod';
import { checkContainerNumber } from '../domain/container-number.js';
import { CLASSIFIERS, FEE_TYPES, HOLD_NAMES, MILESTONES, TRANSPORT_MODES } from '../domain/milestones.js';
import type {
  CanonicalFacts,
  ContainerFact,
  FeeFact,
  HoldFact,
  MilestoneFact,
  Place,
  ShipmentFact,
  SourceObservation,
  TrackTarget,
  VesselPositionFact,
  VesselRef,
  When,
  YardFact,
} from './contract.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)$/;
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{1,9})?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** A real calendar date (2024-02-30 is not one). */
function realDate(value: string): boolean {
  const [y, m, d] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export const localDateSchema = z.string().regex(DATE, 'expected YYYY-MM-DD').refine(realDate, 'not a calendar date');
export const localDateTimeSchema = z
  .string()
  .regex(LOCAL_DATE_TIME, 'expected YYYY-MM-DDTHH:MM:SS')
  .refine(realDate, 'not a calendar date');
/** An instant: ISO 8601 date-time with `Z` or an offset. */
export const instantSchema = z
  .string()
  .regex(INSTANT, 'expected an ISO 8601 date-time with Z or an offset')
  .refine(realDate, 'not a calendar date');

export const locodeSchema = z.string().regex(/^[A-Z]{2}[A-Z2-9]{3}$/, 'expected a UN/LOCODE (5 characters)');
export const scacSchema = z.string().regex(/^[A-Z]{2,4}$/, 'expected a SCAC');
/** A valid ISO 6346 container number, normalized (`MSKU1234565`). */
export const containerNumberSchema = z.string().refine((v) => {
  const check = checkContainerNumber(v);
  return check.valid && check.normalized === v;
}, 'expected a normalized ISO 6346 container number with a valid check digit');

/** 7 digits whose last is the IMO check digit. */
export const imoSchema = z.string().refine((v) => {
  if (!/^\d{7}$/.test(v)) return false;
  const digits = [...v].map(Number);
  return digits.slice(0, 6).reduce((sum, d, i) => sum + d * (7 - i), 0) % 10 === digits[6];
}, 'expected a 7-digit IMO number with a valid check digit');
export const mmsiSchema = z.string().regex(/^\d{9}$/, 'expected a 9-digit MMSI');

export const whenSchema = z
  .object({ at: instantSchema.nullable(), localDateTime: localDateTimeSchema.nullable(), localDate: localDateSchema.nullable() })
  .strict()
  .refine((w) => [w.at, w.localDateTime, w.localDate].filter((v) => v !== null).length <= 1, 'at most one of at, localDateTime, localDate');

export const placeSchema = z
  .object({
    locode: locodeSchema.nullable(),
    name: z.string().min(1).nullable(),
    facilityCode: z.string().min(1).nullable(),
    facilityCodeList: z.enum(['smdg', 'bic', 'firms']).nullable(),
  })
  .strict()
  .refine((p) => (p.facilityCode === null) === (p.facilityCodeList === null), 'facilityCode and facilityCodeList go together');

export const vesselRefSchema = z
  .object({ name: z.string().min(1).nullable(), imo: imoSchema.nullable(), mmsi: mmsiSchema.nullable() })
  .strict();

export const milestoneFactSchema = z
  .object({
    milestone: z.enum(MILESTONES),
    classifier: z.enum(CLASSIFIERS),
    when: whenSchema,
    place: placeSchema.nullable(),
    vessel: vesselRefSchema.nullable(),
    voyage: z.string().min(1).nullable(),
    mode: z.enum(TRANSPORT_MODES).nullable(),
    containerNumber: containerNumberSchema.nullable(),
    railCarrierScac: scacSchema.nullable(),
    sourceCode: z.string().min(1),
    sourceEventId: z.string().min(1).nullable(),
    reportedAt: instantSchema.nullable(),
  })
  .strict();

export const containerFactSchema = z
  .object({
    number: containerNumberSchema,
    isoSizeType: z
      .string()
      .regex(/^[0-9A-Z]{4}$/, 'expected an ISO 6346 size-type code')
      .nullable(),
    sealNumber: z.string().min(1).nullable(),
    weightLbs: z.number().positive().finite().nullable(),
    weightIsShipmentAverage: z.boolean(),
  })
  .strict();

export const holdFactSchema = z
  .object({ name: z.enum(HOLD_NAMES), status: z.enum(['hold', 'pending']), description: z.string().min(1).nullable() })
  .strict();

export const feeFactSchema = z
  .object({
    type: z.enum(FEE_TYPES),
    amount: z.number().finite(),
    currencyCode: z.string().regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code'),
  })
  .strict();

export const yardFactSchema = z
  .object({
    containerNumber: containerNumberSchema,
    facility: placeSchema,
    available: z.boolean().nullable(),
    holds: z.array(holdFactSchema).nullable(),
    fees: z.array(feeFactSchema).nullable(),
    lastFreeDay: whenSchema.nullable(),
    lineLastFreeDay: whenSchema.nullable(),
    appointmentAt: instantSchema.nullable(),
    offDock: z.boolean().optional(),
    yardLocation: z.string().min(1).nullable(),
    chassisNumber: z.string().min(1).nullable(),
  })
  .strict();

export const shipmentFactSchema = z
  .object({
    billOfLadingNumber: z.string().min(1).nullable(),
    bookingNumber: z.string().min(1).nullable(),
    carrierScac: scacSchema.nullable(),
    portOfLading: placeSchema.nullable(),
    portOfDischarge: placeSchema.nullable(),
    destination: placeSchema.nullable(),
  })
  .strict();

export const vesselPositionFactSchema = z
  .object({
    imo: imoSchema,
    at: instantSchema,
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    speedKnots: z.number().min(0).finite().nullable(),
    headingDegrees: z.number().min(0).lt(360).nullable(),
    destination: z.string().min(1).nullable(),
  })
  .strict();

export const canonicalFactsSchema = z
  .object({
    shipment: shipmentFactSchema.nullable(),
    containers: z.array(containerFactSchema),
    milestones: z.array(milestoneFactSchema),
    yard: z.array(yardFactSchema),
    vesselPositions: z.array(vesselPositionFactSchema),
  })
  .strict();

export const trackTargetSchema = z
  .object({
    numberType: z.enum(['bill_of_lading', 'booking_number', 'container', 'vessel_imo']),
    number: z.string().min(1),
    scac: z.string().optional(),
    facilityCode: z.string().optional(),
  })
  .strict();

export const sourceObservationSchema = z
  .object({
    sourceId: z.string().regex(/^[a-z]+:[A-Za-z0-9_-]+$/, 'expected <kind>:<name>'),
    target: trackTargetSchema,
    fetchedAt: z.date().refine((d) => !Number.isNaN(d.getTime()), 'invalid date'),
    payload: z.unknown(),
    payloadSha256: z.string().regex(/^[0-9a-f]{64}$/, 'expected a sha256 hex digest'),
    facts: canonicalFactsSchema,
  })
  .strict();

// The schemas infer exactly the contract's types: these lines stop compiling when either side changes alone.
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Same<A, B> = Equals<A, B> extends true ? true : never;
const _same: [
  Same<z.infer<typeof whenSchema>, When>,
  Same<z.infer<typeof placeSchema>, Place>,
  Same<z.infer<typeof vesselRefSchema>, VesselRef>,
  Same<z.infer<typeof milestoneFactSchema>, MilestoneFact>,
  Same<z.infer<typeof containerFactSchema>, ContainerFact>,
  Same<z.infer<typeof holdFactSchema>, HoldFact>,
  Same<z.infer<typeof feeFactSchema>, FeeFact>,
  Same<z.infer<typeof yardFactSchema>, YardFact>,
  Same<z.infer<typeof shipmentFactSchema>, ShipmentFact>,
  Same<z.infer<typeof vesselPositionFactSchema>, VesselPositionFact>,
  Same<z.infer<typeof canonicalFactsSchema>, CanonicalFacts>,
  Same<z.infer<typeof trackTargetSchema>, TrackTarget>,
  Same<z.infer<typeof sourceObservationSchema>, SourceObservation>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true];
void _same;

/** Every problem with an adapter's facts, as `path: message` lines; empty when valid. */
export function factsProblems(facts: unknown): string[] {
  const result = canonicalFactsSchema.safeParse(facts);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
}

/** Every problem with an observation, as `path: message` lines; empty when valid. */
export function observationProblems(observation: unknown): string[] {
  const result = sourceObservationSchema.safeParse(observation);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
}
