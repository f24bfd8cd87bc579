// What a POD vessel's stored AIS track says about the shipments it carries, as input for normalize: the port
// calls of src/tracking/port-calls.ts, read for many states in one query.
import { portByLocode } from '../../sources/reference/index.js';
import type { Queryable } from '../../storage/db.js';
import * as repo from '../../storage/repositories/tracking.js';
import type { StoredState } from '../../tracking/changes.js';
import type { NormalizeInput } from '../../tracking/normalize.js';
import { aisMilestones, aisWindow } from '../../tracking/port-calls.js';

/**
 * What each POD vessel's stored AIS track says about its shipment (src/tracking/port-calls.ts), for its
 * containers; null when there is nothing to look for. One query for all the states.
 */
export async function aisTrackInputs(
  q: Queryable,
  states: readonly (StoredState | null)[],
  worldNow: Date,
): Promise<NormalizeInput['ais'][]> {
  const windows = states.map((state) => (state && state.containers.length > 0 ? aisWindow(state) : null));
  const asked = windows.flatMap((w, i) => (w ? [{ index: i, imo: w.imo, from: w.from }] : []));
  const fixes = new Map<number, { at: Date; latitude: number; longitude: number; speedKnots: number | null }[]>();
  for (const p of await repo.vesselFixes(q, asked, worldNow)) {
    const list = fixes.get(p.index) ?? [];
    list.push({ at: p.at, latitude: p.latitude, longitude: p.longitude, speedKnots: p.speed_knots });
    fixes.set(p.index, list);
  }
  return states.map((state, i) => {
    // No positions, no port calls.
    const track = fixes.get(i);
    if (!state || !track) return null;
    const milestones = aisMilestones(state, track, (locode) => portByLocode(locode));
    return milestones.length === 0 ? null : { containers: state.containers.map((c) => c.number), milestones };
  });
}
