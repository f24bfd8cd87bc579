// Port calls from a vessel's AIS track: when it arrived at and departed from the ports of a voyage, read from
// its positions against a circular geofence around each port's reference position. Pure: positions and ports
// in, calls out; no clock (the track ends where the history ends).
//
// A call is a stay inside the geofence during which the vessel stopped (at or below STOPPED_KNOTS for at
// least MIN_STOP_MS). A vessel that passes through the geofence without stopping made no call. Arrival is
// the time of the first fix inside, departure the time of the last fix inside before the vessel was seen
// beyond the geofence (plus EXIT_MARGIN_NM, so that fixes wobbling on the edge do not end a stay). A stay
// the history begins inside has no observed arrival (`arrivedAt` null); one it ends inside has no departure.
// Isolated position jumps (a fix implying more than MAX_PLAUSIBLE_KNOTS to and from both neighbours) are
// dropped before anything else. Distances are great-circle, so ports on the antimeridian need nothing special.
//
// Berthing is not derived: a port's reference position is one point, and waiting at anchorage and lying
// at a berth are both long stops inside the port; without berth polygons the two cannot be told apart.
import type { Milestone } from '../domain/milestones.js';
import { normalizeImo } from '../domain/imo.js';
import { haversineNm } from '../lib/sea-routes/index.js';
import { compatibleVessels } from './occurrences.js';
import type { StoredState } from './state.js';
import type { TransportEventRecord } from './snapshot.js';

/** Around a port's reference position: wide enough for ports whose terminals lie far from it (Yangshan, Maasvlakte). */
export const GEOFENCE_RADIUS_NM = 25;
/** A stay ends only at a fix this much beyond the geofence. */
export const EXIT_MARGIN_NM = 2;
/** At or below this speed over ground the vessel is stopped (at anchor, moored). */
export const STOPPED_KNOTS = 1;
/** A stop lasts at least this long (first to last stopped fix in a row). */
export const MIN_STOP_MS = 30 * 60_000;
/** A fix implying more than this to and from both its neighbours is a position jump, not a move. */
export const MAX_PLAUSIBLE_KNOTS = 60;

export interface TrackFix {
  at: Date;
  latitude: number;
  longitude: number;
  /** Speed over ground as reported; null: derived from the move since the previous fix. */
  speedKnots: number | null;
}

export interface PortGeofence {
  locode: string;
  latitude: number;
  longitude: number;
  radiusNm?: number;
}

export interface PortCall {
  locode: string;
  /** The first fix inside; null when the history begins inside the geofence (the arrival was not seen). */
  arrivedAt: Date | null;
  /** The last fix inside before leaving; null while the vessel is (as far as the history goes) still there. */
  departedAt: Date | null;
}

const HOUR_MS = 3600_000;

function distanceNm(a: TrackFix, b: { latitude: number; longitude: number }): number {
  return haversineNm({ lat: a.latitude, lon: a.longitude }, { lat: b.latitude, lon: b.longitude });
}

function impliedKnots(a: TrackFix, b: TrackFix): number {
  const hours = Math.abs(b.at.getTime() - a.at.getTime()) / HOUR_MS;
  const nm = distanceNm(a, b);
  return hours === 0 ? (nm === 0 ? 0 : Number.POSITIVE_INFINITY) : nm / hours;
}

/** Valid fixes in time order, one per instant, without isolated position jumps. */
export function cleanTrack(fixes: readonly TrackFix[]): TrackFix[] {
  const valid = fixes
    .filter(
      (f) =>
        !Number.isNaN(f.at.getTime()) &&
        Number.isFinite(f.latitude) &&
        Number.isFinite(f.longitude) &&
        Math.abs(f.latitude) <= 90 &&
        Math.abs(f.longitude) <= 180,
    )
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  const unique = valid.filter((f, i) => i === 0 || f.at.getTime() !== valid[i - 1]!.at.getTime());
  return unique.filter((f, i) => {
    const prev = unique[i - 1];
    const next = unique[i + 1];
    if (!prev || !next) return true;
    const jump = impliedKnots(prev, f) > MAX_PLAUSIBLE_KNOTS && impliedKnots(f, next) > MAX_PLAUSIBLE_KNOTS;
    return !(jump && impliedKnots(prev, next) <= MAX_PLAUSIBLE_KNOTS);
  });
}

/** The port calls of a track at the given ports, in time order. */
export function detectPortCalls(fixes: readonly TrackFix[], ports: readonly PortGeofence[]): PortCall[] {
  const track = cleanTrack(fixes);
  const calls: PortCall[] = [];
  for (const port of ports) {
    const radius = port.radiusNm ?? GEOFENCE_RADIUS_NM;
    let inside: TrackFix[] | null = null;
    let startsTrack = false;
    const close = (departed: boolean) => {
      if (inside && stopped(inside)) {
        calls.push({
          locode: port.locode,
          arrivedAt: startsTrack ? null : inside[0]!.at,
          departedAt: departed ? inside.at(-1)!.at : null,
        });
      }
      inside = null;
    };
    track.forEach((f, i) => {
      const d = distanceNm(f, port);
      if (inside === null) {
        if (d <= radius) {
          inside = [f];
          startsTrack = i === 0;
        }
      } else if (d > radius + EXIT_MARGIN_NM) {
        close(true);
      } else if (d <= radius) {
        inside.push(f);
      }
    });
    close(false);
  }
  return calls.sort((a, b) => (a.arrivedAt?.getTime() ?? 0) - (b.arrivedAt?.getTime() ?? 0));
}

/** Whether the stay holds a stop: fixes in a row at or below STOPPED_KNOTS spanning MIN_STOP_MS. */
function stopped(stay: readonly TrackFix[]): boolean {
  let since: number | null = null;
  for (let i = 0; i < stay.length; i++) {
    const f = stay[i]!;
    const speed = f.speedKnots ?? (i > 0 ? impliedKnots(stay[i - 1]!, f) : null);
    if (speed === null || speed > STOPPED_KNOTS) {
      since = null;
      continue;
    }
    since ??= f.at.getTime();
    if (f.at.getTime() - since >= MIN_STOP_MS) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------------------
// From port calls to a shipment's transport events

/** A transport event the AIS track shows, for every container of the shipment. Always an actual. */
export interface AisMilestone {
  milestone: Extract<Milestone, 'vessel_arrived' | 'vessel_departed' | 'transshipment_departed'>;
  locode: string;
  at: Date;
  vesselImo: string;
  vesselName: string | null;
}

const ON_BOARD: ReadonlySet<string> = new Set(['vessel_loaded', 'vessel_departed', 'transshipment_loaded', 'transshipment_departed']);
const LOADED: ReadonlySet<string> = new Set(['vessel_loaded', 'transshipment_loaded']);

/** The vessel the shipment arrives on (IMO as stored), or null. */
function podVessel(state: StoredState): { imo: string; name: string | null } | null {
  const imo = normalizeImo(state.shipment?.pod_vessel_imo);
  return imo ? { imo, name: state.shipment?.pod_vessel_name ?? null } : null;
}

/** The line's own actual events saying the boxes went on board the POD vessel, oldest first. */
function onBoardEvents(state: StoredState, vessel: { imo: string; name: string | null }): TransportEventRecord[] {
  return state.transportEvents
    .filter(
      (r) =>
        r.milestone !== null &&
        ON_BOARD.has(r.milestone) &&
        r.classifier === 'actual' &&
        r.data_source !== 'ais' &&
        r.timestamp !== null &&
        (r.vessel_imo !== null || r.vessel_name !== null) &&
        compatibleVessels(
          { vesselImo: r.vessel_imo?.replace(/^IMO\s*/i, '') ?? null, vesselName: r.vessel_name, voyage: null },
          { vesselImo: vessel.imo, vesselName: vessel.name, voyage: null },
        ),
    )
    .sort((a, b) => Date.parse(a.timestamp!) - Date.parse(b.timestamp!));
}

/**
 * The positions window that matters for a shipment's AIS events: from a while before the line says its boxes
 * went on board the POD vessel. Null when there is nothing to look for (no POD vessel, nothing on board yet).
 */
export function aisWindow(state: StoredState, lookBackMs = 3 * 24 * HOUR_MS): { imo: string; from: Date } | null {
  const vessel = podVessel(state);
  if (!vessel) return null;
  const first = onBoardEvents(state, vessel)[0];
  return first ? { imo: vessel.imo, from: new Date(Date.parse(first.timestamp!) - lookBackMs) } : null;
}

/**
 * What the POD vessel's track says about a shipment, once the line has said its boxes are on board (a loaded
 * or departed actual naming that vessel): its departure from the port where they were loaded (`vessel_departed`
 * at the POL, `transshipment_departed` elsewhere), and its arrival at the POD after that. Nothing for calls
 * before the boxes were on board (earlier rotations), nothing from AIS alone about which vessel carries them.
 */
export function aisMilestones(
  state: StoredState,
  fixes: readonly TrackFix[],
  portAt: (locode: string) => { latitude: number; longitude: number } | undefined,
): AisMilestone[] {
  const vessel = podVessel(state);
  const shipment = state.shipment;
  if (!vessel || !shipment) return [];
  const onBoard = onBoardEvents(state, vessel);
  if (onBoard.length === 0) return [];
  const out: AisMilestone[] = [];
  const make = (milestone: AisMilestone['milestone'], locode: string, at: Date): AisMilestone => ({
    milestone,
    locode,
    at,
    vesselImo: vessel.imo,
    vesselName: vessel.name,
  });
  const geofence = (locode: string | null): PortGeofence[] => {
    const p = locode ? portAt(locode) : undefined;
    return p && locode ? [{ locode, latitude: p.latitude, longitude: p.longitude }] : [];
  };

  // Departure from the loading port: the call during which the boxes were loaded.
  const loaded = onBoard.filter((r) => r.milestone !== null && LOADED.has(r.milestone) && r.location_locode).at(-1);
  let departedAt: number | null = null;
  if (loaded) {
    const loadedAt = Date.parse(loaded.timestamp!);
    const call = detectPortCalls(fixes, geofence(loaded.location_locode)).find(
      (c) => (c.arrivedAt === null || c.arrivedAt.getTime() <= loadedAt) && c.departedAt !== null && c.departedAt.getTime() >= loadedAt,
    );
    if (call?.departedAt) {
      departedAt = call.departedAt.getTime();
      const atPol = loaded.location_locode === shipment.port_of_lading_locode;
      out.push(make(atPol ? 'vessel_departed' : 'transshipment_departed', loaded.location_locode!, call.departedAt));
    }
  }

  // Arrival at the POD: the first call after the boxes were known to be on board.
  const since = Math.max(Date.parse(onBoard.at(-1)!.timestamp!), departedAt ?? Number.NEGATIVE_INFINITY);
  const pod = shipment.port_of_discharge_locode;
  const arrival = detectPortCalls(fixes, geofence(pod)).find((c) => c.arrivedAt !== null && c.arrivedAt.getTime() > since);
  if (arrival?.arrivedAt && pod) out.push(make('vessel_arrived', pod, arrival.arrivedAt));
  return out;
}
