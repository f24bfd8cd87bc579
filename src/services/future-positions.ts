// Where a vessel will be, minute by minute, on its way to a port: the estimated sea route from a position to
// the port, sailed at the vessel's recent speed. Pure (time is given); the route network loads on first use.
import { initialBearingDeg, type LatLon, sampleCount, samplePath, seaRoute } from '../lib/sea-routes/index.js';
import { recentSpeedKnots } from '../tracking/predicted-eta.js';

/** Estimated positions are this far apart in time (the reference API's spacing). */
export const POSITION_STEP_MS = 60_000;
/** The speed assumed when the vessel's recent positions give none: a container ship's usual service speed. */
export const DEFAULT_SPEED_KNOTS = 15;
/** How far back from its latest position a vessel's speeds count as recent. */
export const RECENT_SPEED_WINDOW_MS = 72 * 3600_000;
/** At most this many positions (about 69 days of one-minute steps); a longer voyage is refused, not cut. */
export const MAX_POSITIONS = 100_000;

export interface EstimatedPosition {
  latitude: number;
  longitude: number;
  /** Bearing to the next position (the last: the course it arrives on); null when there is only one. */
  heading: number | null;
  at: Date;
}

export interface RecentSpeed {
  knots: number;
  /** `ais`: the median speed over ground of the recent positions under way; `default`: none was known. */
  basis: 'ais' | 'default';
}

/**
 * The vessel's passage speed: the median speed over ground of its positions under way within
 * RECENT_SPEED_WINDOW_MS before its latest position (the rule predicted ETAs use), else DEFAULT_SPEED_KNOTS.
 */
export function recentSpeed(positions: readonly { at: Date; speed_knots: number | null }[]): RecentSpeed {
  const knots = recentSpeedKnots(
    positions.map((p) => ({ at: p.at, speedKnots: p.speed_knots })),
    RECENT_SPEED_WINDOW_MS,
  );
  return knots === null ? { knots: DEFAULT_SPEED_KNOTS, basis: 'default' } : { knots, basis: 'ais' };
}

export interface FuturePositions {
  positions: EstimatedPosition[];
  /** Length of the sea route sailed, in nautical miles. */
  distanceNm: number;
  /** When the vessel reaches the port at that speed: the last position's time (rounded up to the minute step). */
  arrivalAt: Date;
}

export class VoyageTooLongError extends RangeError {
  constructor(readonly positions: number) {
    super(`the voyage would take ${positions} positions, more than ${MAX_POSITIONS}`);
    this.name = 'VoyageTooLongError';
  }
}

/**
 * Positions one minute apart from `from` (at `startAt`, cut to the whole second) to `to` along the shortest
 * sea route, at `speedKnots`. The first is `from`, the last is exactly `to`, reached at most a minute after
 * the one before it. Each heading is the bearing to the next position. Throws VoyageTooLongError past
 * MAX_POSITIONS, RangeError for positions off the globe or a speed that is not positive.
 */
export function futurePositions(input: { from: LatLon; to: LatLon; speedKnots: number; startAt: Date; stepMs?: number }): FuturePositions {
  const { from, to, speedKnots } = input;
  const stepMs = input.stepMs ?? POSITION_STEP_MS;
  if (!(speedKnots > 0) || !Number.isFinite(speedKnots))
    throw new RangeError('futurePositions: the speed must be a positive number of knots');
  const route = seaRoute(from, to);
  const stepNm = (speedKnots * stepMs) / 3600_000;
  const count = sampleCount(route.distanceNm, stepNm);
  if (count > MAX_POSITIONS) throw new VoyageTooLongError(count);
  const start = Math.floor(input.startAt.getTime() / 1000) * 1000;
  const points = samplePath(route.path, stepNm).map((p) => ({ lat: round(p.lat, 6), lon: round(p.lon, 6) }));
  // Headings from the points as given, so each is the bearing to the next position the client sees.
  const positions = points.map((p, k) => {
    const next = points[k + 1];
    const prev = points[k - 1];
    const heading = next ? initialBearingDeg(p, next) : prev ? (initialBearingDeg(p, prev) + 180) % 360 : null;
    return {
      latitude: p.lat,
      longitude: p.lon,
      heading: heading === null ? null : round(heading, 1) % 360,
      at: new Date(start + k * stepMs),
    };
  });
  return { positions, distanceNm: route.distanceNm, arrivalAt: positions[positions.length - 1]!.at };
}

/** Six decimals of a degree are about 0.1 m: more only makes the answer longer. */
function round(x: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
}
