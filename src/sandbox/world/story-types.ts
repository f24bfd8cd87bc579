import type { HoldName, Milestone, TransportMode } from '../../domain/milestones.js';
import type { NumberType } from '../../sources/contract.js';
import type { ScenarioName } from './scenarios.js';

export interface StoryKey {
  seed: string;
  scac: string;
  numberType: NumberType;
  number: string;
  /** The world time at which the number was first seen. */
  anchorAt: Date;
}

export interface StoryPlace {
  locode: string;
  name: string;
  facilityCode: string | null;
  facilityCodeList: 'smdg' | 'firms' | null;
  timeZone: string;
}

/** Who reports an event: bit flags. */
export const AUDIENCE = { carrier: 1, terminal: 2, rail: 4 } as const;

export type Stage = 'pol' | 'hub' | 'pod' | 'rail' | 'inland';

export interface StoryEvent {
  /** Stable across world times; the classifier is appended in answers. */
  id: string;
  milestone: Milestone;
  /** Null for vessel-level transport events. */
  container: string | null;
  /** When it actually happens. */
  at: number;
  /** When the schedule said it would (what planned events show). */
  nominal: number;
  /** How long after it happens the source records it. */
  lag: number;
  /** A fixed place, or `pod`: the POD terminal as assigned at that time. */
  place: StoryPlace | 'pod';
  vessel: { name: string; imo: string } | null;
  voyage: string | null;
  mode: TransportMode | null;
  railScac: string | null;
  /** Reported as estimated (or planned) before it happens, from `estimateFrom`. */
  estimable: boolean;
  estimateFrom: number;
  audience: number;
  stage: Stage;
  /** DCSA-like code without the classifier, e.g. `EQUIPMENT/LOAD`. */
  sourceCode: string;
}

export interface StoryEquipment {
  number: string;
  isoSizeType: string;
  sealNumber: string;
  weightLbs: number;
}

export interface HoldPlan {
  name: HoldName;
  status: 'hold' | 'pending';
  from: number;
  to: number;
  description: string | null;
}

export interface DatedValue {
  /** From when this value is reported. */
  from: number;
  date: string;
}

/** The container at the POD terminal. */
export interface YardPlan {
  container: string;
  /** From when the terminal knows the box (manifest received). */
  knownAt: number;
  arrivedAt: number;
  dischargedAt: number;
  /** Null for boxes that leave by rail (never available for truck pickup). */
  availableAt: number | null;
  fullOutAt: number | null;
  emptyInAt: number | null;
  railLoadedAt: number | null;
  holds: HoldPlan[];
  terminalLfd: DatedValue[];
  lineLfd: DatedValue[];
  /** Appointment versions: from when each slot is reported (a reschedule adds one). */
  appointments: { from: number; at: number }[];
  /** No word on availability (null) from discharge until the box is first offered, unless held. */
  availabilityPending: boolean;
  /** Moved from the marine terminal to an off-dock yard (natural key) at this instant. */
  offDock: { at: number; key: string; yardLocation: string } | null;
  yardLocation: string;
  chassisNumber: string;
  /** Windows in which the terminal withdraws a value it reported before. */
  flickers: { field: 'lastFreeDay' | 'yardLocation'; from: number; to: number }[];
  exam: { from: number; amount: number } | null;
  tmf: { from: number; to: number; amount: number } | null;
  teu: 1 | 2;
}

export interface RailPlan {
  /** The railroads in order (the POD railroad first), with the rail terminals they reach. */
  railroads: string[];
  destination: StoryPlace;
  /** From when the railroads know the box (waybill at vessel arrival). */
  knownAt: number;
  perContainer: {
    container: string;
    availableAt: number;
    unloadedAt: number;
    fullOutAt: number;
    lfd: string;
    yardLocation: string;
    chassisNumber: string;
  }[];
}

export interface StoryLeg {
  service: string;
  kind: 'mainline' | 'feeder';
  imo: string;
  vesselName: string;
  voyage: string;
  from: string;
  to: string;
  departAt: number;
  arriveAt: number;
}

export interface Story {
  key: StoryKey;
  scenario: ScenarioName;
  /** Normalized request number. */
  number: string;
  carrierScac: string;
  billOfLading: string | null;
  bookingNumber: string | null;
  /** Container numbers, in BL order. */
  containers: string[];
  vesselImos: string[];
  /** Facility codes (FIRMS, else SMDG) of every POD terminal the story touches. */
  podTerminalFirms: string[];
  railCarrierScac: string | null;
  anchorMs: number;
  /** When the carrier took the booking; estimates are given from then. */
  bookedAt: number;
  pol: StoryPlace | null;
  pod: StoryPlace | null;
  destination: StoryPlace | null;
  /** POD terminal assignments by time (natural keys); the first applies from the start. */
  podTerminals: { from: number; key: string }[];
  legs: StoryLeg[];
  equipment: StoryEquipment[];
  events: StoryEvent[];
  yards: YardPlan[];
  rail: RailPlan | null;
  /** The line stops updating from this instant: its answer stays what it was then (`line_silent`). */
  lineSilentFrom: number | null;
  /** Every instant at which some answer may change, ascending (besides the 12-hour estimate cadence). */
  breakpoints: number[];
}
