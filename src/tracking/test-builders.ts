// Test-only builders of source observations for the engine's table tests: a journey written by hand in a few
// lines (Shanghai → Los Angeles APMT W185, rail to Chicago by default). Not used by production code.
import type { Classifier, Milestone, TransportMode } from '../domain/milestones.js';
import type {
  ContainerFact,
  FeeFact,
  HoldFact,
  MilestoneFact,
  Place,
  ShipmentFact,
  SourceObservation,
  When,
  YardFact,
} from '../sources/contract.js';

export const BOX = 'MSCU1234565';
export const BOX2 = 'TGHU9876544';
export const VESSEL = { name: 'MSC Aurora', imo: '9839272', mmsi: null };

export function place(locode: string | null, facilityCode: string | null = null, list: Place['facilityCodeList'] = null): Place {
  return { locode, name: null, facilityCode, facilityCodeList: facilityCode ? (list ?? 'firms') : null };
}

export const SHANGHAI = place('CNSHA');
export const LA_APMT = place('USLAX', 'W185', 'firms');
export const LA_ETS = place('USLAX', 'Y124', 'firms');
export const CHICAGO_G4 = place('USCHI', 'G4', 'smdg');

/** A time: `2026-03-01T10:00:00Z` (instant), `2026-03-01` (date only) or `2026-03-01T10:00` (wall time). */
export function when(text: string | null): When {
  if (text === null) return { at: null, localDateTime: null, localDate: null };
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return { at: null, localDateTime: null, localDate: text };
  if (/(?:Z|[+-]\d{2}:\d{2})$/.test(text)) return { at: text, localDateTime: null, localDate: null };
  return { at: null, localDateTime: text, localDate: null };
}

export interface MilestoneOptions {
  classifier?: Classifier;
  place?: Place | null;
  container?: string | null;
  vessel?: { name: string | null; imo: string | null; mmsi: null } | null;
  voyage?: string | null;
  mode?: TransportMode | null;
  railScac?: string | null;
  reportedAt?: string | null;
  id?: string | null;
}

export function ms(milestone: Milestone, at: string | null, o: MilestoneOptions = {}): MilestoneFact {
  const vesselish = milestone.startsWith('vessel_') || milestone.startsWith('transshipment_') || milestone.startsWith('feeder_');
  return {
    milestone,
    classifier: o.classifier ?? 'actual',
    when: when(at),
    place: o.place === undefined ? null : o.place,
    vessel: o.vessel === undefined ? (vesselish ? VESSEL : null) : o.vessel,
    voyage: o.voyage === undefined ? (vesselish ? '601E' : null) : o.voyage,
    mode: o.mode === undefined ? (vesselish ? 'vessel' : milestone.startsWith('rail_') ? 'rail' : null) : o.mode,
    containerNumber: o.container === undefined ? BOX : o.container,
    railCarrierScac: o.railScac ?? null,
    sourceCode: milestone,
    sourceEventId: o.id ?? null,
    reportedAt: o.reportedAt ?? null,
  };
}

export function shipmentFact(over: Partial<ShipmentFact> = {}): ShipmentFact {
  return {
    billOfLadingNumber: 'MEDU1234567',
    bookingNumber: null,
    carrierScac: 'MSCU',
    portOfLading: SHANGHAI,
    portOfDischarge: LA_APMT,
    destination: null,
    ...over,
  };
}

export function containerFact(number: string = BOX, over: Partial<ContainerFact> = {}): ContainerFact {
  return { number, isoSizeType: '45G1', sealNumber: 'SL123', weightLbs: 22000, weightIsShipmentAverage: false, ...over };
}

export function yard(over: Partial<YardFact> & { lfd?: string | null; lineLfd?: string | null } = {}): YardFact {
  const { lfd, lineLfd, ...rest } = over;
  return {
    containerNumber: BOX,
    facility: LA_APMT,
    available: null,
    holds: null,
    fees: null,
    lastFreeDay: lfd ? when(lfd) : null,
    lineLastFreeDay: lineLfd ? when(lineLfd) : null,
    appointmentAt: null,
    yardLocation: null,
    chassisNumber: null,
    ...rest,
  };
}

export const hold = (name: HoldFact['name'], status: HoldFact['status'] = 'hold', description: string | null = null): HoldFact => ({
  name,
  status,
  description,
});
export const fee = (type: FeeFact['type'], amount: number, currencyCode = 'USD'): FeeFact => ({ type, amount, currencyCode });

export interface ObservationParts {
  sourceId?: string;
  fetchedAt?: string;
  shipment?: ShipmentFact | null;
  containers?: ContainerFact[];
  milestones?: MilestoneFact[];
  yard?: YardFact[];
}

export function observation(parts: ObservationParts = {}): SourceObservation {
  return {
    sourceId: parts.sourceId ?? 'test',
    target: { numberType: 'bill_of_lading', number: 'MEDU1234567', scac: 'MSCU' },
    fetchedAt: new Date(parts.fetchedAt ?? '2026-03-01T00:00:00Z'),
    payload: null,
    payloadSha256: '0'.repeat(64),
    facts: {
      shipment: parts.shipment === undefined ? null : parts.shipment,
      containers: parts.containers ?? [],
      milestones: parts.milestones ?? [],
      yard: parts.yard ?? [],
      vesselPositions: [],
    },
  };
}

/** A carrier observation of the default shipment and container plus the given milestones and yard facts. */
export function carrier(milestones: MilestoneFact[] = [], over: ObservationParts = {}): SourceObservation {
  return observation({ sourceId: 'carrier:dcsa', shipment: shipmentFact(), containers: [containerFact()], milestones, ...over });
}

export function terminal(yards: YardFact[], over: ObservationParts = {}): SourceObservation {
  return observation({ sourceId: 'terminal:w185', yard: yards, ...over });
}

export function railroad(milestones: MilestoneFact[], yards: YardFact[] = [], over: ObservationParts = {}): SourceObservation {
  return observation({ sourceId: 'rail:up', milestones, yard: yards, ...over });
}
