// Ports, metro areas, terminals and rail terminals on the wire (api-wire-notes §4.9–4.10), the refs other
// resources point at them with, and the include builders those resources use. A ref is only ever made for
// a place the API can render, so every relationship an `include` names has its object in `included`.
import {
  facilityRefOf,
  locationRefOf,
  type LocationType,
  type MetroAreaPlace,
  type PlaceService,
  type PortPlace,
  portRefOf,
  type RailTerminalPlace,
  type TerminalPlace,
} from '../services/places.js';
import type { Ref, Related, RelationshipDef, ResourceKind } from './jsonapi.js';

/**
 * The wire ref of a facility as the sources named it (a FacilityRef): its reference `terminal`, a
 * `rail_terminal` for rail facilities, null when neither. Containers, shipments and events all use it.
 */
export function facilityRef(facility: unknown): Ref | null {
  return facilityRefOf(facility);
}

/** The wire ref of a location (`port` or `metro_area`), null when the LOCODE is in no reference table. */
export function locationRef(locode: string | null | undefined, type?: LocationType | null): Ref | null {
  return locationRefOf(locode, type);
}

/** The wire ref of a port by UN/LOCODE, null when it is not in the reference table. */
export function portRef(locode: string | null | undefined): Ref | null {
  return portRefOf(locode);
}

/** Reference data lat/long are strings on the wire; the tables hold four decimals. */
const coordinate = (n: number | null) => (n === null ? null : n.toFixed(4));

export interface PlaceKinds {
  port: ResourceKind<PortPlace>;
  metroArea: ResourceKind<MetroAreaPlace>;
  terminal: ResourceKind<TerminalPlace>;
  railTerminal: ResourceKind<RailTerminalPlace>;
}

const kindsOf = new WeakMap<PlaceService, PlaceKinds>();

/** The place kinds of one PlaceService (ports include their terminals, whose `provided_data` it knows). */
export function placeKinds(places: PlaceService): PlaceKinds {
  const known = kindsOf.get(places);
  if (known) return known;
  const kinds: PlaceKinds = {
    port: {
      type: 'port',
      render: (p) => ({
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
      render: (m) => ({
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
      render: (t) => ({
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
      render: (r) => ({
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
export function portInclude<T>(places: PlaceService, locodesOf: (record: T) => (string | null | undefined)[]): RelationshipDef<T> {
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
  places: PlaceService,
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
export function terminalInclude<T>(places: PlaceService, facilitiesOf: (record: T) => unknown[]): RelationshipDef<T> {
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
