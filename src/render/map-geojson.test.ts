// The GeoJSON of a route as a pure function of the route: which features each leg gets, long tracks thinned,
// lines continuous over the antimeridian.
import { describe, expect, it } from 'vitest';
import { planRoute, type RouteShipment } from '../services/container-route.js';
import type { ContainerRoute } from '../services/containers.js';
import { findPort } from '../services/places.js';
import { type VesselPositionRow, type VesselRow, vesselId } from '../services/vessels.js';
import { MAX_TRACK_POINTS, type MapFeature, mapGeojson } from './map-geojson.js';

const SHIPMENT: RouteShipment = {
  port_of_lading_locode: 'CNSHA',
  port_of_lading_name: null,
  pol_etd_at: null,
  pol_atd_at: new Date('2026-02-25T08:47:00Z'),
  pol_timezone: null,
  port_of_discharge_locode: 'USLAX',
  port_of_discharge_name: null,
  pod_eta_at: new Date('2026-03-12T12:30:00Z'),
  pod_ata_at: null,
  pod_timezone: null,
  pod_vessel_name: 'GSL SANTOS',
  pod_vessel_imo: '9774719',
  pod_voyage_number: '0KI0E',
};
const NOW = new Date('2026-03-02T12:00:00Z');

function vessel(imo: string, at: { lat: number; lon: number } | null): VesselRow {
  return {
    id: vesselId(imo),
    imo,
    name: 'GSL SANTOS',
    mmsi: null,
    latitude: at?.lat ?? null,
    longitude: at?.lon ?? null,
    speed_knots: at ? 17.4 : null,
    heading_degrees: at ? 88 : null,
    position_at: at ? NOW : null,
    positions_checked_at: null,
    created_at: NOW,
    updated_at: NOW,
  };
}

/** `n` positions a minute apart, eastward along 38°N from 150°E. */
const track = (n: number): VesselPositionRow[] =>
  Array.from({ length: n }, (_, i) => ({
    at: new Date(NOW.getTime() - (n - 1 - i) * 60_000),
    latitude: 38,
    longitude: 150 + (i * 20) / n,
    speed_knots: 17,
    heading_degrees: 90,
  }));

function route(shipment: RouteShipment, vessels: VesselRow[], tracks: [number, VesselPositionRow[]][]): ContainerRoute {
  return {
    ...planRoute(shipment, []),
    container: {} as never,
    shipment: { updated_at: NOW } as never,
    vessels: new Map(vessels.map((v) => [v.imo, v])),
    tracks: new Map(tracks),
    now: NOW,
  };
}

const kinds = (features: MapFeature[]) => features.map((f) => `${f.properties.feature_type}:${f.properties.ports_sequence}`);
const coordinates = (f: MapFeature) => f.geometry.coordinates as [number, number][];

describe('mapGeojson', () => {
  it('draws the leg being sailed as its track, the route on from the vessel, and the vessel; the line stays continuous over ±180', () => {
    const at = { lat: 38.2, lon: 171.5 };
    const { type, features } = mapGeojson(route(SHIPMENT, [vessel('9774719', at)], [[1, track(3000)]]));
    expect(type).toBe('FeatureCollection');
    expect(kinds(features)).toEqual(['port:1', 'port:2', 'past_vessel_locations:1', 'estimated_partial_leg:1', 'current_vessel:1']);
    const [, pod, past, partial, current] = features as [MapFeature, MapFeature, MapFeature, MapFeature, MapFeature];
    const lax = findPort('USLAX')!;
    expect(pod.geometry).toEqual({ type: 'Point', coordinates: [lax.longitude, lax.latitude] });

    // A track of 3000 positions is drawn with MAX_TRACK_POINTS, its first and last kept.
    expect(coordinates(past)).toHaveLength(MAX_TRACK_POINTS);
    // The first of the 3000: 2999 minutes (49 h 59 min) before the last.
    expect(past.properties).toMatchObject({ point_count: MAX_TRACK_POINTS, start_time: '2026-02-28T10:01:00Z' });
    expect(coordinates(past)[0]).toEqual([150, 38]);
    expect(past.properties.end_time).toBe('2026-03-02T12:00:00Z');

    // From the vessel to Los Angeles over the antimeridian: longitudes run on past 180, never jumping.
    const line = coordinates(partial);
    expect(line[0]).toEqual([at.lon, at.lat]);
    expect(line.at(-1)).toEqual([lax.longitude + 360, lax.latitude]);
    for (let i = 1; i < line.length; i++) expect(Math.abs(line[i]![0] - line[i - 1]![0])).toBeLessThan(10);
    expect(partial.properties.point_count).toBe(line.length);

    expect(current.geometry).toEqual({ type: 'Point', coordinates: [at.lon, at.lat] });
    expect(current.properties).toMatchObject({ departure_port_label: 'POL', arrival_port_label: 'POD', vessel_location_speed: 17.4 });
  });

  it('draws a leg not yet sailed, or sailed without a track or a vessel position, as the estimated port-to-port route', () => {
    const booked = { ...SHIPMENT, pol_atd_at: null };
    expect(kinds(mapGeojson(route(booked, [vessel('9774719', { lat: 30, lon: 122 })], [])).features)).toEqual([
      'port:1',
      'port:2',
      'estimated_full_legs:1',
    ]);
    const unlocated = mapGeojson(route(SHIPMENT, [vessel('9774719', null)], [])).features;
    expect(kinds(unlocated)).toEqual(['port:1', 'port:2', 'estimated_full_legs:1']);
    const full = unlocated[2]!;
    const sha = findPort('CNSHA')!;
    expect(coordinates(full)[0]).toEqual([sha.longitude, sha.latitude]);
    expect(full.properties).toEqual({
      feature_type: 'estimated_full_legs',
      ports_sequence: 1,
      previous_port_id: sha.id,
      next_port_id: findPort('USLAX')!.id,
      point_count: coordinates(full).length,
    });
  });

  it('draws an arrived leg from its track alone, and no vessel', () => {
    const arrived = { ...SHIPMENT, pod_ata_at: new Date('2026-03-12T10:00:00Z') };
    expect(kinds(mapGeojson(route(arrived, [vessel('9774719', { lat: 33.7, lon: -118.3 })], [[1, track(10)]])).features)).toEqual([
      'port:1',
      'port:2',
      'past_vessel_locations:1',
    ]);
  });

  it('leaves out a port without a known position, and the legs to and from it', () => {
    const unknown = { ...SHIPMENT, port_of_discharge_locode: 'XXNOP' };
    const { features } = mapGeojson(route(unknown, [vessel('9774719', { lat: 38.2, lon: 171.5 })], []));
    expect(kinds(features)).toEqual(['port:1']);
    expect(features[0]!.properties).toMatchObject({ ports_total: 2, label: 'POL' });
  });
});
