// GET /v2/containers/{id}/map_geojson (api-wire-notes §4.14): a container's route as a plain GeoJSON
// FeatureCollection — its ports, the vessel now, the AIS track sailed, and the estimated sea route ahead.
import { densifyPath, type LatLon, seaRoute } from '../lib/sea-routes/index.js';
import type { VesselPositionRow, VesselRow } from '../storage/repositories/vessels.js';
import { isoSeconds } from '../lib/dates.js';
import { countryName, type PortPlace, subdivisionName } from './places.js';

/** A port of the route as the map shows it (services/container-route.ts plans them). */
export interface MapStop {
  sequence: number;
  /** `POL`, `TS1`, `TS2`…, `POD`. */
  label: string;
  name: string | null;
  timezone: string | null;
  /** Null for a LOCODE missing from the port table: the map leaves it out. */
  port: PortPlace | null;
  inbound_eta_at: Date | null;
  inbound_ata_at: Date | null;
  outbound_etd_at: Date | null;
  outbound_atd_at: Date | null;
}

/** A leg between two stops, with the vessel the sources name for it. */
export interface MapLeg {
  sequence: number;
  from: MapStop;
  to: MapStop;
  vessel: { imo: string | null; name: string | null; voyage_number: string | null } | null;
}

/** What a container's map is drawn from (services/container-route.ts `ContainerRoute` is one). */
export interface MapRoute {
  stops: readonly MapStop[];
  legs: readonly MapLeg[];
  /** The leg the container is sailing now, if any (one of `legs`). */
  current: MapLeg | null;
  shipment: { updated_at: Date };
  /** The stored vessels of the legs, by IMO number. */
  vessels: ReadonlyMap<string, VesselRow>;
  /** By leg sequence: the AIS positions gathered for the leg's vessel. */
  tracks: ReadonlyMap<number, readonly VesselPositionRow[]>;
}

type Position = [number, number];
type Geometry = { type: 'Point'; coordinates: Position } | { type: 'LineString'; coordinates: Position[] };

export interface MapFeature {
  type: 'Feature';
  geometry: Geometry;
  properties: Record<string, unknown>;
}

export interface MapFeatureCollection {
  type: 'FeatureCollection';
  features: MapFeature[];
}

/** Estimated legs get a point at least every this many miles, so straight segments on a flat map follow the route. */
const DRAWN_LEG_NM = 60;

/**
 * A track is drawn with at most this many points (evenly picked, the first and last kept): a streamed AIS source
 * keeps about a point a minute, which over a long voyage is more than a map needs.
 */
export const MAX_TRACK_POINTS = 2000;

function thin<T>(points: readonly T[]): readonly T[] {
  if (points.length <= MAX_TRACK_POINTS) return points;
  const step = (points.length - 1) / (MAX_TRACK_POINTS - 1);
  return Array.from({ length: MAX_TRACK_POINTS }, (_, i) => points[Math.round(i * step)]!);
}

const point = (p: LatLon): Geometry => ({ type: 'Point', coordinates: [p.lon, p.lat] });

/**
 * A line through the points. Longitudes run on past ±180 where the line crosses the antimeridian (each within
 * 180° of the one before), so web maps draw one continuous line instead of one across the whole world.
 */
function line(points: readonly LatLon[]): Geometry {
  const coordinates: Position[] = [];
  let previous: number | undefined;
  for (const p of points) {
    let lon = p.lon;
    if (previous !== undefined) lon += 360 * Math.round((previous - lon) / 360);
    coordinates.push([lon, p.lat]);
    previous = lon;
  }
  return { type: 'LineString', coordinates };
}

const at = (p: PortPlace): LatLon => ({ lat: p.latitude, lon: p.longitude });

/** The estimated sea route between two positions, densified for drawing. */
function estimatedPath(from: LatLon, to: LatLon): LatLon[] {
  return densifyPath(seaRoute(from, to).path, DRAWN_LEG_NM);
}

function portFields(prefix: string, stop: MapStop, port: PortPlace): Record<string, unknown> {
  return {
    [`${prefix}_id`]: port.id,
    [`${prefix}_name`]: stop.name ?? port.name,
    [`${prefix}_state_abbr`]: port.stateAbbr,
    [`${prefix}_state`]: subdivisionName(port.countryCode, port.stateAbbr),
    [`${prefix}_country_code`]: port.countryCode,
    [`${prefix}_country`]: countryName(port.countryCode),
    [`${prefix}_label`]: stop.label,
  };
}

function portFeature(route: MapRoute, stop: MapStop, port: PortPlace): MapFeature {
  return {
    type: 'Feature',
    geometry: point(at(port)),
    properties: {
      feature_type: 'port',
      ports_sequence: stop.sequence,
      ports_total: route.stops.length,
      location_id: port.id,
      location_type: 'Port',
      name: stop.name ?? port.name,
      state_abbr: port.stateAbbr,
      state: subdivisionName(port.countryCode, port.stateAbbr),
      country_code: port.countryCode,
      country: countryName(port.countryCode),
      time_zone: stop.timezone ?? port.timeZone,
      label: stop.label,
      inbound_eta_at: isoSeconds(stop.inbound_eta_at),
      inbound_ata_at: isoSeconds(stop.inbound_ata_at),
      outbound_etd_at: isoSeconds(stop.outbound_etd_at),
      outbound_atd_at: isoSeconds(stop.outbound_atd_at),
      updated_at: isoSeconds(route.shipment.updated_at),
    },
  };
}

function pastFeature(leg: MapLeg, vessel: VesselRow, all: readonly VesselPositionRow[]): MapFeature {
  const track = thin(all);
  return {
    type: 'Feature',
    geometry: line(track.map((p) => ({ lat: p.latitude, lon: p.longitude }))),
    properties: {
      feature_type: 'past_vessel_locations',
      ports_sequence: leg.sequence,
      vessel_id: vessel.id,
      start_time: isoSeconds(track[0]!.at),
      end_time: isoSeconds(track[track.length - 1]!.at),
      point_count: track.length,
      outbound_atd_at: isoSeconds(leg.from.outbound_atd_at),
      inbound_ata_at: isoSeconds(leg.to.inbound_ata_at),
      inbound_eta_at: isoSeconds(leg.to.inbound_eta_at),
    },
  };
}

function currentVesselFeature(leg: MapLeg, vessel: VesselRow, from: PortPlace, to: PortPlace, position: LatLon): MapFeature {
  return {
    type: 'Feature',
    geometry: point(position),
    properties: {
      feature_type: 'current_vessel',
      ports_sequence: leg.sequence,
      vessel_id: vessel.id,
      vessel_name: leg.vessel?.name ?? vessel.name,
      vessel_imo: vessel.imo,
      voyage_number: leg.vessel?.voyage_number ?? null,
      vessel_location_timestamp: isoSeconds(vessel.position_at),
      vessel_location_heading: vessel.heading_degrees,
      vessel_location_speed: vessel.speed_knots,
      ...portFields('departure_port', leg.from, from),
      departure_port_atd: isoSeconds(leg.from.outbound_atd_at),
      departure_port_time_zone: leg.from.timezone ?? from.timeZone,
      ...portFields('arrival_port', leg.to, to),
      arrival_port_eta: isoSeconds(leg.to.inbound_eta_at),
      arrival_port_time_zone: leg.to.timezone ?? to.timeZone,
    },
  };
}

/**
 * The route as features: each port with a known position; then, leg by leg, the AIS track of a leg sailed or
 * being sailed (`past_vessel_locations`, when it has two positions or more), the estimated route from the
 * vessel's latest position to the next port on the leg being sailed (`estimated_partial_leg`), and the
 * estimated port-to-port route of every other leg without a track (`estimated_full_legs`); last the vessel
 * itself (`current_vessel`) while the container is on the water and the vessel's position is known.
 * Legs to or from a port without a known position are left out.
 */
export function mapGeojson(route: MapRoute): MapFeatureCollection {
  const features: MapFeature[] = [];
  for (const stop of route.stops) if (stop.port) features.push(portFeature(route, stop, stop.port));
  let current: MapFeature | null = null;
  for (const leg of route.legs) {
    const from = leg.from.port;
    const to = leg.to.port;
    if (!from || !to) continue;
    const vessel = leg.vessel?.imo ? route.vessels.get(leg.vessel.imo) : undefined;
    const track = route.tracks.get(leg.sequence) ?? [];
    if (vessel && track.length >= 2) features.push(pastFeature(leg, vessel, track));
    const position =
      vessel && vessel.latitude !== null && vessel.longitude !== null ? { lat: vessel.latitude, lon: vessel.longitude } : null;
    if (leg === route.current && vessel && position) {
      const path = estimatedPath(position, at(to));
      features.push({
        type: 'Feature',
        geometry: line(path),
        properties: {
          feature_type: 'estimated_partial_leg',
          ports_sequence: leg.sequence,
          current_port_id: from.id,
          next_port_id: to.id,
          point_count: path.length,
        },
      });
      current = currentVesselFeature(leg, vessel, from, to, position);
    } else if (track.length < 2 || !vessel) {
      const path = estimatedPath(at(from), at(to));
      features.push({
        type: 'Feature',
        geometry: line(path),
        properties: {
          feature_type: 'estimated_full_legs',
          ports_sequence: leg.sequence,
          previous_port_id: from.id,
          next_port_id: to.id,
          point_count: path.length,
        },
      });
    }
  }
  if (current) features.push(current);
  return { type: 'FeatureCollection', features };
}
