// Source facts as occurrences: each milestone report of a source (or of the AIS track) about a container becomes a
// candidate, resolved in place and time; duplicates become one canonical occurrence each, and that a transport
// event record. The same-occurrence vessel rule is shared with detectChanges and port-calls.
import { CLASSIFIERS, type Classifier, type Milestone, type TransportMode } from '../domain/milestones.js';
import type { MilestoneFact, SourceObservation } from '../sources/contract.js';
import { type FacilityKind, type ResolvedPlace, resolvePlace } from './places.js';
import { type DataSource, type TransportEventRecord, transportEventName } from './snapshot.js';
import { type IsoInstant, msOf, type Resolved, resolveWhen } from './time.js';
import { isoSeconds } from '../lib/dates.js';

/** An `actual` dated later than this after world now is a source error: it is read as an estimate. */
export const FUTURE_ACTUAL_TOLERANCE_MS = 60 * 60 * 1000;

const DATA_SOURCE_RANK: Record<DataSource, number> = { terminal: 0, rail: 1, shipping_line: 2, ais: 3 };

/** One source fact about one container (or the shipment, `container` ''), resolved in place and time. */
export interface Candidate {
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
  /** The order candidates were made in: the last tie-break, so that the result never depends on sorting. */
  order: number;
}

/** A canonical occurrence: the preferred candidate of its duplicates, with its dedup key. */
export interface Canonical extends Candidate {
  key: string;
}

/** Hands out each candidate's `order`, counting across all the sources of one normalization. */
export interface CandidateCounter {
  next: number;
}

/** Whether two reports can be the same occurrence: vessels and voyages agree wherever both name them. */
export function compatibleVessels(
  a: { vesselImo: string | null; vesselName: string | null; voyage: string | null },
  b: { vesselImo: string | null; vesselName: string | null; voyage: string | null },
): boolean {
  if (a.vesselImo && b.vesselImo) {
    if (a.vesselImo !== b.vesselImo) return false;
  } else if (a.vesselName && b.vesselName && a.vesselName.toUpperCase() !== b.vesselName.toUpperCase()) {
    return false;
  }
  return !(a.voyage && b.voyage && a.voyage.toUpperCase() !== b.voyage.toUpperCase());
}

/**
 * Best first: actual over estimated over planned, then any source's report over AIS (the line, terminal or
 * railroad saw the event; AIS infers it from a track), then the latest report, then terminal/rail over line.
 */
export function preference(a: Candidate, b: Candidate): number {
  return (
    CLASSIFIERS.indexOf(a.classifier) - CLASSIFIERS.indexOf(b.classifier) ||
    Number(a.dataSource === 'ais') - Number(b.dataSource === 'ais') ||
    b.reportedMs - a.reportedMs ||
    DATA_SOURCE_RANK[a.dataSource] - DATA_SOURCE_RANK[b.dataSource] ||
    a.order - b.order
  );
}

export function byTime(a: Candidate, b: Candidate): number {
  return (Number.isNaN(a.ms) ? 0 : a.ms) - (Number.isNaN(b.ms) ? 0 : b.ms) || a.order - b.order;
}

/** A source's milestone fact as a candidate for one container (`container` '' for a shipment-level carrier fact). */
export function milestoneCandidate(
  m: MilestoneFact,
  source: { obs: SourceObservation; dataSource: DataSource },
  container: string,
  facilityKind: FacilityKind,
  nowMs: number,
  counter: CandidateCounter,
): Candidate {
  const { obs, dataSource } = source;
  const place = resolvePlace(m.place, facilityKind);
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
    reportedAt: Number.isNaN(reported) ? null : isoSeconds(reported),
    reportedMs: Number.isNaN(reported) ? obs.fetchedAt.getTime() : reported,
    order: counter.next++,
  };
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
export function dedupe(candidates: Candidate[]): Canonical[] {
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

export function toRecord(c: Canonical, nowMs: number): TransportEventRecord | null {
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
  return isoSeconds(Number.isNaN(at) ? nowMs : Math.max(at, nowMs));
}
