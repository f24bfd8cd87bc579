// Routing data through the real seams: sandbox numbers tracked by the job queue over loopback HTTP, the world
// walked a day (AIS positions gathered), then the container map, the vessel's future positions and the MCP
// route tool read back — and the routing gate for an account without the feature.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haversineNm } from '../../src/lib/sea-routes/index.js';
import { findPort } from '../../src/services/places.js';
import { vesselId } from '../../src/services/vessels.js';
import { type Answer, send } from '../kit/route-suite.js';
import { type SandboxWorld, sandboxWorld, type WorldAccount } from '../kit/sandbox-world.js';

type Position = [number, number];
interface Feature {
  type: 'Feature';
  geometry: { type: 'Point'; coordinates: Position } | { type: 'LineString'; coordinates: Position[] };
  properties: Record<string, unknown> & { feature_type: string; ports_sequence: number };
}

let world: SandboxWorld;
let A: WorldAccount;
/** An account without the routing feature, and another account with it (for the tenant check). */
let plain: { authorization: string };
let stranger: { authorization: string };
/** The container of each scenario, and its shipment's attributes. */
const boxes = new Map<string, { id: string; shipment: Record<string, unknown> }>();

beforeAll(async () => {
  world = await sandboxWorld({ accounts: 1, scenarios: (e) => e.scenario === 'transshipment' || e.scenario === 'succeeded', days: 1 });
  A = world.accounts[0]!;
  const { t } = world;
  plain = (await t.account({ features: ['refresh'] })).auth;
  stranger = (await t.account({ features: ['routing'] })).auth;
  for (const [scenario, request] of A.requests) {
    const [row] = await t.database.db.query<{ id: string }>(
      `SELECT c.id FROM containers c JOIN tracking_requests r ON r.shipment_id = c.shipment_id WHERE r.id = $1 ORDER BY c.number LIMIT 1`,
      [request],
    );
    const doc = (await send(t, 'GET', `/v2/containers/${row!.id}?include=shipment`, A.auth)).json;
    boxes.set(scenario, { id: row!.id, shipment: doc.included[0].attributes });
  }
}, 180_000);
afterAll(() => world?.close());

const map = async (id: string): Promise<{ res: Answer; features: Feature[] }> => {
  const res = await send(world.t, 'GET', `/v2/containers/${id}/map_geojson`, A.auth);
  expect(res.status, res.text.slice(0, 500)).toBe(200);
  return { res, features: res.json.features };
};
const ofType = (features: Feature[], type: string) => features.filter((f) => f.properties.feature_type === type);
const coords = (f: Feature) => f.geometry.coordinates as Position[];
const point = (f: Feature) => f.geometry.coordinates as Position;
/** The same place, longitudes compared modulo 360 (lines run on past ±180 across the antimeridian). */
const samePlace = (a: Position, b: Position) => {
  expect(((((a[0] - b[0]) % 360) + 540) % 360) - 180).toBeCloseTo(0, 5);
  expect(a[1]).toBeCloseTo(b[1], 5);
};
const portAt = (locode: string): Position => {
  const p = findPort(locode)!;
  return [p.longitude, p.latitude];
};

describe('GET /v2/containers/{id}/map_geojson', () => {
  it('draws a transshipment: the ports, the feeder leg estimated, the ocean leg sailed, the vessel, the rest estimated', async () => {
    const { id, shipment } = boxes.get('transshipment')!;
    const { res, features } = await map(id);
    expect(res.contentType).toMatch(/^application\/json/);
    expect(res.json.type).toBe('FeatureCollection');
    expect(res.json).not.toHaveProperty('data');
    for (const f of features) expect(f.type).toBe('Feature');

    const ports = ofType(features, 'port');
    expect(ports.map((p) => [p.properties.ports_sequence, p.properties.label, p.properties.ports_total])).toEqual([
      [1, 'POL', 3],
      [2, 'TS1', 3],
      [3, 'POD', 3],
    ]);
    const [pol, ts1, pod] = ports as [Feature, Feature, Feature];
    expect(pol.properties).toMatchObject({
      location_type: 'Port',
      location_id: findPort(shipment.port_of_lading_locode as string)!.id,
      outbound_atd_at: shipment.pol_atd_at,
      inbound_ata_at: null,
    });
    expect(pod.properties).toMatchObject({
      location_id: findPort(shipment.port_of_discharge_locode as string)!.id,
      inbound_eta_at: shipment.pod_eta_at,
      inbound_ata_at: null,
      time_zone: shipment.pod_timezone,
      country_code: 'US',
      country: 'United States',
    });
    samePlace(point(pod), portAt(shipment.port_of_discharge_locode as string));
    // The hub: arrived by feeder and left on the mother vessel.
    expect(ts1.properties.inbound_ata_at).toEqual(expect.stringMatching(/Z$/));
    expect(ts1.properties.outbound_atd_at).toEqual(expect.stringMatching(/Z$/));

    // The feeder's vessel is not tracked by AIS: its leg is the estimated sea route from the POL to the hub.
    const full = ofType(features, 'estimated_full_legs');
    expect(full.map((f) => f.properties)).toEqual([
      {
        feature_type: 'estimated_full_legs',
        ports_sequence: 1,
        previous_port_id: pol.properties.location_id,
        next_port_id: ts1.properties.location_id,
        point_count: coords(full[0]!).length,
      },
    ]);
    samePlace(coords(full[0]!)[0]!, point(pol));
    samePlace(coords(full[0]!).at(-1)!, point(ts1));

    // The ocean leg: the AIS track so far, then the estimated route on from the vessel to the POD.
    const imo = shipment.pod_vessel_imo as string;
    const [past] = ofType(features, 'past_vessel_locations');
    expect(past!.properties).toMatchObject({
      ports_sequence: 2,
      vessel_id: vesselId(imo),
      point_count: coords(past!).length,
      outbound_atd_at: ts1.properties.outbound_atd_at,
      inbound_ata_at: null,
      inbound_eta_at: shipment.pod_eta_at,
    });
    expect(coords(past!).length).toBeGreaterThanOrEqual(2);
    expect(Date.parse(past!.properties.start_time as string)).toBeLessThan(Date.parse(past!.properties.end_time as string));

    const vessel = (await send(world.t, 'GET', `/v2/vessels/${imo}`, A.auth)).json.data.attributes;
    const [current] = ofType(features, 'current_vessel');
    expect(point(current!)).toEqual([vessel.longitude, vessel.latitude]);
    expect(current!.properties).toMatchObject({
      ports_sequence: 2,
      vessel_id: vesselId(imo),
      vessel_imo: imo,
      vessel_name: shipment.pod_vessel_name,
      voyage_number: shipment.pod_voyage_number,
      vessel_location_timestamp: vessel.position_timestamp,
      vessel_location_speed: vessel.nautical_speed_knots,
      vessel_location_heading: vessel.navigational_heading_degrees,
      departure_port_id: ts1.properties.location_id,
      departure_port_label: 'TS1',
      departure_port_atd: ts1.properties.outbound_atd_at,
      arrival_port_id: pod.properties.location_id,
      arrival_port_label: 'POD',
      arrival_port_eta: shipment.pod_eta_at,
      arrival_port_time_zone: shipment.pod_timezone,
    });
    samePlace(coords(past!).at(-1)!, point(current!));

    const partial = ofType(features, 'estimated_partial_leg');
    expect(partial.map((f) => f.properties)).toEqual([
      {
        feature_type: 'estimated_partial_leg',
        ports_sequence: 2,
        current_port_id: ts1.properties.location_id,
        next_port_id: pod.properties.location_id,
        point_count: coords(partial[0]!).length,
      },
    ]);
    samePlace(coords(partial[0]!)[0]!, point(current!));
    samePlace(coords(partial[0]!).at(-1)!, point(pod));

    // Every line is continuous: no step jumps across the map, even over the antimeridian.
    for (const f of features.filter((x) => x.geometry.type === 'LineString')) {
      const c = coords(f);
      for (let i = 1; i < c.length; i++) expect(Math.abs(c[i]![0] - c[i - 1]![0])).toBeLessThan(180);
    }
    // The vessel is drawn last, on top.
    expect(features.at(-1)!.properties.feature_type).toBe('current_vessel');
  });

  it('draws a direct voyage mid-ocean with no estimated full leg', async () => {
    const { id } = boxes.get('succeeded')!;
    const { features } = await map(id);
    expect(features.map((f) => `${f.properties.feature_type}:${f.properties.ports_sequence}`)).toEqual([
      'port:1',
      'port:2',
      'past_vessel_locations:1',
      'estimated_partial_leg:1',
      'current_vessel:1',
    ]);
  });

  it('is the routing feature: 403 in the reference shape without it', async () => {
    const res = await send(world.t, 'GET', `/v2/containers/${boxes.get('succeeded')!.id}/map_geojson`, plain);
    expect(res.status).toBe(403);
    expect(res.json).toEqual({
      errors: [
        {
          status: '403',
          title: 'Forbidden',
          detail: 'Routing data feature is not enabled for this account',
          meta: { request_id: expect.any(String) },
        },
      ],
    });
  });

  it("answers JSON 404 for an unknown container and for another account's", async () => {
    for (const [url, auth] of [
      ['/v2/containers/0190a3d6-0000-7000-8000-000000000000/map_geojson', A.auth],
      ['/v2/containers/not-a-uuid/map_geojson', A.auth],
      [`/v2/containers/${boxes.get('succeeded')!.id}/map_geojson`, stranger],
    ] as const) {
      const res = await send(world.t, 'GET', url, auth);
      expect(res.status, url).toBe(404);
      expect(res.json.errors[0]).toMatchObject({ status: '404', title: 'Not Found' });
    }
  });
});

describe('future positions of a sandbox vessel', () => {
  it('run from its latest AIS position to the POD along the route the map draws, one minute apart', async () => {
    const { id, shipment } = boxes.get('transshipment')!;
    const { features } = await map(id);
    const [ts1, pod] = ofType(features, 'port').slice(1) as [Feature, Feature];
    const [partial] = ofType(features, 'estimated_partial_leg');
    const imo = shipment.pod_vessel_imo as string;
    const url = `/v2/vessels/${imo}/future_positions?port_id=${pod.properties.location_id}&previous_port_id=${ts1.properties.location_id}`;
    const res = await send(world.t, 'GET', url, A.auth);
    expect(res.status, res.text.slice(0, 500)).toBe(200);
    const { attributes } = res.json.data;
    const positions = attributes.positions as {
      latitude: number;
      longitude: number;
      heading: number;
      timestamp: string;
      estimated: boolean;
    }[];
    expect(positions[0]).toMatchObject({
      latitude: attributes.latitude,
      longitude: attributes.longitude,
      timestamp: attributes.position_timestamp,
    });
    samePlace([positions.at(-1)!.longitude, positions.at(-1)!.latitude], point(pod));
    for (let i = 1; i < positions.length; i++) {
      expect(Date.parse(positions[i]!.timestamp) - Date.parse(positions[i - 1]!.timestamp)).toBe(60_000);
    }
    expect(positions.every((p) => p.estimated)).toBe(true);
    // The sandbox's AIS reports the vessel's speed: it sails at that, and as far as the map's partial leg.
    expect(res.json.meta).toMatchObject({ starts_from: 'last_position', speed_basis: 'ais', previous_port_id: ts1.properties.location_id });
    const drawn = coords(partial!);
    let length = 0;
    for (let i = 1; i < drawn.length; i++) {
      length += haversineNm({ lat: drawn[i - 1]![1], lon: drawn[i - 1]![0] }, { lat: drawn[i]![1], lon: drawn[i]![0] });
    }
    expect(res.json.meta.distance_nm).toBeCloseTo(length, 0);
    // The arrival it predicts is within a couple of days of the carrier's ETA (the sandbox vessel keeps its schedule).
    const eta = Date.parse(shipment.pod_eta_at as string);
    expect(Math.abs(Date.parse(res.json.meta.estimated_arrival_at) - eta)).toBeLessThan(3 * 86_400_000);
  });

  it('are 403 with an empty source without the routing feature', async () => {
    const { shipment } = boxes.get('succeeded')!;
    const res = await send(world.t, 'GET', `/v2/vessels/${shipment.pod_vessel_imo}/future_positions?port_id=USLAX`, plain);
    expect(res.status).toBe(403);
    expect(res.json.errors[0]).toMatchObject({ detail: 'Routing data feature is not enabled for this account', source: {} });
  });
});

describe('MCP get_container_route', () => {
  it('answers from the same route as the map', async () => {
    const { id } = boxes.get('transshipment')!;
    const { features } = await map(id);
    const client = new Client({ name: 'routing-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${world.t.services.config.publicUrl}/mcp`), {
        requestInit: { headers: { authorization: `Token ${A.token}` } },
      }),
    );
    try {
      const result = (await client.callTool({ name: 'get_container_route', arguments: { id } })) as CallToolResult;
      expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
      const out = result.structuredContent as {
        stops: { role: string; label?: string; sequence?: number; locode: string }[];
        legs: { sequence: number; status: string; vessel_imo: string | null }[];
        vessel: { imo: string; position: { latitude: number; longitude: number } };
      };
      const ports = ofType(features, 'port');
      expect(out.stops.filter((s) => s.label).map((s) => [s.sequence, s.label, findPort(s.locode)!.id])).toEqual(
        ports.map((p) => [p.properties.ports_sequence, p.properties.label, p.properties.location_id]),
      );
      expect(out.stops.map((s) => s.role)).toEqual(['port_of_lading', 'transshipment', 'port_of_discharge']);
      expect(out.legs.map((l) => [l.sequence, l.status])).toEqual([
        [1, 'arrived'],
        [2, 'sailing'],
      ]);
      const [current] = ofType(features, 'current_vessel');
      expect(out.vessel.imo).toBe(current!.properties.vessel_imo);
      expect([out.vessel.position.longitude, out.vessel.position.latitude]).toEqual(point(current!));
    } finally {
      await client.close();
    }
  });
});
