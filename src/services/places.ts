// Reference places as the API serves them: ports, metro areas (inland rail hubs), ocean terminals from the
// shipped tables, and rail terminals as the sources named them. Global: every account reads the same data.
import { notFound } from '../domain/errors.js';
import { isUuid, referenceId } from '../lib/ids.js';
import { terminalProfile } from '../sandbox/world/index.js';
import {
  type Port,
  portById,
  portByLocode,
  type RailHub,
  railHubById,
  railHubByLocode,
  railHubByRampLocode,
  type Terminal,
  terminalById,
  terminalNaturalKey,
  terminalsByPortLocode,
} from '../sources/reference/index.js';
import type { FacilityRef } from '../tracking/places.js';

export type { FacilityRef };

export interface PortPlace {
  id: string;
  locode: string;
  name: string;
  countryCode: string;
  /** The state of the port's reference terminals when they all agree (USNYC spans NY and NJ: null). */
  stateAbbr: string | null;
  latitude: number;
  longitude: number;
  timeZone: string;
  terminalIds: string[];
}

export interface MetroAreaPlace {
  id: string;
  locode: string;
  name: string;
  stateAbbr: string;
  countryCode: string;
  latitude: number;
  longitude: number;
  timeZone: string;
}

/** What a terminal's data source gives, per field (`provided_data`), with notes where partial. */
export type TerminalProvidedData = Readonly<Record<string, boolean | string>>;

export interface TerminalPlace {
  id: string;
  name: string;
  nickname: string;
  firmsCode: string | null;
  smdgCode: string | null;
  city: string;
  /** The subdivision's name, from its abbreviation. */
  state: string | null;
  stateAbbr: string;
  /** The country's English name. */
  country: string;
  /** Wire id of its port (every reference terminal's port is in the port table). */
  portId: string | null;
  /** Null when no source of Tidemark's answers for the terminal (sandbox off): nothing is known. */
  providedData: TerminalProvidedData | null;
}

/** A rail terminal as a source named it: there is no reference table of them, only the source's code. */
export interface RailTerminalPlace {
  id: string;
  code: string;
  name: string | null;
  firmsCode: string | null;
}

/** A location (an event's, a shipment's destination) as a wire ref target. */
export type LocationType = 'port' | 'metro_area';

// The subdivisions of the reference terminals (US states, CA provinces, MX states by ISO 3166-2 code).
const SUBDIVISIONS: Record<string, string> = {
  'US:AL': 'Alabama',
  'US:CA': 'California',
  'US:FL': 'Florida',
  'US:GA': 'Georgia',
  'US:HI': 'Hawaii',
  'US:LA': 'Louisiana',
  'US:MA': 'Massachusetts',
  'US:MD': 'Maryland',
  'US:NC': 'North Carolina',
  'US:NJ': 'New Jersey',
  'US:NY': 'New York',
  'US:OR': 'Oregon',
  'US:PA': 'Pennsylvania',
  'US:SC': 'South Carolina',
  'US:TX': 'Texas',
  'US:VA': 'Virginia',
  'US:WA': 'Washington',
  'CA:BC': 'British Columbia',
  'CA:NS': 'Nova Scotia',
  'CA:QC': 'Quebec',
  'MX:BCN': 'Baja California',
  'MX:COL': 'Colima',
  'MX:MIC': 'Michoacán',
  'MX:TAM': 'Tamaulipas',
  'MX:VER': 'Veracruz',
  'MX:YUC': 'Yucatán',
};

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

function portPlace(p: Port): PortPlace {
  const terminals = terminalsByPortLocode(p.locode);
  const states = new Set(terminals.map((t) => t.state));
  return {
    id: p.id,
    locode: p.locode,
    name: p.name,
    countryCode: p.countryCode,
    stateAbbr: states.size === 1 ? [...states][0]! : null,
    latitude: p.latitude,
    longitude: p.longitude,
    timeZone: p.timeZone,
    terminalIds: terminals.map((t) => t.id),
  };
}

function metroAreaPlace(h: RailHub): MetroAreaPlace {
  return {
    id: h.id,
    locode: h.locode,
    name: h.name,
    stateAbbr: h.stateProvince,
    countryCode: h.countryCode,
    latitude: h.lat,
    longitude: h.lon,
    timeZone: h.timeZone,
  };
}

/** The port a wire id or UN/LOCODE names, or undefined (global reference data: no service needed). */
export function findPort(key: string): PortPlace | undefined {
  const port = isUuid(key) ? portById(key) : portByLocode(key);
  return port ? portPlace(port) : undefined;
}

/** The English name of a country (`US` → `United States`), or the code itself when unknown. */
export function countryName(countryCode: string): string {
  return regionNames.of(countryCode) ?? countryCode;
}

/** The name of a state or province of the reference terminals (`US`, `CA` → `California`), or null. */
export function subdivisionName(countryCode: string, stateAbbr: string | null): string | null {
  return stateAbbr ? (SUBDIVISIONS[`${countryCode}:${stateAbbr}`] ?? null) : null;
}

/** The rail hub a LOCODE names: the hub's own, or one of its ramps' (`USJOT` Joliet → Chicago). */
function hubOf(locode: string): RailHub | undefined {
  return railHubByLocode(locode) ?? railHubByRampLocode(locode);
}

/**
 * The wire ref of a location, or null when the LOCODE is in neither reference table (a ref the API could
 * not render). `type` is what the engine decided; without it, a port first, then a rail hub.
 */
export function locationRefOf(
  locode: string | null | undefined,
  type: LocationType | null | undefined,
): { id: string; type: LocationType } | null {
  if (!locode) return null;
  if (type !== 'metro_area') {
    const port = portByLocode(locode);
    if (port) return { id: port.id, type: 'port' };
    if (type === 'port') return null;
  }
  const hub = hubOf(locode);
  return hub ? { id: hub.id, type: 'metro_area' } : null;
}

/** The wire ref of a port LOCODE, or null when it is not in the reference table. */
export function portRefOf(locode: string | null | undefined): { id: string; type: 'port' } | null {
  const port = locode ? portByLocode(locode) : undefined;
  return port ? { id: port.id, type: 'port' } : null;
}

/** A FacilityRef as stored (JSON): read defensively, a snapshot may predate a field. */
function facilityOf(value: unknown): FacilityRef | null {
  const f = value as Partial<FacilityRef> | null | undefined;
  if (!f || typeof f !== 'object' || typeof f.code !== 'string' || !f.code) return null;
  return {
    kind: f.kind === 'rail_terminal' ? 'rail_terminal' : 'terminal',
    id: typeof f.id === 'string' ? f.id : null,
    code: f.code,
    codeList: f.codeList ?? null,
    firmsCode: f.firmsCode ?? null,
    name: f.name ?? null,
  };
}

/**
 * The wire ref of a facility: its reference `terminal` when it has one, a `rail_terminal` (UUIDv5 of its code)
 * for rail facilities, null otherwise (an ocean terminal missing from the reference table cannot be rendered).
 */
export function facilityRefOf(value: unknown): { id: string; type: 'terminal' | 'rail_terminal' } | null {
  const f = facilityOf(value);
  if (!f) return null;
  const terminal = f.id ? terminalById(f.id) : undefined;
  if (terminal) return { id: terminal.id, type: 'terminal' };
  if (f.kind === 'rail_terminal') return { id: referenceId('rail_terminal', f.code), type: 'rail_terminal' };
  return null;
}

export class PlaceService {
  /** `sandbox`: whether the simulated terminals answer (the only terminal source Tidemark has). */
  constructor(private readonly options: { sandbox: boolean } = { sandbox: false }) {}

  /** `GET /v2/ports/{id or LOCODE}`. */
  port(key: string): PortPlace {
    const port = findPort(key);
    if (!port) throw notFound('port');
    return port;
  }

  /** `GET /v2/metro_areas/{id or LOCODE}`: a hub's own LOCODE (not a ramp's: that is another place). */
  metroArea(key: string): MetroAreaPlace {
    const hub = isUuid(key) ? railHubById(key) : railHubByLocode(key);
    if (!hub) throw notFound('metro area');
    return metroAreaPlace(hub);
  }

  /** `GET /v2/terminals/{id}`: by wire id only, as the reference API. */
  terminal(id: string): TerminalPlace {
    const t = isUuid(id) ? terminalById(id) : undefined;
    if (!t) throw notFound('terminal');
    return this.#terminalPlace(t);
  }

  /** The ports with these wire ids, each once (for includes). */
  portsByIds(ids: readonly string[]): PortPlace[] {
    return unique(ids).flatMap((id) => {
      const p = portById(id);
      return p ? [portPlace(p)] : [];
    });
  }

  metroAreasByIds(ids: readonly string[]): MetroAreaPlace[] {
    return unique(ids).flatMap((id) => {
      const h = railHubById(id);
      return h ? [metroAreaPlace(h)] : [];
    });
  }

  terminalsByIds(ids: readonly string[]): TerminalPlace[] {
    return unique(ids).flatMap((id) => {
      const t = terminalById(id);
      return t ? [this.#terminalPlace(t)] : [];
    });
  }

  /** The rail terminals of these facilities, each once; other facilities are skipped. */
  railTerminalsOf(facilities: readonly unknown[]): RailTerminalPlace[] {
    const out = new Map<string, RailTerminalPlace>();
    for (const value of facilities) {
      const f = facilityOf(value);
      const ref = facilityRefOf(f);
      if (!f || ref?.type !== 'rail_terminal' || out.has(ref.id)) continue;
      out.set(ref.id, { id: ref.id, code: f.code, name: f.name, firmsCode: f.firmsCode });
    }
    return [...out.values()];
  }

  #terminalPlace(t: Terminal): TerminalPlace {
    return {
      id: t.id,
      name: t.name,
      nickname: t.nickname,
      firmsCode: t.firmsCode,
      smdgCode: t.smdgCode,
      city: t.city,
      state: subdivisionName(t.country, t.state),
      stateAbbr: t.state,
      country: countryName(t.country),
      portId: portByLocode(t.portLocode)?.id ?? null,
      providedData: this.options.sandbox ? { ...terminalProfile(terminalNaturalKey(t)).providedData } : null,
    };
  }
}

function unique(ids: readonly string[]): string[] {
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}
