// Ports, metro areas, terminals and rail terminals on the wire (api-wire-notes §4.9–4.10), the refs other
// resources point at them with, and the include builders those resources use. A ref is only ever made for
// a place the API can render, so every relationship an `include` names has its object in `included`.
// Places are the shipped reference tables (global, the same for every account): `ReferencePlaces` reads them;
// services/places.ts adds what the sandbox's terminals provide.
import { referenceId } from '../lib/ids.js';
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
  terminalsByPortLocode,
} from '../sources/reference/index.js';
import type { FacilityRef } from '../tracking/places.js';
import type { Related, RelationshipDef, ResourceKind } from './jsonapi.js';
import type { PlaceLoaders } from './loaders.js';
import type { Resource } from './schemas.js';

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

export function portPlace(p: Port): PortPlace {
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

export function metroAreaPlace(h: RailHub): MetroAreaPlace {
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
 * The wire ref of a location (`port` or `metro_area`), or null when the LOCODE is in neither reference table (a
 * ref the API could not render). `type` is what the engine decided; without it, a port first, then a rail hub.
 */
export function locationRef(locode: string | null | undefined, type?: LocationType | null): { id: string; type: LocationType } | null {
  if (!locode) return null;
  if (type !== 'metro_area') {
    const port = portByLocode(locode);
    if (port) return { id: port.id, type: 'port' };
    if (type === 'port') return null;
  }
  const hub = hubOf(locode);
  return hub ? { id: hub.id, type: 'metro_area' } : null;
}

/** The wire ref of a port by UN/LOCODE, null when it is not in the reference table. */
export function portRef(locode: string | null | undefined): { id: string; type: 'port' } | null {
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
 * The wire ref of a facility as the sources named it (a FacilityRef): its reference `terminal` when it has one, a
 * `rail_terminal` (UUIDv5 of its code) for rail facilities, null otherwise (an ocean terminal missing from the
 * reference table cannot be rendered). Containers, shipments and events all use it.
 */
export function facilityRef(value: unknown): { id: string; type: 'terminal' | 'rail_terminal' } | null {
  const f = facilityOf(value);
  if (!f) return null;
  const terminal = f.id ? terminalById(f.id) : undefined;
  if (terminal) return { id: terminal.id, type: 'terminal' };
  if (f.kind === 'rail_terminal') return { id: referenceId('rail_terminal', f.code), type: 'rail_terminal' };
  return null;
}

/**
 * The places of the reference tables, loaded as the kinds include them. `providedData` says what the terminal's
 * source gives (none by default: without the sandbox no source of Tidemark's answers for a terminal).
 */
export class ReferencePlaces implements PlaceLoaders {
  readonly #providedData: (t: Terminal) => TerminalProvidedData | null;

  constructor(providedData: (t: Terminal) => TerminalProvidedData | null = () => null) {
    this.#providedData = providedData;
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
      return t ? [this.terminalPlace(t)] : [];
    });
  }

  /** The rail terminals of these facilities, each once; other facilities are skipped. */
  railTerminalsOf(facilities: readonly unknown[]): RailTerminalPlace[] {
    const out = new Map<string, RailTerminalPlace>();
    for (const value of facilities) {
      const f = facilityOf(value);
      const ref = facilityRef(f);
      if (!f || ref?.type !== 'rail_terminal' || out.has(ref.id)) continue;
      out.set(ref.id, { id: ref.id, code: f.code, name: f.name, firmsCode: f.firmsCode });
    }
    return [...out.values()];
  }

  terminalPlace(t: Terminal): TerminalPlace {
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
      providedData: this.#providedData(t),
    };
  }
}

function unique(ids: readonly string[]): string[] {
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}

/** Reference data lat/long are strings on the wire; the tables hold four decimals. */
const coordinate = (n: number | null) => (n === null ? null : n.toFixed(4));

export interface PlaceKinds {
  port: ResourceKind<PortPlace, Resource<'port'>>;
  metroArea: ResourceKind<MetroAreaPlace, Resource<'metro_area'>>;
  terminal: ResourceKind<TerminalPlace, Resource<'terminal'>>;
  railTerminal: ResourceKind<RailTerminalPlace, Resource<'rail_terminal'>>;
}

const kindsOf = new WeakMap<PlaceLoaders, PlaceKinds>();

/** The place kinds of one PlaceLoaders (ports include their terminals, whose `provided_data` it knows). */
export function placeKinds(places: PlaceLoaders): PlaceKinds {
  const known = kindsOf.get(places);
  if (known) return known;
  const kinds: PlaceKinds = {
    port: {
      type: 'port',
      render: (p): Resource<'port'> => ({
        id: p.id,
        type: 'port',
        attributes: {
          id: p.id,
          name: p.name,
          code: p.locode,
          state_abbr: p.stateAbbr,
          // The reference table has no city of its own for a port.
          city: null,
          country_code: p.countryCode,
          time_zone: p.timeZone,
          latitude: coordinate(p.latitude),
          longitude: coordinate(p.longitude),
        },
        relationships: { terminals: { data: p.terminalIds.map((id) => ({ id, type: 'terminal' })) } },
      }),
      includable: {
        terminals: {
          targets: () => [kinds.terminal],
          async load(records) {
            return places.terminalsByIds(records.flatMap((r) => r.terminalIds)).map((record) => ({ kind: kinds.terminal, record }));
          },
        },
      },
    },
    metroArea: {
      type: 'metro_area',
      render: (m): Resource<'metro_area'> => ({
        id: m.id,
        type: 'metro_area',
        attributes: {
          name: m.name,
          code: m.locode,
          state_abbr: m.stateAbbr,
          country_code: m.countryCode,
          time_zone: m.timeZone,
          latitude: coordinate(m.latitude),
          longitude: coordinate(m.longitude),
        },
        relationships: {},
      }),
      includable: {},
    },
    terminal: {
      type: 'terminal',
      render: (t): Resource<'terminal'> => ({
        id: t.id,
        type: 'terminal',
        attributes: {
          id: t.id,
          name: t.name,
          nickname: t.nickname,
          firms_code: t.firmsCode,
          smdg_code: t.smdgCode,
          // Tidemark's terminal table has no BIC facility codes and no street addresses.
          bic_facility_code: null,
          street: null,
          city: t.city,
          state: t.state,
          state_abbr: t.stateAbbr,
          zip: null,
          country: t.country,
          facility_type: 'ocean_terminal',
          provided_data: t.providedData ? { ...t.providedData } : null,
        },
        relationships: { port: { data: t.portId ? { id: t.portId, type: 'port' } : null } },
      }),
      includable: {
        port: {
          targets: () => [kinds.port],
          async load(records) {
            const ids = records.map((r) => r.portId).filter((id): id is string => id !== null);
            return places.portsByIds(ids).map((record) => ({ kind: kinds.port, record }));
          },
        },
      },
    },
    railTerminal: {
      type: 'rail_terminal',
      render: (r): Resource<'rail_terminal'> => ({
        id: r.id,
        type: 'rail_terminal',
        attributes: {
          // The source's name for it; the code when it gave none (rail terminals have no reference table).
          name: r.name ?? r.code,
          nickname: null,
          firms_code: r.firmsCode,
          city: null,
        },
        // A source's facility code carries no location: where the rail terminal is, is not known here.
        relationships: { port: { data: null }, metro_area: { data: null } },
      }),
      includable: { port: null, metro_area: null },
    },
  };
  kindsOf.set(places, kinds);
  return kinds;
}

/** A relationship to ports named by UN/LOCODE (`port_of_lading`, `port_of_discharge`). */
export function portInclude<T>(places: PlaceLoaders, locodesOf: (record: T) => (string | null | undefined)[]): RelationshipDef<T> {
  return {
    targets: () => [placeKinds(places).port],
    async load(records) {
      const ids = records.flatMap(locodesOf).flatMap((l) => portRef(l)?.id ?? []);
      const kind = placeKinds(places).port;
      return places.portsByIds(ids).map((record) => ({ kind, record }));
    },
  };
}

/** A relationship to a location that is a port or a metro area (`destination`, an event's `location`). */
export function locationInclude<T>(
  places: PlaceLoaders,
  locationsOf: (record: T) => { locode: string | null | undefined; type: LocationType | null | undefined }[],
): RelationshipDef<T> {
  return {
    targets: () => {
      const kinds = placeKinds(places);
      return [kinds.port, kinds.metroArea];
    },
    async load(records) {
      const kinds = placeKinds(places);
      const wanted = records.flatMap(locationsOf).flatMap((l) => locationRef(l.locode, l.type) ?? []);
      return [
        ...places.portsByIds(wanted.filter((r) => r.type === 'port').map((r) => r.id)).map((record) => ({ kind: kinds.port, record })),
        ...places
          .metroAreasByIds(wanted.filter((r) => r.type === 'metro_area').map((r) => r.id))
          .map((record) => ({ kind: kinds.metroArea, record })),
      ] as Related[];
    },
  };
}

/** A relationship to facilities as the sources named them: terminals and rail terminals (FacilityRefs). */
export function terminalInclude<T>(places: PlaceLoaders, facilitiesOf: (record: T) => unknown[]): RelationshipDef<T> {
  return {
    targets: () => {
      const kinds = placeKinds(places);
      return [kinds.terminal, kinds.railTerminal];
    },
    async load(records) {
      const kinds = placeKinds(places);
      const facilities = records.flatMap(facilitiesOf);
      const terminalIds = facilities.flatMap((f) => {
        const ref = facilityRef(f);
        return ref?.type === 'terminal' ? [ref.id] : [];
      });
      return [
        ...places.terminalsByIds(terminalIds).map((record) => ({ kind: kinds.terminal, record })),
        ...places.railTerminalsOf(facilities).map((record) => ({ kind: kinds.railTerminal, record })),
      ] as Related[];
    },
  };
}
