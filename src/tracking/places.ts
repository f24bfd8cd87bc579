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
  terminalsByPortLocode,
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
 * The terminal of the port whose name (or nickname) is exactly the one given, case and spacing aside: how a source
 * that knows no code for a terminal (a DCSA carrier names a terminal without an SMDG code by port and name) still
 * points at it. Null when no terminal, or more than one, has that name there.
 */
function terminalByName(locode: string, name: string): Terminal | undefined {
  const norm = (x: string) => x.trim().replace(/\s+/g, ' ').toUpperCase();
  const wanted = norm(name);
  const found = terminalsByPortLocode(locode).filter((t) => norm(t.name) === wanted || norm(t.nickname) === wanted);
  return found.length === 1 ? found[0] : undefined;
}

/**
 * Resolves a source place. `kind` says what a facility there is: a rail terminal for rail sources and the inland
 * end of rail moves, an ocean terminal otherwise. Rail terminals have no reference table: they keep their code.
 */
export function resolvePlace(place: Place | null, kind: FacilityKind = 'terminal'): ResolvedPlace | null {
  if (!place) return null;
  const locode = clean(place.locode);
  const given = clean(place.facilityCode);
  const named = !given && kind === 'terminal' && locode && place.name ? terminalByName(locode, place.name) : undefined;
  const terminal = given && kind === 'terminal' ? terminalOf(given, place.facilityCodeList, locode) : named;
  // A terminal known by its name is kept under its own code (FIRMS, else SMDG), as if the source had given it.
  const code = given ?? (named ? (named.firmsCode ?? named.smdgCode ?? null) : null);
  const codeList = given ? place.facilityCodeList : named ? (named.firmsCode ? 'firms' : named.smdgCode ? 'smdg' : null) : null;
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
          codeList,
          firmsCode: terminal?.firmsCode ?? (codeList === 'firms' ? code : null),
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
