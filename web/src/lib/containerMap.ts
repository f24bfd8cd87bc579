// A container's map from `GET /v2/containers/{id}/map_geojson` (accounts with the `routing` feature): the plain
// GeoJSON the server answers, read into what the map draws — the ports (POL, TS1…, POD) with their times, the
// lines (the AIS track sailed, the estimated port-to-port legs, the predicted route from the vessel to the next
// port) and the vessel now. Lines that cross the antimeridian arrive with longitudes past ±180 (each within 180°
// of the one before); they are kept that way: d3-geo wraps them onto the rotated map (lib/worldMap.ts).
import { api } from './api';
import type { LonLat } from './worldMap';

export interface MapPort {
  /** 1 = the POL … last = the POD. */
  sequence: number;
  /** `POL`, `TS1`, `TS2`…, `POD`. */
  label: string;
  name: string;
  country: string | null;
  zone: string | null;
  at: LonLat;
  eta: string | null;
  ata: string | null;
  etd: string | null;
  atd: string | null;
}

/**
 * `track`: the AIS positions sailed (solid); `predicted`: the estimated route from the vessel to its next port;
 * `planned`: an estimated port-to-port leg not sailed yet; `sailed`: an estimated port-to-port leg already
 * sailed by a vessel AIS did not follow (a feeder), known from an actual time at its port of arrival or later.
 */
export type MapLineKind = 'track' | 'sailed' | 'planned' | 'predicted';

export interface MapLine {
  kind: MapLineKind;
  /** The sequence of the port the leg leaves. */
  sequence: number;
  points: LonLat[];
  /** For a track: its first and last position's time. */
  start: string | null;
  end: string | null;
}

export interface MapVessel {
  name: string;
  imo: string | null;
  voyage: string | null;
  at: LonLat;
  /** Degrees clockwise from north; null when not reported. */
  heading: number | null;
  knots: number | null;
  /** When the position was reported. */
  time: string | null;
  /** The port it left and the one it sails to (labels and names). */
  from: { label: string | null; name: string | null };
  to: { label: string | null; name: string | null; zone: string | null; eta: string | null };
}

export interface ContainerMap {
  ports: MapPort[];
  lines: MapLine[];
  vessel: MapVessel | null;
}

interface GeoFeature {
  type?: string;
  geometry?: { type?: string; coordinates?: unknown } | null;
  properties?: Record<string, unknown> | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const position = (v: unknown): LonLat | null =>
  Array.isArray(v) && num(v[0]) !== null && num(v[1]) !== null ? [v[0] as number, v[1] as number] : null;

const KINDS: Record<string, MapLineKind> = {
  past_vessel_locations: 'track',
  estimated_full_legs: 'planned',
  estimated_partial_leg: 'predicted',
};

/** Reads the FeatureCollection; features of unknown types or with broken geometry are left out. */
export function readContainerMap(doc: unknown): ContainerMap {
  const features = (doc as { features?: unknown } | null)?.features;
  const out: ContainerMap = { ports: [], lines: [], vessel: null };
  if (!Array.isArray(features)) return out;
  for (const f of features as GeoFeature[]) {
    const p = f?.properties ?? {};
    const type = str(p.feature_type);
    const geometry = f?.geometry;
    if (!type || !geometry) continue;
    if (geometry.type === 'Point') {
      const at = position(geometry.coordinates);
      if (!at) continue;
      if (type === 'port') {
        out.ports.push({
          sequence: num(p.ports_sequence) ?? out.ports.length + 1,
          label: str(p.label) ?? '',
          name: str(p.name) ?? 'Unknown port',
          country: str(p.country),
          zone: str(p.time_zone),
          at,
          eta: str(p.inbound_eta_at),
          ata: str(p.inbound_ata_at),
          etd: str(p.outbound_etd_at),
          atd: str(p.outbound_atd_at),
        });
      } else if (type === 'current_vessel') {
        const heading = num(p.vessel_location_heading);
        out.vessel = {
          name: str(p.vessel_name) ?? 'Vessel',
          imo: str(p.vessel_imo),
          voyage: str(p.voyage_number),
          at,
          // AIS says 511 for "not available".
          heading: heading !== null && heading >= 0 && heading < 360 ? heading : null,
          knots: num(p.vessel_location_speed),
          time: str(p.vessel_location_timestamp),
          from: { label: str(p.departure_port_label), name: str(p.departure_port_name) },
          to: {
            label: str(p.arrival_port_label),
            name: str(p.arrival_port_name),
            zone: str(p.arrival_port_time_zone),
            eta: str(p.arrival_port_eta),
          },
        };
      }
    } else if (geometry.type === 'LineString' && KINDS[type]) {
      const points = Array.isArray(geometry.coordinates) ? geometry.coordinates.map(position) : [];
      if (points.length < 2 || points.some((x) => x === null)) continue;
      out.lines.push({
        kind: KINDS[type]!,
        sequence: num(p.ports_sequence) ?? 0,
        points: points as LonLat[],
        start: str(p.start_time),
        end: str(p.end_time),
      });
    }
  }
  out.ports.sort((a, b) => a.sequence - b.sequence);
  // An estimated leg is behind the container once its next port, or any later one, has an actual time.
  for (const line of out.lines) {
    if (line.kind !== 'planned') continue;
    if (out.ports.some((p) => p.sequence > line.sequence && (p.ata || p.atd))) line.kind = 'sailed';
  }
  return out;
}

/** Loads and reads a container's map (403 without the `routing` feature: the caller checks the feature first). */
export async function loadContainerMap(containerId: string, signal: AbortSignal): Promise<ContainerMap> {
  return readContainerMap(await api.get<unknown>(`/v2/containers/${encodeURIComponent(containerId)}/map_geojson`, { signal }));
}

/** A longitude in [-180, 180) (lines past the antimeridian run on beyond ±180). */
export const wrapLon = (lon: number): number => ((((lon + 180) % 360) + 360) % 360) - 180;

/** `40.1° N, 178.3° E`. */
export function formatPosition([lon, lat]: LonLat): string {
  const x = wrapLon(lon);
  return `${Math.abs(lat).toFixed(1)}° ${lat >= 0 ? 'N' : 'S'}, ${Math.abs(x).toFixed(1)}° ${x >= 0 ? 'E' : 'W'}`;
}

/** A few points of each line to frame the map with (the ports and the vessel come whole). */
export function framePoints(map: ContainerMap, per = 24): LonLat[] {
  const out: LonLat[] = [...map.ports.map((p) => p.at), ...(map.vessel ? [map.vessel.at] : [])];
  for (const line of map.lines) {
    const step = Math.max(1, Math.floor(line.points.length / per));
    for (let i = 0; i < line.points.length; i += step) out.push(line.points[i]!);
    out.push(line.points[line.points.length - 1]!);
  }
  return out.map(([lon, lat]) => [wrapLon(lon), lat]);
}
