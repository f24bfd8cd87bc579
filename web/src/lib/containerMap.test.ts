// Reading a container's map (lib/containerMap.ts) from GET /v2/containers/{id}/map_geojson.
import { describe, expect, it } from 'vitest';

// containerMap.ts loads through api.ts, which reaches the router: a window that only listens.
(globalThis as { window?: unknown }).window ??= { addEventListener() {}, location: { pathname: '/', search: '' } };
const { formatPosition, framePoints, readContainerMap, wrapLon } = await import('./containerMap');

const port = (sequence: number, label: string, lonLat: [number, number], times: Record<string, string> = {}) => ({
  type: 'Feature',
  geometry: { type: 'Point', coordinates: lonLat },
  properties: { feature_type: 'port', ports_sequence: sequence, label, name: label, time_zone: null, ...times },
});
const leg = (feature_type: string, sequence: number, coordinates: unknown) => ({
  type: 'Feature',
  geometry: { type: 'LineString', coordinates },
  properties: { feature_type, ports_sequence: sequence },
});

describe('readContainerMap', () => {
  it('reads ports in sequence, lines by kind, and the vessel; a leg is sailed once a later port has an actual time', () => {
    const map = readContainerMap({
      type: 'FeatureCollection',
      features: [
        port(3, 'POD', [-118.2, 33.7]),
        port(1, 'POL', [121.5, 31.2], { outbound_atd_at: '2026-03-01T00:00:00Z' }),
        port(2, 'TS1', [103.8, 1.3], { inbound_ata_at: '2026-03-08T00:00:00Z' }),
        leg('estimated_full_legs', 1, [
          [121.5, 31.2],
          [103.8, 1.3],
        ]),
        leg('estimated_full_legs', 2, [
          [103.8, 1.3],
          [241.8, 33.7],
        ]),
        leg('past_vessel_locations', 2, [
          [103.8, 1.3],
          [150, 20],
        ]),
        {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [150, 20] },
          properties: {
            feature_type: 'current_vessel',
            vessel_name: 'EVER ACE',
            vessel_location_heading: 511,
            vessel_location_speed: 18.5,
          },
        },
      ],
    });
    expect(map.ports.map((p) => p.label)).toEqual(['POL', 'TS1', 'POD']);
    expect(map.lines.map((l) => [l.kind, l.sequence])).toEqual([
      ['sailed', 1],
      ['planned', 2],
      ['track', 2],
    ]);
    // 511 is AIS for "no heading".
    expect(map.vessel).toMatchObject({ name: 'EVER ACE', at: [150, 20], heading: null, knots: 18.5 });
  });

  it.each([
    ['no document', null],
    ['no features', { type: 'FeatureCollection' }],
    ['a feature without a type', { features: [{ geometry: { type: 'Point', coordinates: [1, 2] }, properties: {} }] }],
    [
      'a point without coordinates',
      { features: [{ geometry: { type: 'Point', coordinates: ['x', 2] }, properties: { feature_type: 'port' } }] },
    ],
    ['a line of one point', { features: [leg('estimated_partial_leg', 1, [[1, 2]])] }],
    ['a line with a broken point', { features: [leg('estimated_partial_leg', 1, [[1, 2], [3]])] }],
    [
      'a line of an unknown kind',
      {
        features: [
          leg('something_else', 1, [
            [1, 2],
            [3, 4],
          ]),
        ],
      },
    ],
  ])('leaves out what it cannot read: %s', (_name, doc) => {
    expect(readContainerMap(doc)).toEqual({ ports: [], lines: [], vessel: null });
  });
});

describe('positions', () => {
  it.each([
    [0, 0],
    [180, -180],
    [-180, -180],
    [241.8, -118.2],
    [-200, 160],
    [540, -180],
  ])('wrapLon(%d) → %d', (lon, wrapped) => {
    expect(wrapLon(lon)).toBeCloseTo(wrapped, 9);
  });

  it.each([
    [[178.3, 40.1], '40.1° N, 178.3° E'],
    [[181.7, -33.9], '33.9° S, 178.3° W'],
    [[-118.25, 33.74], '33.7° N, 118.3° W'],
  ] as const)('formatPosition(%j) → %s', (at, text) => {
    expect(formatPosition([at[0], at[1]])).toBe(text);
  });

  it('frames the map with the ports, the vessel and a few points of each line, wrapped', () => {
    const points = Array.from({ length: 100 }, (_, i): [number, number] => [170 + i * 0.2, 10]);
    const frame = framePoints(
      {
        ports: [
          {
            sequence: 1,
            label: 'POL',
            name: 'POL',
            country: null,
            zone: null,
            at: [121.5, 31.2],
            eta: null,
            ata: null,
            etd: null,
            atd: null,
          },
        ],
        lines: [{ kind: 'track', sequence: 1, points, start: null, end: null }],
        vessel: null,
      },
      10,
    );
    expect(frame[0]).toEqual([121.5, 31.2]);
    expect(frame).toHaveLength(1 + 10 + 1);
    expect(frame.at(-1)![0]).toBeCloseTo(-170.2, 9);
  });
});
