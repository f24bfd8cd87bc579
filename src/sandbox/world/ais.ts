// The simulated AIS feed: a vessel's hourly track from its rotation, the last position at the window's end, each
// with the destination the crew has entered (the next call of the rotation, as a UN/LOCODE).
import type { VesselPositionFact } from '../../sources/contract.js';
import type { AisAnswer } from '../answers.js';
import { iterationAt, rotation, vesselByImo, vesselStateAt } from './network.js';
import { DAY, HOUR } from './time.js';
import { isoSeconds } from '../../lib/dates.js';

/** The longest track one answer holds. */
const MAX_WINDOW_MS = 31 * DAY;

export function positionAt(seed: string, imo: string, t: number): VesselPositionFact {
  const s = vesselStateAt(seed, imo, t);
  return {
    imo,
    at: isoSeconds(t),
    latitude: Math.round(s.lat * 1e5) / 1e5,
    longitude: Math.round(s.lon * 1e5) / 1e5,
    speedKnots: Math.round(s.speedKnots * 10) / 10,
    headingDegrees: Math.round(s.headingDeg) % 360,
    destination: destinationAt(seed, imo, t),
  };
}

/**
 * The destination the vessel reports at t: the call it lies at until it leaves, then the next call of its rotation
 * (crews enter the next port on departure). A vessel passing its POD on the way to earlier calls says so.
 */
export function destinationAt(seed: string, imo: string, t: number): string {
  const calls = rotation(seed, imo, iterationAt(seed, imo, t)).calls;
  // After the last call it sails back to the first, which starts the next iteration.
  return (calls.find((c) => t < c.depart) ?? calls[0]!).locode;
}

/** Hourly positions in the window (default: the 24 hours up to the world time), oldest first. */
export function aisAnswer(seed: string, imo: string, worldTime: Date, window?: { from: Date; to: Date }): AisAnswer {
  const v = vesselByImo(seed, imo.trim());
  if (!v) return { status: 'not_found' };
  const w = worldTime.getTime();
  const to = Math.min(window?.to.getTime() ?? w, w);
  const from = Math.max(window?.from.getTime() ?? to - 24 * HOUR, to - MAX_WINDOW_MS);
  const positions: VesselPositionFact[] = [];
  for (let t = to; t >= from; t -= HOUR) positions.push(positionAt(seed, v.imo, t));
  positions.reverse();
  return { status: 'ok', imo: v.imo, mmsi: v.mmsi, name: v.name, positions };
}
