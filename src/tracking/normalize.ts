// Source observations (carrier, POD terminals, railroads) → the canonical shipment, its containers and their
// transport and estimated events. Pure: reference data for places and zones, world time passed in.
// The steps: read the sources (source-reading.ts, with occurrences.ts), build the shipment (normalize-shipment.ts)
// and each container (normalize-container.ts).
import type { SourceObservation } from '../sources/contract.js';
import { toRecord } from './occurrences.js';
import { buildContainer } from './normalize-container.js';
import { buildShipment, podEstimatedEvents } from './normalize-shipment.js';
import type { ContainerSnapshot, EstimatedEventRecord, ShipmentSnapshot, TransportEventRecord } from './snapshot.js';
import { type NormalizeInput, readSources } from './source-reading.js';

export { FUTURE_ACTUAL_TOLERANCE_MS } from './occurrences.js';
export type { NormalizeInput } from './source-reading.js';

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

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function hasFacts(obs: SourceObservation | null): boolean {
  if (!obs) return false;
  const f = obs.facts;
  return f.shipment !== null || f.containers.length > 0 || f.milestones.length > 0 || f.yard.length > 0;
}

export function normalize(input: NormalizeInput, ctx: NormalizeContext): Normalized {
  const nowMs = ctx.worldNow.getTime();
  const reading = readSources(input, nowMs);
  const transportEvents = reading.canonical.flatMap((c) => toRecord(c, nowMs) ?? []);
  const shipment = input.carrier ? buildShipment(reading) : null;
  const containers = [...reading.all].sort(cmp).map((n) => buildContainer(reading, shipment, n, nowMs));
  const estimatedEvents = podEstimatedEvents(reading, shipment);

  const lineLfd = new Set<string>();
  for (const [n] of reading.carrierYard) lineLfd.add(n);
  for (const [n, { yard }] of reading.terminalYard) if (yard.lineLastFreeDay) lineLfd.add(n);

  return {
    shipment,
    containers,
    transportEvents,
    estimatedEvents,
    reported: {
      carrier: hasFacts(input.carrier),
      terminal: [...reading.terminalYard.keys()].sort(cmp),
      rail: [...reading.railYard.keys()].sort(cmp),
      lineLfd: [...lineLfd].sort(cmp),
    },
  };
}
