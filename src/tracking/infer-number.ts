// Number inference: what kind of number a client typed (container, bill of lading, booking) and which
// shipping line probably issued it, with a confidence per candidate. Pure: reference data in, answer out.
import { checkContainerNumber, checkDigit } from '../domain/container-number.js';
import { CARRIERS, carrierByBolPrefix, carrierByContainerPrefix, type Carrier } from '../sources/reference/index.js';
import { TEST_SCAC } from '../sources/registry.js';

export type InferredNumberType = 'container' | 'bill_of_lading' | 'booking';
export type CarrierDecision = 'auto_select' | 'needs_confirmation' | 'no_prediction';

export interface CarrierCandidate {
  scac: string;
  name: string;
  /** 0–1, two decimals. */
  confidence: number;
}

export interface NumberInference {
  numberType: InferredNumberType;
  validation: {
    isValid: boolean;
    /** What the number names, in the reference's words: a container, or a shipment (a bill of lading or a booking). */
    type: 'container' | 'shipment';
    /** ISO 6346 check of a container number; null for numbers without a check digit. */
    checkDigitPassed: boolean | null;
    parsedNumber: string;
    /** Why the number is not valid; null when it is. */
    reason: string | null;
  };
  shippingLine: { decision: CarrierDecision; selected: CarrierCandidate | null; candidates: CarrierCandidate[] };
}

type CarrierRef = Pick<Carrier, 'scac' | 'name'>;

/** How carriers are found by prefix; the reference table by default, a fake in tests. */
export interface CarrierLookup {
  byBolPrefix(prefix: string): readonly CarrierRef[];
  byContainerPrefix(ownerCode: string): readonly CarrierRef[];
  /** Length of the longest bill of lading prefix the lookup knows. */
  maxBolPrefixLength: number;
}

export const REFERENCE_CARRIERS: CarrierLookup = {
  byBolPrefix: (p) => [carrierByBolPrefix(p)].filter((c) => c !== undefined),
  byContainerPrefix: (p) => [carrierByContainerPrefix(p)].filter((c) => c !== undefined),
  maxBolPrefixLength: Math.max(0, ...CARRIERS.flatMap((c) => c.bolPrefixes.map((p) => p.length))),
};

export interface InferOptions {
  /** Whether the account may see this carrier; others are never proposed. Default: every carrier. */
  isVisible?: (scac: string) => boolean;
  carriers?: CarrierLookup;
}

/** Longer input is no carrier's number (the longest real ones are about 20 characters). */
export const MAX_NUMBER_LENGTH = 40;

export const AUTO_SELECT_AT = 0.95;
export const NEEDS_CONFIRMATION_AT = 0.7;

// Confidence rules. A candidate's confidence is the chance that this carrier is the one to ask.
// - The reference API's documented test numbers belong to its TEST carrier: certain.
const TEST_NUMBER_CONFIDENCE = 1;
// - A bill of lading prefix is the carrier's own marker, printed on every BL it issues (MAEU…, MEDU…), and
//   each prefix belongs to one carrier. The residual doubt is a forwarder's house BL that happens to start
//   with the same letters, which is rare: house BLs usually carry the forwarder's own code. High enough to
//   auto-select.
const BOL_PREFIX_CONFIDENCE = 0.97;
// - A container owner code says who owns the box, not who moves it: lines lease, swap and slot-charter
//   boxes, and shippers own some. Usually right, never certain: the client should confirm.
const CONTAINER_OWNER_CONFIDENCE = 0.85;
// - A failed check digit means some character is wrong, possibly in the owner code itself (4 of the 11
//   characters): the owner's line stays a candidate but is no longer proposed.
const FAILED_CHECK_DIGIT_FACTOR = 0.8;
// - When the same evidence points at several carriers, it is split evenly among them: none is proposed.
// - Bookings (bare numbers) and bills of lading without a known prefix carry no carrier marker at all:
//   no candidates, no prediction.

/** The reference API's test numbers (`scac: "TEST"`); the sandbox answers them. */
const TEST_NUMBERS = new Set(['TEST-TR-SUCCEEDED', 'TEST-TR-FAILED']);
/** The name the source registry gives the TEST carrier. */
const TEST_CARRIER: CarrierRef = { scac: TEST_SCAC, name: 'Test carrier' };

/**
 * Infers the type and carrier of a number; null when the text cannot be any carrier's number (no letters
 * or digits, characters no carrier uses, or longer than MAX_NUMBER_LENGTH).
 */
export function inferNumber(input: string, options: InferOptions = {}): NumberInference | null {
  const isVisible = options.isVisible ?? (() => true);
  const carriers = options.carriers ?? REFERENCE_CARRIERS;

  // Spaces are never part of a number (copied from documents and mails); dashes, dots and slashes can be
  // (the TEST numbers, some house BLs), so the parsed number keeps them and only matching ignores them.
  const parsed = input.replace(/\s+/g, '').toUpperCase();
  const bare = parsed.replace(/[-./]/g, '');
  if (!bare || parsed.length > MAX_NUMBER_LENGTH || !/^[A-Z0-9./-]+$/.test(parsed)) return null;

  if (TEST_NUMBERS.has(parsed)) {
    return result('bill_of_lading', parsed, null, null, [{ ...TEST_CARRIER, confidence: TEST_NUMBER_CONFIDENCE }]);
  }

  // Container: 3-letter owner code, category U/J/Z, 6-digit serial, check digit. The shape decides the
  // type; a wrong check digit makes it an invalid container, not a bill of lading.
  if (/^[A-Z]{3}[UJZ]\d{7}$/.test(bare)) {
    const check = checkContainerNumber(bare);
    const owner = bare.slice(0, 4);
    const found = split(
      carriers.byContainerPrefix(owner).filter((c) => isVisible(c.scac)),
      CONTAINER_OWNER_CONFIDENCE,
    );
    if (check.valid) return result('container', bare, true, null, found);
    // The shape matched, so only the check digit can be wrong.
    const reason = `The check digit is ${bare.slice(-1)}; ISO 6346 gives ${checkDigit(bare.slice(0, 10))} for ${bare.slice(0, 10)}.`;
    const weakened = found.map((c) => ({ ...c, confidence: round(c.confidence * FAILED_CHECK_DIGIT_FACTOR) }));
    return result('container', bare, false, reason, weakened);
  }

  // Bill of lading or booking. Carriers print their prefix on bills of lading, so a known prefix means a
  // BL (the longest matching prefix is the most specific evidence). Booking numbers are typically bare
  // numbers of 8 to 10 digits, so those are bookings. Anything else is taken for a BL without a recognised
  // prefix: the type is a guess and no carrier is proposed.
  const byPrefix = bolPrefixCarriers(bare, carriers).filter((c) => isVisible(c.scac));
  if (byPrefix.length) return result('bill_of_lading', parsed, null, null, split(byPrefix, BOL_PREFIX_CONFIDENCE));
  if (/^\d{8,10}$/.test(bare)) return result('booking', parsed, null, null, []);
  return result('bill_of_lading', parsed, null, null, []);
}

/** The decision the wire reports for a top confidence. */
export function decide(confidence: number | undefined): CarrierDecision {
  if (confidence === undefined || confidence < NEEDS_CONFIRMATION_AT) return 'no_prediction';
  return confidence >= AUTO_SELECT_AT ? 'auto_select' : 'needs_confirmation';
}

/** Carriers whose BL prefix starts the number, longest prefix first, each carrier once. */
function bolPrefixCarriers(bare: string, carriers: CarrierLookup): CarrierRef[] {
  const found = new Map<string, CarrierRef>();
  for (let len = Math.min(bare.length, carriers.maxBolPrefixLength); len > 0; len--) {
    for (const c of carriers.byBolPrefix(bare.slice(0, len))) if (!found.has(c.scac)) found.set(c.scac, c);
  }
  return [...found.values()];
}

function split(carriers: readonly CarrierRef[], confidence: number): CarrierCandidate[] {
  return carriers.map((c) => ({ scac: c.scac, name: c.name, confidence: round(confidence / carriers.length) }));
}

function result(
  type: InferredNumberType,
  parsedNumber: string,
  checkDigitPassed: boolean | null,
  reason: string | null,
  candidates: CarrierCandidate[],
): NumberInference {
  // Stable sort: equal confidences keep the evidence order (longest prefix first).
  const sorted = [...candidates].sort((a, b) => b.confidence - a.confidence);
  const decision = decide(sorted[0]?.confidence);
  return {
    numberType: type,
    validation: { isValid: reason === null, type: type === 'container' ? 'container' : 'shipment', checkDigitPassed, parsedNumber, reason },
    shippingLine: { decision, selected: decision === 'no_prediction' ? null : sorted[0]!, candidates: sorted },
  };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
