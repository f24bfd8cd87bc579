// The shapes the DCSA parser works in: events in version-free terms (Norm), the stops of each vehicle (Call) and
// the vehicles (Group), and the transport plan built from them.
import type { Classifier } from '../../../domain/milestones.js';
import type { Place, TrackTarget, VesselRef, When } from '../../contract.js';
import type { InternalCode, WaterOrLand } from './codes.js';

export type Mode = InternalCode<'mode'>;
export type DocumentKind = InternalCode<'documentType'>;

/** Where an event says the container or vehicle is: one stop of one vehicle. */
export interface CallRef {
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
export interface Norm {
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
export interface Call {
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

export interface Group {
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

export interface ParseOptions {
  /** The carrier whose API answered; DCSA events do not name it. */
  carrierScac: string;
  /** What was asked for: when several B/L or booking numbers appear, the asked-for one is preferred. */
  target?: Pick<TrackTarget, 'numberType' | 'number'>;
}

/** The bill of lading's own ports when the carrier states them (its arrival notice), as UN/LOCODEs. */
export interface BillOfLadingPorts {
  pol: string | null;
  pod: string | null;
}

export interface Plan {
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
export interface Sides {
  exportUntilMs: number;
  importFromMs: number | null;
}
