// The vessel resource (api-wire-notes §4.11) and the `vessel` relationship of events. Lat/long are numbers
// here (ports' are strings); `positions` is present only when positions were asked for.
import { normalizeImo } from '../domain/imo.js';
import { referenceId } from '../lib/ids.js';
import type { VesselPositionRow, VesselRow } from '../storage/repositories/vessels.js';
import type { RelationshipDef, ResourceKind } from './jsonapi.js';
import { isoSeconds } from '../lib/dates.js';
import type { VesselLoaders } from './loaders.js';

/** The wire id of the vessel with this IMO number (UUIDv5, stable across installs). */
export const vesselId = (imo: string) => referenceId('vessel', imo);

/** A position as the vessel resource lists it: gathered from AIS, or estimated (future positions). */
export type VesselPositionRecord = Pick<VesselPositionRow, 'at' | 'latitude' | 'longitude' | 'heading_degrees'> & { estimated?: boolean };

/** What a vessel is rendered from: its stored row, with `positions` when they were asked for. */
export type VesselRecord = Pick<
  VesselRow,
  'id' | 'imo' | 'name' | 'mmsi' | 'latitude' | 'longitude' | 'speed_knots' | 'heading_degrees' | 'position_at'
> & { positions?: VesselPositionRecord[] };

/** The wire ref of the vessel with this IMO number, or null when it is not a 7-digit IMO number. */
export function vesselRef(imo: string | null | undefined): { id: string; type: 'vessel' } | null {
  const n = normalizeImo(imo);
  return n ? { id: vesselId(n), type: 'vessel' } : null;
}

export const vesselKind: ResourceKind<VesselRecord> = {
  type: 'vessel',
  render: (v) => {
    const attributes: Record<string, unknown> = {
      name: v.name,
      imo: v.imo,
      mmsi: v.mmsi,
      latitude: v.latitude,
      longitude: v.longitude,
      nautical_speed_knots: v.speed_knots,
      navigational_heading_degrees: v.heading_degrees,
      position_timestamp: isoSeconds(v.position_at),
    };
    if (v.positions) {
      attributes.positions = v.positions.map((p) => ({
        latitude: p.latitude,
        longitude: p.longitude,
        heading: p.heading_degrees,
        timestamp: isoSeconds(p.at),
        estimated: p.estimated ?? false,
      }));
    }
    return { id: v.id, type: 'vessel', attributes, relationships: {} };
  },
  includable: {},
};

/**
 * A relationship to vessels named by IMO number, loaded in one query. A vessel the carrier named but whose
 * row is not there yet (an event stored before vessels were kept) is rendered from what the record says,
 * so a ref never dangles.
 */
export function vesselInclude<T>(
  vessels: VesselLoaders,
  vesselsOf: (record: T) => { imo: string | null | undefined; name: string | null | undefined }[],
): RelationshipDef<T> {
  return {
    targets: () => [vesselKind],
    async load(records) {
      const named = new Map<string, string | null>();
      for (const v of records.flatMap(vesselsOf)) {
        const imo = normalizeImo(v.imo);
        if (imo && !named.get(imo)) named.set(imo, v.name?.trim() || null);
      }
      if (named.size === 0) return [];
      const rows = new Map((await vessels.byImos([...named.keys()])).map((r) => [r.imo, r]));
      return [...named].map(([imo, name]) => ({ kind: vesselKind, record: rows.get(imo) ?? unstoredVessel(imo, name) }));
    },
  };
}

function unstoredVessel(imo: string, name: string | null): VesselRecord {
  return {
    id: vesselId(imo),
    imo,
    name,
    mmsi: null,
    latitude: null,
    longitude: null,
    speed_knots: null,
    heading_degrees: null,
    position_at: null,
  };
}
