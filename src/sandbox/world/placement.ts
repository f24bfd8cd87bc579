import { rotation, type Sailing, sailingsAround, vesselStateAt } from './network.js';
import type { Itinerary } from './routing.js';
import { DAY, HOUR } from './time.js';

// ------------------------------------------------------------------------------------------- placement

/**
 * `arrival`: the last leg's sailing arriving nearest `target`; with `underWayAt`, only among the sailings whose
 * vessel is under way on that leg at that instant (see `chainBackward`).
 */
export type Placement =
  | { mode: 'arrival'; target: number; underWayAt?: number }
  | { mode: 'departure'; target: number; notBefore?: number }
  | { mode: 'fraction'; u: number };

export const CONNECTION_MS = 36 * HOUR;

/**
 * The sailings of the itinerary, the last arriving nearest `lastArrival`, each earlier one the latest that connects.
 * With `underWayAt`, the last leg's sailing is one whose vessel is at sea on that leg at that instant, on its last
 * passage: it left the call before the POD (a transpacific vessel calls at Busan for a day or two), so AIS shows it
 * sailing, bound for the POD; the nearest of all when no sailing around is.
 */
export function chainBackward(seed: string, it: Itinerary, lastArrival: number, underWayAt?: number): Sailing[] {
  const legs = it.legs;
  const out: Sailing[] = new Array(legs.length);
  const last = legs[legs.length - 1]!;
  const around = sailingsAround(seed, last.service, last.fromIdx, last.toIdx, lastArrival);
  const underWay =
    underWayAt === undefined
      ? []
      : around.filter(
          (s) =>
            s.from.depart < underWayAt &&
            underWayAt < s.to.arrive &&
            vesselStateAt(seed, s.imo, underWayAt).inPort === null &&
            // On its last passage, bound for the POD (its AIS destination), not for a call before it.
            rotation(seed, s.imo, s.iteration).calls[s.to.index - 1]!.depart < underWayAt,
        );
  out[legs.length - 1] = minBy(underWay.length > 0 ? underWay : around, (s) => Math.abs(s.to.arrive - lastArrival));
  for (let i = legs.length - 2; i >= 0; i--) {
    const leg = legs[i]!;
    const latest = out[i + 1]!.from.depart - CONNECTION_MS;
    const cands = sailingsAround(seed, leg.service, leg.fromIdx, leg.toIdx, latest - 2 * DAY).filter((s) => s.to.arrive <= latest);
    out[i] = minBy(cands, (s) => latest - s.to.arrive);
  }
  return out;
}

/** The first sailing departs nearest `firstDeparture` (and not before `notBefore`); each later one connects. */
export function chainForward(seed: string, it: Itinerary, firstDeparture: number, notBefore = Number.NEGATIVE_INFINITY): Sailing[] {
  const legs = it.legs;
  const out: Sailing[] = [];
  const first = legs[0]!;
  const around = sailingsAround(seed, first.service, first.fromIdx, first.toIdx, firstDeparture + 10 * DAY);
  const allowed = around.filter((s) => s.from.depart >= notBefore);
  out.push(minBy(allowed.length > 0 ? allowed : around, (s) => Math.abs(s.from.depart - firstDeparture)));
  for (let i = 1; i < legs.length; i++) {
    const leg = legs[i]!;
    const earliest = out[i - 1]!.to.arrive + CONNECTION_MS;
    const cands = sailingsAround(seed, leg.service, leg.fromIdx, leg.toIdx, earliest).filter((s) => s.from.depart >= earliest);
    out.push(minBy(cands, (s) => s.from.depart - earliest));
  }
  return out;
}

export function minBy<T>(items: readonly T[], score: (t: T) => number): T {
  if (items.length === 0) throw new Error('sandbox: no sailing found');
  let best: T = items[0] as T;
  let bestScore = score(best);
  for (const item of items) {
    const s = score(item);
    if (s < bestScore) {
      best = item;
      bestScore = s;
    }
  }
  return best;
}
