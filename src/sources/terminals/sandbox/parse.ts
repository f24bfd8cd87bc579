// Pure mapping of a sandbox terminal payload to canonical facts; the rail parser reuses its blocks.
import { normalizeContainerNumber } from '../../../domain/container-number.js';
import {
  type CanonicalFacts,
  type FeeFact,
  type HoldFact,
  type MilestoneFact,
  type Place,
  SourceError,
  type When,
  type YardFact,
} from '../../contract.js';
import { feeTypeOf, holdNameOf, milestoneOf } from './codes.js';
import { TerminalContainer, type WireEvent, type WirePlace, type WireYard } from './raw.js';
import type { z } from 'zod';

/** A wire time to `When`: an offset makes an instant, a bare date-time a local time, a date alone a date. */
export function whenOf(text: string | null): When {
  if (text === null) return { at: null, localDateTime: null, localDate: null };
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return { at: null, localDateTime: null, localDate: text };
  if (/(?:Z|[+-]\d{2}:\d{2})$/.test(text)) return { at: text, localDateTime: null, localDate: null };
  return { at: null, localDateTime: text, localDate: null };
}

export function placeOf(p: WirePlace | null): Place | null {
  if (!p) return null;
  return { locode: p.locode, name: p.name, facilityCode: p.code, facilityCodeList: p.code ? p.code_list : null };
}

/** One event as a milestone; null for an event type we do not know. */
export function milestoneFactOf(e: WireEvent): MilestoneFact | null {
  const milestone = milestoneOf(e.type);
  if (!milestone) return null;
  return {
    milestone,
    classifier: e.classifier,
    when: whenOf(e.time),
    place: placeOf(e.location),
    vessel: e.vessel ? { name: e.vessel.name, imo: e.vessel.imo, mmsi: e.vessel.mmsi } : null,
    voyage: e.voyage,
    mode: e.mode,
    containerNumber: e.container_number ? normalizeContainerNumber(e.container_number) : null,
    railCarrierScac: e.rail_carrier_scac?.toUpperCase() ?? null,
    sourceCode: e.description ?? e.type,
    sourceEventId: e.id,
    reportedAt: e.reported_at,
  };
}

export function yardFactOf(containerNumber: string, y: WireYard): YardFact {
  // A released hold is history, not a hold; an unknown hold or fee type is still a hold or a fee: `other`.
  const holds: HoldFact[] | null =
    y.holds === null
      ? null
      : y.holds
          .filter((h) => h.status !== 'released')
          .map((h) => ({ name: holdNameOf(h.type) ?? 'other', status: h.status as 'hold' | 'pending', description: h.description }));
  const fees: FeeFact[] | null =
    y.fees === null ? null : y.fees.map((f) => ({ type: feeTypeOf(f.type) ?? 'other', amount: f.amount, currencyCode: f.currency }));
  return {
    containerNumber: normalizeContainerNumber(containerNumber),
    facility: placeOf(y.facility)!,
    available: y.available,
    holds,
    fees,
    lastFreeDay: y.last_free_day === null ? null : whenOf(y.last_free_day),
    lineLastFreeDay: y.line_last_free_day === null ? null : whenOf(y.line_last_free_day),
    appointmentAt: y.appointment?.scheduled_at ?? null,
    yardLocation: y.yard_location,
    chassisNumber: y.chassis_number,
    ...(y.off_dock ? { offDock: true } : {}),
  };
}

/** Milestones in a stable order (time, then the source's id), whatever order the source sent them in. */
export function sortedMilestones(events: WireEvent[]): MilestoneFact[] {
  const facts = events.flatMap((e) => {
    const f = milestoneFactOf(e);
    return f ? [f] : [];
  });
  const ms = (w: When) =>
    Date.parse(w.at ?? (w.localDateTime ? `${w.localDateTime}Z` : w.localDate ? `${w.localDate}T00:00:00Z` : '')) || 0;
  return facts.sort(
    (a, b) =>
      ms(a.when) - ms(b.when) ||
      cmp(a.sourceEventId ?? '', b.sourceEventId ?? '') ||
      cmp(a.milestone, b.milestone) ||
      cmp(a.containerNumber ?? '', b.containerNumber ?? ''),
  );
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Validates with a schema; a failure is `bad_response` naming the first fields that are wrong. */
export function validated<S extends z.ZodType>(schema: S, payload: unknown, what: string): z.output<S> {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  const shown = result.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  throw new SourceError('bad_response', `${what}: ${shown.join('; ')}`);
}

export function parseTerminalContainer(payload: unknown): CanonicalFacts {
  const p = validated(TerminalContainer, payload, 'Sandbox terminal container');
  return {
    shipment: null,
    containers: [],
    milestones: sortedMilestones(p.events),
    yard: [yardFactOf(p.container_number, p)],
    vesselPositions: [],
  };
}
