// Tidemark's own arrival estimate for a container on the water (beyond the reference API): the vessel's last AIS
// position, the remaining sea-route distance to the port of discharge and the vessel's recent speed, while the
// vessel is bound for the POD (its reported AIS destination). Pure: the caller passes the positions, the port,
// the destination's port, the carrier's ETA and the time.
import { haversineNm, seaRoute } from '../lib/sea-routes/index.js';

/** WGS84 degrees, as positions and ports are stored. */
export interface Coordinates {
  latitude: number;
  longitude: number;
}

const point = (c: Coordinates) => ({ lat: c.latitude, lon: c.longitude });

/** A position older than this says nothing about where the vessel is now. */
export const STALE_POSITION_MS = 48 * 3600_000;
/** Slower than this the vessel is at anchor, berthed or drifting: its speed says nothing about the passage. */
export const UNDERWAY_KNOTS = 3;
/** No merchant ship makes this speed: a reading at or above it is an AIS glitch (102.3 means "not available"). */
export const IMPOSSIBLE_KNOTS = 60;
/** The recent speed is the median over this window of positions (robust to a slow-down in a strait). */
export const SPEED_WINDOW_MS = 24 * 3600_000;
/** Within this distance of the port the vessel is arriving: the estimate is its last position's time. */
export const ARRIVING_NM = 2;
/**
 * A reported destination this close to the POD is the POD (Los Angeles and Long Beach share a harbour; a crew may
 * name either). Seattle and Tacoma, 25 nm apart, are two calls.
 */
export const SAME_PORT_NM = 10;
/** A difference from the carrier's ETA larger than this gets a reason. */
export const REASON_THRESHOLD_MS = 12 * 3600_000;

export interface VesselFix extends Coordinates {
  at: Date;
  speedKnots: number | null;
}

export interface EtaInput {
  now: Date;
  /** The vessel's positions, any order; the latest is where it is. */
  positions: readonly VesselFix[];
  /** The port of discharge; null when unknown. */
  pod: (Coordinates & { name: string }) | null;
  /**
   * The port the vessel's latest AIS position reports as its destination, when it names a known one (see
   * `reportedLocode`); null when it reports none or only text that names no port.
   */
  boundFor: (Coordinates & { locode: string }) | null;
  /** The carrier's current POD ETA. */
  carrierEta: Date | null;
  /** Set once the vessel arrived at the POD: then there is nothing to predict. */
  podArrivedAt: Date | null;
}

export interface PredictedEta {
  at: Date;
  /** Why it differs from the carrier's ETA by more than 12 hours; null when it does not (or there is none). */
  reason: string | null;
  distanceNm: number;
  speedKnots: number;
}

/**
 * The median speed over the window before the latest position, counting only fixes under way (a median, so a
 * few readings slowing for a pilot or a canal do not drag it down); null when no fix in the window is under way.
 * The one rule for a vessel's recent speed: future positions use it too, with a longer window.
 */
export function recentSpeedKnots(
  positions: readonly { at: Date; speedKnots: number | null }[],
  windowMs: number = SPEED_WINDOW_MS,
): number | null {
  if (!positions.length) return null;
  const latest = Math.max(...positions.map((p) => p.at.getTime()));
  const speeds = positions
    .filter((p) => latest - p.at.getTime() <= windowMs)
    .map((p) => p.speedKnots)
    .filter((s): s is number => s !== null && Number.isFinite(s) && s >= UNDERWAY_KNOTS && s < IMPOSSIBLE_KNOTS)
    .sort((a, b) => a - b);
  if (!speeds.length) return null;
  const mid = Math.floor(speeds.length / 2);
  return speeds.length % 2 ? speeds[mid]! : (speeds[mid - 1]! + speeds[mid]!) / 2;
}

const days = (ms: number) => Math.abs(ms) / (24 * 3600_000);

function describeDifference(p: { at: Date; distanceNm: number; speedKnots: number }, carrierEta: Date, pod: string): string {
  const diff = p.at.getTime() - carrierEta.getTime();
  const span = days(diff) >= 1 ? `${days(diff).toFixed(1)} days` : `${Math.round(Math.abs(diff) / 3600_000)} hours`;
  const where = `${Math.round(p.distanceNm).toLocaleString('en-US')} nm by sea from ${pod} at a recent ${p.speedKnots.toFixed(1)} kn`;
  return diff > 0
    ? `The vessel is ${where}: at that pace it arrives ${span} after the carrier's ETA.`
    : `The vessel is ${where}: at that pace it arrives ${span} before the carrier's ETA (it may slow down or wait at anchor).`;
}

/**
 * The UN/LOCODE in an AIS destination, when the text is one: `USSAV`, `US SAV`, `us-sav`, or the last of a route
 * (`CNSHA>USLAX`, `CNSHA => USLAX`); null for anything else (`SAVANNAH`, `FOR ORDERS`). Five letters alone can be a
 * word (`BUSAN`, `TOKYO`): `known` says whether a code is a real port.
 */
export function reportedLocode(destination: string | null, known: (locode: string) => boolean): string | null {
  if (!destination) return null;
  const last = destination
    .toUpperCase()
    .split('>')
    .at(-1)!
    .replace(/[\s=-]/g, '');
  return /^[A-Z]{2}[A-Z2-9]{3}$/.test(last) && known(last) ? last : null;
}

/**
 * The predicted arrival at the POD, or null when there is nothing to go on: arrived already, no POD, no
 * recent position, no speed under way to extrapolate (a vessel waiting at anchor), or the vessel bound for
 * another port. Then it calls elsewhere first (a vessel from Asia passes Savannah on its way to New York and
 * Norfolk): the sea route from its position to the POD ignores those calls and their port stays, and would
 * predict days too early. AIS tells only the next port, not the rotation after it, so no honest estimate is
 * possible until the vessel is bound for the POD; a vessel that reports no destination is taken to be.
 */
export function predictPodEta(input: EtaInput): PredictedEta | null {
  const { now, positions, pod, carrierEta, podArrivedAt, boundFor } = input;
  if (podArrivedAt || !pod || !positions.length) return null;
  if (boundFor && haversineNm(point(boundFor), point(pod)) > SAME_PORT_NM) return null;
  const last = positions.reduce((a, b) => (b.at.getTime() > a.at.getTime() ? b : a));
  if (now.getTime() - last.at.getTime() > STALE_POSITION_MS) return null;
  const speed = recentSpeedKnots(positions);
  if (haversineNm(point(last), point(pod)) <= ARRIVING_NM) return { at: last.at, distanceNm: 0, speedKnots: speed ?? 0, reason: null };
  // Checked before the route: a vessel waiting at anchor costs no sea-route search.
  if (speed === null) return null;
  const distanceNm = seaRoute(point(last), point(pod)).distanceNm;
  const at = new Date(last.at.getTime() + (distanceNm / speed) * 3600_000);
  const predicted = { at, distanceNm, speedKnots: speed };
  return { ...predicted, reason: predictionReason(predicted, carrierEta, pod.name) };
}

/**
 * Why a prediction differs from the carrier's ETA, when it does by more than 12 hours; else null. Shipments
 * compute it when rendered, so that it follows the carrier's latest ETA without a new prediction.
 */
export function predictionReason(
  predicted: { at: Date; distanceNm: number; speedKnots: number },
  carrierEta: Date | null,
  podName: string,
): string | null {
  if (!carrierEta || Math.abs(predicted.at.getTime() - carrierEta.getTime()) <= REASON_THRESHOLD_MS) return null;
  return describeDifference(predicted, carrierEta, podName);
}
