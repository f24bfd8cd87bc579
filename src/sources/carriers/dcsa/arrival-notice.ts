// What a DCSA Arrival Notice 1.0.1 adds to the Track & Trace facts: per-container cargo weight, seals, size-types,
// containers no event names yet, and the line's last free day. Pure: notices in, facts merged, no clock.
import { normalizeContainerNumber } from '../../../domain/container-number.js';
import {
  type CanonicalFacts,
  type ContainerFact,
  type Place,
  SourceError,
  type TrackTarget,
  type When,
  type YardFact,
} from '../../contract.js';
import { stableJson } from '../../http.js';
import { dcsaCode } from './codes.js';
import { type AnFreeTime, type AnLocation, type ArrivalNotice, ArrivalNotices, validate } from './raw.js';

/** Pounds per unit of the AN 1.0.1 weight units (1 lb = 0.45359237 kg exactly). */
const LBS_PER_UNIT: Readonly<Record<string, number>> = { LBR: 1, KGM: 1 / 0.45359237, GRM: 1 / 453.59237, ONZ: 1 / 16 };

/**
 * The bill of lading whose notices complete these facts: the one the events name (the asked-for one when they
 * name it), else the asked-for bill of lading itself. The adapter asks for it and the parser keeps only its
 * notices, so both apply one rule.
 */
export function arrivalNoticeReference(facts: CanonicalFacts, target?: Pick<TrackTarget, 'numberType' | 'number'>): string | null {
  const named = facts.shipment?.billOfLadingNumber?.trim();
  if (named) return named;
  return target?.numberType === 'bill_of_lading' ? target.number.trim() || null : null;
}

/** Validates stored or received notices (every page's, as one array); `bad_response` when they do not fit. */
export function validateArrivalNotices(payload: unknown): ArrivalNotice[] {
  const result = validate(ArrivalNotices, payload);
  if (!result.ok) throw new SourceError('bad_response', `DCSA Arrival Notice 1.0.1: ${result.message}`);
  return result.value;
}

/**
 * The bill of lading's own ports as its newest notice that states them says (AN 1.0.1 `transport.portOfLoading`,
 * "where the cargo is loaded onto a first sea-going vessel", and `portOfDischarge`, "discharged from the last
 * sea-going vessel"), as UN/LOCODEs; null where no notice of that bill of lading states one.
 */
export function arrivalNoticePorts(payload: unknown, billOfLading: string | null): { pol: string | null; pod: string | null } {
  const all = validateArrivalNotices(payload);
  const raw = payload as unknown[];
  const wanted = billOfLading?.trim().toUpperCase();
  if (!wanted) return { pol: null, pod: null };
  const notices = all
    .map((notice, i) => ({ notice, key: stableJson(raw[i]) }))
    .filter((n) => n.notice.transportDocumentReference.trim().toUpperCase() === wanted)
    .sort((a, b) => Date.parse(b.notice.issueDateTime) - Date.parse(a.notice.issueDateTime) || cmp(a.key, b.key));
  const locode = (pick: (n: ArrivalNotice) => AnLocation | null | undefined) =>
    notices.map((n) => clean(pick(n.notice)?.UNLocationCode)).find((v) => v !== null) ?? null;
  return { pol: locode((n) => n.transport?.portOfLoading), pod: locode((n) => n.transport?.portOfDischarge) };
}

interface Notice {
  notice: ArrivalNotice;
  /** Canonical JSON: breaks ties between notices issued at the same instant, whatever order they came in. */
  key: string;
}

/**
 * Merges the bill of lading's arrival notices into facts parsed from its events. Notices of other documents are
 * ignored; of the rest the newest (`issueDateTime`) that states a value gives it. Events win over notices for
 * size-type and seal (they are the later word: a reseal is an event).
 * - Weight: a container's cargo items' gross weights summed, in pounds (`LBR` as given; `KGM`, `GRM`, `ONZ`
 *   converted and rounded to whole pounds); unknown when any of its cargo items has no weight or an unknown unit.
 * - Shipment average: when the notice gives every one of its ≥ 2 containers the same weight, the carrier has
 *   spread the consignment's weight evenly (see README, "Arrival notices").
 * - Line last free day: a free time of type `DEM` (demurrage: "the final date when the container(s) can be
 *   collected without incurring charges") with a `lastFreeDate` (kept as a date) or `lastFreeDateTime` (an
 *   instant), applying to the container by equipment reference, else by ISO code, else to all; the most specific
 *   level wins, and disagreeing dates at that level give none. A bare duration is not a date: it is not used.
 *   The facility is the notice's port of discharge (else the events').
 */
export function mergeArrivalNotices(facts: CanonicalFacts, payload: unknown, billOfLading: string | null): CanonicalFacts {
  const all = validateArrivalNotices(payload);
  const raw = payload as unknown[];
  const wanted = billOfLading?.trim().toUpperCase();
  if (!wanted) return facts;
  const notices: Notice[] = all
    .map((notice, i) => ({ notice, key: stableJson(raw[i]) }))
    .filter((n) => n.notice.transportDocumentReference.trim().toUpperCase() === wanted)
    .sort((a, b) => Date.parse(b.notice.issueDateTime) - Date.parse(a.notice.issueDateTime) || cmp(a.key, b.key));
  if (notices.length === 0) return facts;

  const equipment = notices.map((n) => equipmentOf(n.notice));
  const weights = notices.map((n) => weightsOf(n.notice));
  const weighed = weights.find((w) => [...w.values()].some((v) => v !== null)) ?? null;
  const average = weighed !== null && isEvenSpread(weighed);

  // The notice lists the bill of lading's equipment: containers no event names yet are still its containers.
  const numbers = new Set(facts.containers.map((c) => c.number));
  for (const map of [...equipment, ...weights]) for (const number of map.keys()) numbers.add(number);

  const containers: ContainerFact[] = [...numbers].sort(cmp).map((number) => {
    const fromEvents = facts.containers.find((c) => c.number === number);
    const iso = fromEvents?.isoSizeType ?? firstOf(equipment, (e) => e.get(number)?.iso);
    const weightLbs = weighed?.get(number) ?? null;
    return {
      number,
      isoSizeType: iso,
      sealNumber: fromEvents?.sealNumber ?? firstOf(equipment, (e) => e.get(number)?.seal),
      weightLbs,
      weightIsShipmentAverage: average && weightLbs !== null,
    };
  });

  const yard: YardFact[] = [];
  for (const c of containers) {
    for (const { notice } of notices) {
      const lfd = lineLastFreeDay(notice.freeTimes ?? [], c.number, c.isoSizeType);
      if (!lfd) continue;
      const facility = placeOf(notice.transport?.portOfDischarge) ?? facts.shipment?.portOfDischarge ?? null;
      if (facility) yard.push(lineLfdFact(c.number, facility, lfd));
      break;
    }
  }
  return { ...facts, containers, yard: [...facts.yard, ...yard] };
}

function equipmentOf(notice: ArrivalNotice): Map<string, { iso: string | null; seal: string | null }> {
  const found = new Map<string, { iso: string | null; seal: string | null }>();
  for (const u of notice.utilizedTransportEquipments ?? []) {
    const number = containerOf(u.equipment?.equipmentReference);
    if (!number) continue;
    const current = found.get(number) ?? { iso: null, seal: null };
    current.iso ??= clean(u.equipment?.ISOEquipmentCode)?.toUpperCase() ?? null;
    current.seal ??= clean(u.seals?.[0]?.number);
    found.set(number, current);
  }
  return found;
}

/** Per container: its cargo items' gross weight in pounds, or null when any of them is not given in a known unit. */
function weightsOf(notice: ArrivalNotice): Map<string, number | null> {
  const sums = new Map<string, { lbs: number; exact: boolean } | null>();
  for (const item of notice.consignmentItems ?? []) {
    for (const cargo of item.cargoItems ?? []) {
      const number = containerOf(cargo.equipmentReference);
      if (!number) continue;
      const w = cargo.cargoGrossWeight;
      const factor = w ? LBS_PER_UNIT[w.unit.trim().toUpperCase()] : undefined;
      const current = sums.get(number);
      if (current === null) continue;
      if (!w || factor === undefined) {
        sums.set(number, null);
        continue;
      }
      const base = current ?? { lbs: 0, exact: true };
      sums.set(number, { lbs: base.lbs + w.value * factor, exact: base.exact && factor === 1 });
    }
  }
  for (const u of notice.utilizedTransportEquipments ?? []) {
    const number = containerOf(u.equipment?.equipmentReference);
    if (number && !sums.has(number)) sums.set(number, null);
  }
  // Pounds as given stay as given; converted weights are rounded to whole pounds (what carriers declare in).
  return new Map([...sums].map(([number, s]) => [number, s === null ? null : s.exact ? s.lbs : Math.round(s.lbs)]));
}

/** Every container weighed, at least two, and all the same weight. */
function isEvenSpread(weights: Map<string, number | null>): boolean {
  const values = [...weights.values()];
  return values.length >= 2 && values.every((v) => v !== null && v === values[0]);
}

function lineLastFreeDay(freeTimes: AnFreeTime[], container: string, iso: string | null): When | null {
  let best = -1;
  let dates = new Set<string>();
  let chosen: When | null = null;
  for (const f of freeTimes) {
    if (!(f.typeCodes ?? []).some((t) => t.trim().toUpperCase() === 'DEM')) continue;
    const when: When | null = f.lastFreeDate
      ? { at: null, localDateTime: null, localDate: f.lastFreeDate.value }
      : f.lastFreeDateTime
        ? { at: f.lastFreeDateTime.value, localDateTime: null, localDate: null }
        : null;
    if (!when) continue;
    const refs = (f.equipmentReferences ?? []).flatMap((r) => containerOf(r) ?? []);
    const isos = (f.ISOEquipmentCodes ?? []).flatMap((c) => clean(c)?.toUpperCase() ?? []);
    const level = refs.length ? (refs.includes(container) ? 2 : -1) : isos.length ? (iso && isos.includes(iso) ? 1 : -1) : 0;
    if (level < 0 || level < best) continue;
    if (level > best) {
      best = level;
      dates = new Set();
    }
    dates.add(stableJson(when));
    chosen = when;
  }
  return dates.size === 1 ? chosen : null;
}

function lineLfdFact(containerNumber: string, facility: Place, lineLastFreeDay: When): YardFact {
  return {
    containerNumber,
    facility,
    available: null,
    holds: null,
    fees: null,
    lastFreeDay: null,
    lineLastFreeDay,
    appointmentAt: null,
    yardLocation: null,
    chassisNumber: null,
  };
}

function placeOf(l: AnLocation | null | undefined): Place | null {
  if (!l) return null;
  const code = clean(l.facility?.facilityCode);
  const place: Place = {
    locode: clean(l.UNLocationCode),
    name: clean(l.locationName),
    facilityCode: code,
    facilityCodeList: code ? dcsaCode('facilityCodeList', l.facility?.facilityCodeListProvider) : null,
  };
  return place.locode || place.name || place.facilityCode ? place : null;
}

function firstOf<T>(items: T[], pick: (item: T) => string | null | undefined): string | null {
  for (const item of items) {
    const v = pick(item);
    if (v) return v;
  }
  return null;
}

function clean(value: string | null | undefined): string | null {
  const v = value?.trim();
  return v ? v : null;
}

function containerOf(reference: string | null | undefined): string | null {
  const v = clean(reference);
  return v ? normalizeContainerNumber(v) : null;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
