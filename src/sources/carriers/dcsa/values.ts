// Small pure helpers of the DCSA parser: times, codes, places, vessels, orderings.
import type { Call, Norm } from './model.js';
import { normalizeContainerNumber } from '../../../domain/container-number.js';
import { CLASSIFIERS, type Classifier, MILESTONES } from '../../../domain/milestones.js';
import type { MilestoneFact, Place, VesselRef, When } from '../../contract.js';
import { CLASSIFIER, dcsaCode } from './codes.js';

export function whenOf(value: string): { when: When; ms: number } {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value))
    return { when: { at: null, localDateTime: null, localDate: value }, ms: Date.parse(`${value}T00:00:00Z`) };
  if (/(?:Z|[+-]\d{2}:\d{2})$/.test(value)) return { when: { at: value, localDateTime: null, localDate: null }, ms: Date.parse(value) };
  // A wall-clock time without an offset is no instant until the place's zone is known: keep it as local
  // time (to seconds) for normalization to resolve, rather than invent an offset.
  const local = value.slice(0, 19).padEnd(19, ':00');
  return { when: { at: null, localDateTime: local, localDate: null }, ms: Date.parse(`${local}Z`) };
}

export function classifierOf(code: string): Classifier | null {
  const internal = dcsaCode('classifier', code);
  return internal ? CLASSIFIER[internal] : null;
}

export function sealsOf(numbers: (string | null | undefined)[]): string[] {
  return numbers.flatMap((n) => {
    const v = clean(n);
    return v ? [v] : [];
  });
}

export function clean(value: string | null | undefined): string | null {
  const v = value?.trim();
  return v ? v : null;
}

export function containerOf(reference: string | null | undefined): string | null {
  const v = clean(reference);
  return v ? normalizeContainerNumber(v) : null;
}

export function placeOf(
  locode: string | null | undefined,
  name: string | null | undefined,
  facilityCode: string | null | undefined,
  list: string | null | undefined,
): Place | null {
  const code = clean(facilityCode);
  const place: Place = {
    locode: clean(locode),
    name: clean(name),
    facilityCode: code,
    facilityCodeList: code ? dcsaCode('facilityCodeList', list) : null,
  };
  return place.locode || place.name || place.facilityCode ? place : null;
}

/** The event's own location, completed from its transport call when both are the same place. */
export function mergePlaces(own: Place | null, call: Place | null): Place | null {
  if (!own) return call;
  if (!call || (own.locode && call.locode && own.locode !== call.locode)) return own;
  const facility = own.facilityCode ? own : call;
  return {
    locode: own.locode ?? call.locode,
    name: own.name ?? call.name,
    facilityCode: facility.facilityCode,
    facilityCodeList: facility.facilityCodeList,
  };
}

/** IMO numbers carry a check digit; a number that fails it would create a vessel that does not exist. */
export function imoOf(value: string | null | undefined): string | null {
  const v = clean(value)?.replace(/^IMO\s*/i, '');
  if (!v || !/^\d{7}$/.test(v)) return null;
  const digits = [...v].map(Number);
  const sum = digits.slice(0, 6).reduce((acc, d, i) => acc + d * (7 - i), 0);
  return sum % 10 === digits[6] ? v : null;
}

export function vesselOf(imo: string | null | undefined, name: string | null | undefined): VesselRef | null {
  // DCSA carries no MMSI.
  const vessel = { name: clean(name), imo: imoOf(imo), mmsi: null };
  return vessel.name || vessel.imo ? vessel : null;
}

export function vehicleOf(vessel: VesselRef | null, voyage: string | null): string | null {
  if (vessel?.imo) return `imo:${vessel.imo}`;
  if (vessel?.name) return `name:${vessel.name.toUpperCase()}`;
  return voyage ? `voyage:${voyage}` : null;
}

export function vehicleRank(vehicle: string): number {
  return vehicle.startsWith('imo:') ? 0 : vehicle.startsWith('name:') ? 1 : 2;
}

export function portOf(call: Call): string {
  return call.locode ?? call.key;
}

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function byTime(a: Norm, b: Norm): number {
  return a.ms - b.ms || cmp(a.fingerprint, b.fingerprint);
}

export function byCallTime(a: Call, b: Call): number {
  return a.minMs - b.minMs || cmp(a.key, b.key);
}

export function first<T>(items: T[], order: (a: T, b: T) => number): T | null {
  return items.length ? [...items].sort(order)[0]! : null;
}

export function last<T>(items: T[], order: (a: T, b: T) => number): T | null {
  return items.length ? [...items].sort(order)[items.length - 1]! : null;
}

export function compareMilestones(a: MilestoneFact, b: MilestoneFact): number {
  return (
    instantOf(a.when) - instantOf(b.when) ||
    MILESTONES.indexOf(a.milestone) - MILESTONES.indexOf(b.milestone) ||
    CLASSIFIERS.indexOf(a.classifier) - CLASSIFIERS.indexOf(b.classifier) ||
    cmp(a.containerNumber ?? '', b.containerNumber ?? '') ||
    cmp(a.sourceEventId ?? '', b.sourceEventId ?? '')
  );
}

export function instantOf(when: When): number {
  if (when.at) return Date.parse(when.at);
  if (when.localDateTime) return Date.parse(`${when.localDateTime}Z`);
  return when.localDate ? Date.parse(`${when.localDate}T00:00:00Z`) : 0;
}
