// Pure mapping of a sandbox rail payload to canonical facts.
import type { CanonicalFacts } from '../../contract.js';
import { sortedMilestones, validated, yardFactOf } from '../../terminals/sandbox/parse.js';
import { RailContainer } from './raw.js';

export function parseRailContainer(payload: unknown): CanonicalFacts {
  const p = validated(RailContainer, payload, 'Sandbox rail container');
  return {
    shipment: null,
    containers: [],
    milestones: sortedMilestones(p.events),
    yard: p.destination_terminal ? [yardFactOf(p.container_number, p.destination_terminal)] : [],
    vesselPositions: [],
  };
}
