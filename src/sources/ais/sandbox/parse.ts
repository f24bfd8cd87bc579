// Pure mapping of a sandbox AIS payload to canonical facts: the vessel's positions, oldest first.
import type { CanonicalFacts } from '../../contract.js';
import { validated } from '../../terminals/sandbox/parse.js';
import { AisVessel } from './raw.js';

export function parseAisVessel(payload: unknown): CanonicalFacts {
  const v = validated(AisVessel, payload, 'Sandbox AIS vessel');
  const vesselPositions = v.positions
    .map((p) => ({
      imo: v.imo,
      at: p.timestamp,
      latitude: p.lat,
      longitude: p.lon,
      speedKnots: p.sog,
      headingDegrees: p.heading,
      // Kept as reported (trimmed): it is free text; the predictor reads a UN/LOCODE in it when it is one.
      destination: p.destination?.trim() || null,
    }))
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return { shipment: null, containers: [], milestones: [], yard: [], vesselPositions };
}
