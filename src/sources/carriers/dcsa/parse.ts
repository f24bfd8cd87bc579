// Pure mapping of a DCSA Track & Trace payload (2.2 event array or 3.0 `{ events }`) to canonical facts.
// No I/O and no clock; the same events give the same facts whatever order the carrier sent them in. The steps live
// beside it: events.ts (validation, version-free events), plan.ts (vehicles and stops), milestones.ts, facts.ts.
import type { BillOfLadingPorts, Norm, ParseOptions } from './model.js';
import { type CanonicalFacts, SourceError, type When } from '../../contract.js';
import { stableJson } from '../../http.js';
import { arrivalNoticePorts, arrivalNoticeReference, mergeArrivalNotices } from './arrival-notice.js';

import { latestVersions, normalize } from './events.js';
import { buildPlan } from './plan.js';
import { milestoneOf } from './milestones.js';
import { containersOf, offDockYard, shipmentOf } from './facts.js';
import { compareMilestones } from './values.js';

export { stableJson };

/**
 * A stored DCSA payload in its parts: a Track & Trace payload alone (2.2 event array, 3.0 `{ events }`), or, when
 * arrival notices were read, `{ events: <that TNT payload>, arrivalNotices: [...] }`. 3.0 payloads never carry
 * `arrivalNotices`, so the two object shapes cannot be confused.
 */
export function splitDcsaPayload(payload: unknown): { events: unknown; arrivalNotices: unknown[] | null } {
  if (payload !== null && typeof payload === 'object' && !Array.isArray(payload) && 'arrivalNotices' in payload) {
    const { events, arrivalNotices } = payload as { events?: unknown; arrivalNotices: unknown };
    if (!Array.isArray(arrivalNotices)) throw new SourceError('bad_response', 'DCSA payload: `arrivalNotices` is not an array');
    return { events, arrivalNotices };
  }
  return { events: payload, arrivalNotices: null };
}

/** Facts from a DCSA payload (see `splitDcsaPayload`): the events', completed by the arrival notices when present. */
export function parseDcsaEvents(payload: unknown, options: ParseOptions): CanonicalFacts {
  const { events, arrivalNotices } = splitDcsaPayload(payload);
  const facts = parseTnt(events, options, null);
  if (arrivalNotices === null) return facts;
  const reference = arrivalNoticeReference(facts, options.target);
  // The notice states the bill of lading's own ports: they bound the main legs (see buildPlan).
  const ports = arrivalNoticePorts(arrivalNotices, reference);
  const bounded = ports.pol || ports.pod ? parseTnt(events, options, ports) : facts;
  return mergeArrivalNotices(bounded, arrivalNotices, reference);
}

function parseTnt(payload: unknown, options: ParseOptions, ports: BillOfLadingPorts | null): CanonicalFacts {
  const norms = normalize(payload);
  const events = latestVersions(norms);
  if (events.length === 0) return { shipment: null, containers: [], milestones: [], yard: [], vesselPositions: [] };

  const plan = buildPlan(events, ports);
  const milestones = events.flatMap((event) => {
    const fact = milestoneOf(event, plan);
    return fact ? [fact] : [];
  });
  milestones.sort(compareMilestones);

  return {
    shipment: shipmentOf(events, plan, options),
    containers: containersOf(events),
    milestones,
    yard: offDockYard(events, plan),
    vesselPositions: [],
  };
}

/**
 * What the events say about the booking before any facts: `cancelled` when a shipment event cancels the
 * booking (`CANC`/`CANCELLED` of `BKG`); `awaiting_manifest` when there are only shipment events and none is
 * about a transport document (the carrier knows the booking, nothing is manifested yet); else `ok`.
 */
export type DcsaBookingStatus =
  | { status: 'ok' }
  | { status: 'awaiting_manifest'; bookingNumber: string | null }
  | { status: 'cancelled'; bookingNumber: string | null; when: When };

export function dcsaBookingStatus(payload: unknown): DcsaBookingStatus {
  const events = latestVersions(normalize(splitDcsaPayload(payload).events));
  const bookingOf = (e: Norm) => e.documents.find((d) => d.kind === 'booking')?.value ?? null;
  const cancel = events.find((e) => e.eventType === 'shipment' && e.shipment === 'cancelled' && e.shipmentDocument === 'booking');
  if (cancel) return { status: 'cancelled', bookingNumber: bookingOf(cancel), when: cancel.when };
  const onlyShipment = events.length > 0 && events.every((e) => e.eventType === 'shipment');
  const manifested = events.some((e) => e.documents.some((d) => d.kind === 'transport_document'));
  if (onlyShipment && !manifested) {
    const booking = events.map(bookingOf).find((b) => b !== null) ?? null;
    return { status: 'awaiting_manifest', bookingNumber: booking };
  }
  return { status: 'ok' };
}
