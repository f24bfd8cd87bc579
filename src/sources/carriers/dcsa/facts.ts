// Shipment and container facts a payload states, and the off-dock yards its boxes went through.
import type { DocumentKind, Norm, ParseOptions, Plan } from './model.js';
import type { ContainerFact, ShipmentFact, YardFact } from '../../contract.js';
import { isOffDockMove } from './plan.js';
import { cmp } from './values.js';

export function shipmentOf(events: Norm[], plan: Plan, options: ParseOptions): ShipmentFact {
  const docs = events.flatMap((e) => e.documents);
  const target = options.target;
  return {
    billOfLadingNumber: pickDocument(docs, 'transport_document', target?.numberType === 'bill_of_lading' ? target.number : null),
    bookingNumber: pickDocument(docs, 'booking', target?.numberType === 'booking_number' ? target.number : null),
    carrierScac: options.carrierScac,
    portOfLading: plan.pol?.place ?? null,
    portOfDischarge: plan.pod?.place ?? null,
    destination: plan.destination?.place ?? null,
  };
}

/** The asked-for number when the carrier names it, else the one named most often (ties: alphabetical). */
export function pickDocument(docs: { kind: DocumentKind; value: string }[], kind: DocumentKind, asked: string | null): string | null {
  const counts = new Map<string, number>();
  for (const d of docs) if (d.kind === kind && d.value) counts.set(d.value, (counts.get(d.value) ?? 0) + 1);
  if (asked) {
    const match = [...counts.keys()].filter((v) => v.toUpperCase() === asked.trim().toUpperCase()).sort(cmp)[0];
    if (match) return match;
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]));
  return ranked[0]?.[0] ?? null;
}

/**
 * One fact per container; size-type and seal from the latest event that states them, except that once the box
 * was resealed (an actual RSEA) the latest reseal's new seal is its seal: carriers keep repeating the booking's
 * seal on later events.
 */
export function containersOf(events: Norm[]): ContainerFact[] {
  const byNumber = new Map<string, ContainerFact>();
  const resealed = new Set<string>();
  for (const e of events) {
    if (!e.container) continue;
    const fact = byNumber.get(e.container) ?? {
      number: e.container,
      isoSizeType: null,
      sealNumber: null,
      weightLbs: null,
      weightIsShipmentAverage: false,
    };
    if (e.isoCode) fact.isoSizeType = e.isoCode;
    if (e.eventType === 'equipment' && e.equipment === 'resealed' && e.classifier === 'actual' && e.seals.length > 0) {
      // The seal put on is the one it names that the box did not carry before (some carriers list both).
      const before = fact.sealNumber;
      fact.sealNumber = e.seals.find((n) => n !== before) ?? e.seals[0]!;
      resealed.add(e.container);
    } else if (e.seals[0] && !resealed.has(e.container)) {
      fact.sealNumber = e.seals[0];
    }
    byNumber.set(e.container, fact);
  }
  return [...byNumber.values()].sort((a, b) => cmp(a.number, b.number));
}

/**
 * The POD's off-dock yard, when the carrier says the box went there: its latest actual laden gate move at an
 * off-dock facility (2.2 transport call `facilityTypeCode` OFFD, 3.0 `OFFD`/`OFF_DOCK_STORAGE`) after its last
 * discharge, at the POD's UN/LOCODE. A yard fact with only `offDock` set: DCSA says nothing of holds or fees there.
 */
export function offDockYard(events: Norm[], plan: Plan): YardFact[] {
  const latest = new Map<string, Norm>();
  for (const e of events) {
    if (!isOffDockMove(e) || !e.place) continue;
    const sides = plan.byContainer.get(e.container!) ?? plan.global;
    if (sides.importFromMs === null || e.ms < sides.importFromMs) continue;
    const podLocode = plan.pod?.locode ?? null;
    if (e.place.locode !== null && podLocode !== null && e.place.locode !== podLocode) continue;
    latest.set(e.container!, e);
  }
  return [...latest.values()]
    .map((e) => ({
      containerNumber: e.container!,
      facility: { ...e.place!, locode: e.place!.locode ?? plan.pod?.locode ?? null },
      available: null,
      holds: null,
      fees: null,
      lastFreeDay: null,
      lineLastFreeDay: null,
      appointmentAt: null,
      offDock: true,
      yardLocation: null,
      chassisNumber: null,
    }))
    .sort((a, b) => cmp(a.containerNumber, b.containerNumber));
}
