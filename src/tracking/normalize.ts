// Source observations (carrier, POD terminals, railroads) → the canonical shipment, its containers and their
// transport and estimated events. Pure: reference data for places and zones, world time passed in.
import { normalizeContainerNumber } from '../domain/container-number.js';
import { CLASSIFIERS, type Classifier, type Milestone, type TransportMode } from '../domain/milestones.js';
import type { FeeFact, HoldFact, MilestoneFact, SourceObservation, When, YardFact } from '../sources/contract.js';
import { carrierByScac, railHubByRampLocode } from '../sources/reference/index.js';
import { compatibleVessels } from './occurrences.js';
import { type FacilityKind, type ResolvedPlace, resolvePlace } from './places.js';
import type { AisMilestone } from './port-calls.js';
import {
  type ContainerSnapshot,
  compareFees,
  CUSTOMS_SELECTION_HOLDS,
  compareHolds,
  type DataSource,
  deriveContainer,
  deriveShipment,
  type EstimatedEventRecord,
  emptyContainer,
  emptyShipment,
  type Fee,
  inlandDestination,
  type Hold,
  type ShipmentSnapshot,
  type TransportEventRecord,
  transportEventName,
} from './snapshot.js';
import { type IsoInstant, isoInstant, msOf, type Resolved, resolveWhen } from './time.js';

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

export interface NormalizeContext {
  /** Domain time: the world clock's now. */
  worldNow: Date;
}

/** What the sources said this time; `reported` tells the merge what they said nothing about (and must keep). */
export interface Normalized {
  /** Null when there is no carrier observation. */
  shipment: ShipmentSnapshot | null;
  containers: ContainerSnapshot[];
  transportEvents: TransportEventRecord[];
  estimatedEvents: EstimatedEventRecord[];
  reported: Reported;
}

export interface Reported {
  /** The carrier answered with something (a shipment, containers or milestones). */
  carrier: boolean;
  /** Containers a POD terminal reported on (a yard fact). */
  terminal: string[];
  /** Containers a railroad reported on (a yard fact). */
  rail: string[];
  /** Containers whose line LFD a source reported (possibly as withdrawn). */
  lineLfd: string[];
}

/** An `actual` dated later than this after world now is a source error: it is read as an estimate. */
export const FUTURE_ACTUAL_TOLERANCE_MS = 60 * 60 * 1000;

const DATA_SOURCE_RANK: Record<DataSource, number> = { terminal: 0, rail: 1, shipping_line: 2, ais: 3 };

/** One source fact about one container (or the shipment, `container` ''), resolved in place and time. */
interface Candidate {
  milestone: Milestone;
  classifier: Classifier;
  container: string;
  place: ResolvedPlace | null;
  time: Resolved | null;
  ms: number;
  vesselName: string | null;
  vesselImo: string | null;
  voyage: string | null;
  railScac: string | null;
  mode: TransportMode | null;
  dataSource: DataSource;
  sourceId: string;
  sourceEventId: string | null;
  sourceCode: string;
  reportedAt: IsoInstant | null;
  reportedMs: number;
  order: number;
}

interface Canonical extends Candidate {
  key: string;
}

const RAIL_MILESTONES: ReadonlySet<Milestone> = new Set(['rail_loaded', 'rail_departed', 'rail_arrived', 'rail_unloaded']);

const CUSTOMS_SELECTIONS: ReadonlySet<Milestone> = new Set(['customs_selected_for_scan', 'customs_selected_for_inspection']);

/** Milestones that put the box on a vessel (any water leg) until its discharge at the POD. */
const ON_BOARD: ReadonlySet<Milestone> = new Set([
  'vessel_loaded',
  'vessel_departed',
  'vessel_arrived',
  'vessel_berthed',
  'transshipment_loaded',
  'transshipment_departed',
  'transshipment_arrived',
  'transshipment_discharged',
  'feeder_loaded',
  'feeder_departed',
  'feeder_arrived',
  'feeder_discharged',
]);

function containerNumber(raw: string): string {
  return normalizeContainerNumber(raw);
}

function containersOf(obs: SourceObservation): string[] {
  const set = new Set<string>();
  for (const c of obs.facts.containers) set.add(containerNumber(c.number));
  for (const m of obs.facts.milestones) if (m.containerNumber) set.add(containerNumber(m.containerNumber));
  for (const y of obs.facts.yard) set.add(containerNumber(y.containerNumber));
  return [...set];
}

function hasFacts(obs: SourceObservation | null): boolean {
  if (!obs) return false;
  const f = obs.facts;
  return f.shipment !== null || f.containers.length > 0 || f.milestones.length > 0 || f.yard.length > 0;
}

/** Reads a free-form time (appointments): an instant when it has an offset, else a wall time or a date. */
function looseWhen(text: string | null): When | null {
  if (!text) return null;
  const t = text.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) return { at: null, localDateTime: null, localDate: t };
  if (/(?:Z|[+-]\d{2}:?\d{2})$/i.test(t)) return { at: t, localDateTime: null, localDate: null };
  return { at: null, localDateTime: t, localDate: null };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Best first: actual over estimated over planned, then any source's report over AIS (the line, terminal or
 * railroad saw the event; AIS infers it from a track), then the latest report, then terminal/rail over line.
 */
function preference(a: Candidate, b: Candidate): number {
  return (
    CLASSIFIERS.indexOf(a.classifier) - CLASSIFIERS.indexOf(b.classifier) ||
    Number(a.dataSource === 'ais') - Number(b.dataSource === 'ais') ||
    b.reportedMs - a.reportedMs ||
    DATA_SOURCE_RANK[a.dataSource] - DATA_SOURCE_RANK[b.dataSource] ||
    a.order - b.order
  );
}

function byTime(a: Candidate, b: Candidate): number {
  return (Number.isNaN(a.ms) ? 0 : a.ms) - (Number.isNaN(b.ms) ? 0 : b.ms) || a.order - b.order;
}

function locationKey(place: ResolvedPlace | null): string {
  return place?.locode ?? (place?.facility ? `facility:${place.facility.code}` : '-');
}

function occurrenceKey(c: Candidate): string {
  const vessel = c.vesselImo ? `imo:${c.vesselImo}` : c.vesselName ? `name:${c.vesselName.toUpperCase()}` : '-';
  return `${c.milestone}|${c.container}|${locationKey(c.place)}|${vessel}|${c.voyage?.toUpperCase() ?? '-'}`;
}

/**
 * Out-of-order and duplicate reports, from one source or several, become one canonical occurrence each: same
 * milestone, container and location, and vessels/voyages that agree. The preferred report gives the time
 * (actual over estimated, then the latest report); the others fill the vessel and voyage it lacks.
 */
function dedupe(candidates: Candidate[]): Canonical[] {
  const groups = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const g = `${c.milestone}|${c.container}|${locationKey(c.place)}`;
    const list = groups.get(g);
    if (list) list.push(c);
    else groups.set(g, [c]);
  }
  const out: Canonical[] = [];
  for (const group of groups.values()) {
    // Vessel-identified reports first, so that a report naming no vessel joins the one that does.
    const sorted = [...group].sort(
      (a, b) => Number(!(a.vesselImo || a.vesselName)) - Number(!(b.vesselImo || b.vesselName)) || preference(a, b),
    );
    const clusters: { identity: Pick<Candidate, 'vesselImo' | 'vesselName' | 'voyage'>; members: Candidate[] }[] = [];
    for (const c of sorted) {
      const cluster = clusters.find((k) => compatibleVessels(k.identity, c));
      if (cluster) {
        cluster.members.push(c);
        cluster.identity = {
          vesselImo: cluster.identity.vesselImo ?? c.vesselImo,
          vesselName: cluster.identity.vesselName ?? c.vesselName,
          voyage: cluster.identity.voyage ?? c.voyage,
        };
      } else {
        clusters.push({ identity: { vesselImo: c.vesselImo, vesselName: c.vesselName, voyage: c.voyage }, members: [c] });
      }
    }
    for (const k of clusters) {
      const best = [...k.members].sort(preference)[0]!;
      const merged: Candidate = {
        ...best,
        ...k.identity,
        railScac: best.railScac ?? k.members.find((m) => m.railScac)?.railScac ?? null,
        place: best.place?.facility ? best.place : (k.members.find((m) => m.place?.facility)?.place ?? best.place),
      };
      out.push({ ...merged, key: occurrenceKey(merged) });
    }
  }
  return out.sort(byTime);
}

function toRecord(c: Canonical, nowMs: number): TransportEventRecord | null {
  const event = transportEventName(c.milestone, c.classifier);
  if (!event || !c.container) return null;
  return {
    key: c.key,
    event,
    milestone: c.milestone,
    classifier: c.classifier,
    container_number: c.container,
    timestamp: c.time?.at ?? null,
    timezone: c.time?.timezone ?? c.place?.timezone ?? null,
    location_locode: c.place?.locode ?? null,
    location_type: c.place?.locationType ?? null,
    terminal: c.place?.facility ?? null,
    vessel_name: c.vesselName,
    vessel_imo: c.vesselImo,
    voyage_number: c.voyage,
    rail_carrier_scac: c.railScac,
    data_source: c.dataSource,
    value: null,
    source_id: c.sourceId,
    source_event_id: c.sourceEventId,
    source_code: c.sourceCode,
    reported_at: c.reportedAt,
    observed_at: observedAt(c.classifier, c.time?.at ?? null, nowMs),
  };
}

/**
 * When Tidemark sees an occurrence: now (domain time); an actual is never seen before it happened, so one dated a
 * little ahead (within the tolerance) is taken as seen when it happened.
 */
export function observedAt(classifier: Classifier, timestamp: IsoInstant | null, nowMs: number): IsoInstant {
  const at = classifier === 'actual' && timestamp ? Date.parse(timestamp) : Number.NaN;
  return isoInstant(Number.isNaN(at) ? nowMs : Math.max(at, nowMs));
}

function sortHolds(holds: HoldFact[]): Hold[] {
  return holds.map((h) => ({ name: h.name, status: h.status, description: h.description?.trim() || null })).sort(compareHolds);
}

/** Fee lines as given, in a stable order; a `total` line stays a line of its own and nothing is summed. */
function sortFees(fees: FeeFact[]): Fee[] {
  return fees.map((f) => ({ type: f.type, amount: f.amount, currency_code: f.currencyCode })).sort(compareFees);
}

/** The yard fact of the latest observation per container. */
function latestYard(observations: readonly SourceObservation[]): Map<string, { yard: YardFact; obs: SourceObservation }> {
  const out = new Map<string, { yard: YardFact; obs: SourceObservation }>();
  for (const obs of observations) {
    for (const yard of obs.facts.yard) {
      const n = containerNumber(yard.containerNumber);
      const current = out.get(n);
      if (!current || obs.fetchedAt.getTime() >= current.obs.fetchedAt.getTime()) out.set(n, { yard, obs });
    }
  }
  return out;
}

export function normalize(input: NormalizeInput, ctx: NormalizeContext): Normalized {
  const nowMs = ctx.worldNow.getTime();
  const sources: { obs: SourceObservation; dataSource: DataSource }[] = [
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

  // Rail moves: any rail milestone or rail yard fact for the container, or a shipment-level rail leg.
  const railContainers = new Set<string>();
  for (const { obs, dataSource } of sources) {
    const scope = dataSource === 'shipping_line' ? carrierContainers : containersOf(obs);
    for (const m of obs.facts.milestones) {
      if (!(RAIL_MILESTONES.has(m.milestone) || m.mode === 'rail')) continue;
      for (const n of m.containerNumber ? [containerNumber(m.containerNumber)] : scope) railContainers.add(n);
    }
    if (dataSource === 'rail') for (const y of obs.facts.yard) railContainers.add(containerNumber(y.containerNumber));
  }

  const podLocode = pod?.locode ?? null;
  const railSide = (container: string, place: { locode: string | null } | null) => {
    if (!railContainers.has(container)) return false;
    const locode = place?.locode?.trim().toUpperCase() ?? null;
    return locode === null || locode !== podLocode;
  };
  const facilityKind = (m: MilestoneFact, dataSource: DataSource, container: string): FacilityKind => {
    if (dataSource === 'rail' || m.mode === 'rail' || RAIL_MILESTONES.has(m.milestone)) return 'rail_terminal';
    if (m.milestone === 'arrived_at_destination') return destinationIsPort ? 'terminal' : 'rail_terminal';
    if ((m.milestone === 'full_out' || m.milestone === 'empty_in') && railSide(container, m.place)) return 'rail_terminal';
    return 'terminal';
  };

  let order = 0;
  const candidates: Candidate[] = [];
  const carrierFacts: Candidate[] = [];
  for (const { obs, dataSource } of sources) {
    const scope = dataSource === 'shipping_line' ? carrierContainers : containersOf(obs);
    for (const m of obs.facts.milestones) {
      const targets = m.containerNumber ? [containerNumber(m.containerNumber)] : scope;
      const make = (container: string): Candidate => {
        const place = resolvePlace(m.place, facilityKind(m, dataSource, container));
        const time = resolveWhen(m.when, place?.timezone ?? null);
        const ms = msOf(time?.at ?? null);
        const reported = m.reportedAt ? Date.parse(m.reportedAt) : Number.NaN;
        return {
          milestone: m.milestone,
          // A source claiming something happened in the future is wrong about the classifier, not the time.
          classifier: m.classifier === 'actual' && ms > nowMs + FUTURE_ACTUAL_TOLERANCE_MS ? 'estimated' : m.classifier,
          container,
          place,
          time,
          ms,
          vesselName: m.vessel?.name?.trim() || null,
          vesselImo: m.vessel?.imo?.trim() || null,
          voyage: m.voyage?.trim() || null,
          railScac: m.railCarrierScac?.trim().toUpperCase() || null,
          mode: m.mode,
          dataSource,
          sourceId: obs.sourceId,
          sourceEventId: m.sourceEventId,
          sourceCode: m.sourceCode,
          reportedAt: Number.isNaN(reported) ? null : isoInstant(reported),
          reportedMs: Number.isNaN(reported) ? obs.fetchedAt.getTime() : reported,
          order: order++,
        };
      };
      for (const n of targets) candidates.push(make(n));
      if (dataSource === 'shipping_line') carrierFacts.push(make(m.containerNumber ? containerNumber(m.containerNumber) : ''));
    }
  }

  // The AIS track's port calls: actual events of every container the shipment has.
  for (const m of input.ais?.milestones ?? []) {
    const place = resolvePlace({ locode: m.locode, name: null, facilityCode: null, facilityCodeList: null });
    const at = isoInstant(m.at.getTime());
    for (const container of input.ais?.containers ?? []) {
      candidates.push({
        milestone: m.milestone,
        classifier: 'actual',
        container: containerNumber(container),
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
        order: order++,
      });
    }
  }

  // Reaching the inland destination by rail is also `arrived_at_inland_destination` (the last rail_arrived).
  const destinationLocode = destination && !destinationIsPort ? destination.locode : null;
  const atDestination = (c: Candidate) =>
    destinationLocode !== null &&
    c.place?.locode != null &&
    (c.place.locode === destinationLocode || railHubByRampLocode(c.place.locode)?.locode === destinationLocode);
  for (const c of [...candidates]) {
    if (c.milestone === 'rail_arrived' && atDestination(c)) candidates.push({ ...c, milestone: 'arrived_at_destination', order: order++ });
  }
  for (const c of [...carrierFacts]) {
    if (c.milestone === 'rail_arrived' && atDestination(c))
      carrierFacts.push({ ...c, milestone: 'arrived_at_destination', order: order++ });
  }

  const canonical = dedupe(candidates);
  const transportEvents = canonical.flatMap((c) => toRecord(c, nowMs) ?? []);

  const shipment = input.carrier ? buildShipment() : null;

  const terminalYard = latestYard(input.terminals);
  const railYard = latestYard(input.rail);
  const carrierYard = latestYard(input.carrier ? [input.carrier] : []);

  const containers = [...all].sort(cmp).map((n) => buildContainer(n));

  const estimatedEvents: EstimatedEventRecord[] = [];
  if (shipment?.pod_eta_at) {
    const est = podArrival().estimate;
    estimatedEvents.push({
      key: `shipment.estimated.arrival|${shipment.port_of_discharge_locode ?? '-'}|${shipment.pod_eta_at}`,
      event: 'shipment.estimated.arrival',
      estimated_timestamp: shipment.pod_eta_at,
      location_locode: shipment.port_of_discharge_locode,
      timezone: shipment.pod_timezone,
      voyage_number: est?.voyage ?? shipment.pod_voyage_number,
      vessel_name: est?.vesselName ?? shipment.pod_vessel_name,
      vessel_imo: est?.vesselImo ?? shipment.pod_vessel_imo,
      data_source: 'shipping_line',
      reported_at: est?.reportedAt ?? null,
    });
  }

  const lineLfd = new Set<string>();
  for (const [n] of carrierYard) lineLfd.add(n);
  for (const [n, { yard }] of terminalYard) if (yard.lineLastFreeDay) lineLfd.add(n);

  return {
    shipment,
    containers,
    transportEvents,
    estimatedEvents,
    reported: {
      carrier: hasFacts(input.carrier),
      terminal: [...terminalYard.keys()].sort(cmp),
      rail: [...railYard.keys()].sort(cmp),
      lineLfd: [...lineLfd].sort(cmp),
    },
  };

  // ---- shipment ------------------------------------------------------------------------------------------

  /** Actual (earliest), best estimate and first-reported estimate of a milestone among the carrier's facts. */
  function timesOf(milestones: Milestone[], where: string | null | ((c: Candidate) => boolean)) {
    const here = typeof where === 'function' ? where : (c: Candidate) => where === null || c.place?.locode === where;
    const at = carrierFacts.filter((c) => milestones.includes(c.milestone) && here(c) && c.time);
    const byMilestone = (a: Candidate, b: Candidate) => milestones.indexOf(a.milestone) - milestones.indexOf(b.milestone);
    const actual = at.filter((c) => c.classifier === 'actual').sort((a, b) => byMilestone(a, b) || byTime(a, b))[0];
    const estimates = at.filter((c) => c.classifier !== 'actual');
    const estimate = [...estimates].sort((a, b) => byMilestone(a, b) || preference(a, b))[0];
    const original = [...estimates].sort((a, b) => byMilestone(a, b) || a.reportedMs - b.reportedMs || a.order - b.order)[0];
    return { actual, estimate, original };
  }

  function podArrival() {
    return timesOf(['vessel_arrived'], podLocode);
  }

  function buildShipment(): ShipmentSnapshot {
    const scac = shipmentFact?.carrierScac ?? input.carrier?.target.scac ?? null;
    const line = scac ? carrierByScac(scac) : undefined;
    const departure = timesOf(['vessel_departed'], pol?.locode ?? null);
    const arrival = podArrival();
    const discharge = timesOf(['vessel_discharged'], podLocode);
    const vesselFrom = arrival.actual ?? arrival.estimate ?? discharge.actual ?? discharge.estimate;
    const inland = timesOf(['arrived_at_destination', 'rail_arrived'], destinationLocode ? atDestination : (destination?.locode ?? null));
    const s: ShipmentSnapshot = {
      ...emptyShipment(),
      bill_of_lading_number: shipmentFact?.billOfLadingNumber ?? null,
      booking_number: shipmentFact?.bookingNumber ?? null,
      shipping_line_scac: line?.scac ?? scac,
      shipping_line_name: line?.name ?? null,
      shipping_line_short_name: line?.shortName ?? null,
      port_of_lading_locode: pol?.locode ?? null,
      port_of_lading_name: pol?.name ?? null,
      pol_terminal: pol?.facility ?? null,
      pol_atd_at: departure.actual?.time?.at ?? null,
      pol_etd_at: departure.estimate?.time?.at ?? null,
      pol_original_etd_at: departure.original?.time?.at ?? null,
      pol_timezone: pol?.timezone ?? null,
      port_of_discharge_locode: podLocode,
      port_of_discharge_name: pod?.name ?? null,
      pod_terminal: pod?.facility ?? null,
      pod_vessel_name: vesselFrom?.vesselName ?? null,
      pod_vessel_imo: vesselFrom?.vesselImo ?? null,
      pod_voyage_number: vesselFrom?.voyage ?? null,
      pod_ata_at: arrival.actual?.time?.at ?? null,
      pod_eta_at: arrival.estimate?.time?.at ?? null,
      pod_original_eta_at: arrival.original?.time?.at ?? null,
      pod_timezone: pod?.timezone ?? null,
      destination_locode: destination?.locode ?? null,
      destination_name: destination?.name ?? null,
      destination_location_type: destination?.locationType ?? null,
      destination_terminal: destination?.facility ?? null,
      destination_ata_at: destination ? (inland.actual?.time?.at ?? null) : null,
      destination_eta_at: destination ? (inland.estimate?.time?.at ?? null) : null,
      destination_original_eta_at: destination ? (inland.original?.time?.at ?? null) : null,
      destination_timezone: destination?.timezone ?? null,
    };
    return deriveShipment(s);
  }

  // ---- containers ----------------------------------------------------------------------------------------

  function buildContainer(n: string): ContainerSnapshot {
    // AIS gives transport events only: the container's dates are the line's, terminal's and railroad's.
    const mine = canonical.filter((c) => c.container === n && c.dataSource !== 'ais');
    const actual = (m: Milestone, filter: (c: Canonical) => boolean = () => true) =>
      mine.filter((c) => c.milestone === m && c.classifier === 'actual' && c.time && filter(c));
    const first = (list: Canonical[]) => list[0];
    const last = (list: Canonical[]) => list[list.length - 1];
    const atPod = (c: Canonical) => podLocode === null || c.place?.locode === podLocode;
    const atPol = (c: Canonical) => pol?.locode == null || c.place?.locode === pol.locode;

    const c: ContainerSnapshot = emptyContainer(n);
    c.rail_move = railContainers.has(n);
    // A bill of lading to an inland rail hub: bound inland by rail before any rail leg is reported.
    c.bound_inland = shipment && carrierContainers.includes(n) ? inlandDestination(shipment) : null;

    // Identity: the carrier's word first, then terminals', then railroads'.
    for (const { obs } of sources) {
      const fact = obs.facts.containers.find((f) => containerNumber(f.number) === n);
      if (!fact) continue;
      c.iso_size_type ??= fact.isoSizeType?.trim().toUpperCase() || null;
      c.seal_number ??= fact.sealNumber?.trim() || null;
      if (c.weight_in_lbs === null && fact.weightLbs !== null) {
        c.weight_in_lbs = fact.weightLbs;
        c.weight_is_shipment_average = fact.weightIsShipmentAverage;
      }
    }

    c.empty_out_at = first(actual('empty_out'))?.time?.at ?? null;
    c.on_board_at = first(mine.filter((x) => ON_BOARD.has(x.milestone) && x.classifier === 'actual' && x.time))?.time?.at ?? null;
    c.pol_full_in_at = first(actual('full_in', atPol))?.time?.at ?? null;
    c.pol_vessel_loaded_at = first(actual('vessel_loaded'))?.time?.at ?? null;
    c.pol_vessel_departed_at = first(actual('vessel_departed', atPol))?.time?.at ?? null;
    c.pod_arrived_at = last(actual('vessel_arrived', atPod))?.time?.at ?? null;
    c.pod_discharged_at = last(actual('vessel_discharged', atPod))?.time?.at ?? null;

    const railStart = mine.filter((x) => (x.milestone === 'rail_loaded' || x.milestone === 'rail_departed') && x.railScac);
    c.pod_rail_carrier_scac = first(railStart)?.railScac ?? null;
    const railEnd = mine.filter((x) => ['rail_arrived', 'rail_unloaded', 'arrived_at_destination'].includes(x.milestone) && x.railScac);
    c.ind_rail_carrier_scac = last(railEnd)?.railScac ?? null;
    c.pod_rail_loaded_at = first(actual('rail_loaded'))?.time?.at ?? null;
    c.pod_rail_departed_at = first(actual('rail_departed'))?.time?.at ?? null;
    c.ind_rail_unloaded_at = last(actual('rail_unloaded'))?.time?.at ?? null;

    // The railroad's own ETA/ATA at the inland destination, from rail sources only: the line's stays on the
    // shipment's destination_eta_at/ata_at.
    const fromRail = candidates.filter((x) => x.container === n && x.dataSource === 'rail' && x.time);
    // (A rail arrival at the destination counts: it was copied to arrived_at_destination above. An arrival
    // elsewhere may be an interchange, so without a known destination only the railroad's own word counts.)
    const indArrival = fromRail.filter((x) => x.milestone === 'arrived_at_destination');
    c.ind_ata_at = indArrival.filter((x) => x.classifier === 'actual').sort(byTime)[0]?.time?.at ?? null;
    const indEstimate = indArrival.filter((x) => x.classifier !== 'actual').sort(preference)[0];
    c.ind_eta_at = indEstimate?.time?.at ?? null;

    // full_out / empty_in: the rail terminal's for rail moves, the ocean terminal's otherwise.
    const fullOuts = actual('full_out');
    c.final_destination_full_out_at =
      last(fullOuts.filter((x) => x.place?.facility?.kind === 'rail_terminal' || railSide(n, x.place)))?.time?.at ?? null;
    c.pod_full_out_at =
      last(fullOuts.filter((x) => !(x.place?.facility?.kind === 'rail_terminal' || railSide(n, x.place))))?.time?.at ?? null;
    const emptyIn = last(actual('empty_in'));
    c.empty_terminated_at = emptyIn?.time?.at ?? null;
    c.empty_terminated_timezone = emptyIn?.time?.timezone ?? null;
    // Customs selections open a hold until a later customs release; [] once all are released.
    const selections = mine.filter((x) => CUSTOMS_SELECTIONS.has(x.milestone) && x.classifier === 'actual' && x.time);
    const release = last(actual('customs_release'));
    if (selections.length > 0 || release) {
      const open = selections.filter((x) => !release || x.ms > release.ms);
      c.customs_selection_holds = [
        ...new Set(open.map((x) => (x.milestone === 'customs_selected_for_scan' ? 'scan' : 'inspection') as 'scan' | 'inspection')),
      ]
        .map((k) => ({ ...CUSTOMS_SELECTION_HOLDS[k] }))
        .sort(compareHolds);
    }
    // A carrier's drop-off at the consignee stays a raw event: `delivered` is the user's word only.
    c.delivered_at = null;

    // The POD terminal: the terminal's own report, else where the line discharged it, else the B/L's POD.
    const term = terminalYard.get(n);
    const termPlace = term ? resolvePlace(term.yard.facility, 'terminal') : null;
    const discharge = last(actual('vessel_discharged', atPod)) ?? last(mine.filter((x) => x.milestone === 'vessel_discharged'));
    c.pod_terminal = termPlace?.facility ?? discharge?.place?.facility ?? shipment?.pod_terminal ?? null;
    c.pod_terminal_source = termPlace?.facility ? 'terminal' : c.pod_terminal ? 'shipping_line' : null;
    c.pod_timezone = termPlace?.timezone ?? pod?.timezone ?? discharge?.place?.timezone ?? null;

    const railInfo = railYard.get(n);
    const railPlace = railInfo ? resolvePlace(railInfo.yard.facility, 'rail_terminal') : null;
    const inlandEvent = last(mine.filter((x) => ['rail_arrived', 'rail_unloaded', 'arrived_at_destination'].includes(x.milestone)));
    c.pickup_facility = railPlace?.facility ?? (c.rail_move ? (inlandEvent?.place?.facility ?? null) : null);
    c.final_destination_timezone = c.rail_move
      ? (railPlace?.timezone ?? inlandEvent?.place?.timezone ?? destination?.timezone ?? null)
      : null;

    if (term) {
      const y = term.yard;
      c.pod_terminal_available_for_pickup = y.available;
      c.pod_terminal_off_dock = y.offDock === true;
      c.holds_at_pod_terminal = y.holds ? sortHolds(y.holds) : null;
      c.fees_at_pod_terminal = y.fees ? sortFees(y.fees) : null;
      c.pickup_lfd_terminal = resolveWhen(y.lastFreeDay, c.pod_timezone)?.at ?? null;
      c.pickup_appointment_at = resolveWhen(looseWhen(y.appointmentAt), c.pod_timezone)?.at ?? null;
      c.location_at_pod_terminal = y.yardLocation?.trim() || null;
      c.pod_full_out_chassis_number = y.chassisNumber?.trim() || null;
    } else {
      // Without a terminal, the line's word that the box went to an off-dock yard (DCSA facility type OFFD) stands.
      c.pod_terminal_off_dock = (input.carrier?.facts.yard ?? []).some(
        (y) => containerNumber(y.containerNumber) === n && y.offDock === true,
      );
      // Without a terminal, the line's own availability milestones are the best word there is.
      const avail = [
        ...mine.filter((x) => (x.milestone === 'available' || x.milestone === 'not_available') && x.classifier === 'actual'),
      ].at(-1);
      c.pod_terminal_available_for_pickup = avail ? avail.milestone === 'available' : null;
    }
    const lineLfd = carrierYard.get(n)?.yard.lineLastFreeDay ?? term?.yard.lineLastFreeDay ?? null;
    c.pickup_lfd_line = resolveWhen(lineLfd, c.pod_timezone)?.at ?? null;

    if (railInfo) {
      const y = railInfo.yard;
      c.ind_facility_available_for_pickup = y.available;
      c.ind_facility_holds = y.holds ? sortHolds(y.holds) : null;
      c.ind_facility_fees = y.fees ? sortFees(y.fees) : null;
      c.pickup_lfd_rail = resolveWhen(y.lastFreeDay, c.final_destination_timezone)?.at ?? null;
    }

    return deriveContainer(c, shipment, isoInstant(nowMs));
  }
}
