// The first step of normalize: what every source said, read once — the shipment's places, the containers spoken
// of, which go by rail, each milestone report as a candidate occurrence and the canonical ones, and each source's
// latest yard fact per container. The shipment and container builders read from here.
import { normalizeContainerNumber } from '../domain/container-number.js';
import type { Milestone } from '../domain/milestones.js';
import type { MilestoneFact, ShipmentFact, SourceObservation, YardFact } from '../sources/contract.js';
import { railHubByRampLocode } from '../sources/reference/index.js';
import { type Candidate, type CandidateCounter, type Canonical, dedupe, milestoneCandidate } from './occurrences.js';
import { type FacilityKind, type ResolvedPlace, resolvePlace } from './places.js';
import type { AisMilestone } from './port-calls.js';
import type { DataSource } from './snapshot.js';
import { isoSeconds } from '../lib/dates.js';

export interface NormalizeInput {
  carrier: SourceObservation | null;
  terminals: readonly SourceObservation[];
  rail: readonly SourceObservation[];
  /**
   * What the POD vessel's AIS track shows (src/tracking/port-calls.ts), for these containers: transport events
   * only (`data_source: ais`), never estimates, never the shipment's or containers' own dates.
   */
  ais?: { containers: readonly string[]; milestones: readonly AisMilestone[] } | null;
}

/** One observation with the kind of source it came from. */
export interface SourceOf {
  obs: SourceObservation;
  dataSource: DataSource;
}

/** The latest yard fact of a container, and the observation it came from. */
export type LatestYard = Map<string, { yard: YardFact; obs: SourceObservation }>;

/** What the sources said, read once (see the header). */
export interface SourceReading {
  input: NormalizeInput;
  /** The carrier's, then the terminals', then the railroads' observations. */
  sources: SourceOf[];
  shipmentFact: ShipmentFact | null;
  pol: ResolvedPlace | null;
  pod: ResolvedPlace | null;
  podLocode: string | null;
  destination: ResolvedPlace | null;
  /** The bill of lading's destination is a port (or none is named), not an inland rail hub. */
  destinationIsPort: boolean;
  /** The inland destination's locode; null when the destination is a port. */
  destinationLocode: string | null;
  /** Every container any source speaks of. */
  all: Set<string>;
  /** The containers the carrier speaks of: its shipment-level facts apply to all of them. */
  carrierContainers: string[];
  /** Rail moves: any rail milestone or rail yard fact for the container, or a shipment-level rail leg. */
  railContainers: Set<string>;
  /** Every container's candidates, AIS included. */
  candidates: Candidate[];
  /** The carrier's candidates, shipment-level ones as container '': what the shipment's dates come from. */
  carrierFacts: Candidate[];
  canonical: Canonical[];
  terminalYard: LatestYard;
  railYard: LatestYard;
  carrierYard: LatestYard;
}

const RAIL_MILESTONES: ReadonlySet<Milestone> = new Set(['rail_loaded', 'rail_departed', 'rail_arrived', 'rail_unloaded']);

export function containerNumber(raw: string): string {
  return normalizeContainerNumber(raw);
}

function containersOf(obs: SourceObservation): string[] {
  const set = new Set<string>();
  for (const c of obs.facts.containers) set.add(containerNumber(c.number));
  for (const m of obs.facts.milestones) if (m.containerNumber) set.add(containerNumber(m.containerNumber));
  for (const y of obs.facts.yard) set.add(containerNumber(y.containerNumber));
  return [...set];
}

/** The yard fact of the latest observation per container. */
function latestYard(observations: readonly SourceObservation[]): LatestYard {
  const out: LatestYard = new Map();
  for (const obs of observations) {
    for (const yard of obs.facts.yard) {
      const n = containerNumber(yard.containerNumber);
      const current = out.get(n);
      if (!current || obs.fetchedAt.getTime() >= current.obs.fetchedAt.getTime()) out.set(n, { yard, obs });
    }
  }
  return out;
}

/** Reads every source once (see the header); `nowMs` is world now. */
export function readSources(input: NormalizeInput, nowMs: number): SourceReading {
  const sources: SourceOf[] = [
    ...(input.carrier ? [{ obs: input.carrier, dataSource: 'shipping_line' as const }] : []),
    ...input.terminals.map((obs) => ({ obs, dataSource: 'terminal' as const })),
    ...input.rail.map((obs) => ({ obs, dataSource: 'rail' as const })),
  ];

  const shipmentFact = input.carrier?.facts.shipment ?? null;
  const pol = resolvePlace(shipmentFact?.portOfLading ?? null);
  const pod = resolvePlace(shipmentFact?.portOfDischarge ?? null);
  const destinationPlace = shipmentFact?.destination ?? null;
  const destinationIsPort = destinationPlace?.locode
    ? resolvePlace({ ...destinationPlace, facilityCode: null })?.locationType === 'port'
    : true;
  const destination = resolvePlace(destinationPlace, destinationIsPort ? 'terminal' : 'rail_terminal');

  // Every container any source speaks of; shipment-level carrier facts apply to all of the carrier's.
  const all = new Set<string>();
  for (const { obs } of sources) for (const n of containersOf(obs)) all.add(n);
  const carrierContainers = input.carrier ? containersOf(input.carrier) : [];

  const reading: SourceReading = {
    input,
    sources,
    shipmentFact,
    pol,
    pod,
    podLocode: pod?.locode ?? null,
    destination,
    destinationIsPort,
    destinationLocode: destination && !destinationIsPort ? destination.locode : null,
    all,
    carrierContainers,
    railContainers: railContainersOf(sources, carrierContainers),
    candidates: [],
    carrierFacts: [],
    canonical: [],
    terminalYard: latestYard(input.terminals),
    railYard: latestYard(input.rail),
    carrierYard: latestYard(input.carrier ? [input.carrier] : []),
  };
  const counter: CandidateCounter = { next: 0 };
  collectCandidates(reading, nowMs, counter);
  addDestinationArrivals(reading, counter);
  reading.canonical = dedupe(reading.candidates);
  return reading;
}

/** Rail moves: any rail milestone or rail yard fact for the container, or a shipment-level rail leg. */
function railContainersOf(sources: readonly SourceOf[], carrierContainers: readonly string[]): Set<string> {
  const railContainers = new Set<string>();
  for (const { obs, dataSource } of sources) {
    const scope = dataSource === 'shipping_line' ? carrierContainers : containersOf(obs);
    for (const m of obs.facts.milestones) {
      if (!(RAIL_MILESTONES.has(m.milestone) || m.mode === 'rail')) continue;
      for (const n of m.containerNumber ? [containerNumber(m.containerNumber)] : scope) railContainers.add(n);
    }
    if (dataSource === 'rail') for (const y of obs.facts.yard) railContainers.add(containerNumber(y.containerNumber));
  }
  return railContainers;
}

/** Whether a place is on the rail side of a rail move: anywhere but the POD. */
export function railSide(reading: SourceReading, container: string, place: { locode: string | null } | null): boolean {
  if (!reading.railContainers.has(container)) return false;
  const locode = place?.locode?.trim().toUpperCase() ?? null;
  return locode === null || locode !== reading.podLocode;
}

/** Which kind of facility a milestone's place names: a rail terminal on the rail side, else a terminal. */
function facilityKind(reading: SourceReading, m: MilestoneFact, dataSource: DataSource, container: string): FacilityKind {
  if (dataSource === 'rail' || m.mode === 'rail' || RAIL_MILESTONES.has(m.milestone)) return 'rail_terminal';
  if (m.milestone === 'arrived_at_destination') return reading.destinationIsPort ? 'terminal' : 'rail_terminal';
  if ((m.milestone === 'full_out' || m.milestone === 'empty_in') && railSide(reading, container, m.place)) return 'rail_terminal';
  return 'terminal';
}

/** Every milestone fact of every source as candidates, then the AIS track's port calls. */
function collectCandidates(reading: SourceReading, nowMs: number, counter: CandidateCounter): void {
  const { candidates, carrierFacts } = reading;
  for (const source of reading.sources) {
    const { obs, dataSource } = source;
    const scope = dataSource === 'shipping_line' ? reading.carrierContainers : containersOf(obs);
    for (const m of obs.facts.milestones) {
      const targets = m.containerNumber ? [containerNumber(m.containerNumber)] : scope;
      const make = (container: string): Candidate =>
        milestoneCandidate(m, source, container, facilityKind(reading, m, dataSource, container), nowMs, counter);
      for (const n of targets) candidates.push(make(n));
      if (dataSource === 'shipping_line') carrierFacts.push(make(m.containerNumber ? containerNumber(m.containerNumber) : ''));
    }
  }

  // The AIS track's port calls: actual events of every container the shipment has.
  const ais = reading.input.ais;
  for (const m of ais?.milestones ?? []) {
    const place = resolvePlace({ locode: m.locode, name: null, facilityCode: null, facilityCodeList: null });
    for (const container of ais?.containers ?? []) candidates.push(aisCandidate(m, place, containerNumber(container), counter));
  }
}

/** Whether a candidate is at the inland destination (its rail ramp included). */
export function atDestination(reading: SourceReading, c: Candidate): boolean {
  const destinationLocode = reading.destinationLocode;
  return (
    destinationLocode !== null &&
    c.place?.locode != null &&
    (c.place.locode === destinationLocode || railHubByRampLocode(c.place.locode)?.locode === destinationLocode)
  );
}

/** Reaching the inland destination by rail is also `arrived_at_inland_destination` (the last rail_arrived). */
function addDestinationArrivals(reading: SourceReading, counter: CandidateCounter): void {
  const { candidates, carrierFacts } = reading;
  for (const c of [...candidates]) {
    if (c.milestone === 'rail_arrived' && atDestination(reading, c))
      candidates.push({ ...c, milestone: 'arrived_at_destination', order: counter.next++ });
  }
  for (const c of [...carrierFacts]) {
    if (c.milestone === 'rail_arrived' && atDestination(reading, c))
      carrierFacts.push({ ...c, milestone: 'arrived_at_destination', order: counter.next++ });
  }
}

/** A port call the AIS track shows, as an actual candidate of one container. */
function aisCandidate(m: AisMilestone, place: ResolvedPlace | null, container: string, counter: CandidateCounter): Candidate {
  const at = isoSeconds(m.at.getTime());
  return {
    milestone: m.milestone,
    classifier: 'actual',
    container,
    place,
    time: { at, timezone: place?.timezone ?? null },
    ms: m.at.getTime(),
    vesselName: m.vesselName,
    vesselImo: m.vesselImo,
    voyage: null,
    railScac: null,
    mode: 'vessel',
    dataSource: 'ais',
    sourceId: 'ais',
    sourceEventId: null,
    sourceCode: `ais:${m.milestone}`,
    reportedAt: null,
    reportedMs: m.at.getTime(),
    order: counter.next++,
  };
}
