// Places as the engine keeps them: a source's LOCODE and facility code matched against the shipped reference
// data, which is where the IANA zone of every local time comes from.
import type { Place } from '../sources/contract.js';
import {
  portByLocode,
  railHubByLocode,
  railHubByRampLocode,
  type Terminal,
  terminalByFirmsCode,
  terminalBySmdgCode,
} from '../sources/reference/index.js';

export type FacilityKind = 'terminal' | 'rail_terminal';

/** A terminal or rail terminal as a source names it, matched to reference data where possible. */
export interface FacilityRef {
  kind: FacilityKind;
  /** Wire id of the reference `terminal`; null when the facility is not in the reference tables (rail terminals). */
  id: string | null;
  /** The code as the source gave it (upper case). */
  code: string;
  codeList: 'smdg' | 'bic' | 'firms' | null;
  firmsCode: string | null;
  name: string | null;
}

export interface ResolvedPlace {
  locode: string | null;
  name: string | null;
  /** What the LOCODE is on the wire: a seaport (`port`) or an inland rail hub (`metro_area`). */
  locationType: 'port' | 'metro_area' | null;
  /** IANA zone: the terminal's, else the port's, else the rail hub's; null when none is known. */
  timezone: string | null;
  facility: FacilityRef | null;
}

function clean(value: string | null | undefined): string | null {
  const v = value?.trim().toUpperCase();
  return v ? v : null;
}

function terminalOf(code: string, list: Place['facilityCodeList'], locode: string | null): Terminal | undefined {
  if (list === 'firms') return terminalByFirmsCode(code);
  if (list === 'smdg') return locode ? terminalBySmdgCode(code, locode) : undefined;
  if (list === 'bic') return undefined;
  return terminalByFirmsCode(code) ?? (locode ? terminalBySmdgCode(code, locode) : undefined);
}

/**
 * Resolves a source place. `kind` says what a facility there is: a rail terminal for rail sources and the inland
 * end of rail moves, an ocean terminal otherwise. Rail terminals have no reference table: they keep their code.
 */
export function resolvePlace(place: Place | null, kind: FacilityKind = 'terminal'): ResolvedPlace | null {
  if (!place) return null;
  const locode = clean(place.locode);
  const code = clean(place.facilityCode);
  const terminal = code && kind === 'terminal' ? terminalOf(code, place.facilityCodeList, locode) : undefined;
  const port = locode ? portByLocode(locode) : undefined;
  const hub = locode && !port ? (railHubByLocode(locode) ?? railHubByRampLocode(locode)) : undefined;
  const effectiveLocode = locode ?? terminal?.portLocode ?? null;
  return {
    locode: effectiveLocode,
    // A source's location name is often the terminal's; the reference name is the place's own.
    name: port?.name ?? hub?.name ?? (place.name?.trim() || null),
    locationType: port || terminal ? 'port' : hub ? 'metro_area' : null,
    timezone:
      terminal?.timezone ??
      port?.timeZone ??
      (effectiveLocode ? portByLocode(effectiveLocode)?.timeZone : undefined) ??
      hub?.timeZone ??
      null,
    facility: code
      ? {
          kind,
          id: terminal?.id ?? null,
          code,
          codeList: place.facilityCodeList,
          firmsCode: terminal?.firmsCode ?? (place.facilityCodeList === 'firms' ? code : null),
          name: terminal?.name ?? null,
        }
      : null,
  };
}

/** Two facility references name the same facility. */
export function sameFacility(a: FacilityRef | null, b: FacilityRef | null): boolean {
  if (!a || !b) return a === b;
  if (a.id && b.id) return a.id === b.id;
  return a.kind === b.kind && a.code === b.code;
}
