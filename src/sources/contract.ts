// The one contract between Tidemark and every data source (ocean carrier, terminal, railroad, AIS):
// what it can track, how it is configured, and what a fetch returns — the source's own words (raw
// payload, hashed) and the canonical facts parsed from them. Failures are typed and say whether a
// retry can help; only the worker acts on that.
import type { z } from 'zod';
import type { Classifier, FeeType, HoldName, Milestone, TransportMode } from '../domain/milestones.js';

export type SourceKind = 'carrier' | 'terminal' | 'rail' | 'ais';
export type NumberType = 'bill_of_lading' | 'booking_number' | 'container';
/** What a source can be asked about: a shipment or container number, or (AIS sources) a vessel's IMO number. */
export type TargetType = NumberType | 'vessel_imo';

/** What is asked of a source. */
export interface TrackTarget {
  numberType: TargetType;
  number: string;
  /** The carrier's SCAC for carrier sources; the railroad's for rail sources. */
  scac?: string;
  /** FIRMS or SMDG code for terminal sources. */
  facilityCode?: string;
}

/** A place as the source names it: UN/LOCODE plus, where given, a facility code. */
export interface Place {
  locode: string | null;
  name: string | null;
  facilityCode: string | null;
  /** Which code list `facilityCode` comes from. */
  facilityCodeList: 'smdg' | 'bic' | 'firms' | null;
}

export interface VesselRef {
  name: string | null;
  /** 7-digit IMO number, as a string. */
  imo: string | null;
  /** 9-digit MMSI (AIS sources; carriers rarely give it). */
  mmsi: string | null;
}

/**
 * When something happened or is expected. At most one of: `at` (an instant, ISO 8601 with offset or Z);
 * `localDateTime` (a wall-clock time without offset, `YYYY-MM-DDTHH:MM:SS`: normalization resolves it in the
 * place's time zone); `localDate` (only a date: normalization turns it into local midnight).
 */
export interface When {
  at: string | null;
  localDateTime: string | null;
  localDate: string | null;
}

export interface MilestoneFact {
  milestone: Milestone;
  classifier: Classifier;
  when: When;
  place: Place | null;
  vessel: VesselRef | null;
  voyage: string | null;
  mode: TransportMode | null;
  /** Null for shipment-level facts (e.g. a vessel departure reported per transport call). */
  containerNumber: string | null;
  /** The rail carrier's SCAC on rail milestones. */
  railCarrierScac: string | null;
  /** The source's own words for it, e.g. `EQUIPMENT/LOAD/ACT` or `Discharged from vessel`. */
  sourceCode: string;
  /** The source's id of the event, when it has one (duplicates and corrections share it). */
  sourceEventId: string | null;
  /** When the source recorded this fact (DCSA `eventCreatedDateTime`), ISO 8601; null when not given. */
  reportedAt: string | null;
}

export interface ContainerFact {
  number: string;
  /** ISO 6346 size-type code, e.g. `45G1`. */
  isoSizeType: string | null;
  sealNumber: string | null;
  weightLbs: number | null;
  /** True when the source gives the shipment's average weight as each container's. */
  weightIsShipmentAverage: boolean;
}

export interface HoldFact {
  name: HoldName;
  status: 'hold' | 'pending';
  description: string | null;
}

export interface FeeFact {
  type: FeeType;
  amount: number;
  currencyCode: string;
}

/**
 * What a source says about one container at one facility (a POD terminal, a rail terminal). Null = not
 * reported. A carrier that gives its own last free day reports it here too, with only `lineLastFreeDay` set.
 */
export interface YardFact {
  containerNumber: string;
  facility: Place;
  available: boolean | null;
  holds: HoldFact[] | null;
  fees: FeeFact[] | null;
  /** The facility's own last free day (terminal LFD; rail LFD at a rail terminal). */
  lastFreeDay: When | null;
  /** The shipping line's last free day (free time on its equipment) as this source gives it. */
  lineLastFreeDay: When | null;
  appointmentAt: string | null;
  /**
   * True when `facility` is an off-dock yard (a container yard or CFS outside the marine terminal) the box was moved
   * to after discharge; absent or false for the marine terminal itself.
   */
  offDock?: boolean;
  yardLocation: string | null;
  chassisNumber: string | null;
}

export interface ShipmentFact {
  billOfLadingNumber: string | null;
  bookingNumber: string | null;
  carrierScac: string | null;
  portOfLading: Place | null;
  portOfDischarge: Place | null;
  destination: Place | null;
}

/** Where a vessel was, from AIS. */
export interface VesselPositionFact {
  imo: string;
  at: string;
  latitude: number;
  longitude: number;
  /** Speed over ground, knots. */
  speedKnots: number | null;
  /** True heading in degrees (0–359); null when the transponder gives none. */
  headingDegrees: number | null;
  /**
   * The destination the crew last entered (AIS static voyage data, message type 5): free text of up to 20
   * characters, often a UN/LOCODE (`USSAV`, `US SAV`, `CNSHA>USLAX`) but not always; null when none is reported.
   */
  destination: string | null;
}

export interface CanonicalFacts {
  shipment: ShipmentFact | null;
  containers: ContainerFact[];
  milestones: MilestoneFact[];
  yard: YardFact[];
  vesselPositions: VesselPositionFact[];
}

/** One fetch's result: kept whole (raw payload and its hash) so any state can be re-derived. */
export interface SourceObservation {
  sourceId: string;
  target: TrackTarget;
  fetchedAt: Date;
  /** What the source sent, as received (parsed JSON for JSON APIs). */
  payload: unknown;
  payloadSha256: string;
  facts: CanonicalFacts;
}

/**
 * - `not_found`: the source does not know the number.
 * - `awaiting_manifest`: the source knows the booking but nothing is manifested yet; ask again later.
 * - `invalid_number`: the source rejects the number as malformed.
 * - `cancelled`: the booking was cancelled.
 * - `auth`: our credentials are refused. `rate_limited`: slow down (`retryAfterSeconds` when the source says).
 * - `unavailable`: timeout, network failure, 5xx. `bad_response`: an answer we cannot read.
 */
export const SOURCE_ERROR_KINDS = [
  'not_found',
  'awaiting_manifest',
  'invalid_number',
  'cancelled',
  'auth',
  'rate_limited',
  'unavailable',
  'bad_response',
] as const;
export type SourceErrorKind = (typeof SOURCE_ERROR_KINDS)[number];

/** Whether trying again later can help, by kind. */
const RETRYABLE: Record<SourceErrorKind, boolean> = {
  not_found: false,
  awaiting_manifest: true,
  invalid_number: false,
  cancelled: false,
  auth: false,
  rate_limited: true,
  unavailable: true,
  bad_response: false,
};

export class SourceError extends Error {
  readonly retryable: boolean;
  constructor(
    readonly kind: SourceErrorKind,
    message: string,
    readonly details: { retryAfterSeconds?: number; status?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: details.cause });
    this.name = 'SourceError';
    this.retryable = RETRYABLE[kind];
  }
}

export interface FetchContext {
  signal: AbortSignal;
  /** Wall clock: `fetchedAt` of the observation. */
  now(): Date;
}

export interface SourceAdapter {
  /**
   * Everything the source knows about the target, or a SourceError. When `ctx.signal` aborts (shutdown, a lost
   * job lease), it rejects with `ctx.signal.reason` (not a SourceError: the source did not fail), and when the
   * signal is already aborted it makes no request at all.
   */
  fetch(target: TrackTarget, ctx: FetchContext): Promise<SourceObservation>;
}

export interface SourceDefinition<Config = unknown> {
  id: string;
  kind: SourceKind;
  name: string;
  /** What it can track: SCACs (carriers, railroads) or facility codes (terminals), and number types. */
  tracks: { scacs?: readonly string[]; facilityCodes?: readonly string[]; numberTypes: readonly TargetType[] };
  configSchema: z.ZodType<Config>;
  create(config: Config): SourceAdapter;
}
