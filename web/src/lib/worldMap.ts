// The offline world map (its own chunk: load it with `import('./worldMap')`): Natural Earth country shapes
// from the `world-atlas` package, projected with d3-geo onto a Mercator map centred and scaled to the places
// given (rotated so that a route across the Pacific sits in the middle, whole). No tiles, no network: the shapes
// are bundled.
import { geoBounds, geoMercator, geoPath } from 'd3-geo';
import type { Feature, FeatureCollection, GeoJsonProperties, Geometry, MultiLineString, MultiPoint } from 'geojson';
import { feature, mesh } from 'topojson-client';
import countries from 'world-atlas/countries-110m.json';

export type LonLat = [lon: number, lat: number];

export interface WorldMap {
  width: number;
  height: number;
  /** The land, as one SVG path. */
  land: string;
  /** Borders between countries, as one SVG path. */
  borders: string;
  /** Where a place lands on the map (null off the map). */
  project(p: LonLat): [number, number] | null;
  /**
   * A line through places along great circles, as an SVG path (empty when invisible). Longitudes may run on past
   * ±180 (a line across the antimeridian): the rotation wraps each point, so the line stays whole on the map.
   */
  line(points: LonLat[]): string;
}

let land: FeatureCollection | Feature | null = null;
let borders: MultiLineString | null = null;

/** Draws the world for a `width`×`height` view framing `focus` (at least about 25° × 12° around it). */
export function drawWorld(focus: LonLat[], width: number, height: number, padding = 28): WorldMap {
  land ??= feature(countries, countries.objects.countries) as FeatureCollection<Geometry, GeoJsonProperties>;
  borders ??= mesh(countries, countries.objects.countries, (a, b) => a !== b);
  // Longitudes past ±180 (lines across the antimeridian) are wrapped back for the bounds.
  const points: LonLat[] = focus.length ? focus.map(([lon, lat]) => [((((lon + 180) % 360) + 360) % 360) - 180, lat]) : [[0, 20]];
  const multi: MultiPoint = { type: 'MultiPoint', coordinates: points };
  const [[west, south], [east, north]] = geoBounds(multi);
  // Across the antimeridian `west` is greater than `east`: the centre is then on the far side of the globe.
  const span = west <= east ? east - west : east + 360 - west;
  let centre = west + span / 2;
  if (centre > 180) centre -= 360;
  const latMid = (south + north) / 2;
  const halfLon = Math.max(span / 2, 12.5) * 1.1;
  const halfLat = Math.max((north - south) / 2, 6) * 1.15;
  const frame: MultiPoint = {
    type: 'MultiPoint',
    coordinates: [
      [centre - halfLon, Math.max(-78, latMid - halfLat)],
      [centre + halfLon, Math.min(78, latMid + halfLat)],
      [centre - halfLon, Math.min(78, latMid + halfLat)],
      [centre + halfLon, Math.max(-78, latMid - halfLat)],
    ],
  };
  const projection = geoMercator()
    .rotate([-centre, 0])
    .fitExtent(
      [
        [padding, padding],
        [width - padding, height - padding],
      ],
      frame,
    );
  const path = geoPath(projection);
  return {
    width,
    height,
    land: path(land) ?? '',
    borders: path(borders) ?? '',
    project(p) {
      const xy = projection(p);
      return xy && Number.isFinite(xy[0]) && Number.isFinite(xy[1]) ? [xy[0], xy[1]] : null;
    },
    line(pts) {
      if (pts.length < 2) return '';
      return path({ type: 'LineString', coordinates: pts }) ?? '';
    },
  };
}
