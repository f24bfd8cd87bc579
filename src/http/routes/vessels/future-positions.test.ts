// Future positions over HTTP on a fixed clock: a vessel in the eastern Pacific with an AIS track, bound for Los
// Angeles; the routing gate, the parameters' errors, and the positions themselves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../../test/kit/app.js';
import { haversineNm, initialBearingDeg } from '../../../lib/sea-routes/index.js';
import { findPort } from '../../../services/places.js';
import { vesselId } from '../../../services/vessels.js';
import { recordVesselPositions, rememberVessels } from '../../../storage/repositories/vessels.js';

const HOUR = 3600_000;
const IMO = '9811000';
/** A vessel the carrier named but AIS never located. */
const UNLOCATED = '9300001';

let t: TestApp;
let plain: { authorization: string };
let routing: { authorization: string };
let now: number;
const LAX = findPort('USLAX')!;
const HKG = findPort('HKHKG')!;

beforeAll(async () => {
  t = await testApp();
  now = t.clock.now().getTime();
  plain = (await t.account()).auth;
  routing = (await t.account({ features: ['routing'] })).auth;
  const db = t.database.db;
  await rememberVessels(
    db,
    [
      { id: vesselId(IMO), imo: IMO, name: 'EVER TEST' },
      { id: vesselId(UNLOCATED), imo: UNLOCATED, name: 'NOWHERE' },
    ],
    t.clock.now(),
  );
  // Hourly positions heading east at 17–19 kn, the latest two hours ago at 33.1 N 140.5 W.
  const speeds = [17, 19, 18, 18.5, 17.5];
  await recordVesselPositions(
    db,
    vesselId(IMO),
    {
      mmsi: '563001000',
      name: null,
      positions: speeds.map((sog, i) => ({
        at: new Date(now - (6 - i) * HOUR - 500),
        latitude: 33.1,
        longitude: -140.5 - (4 - i) * 0.35,
        speedKnots: sog,
        headingDegrees: 90,
      })),
    },
    t.clock.now(),
  );
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = routing) => t.app.inject({ url, headers });
const WITH_COORDINATES = `/v2/vessels/${IMO}/future_positions_with_coordinates`;
const FROM_LAST = `/v2/vessels/${IMO}/future_positions`;

interface Position {
  latitude: number;
  longitude: number;
  heading: number | null;
  timestamp: string;
  estimated: boolean;
}

describe('the routing gate', () => {
  it.each([
    `${WITH_COORDINATES}?port_id=${LAX.id}&latitude=30&longitude=-130`,
    `${FROM_LAST}?port_id=${LAX.id}`,
    // Checked before the parameters: a client without the feature learns that first.
    `${WITH_COORDINATES}`,
  ])('answers the vessel variant of the routing 403 without the feature: %s', async (url) => {
    const res = await get(url, plain);
    expect(res.statusCode).toBe(403);
    expect(res.json().errors).toEqual([
      {
        status: '403',
        title: 'Forbidden',
        detail: 'Routing data feature is not enabled for this account',
        source: {},
        meta: { request_id: expect.any(String) },
      },
    ]);
  });

  it('needs an API key', async () => {
    expect((await get(`${FROM_LAST}?port_id=${LAX.id}`, {})).statusCode).toBe(401);
  });
});

describe('parameters', () => {
  it.each([
    [
      '',
      [
        ['port_id', 'blank'],
        ['latitude', 'blank'],
        ['longitude', 'blank'],
      ],
    ],
    [`port_id=${LAX.id}&latitude=30`, [['longitude', 'blank']]],
    [`port_id=${LAX.id}&latitude=north&longitude=-130`, [['latitude', 'invalid']]],
    [`port_id=${LAX.id}&latitude=90.5&longitude=-130`, [['latitude', 'invalid']]],
    [
      `port_id=${LAX.id}&latitude=0x1e&longitude=1e2`,
      [
        ['latitude', 'invalid'],
        ['longitude', 'invalid'],
      ],
    ],
    [`port_id=${LAX.id}&latitude=30&longitude=-181`, [['longitude', 'invalid']]],
    [`port_id=${LAX.id}&latitude=30&longitude=`, [['longitude', 'blank']]],
    [`port_id=&latitude=30&longitude=-130`, [['port_id', 'blank']]],
    [`port_id[]=${LAX.id}&latitude=30&longitude=-130`, [['port_id', 'invalid']]],
  ])('422 naming each parameter at fault: ?%s', async (query, expected) => {
    const res = await get(`${WITH_COORDINATES}?${query}`);
    expect(res.statusCode, res.body).toBe(422);
    const errors = res.json().errors as { status: string; title: string; source: { parameter: string }; code: string; detail: string }[];
    expect(errors.map((e) => [e.source.parameter, e.code])).toEqual(expected);
    for (const e of errors)
      expect(e).toMatchObject({ status: '422', title: 'Unprocessable Entity', detail: expect.stringContaining(e.source.parameter) });
  });

  it('422 for future_positions without port_id (the SDK sends none)', async () => {
    const res = await get(FROM_LAST);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0].source).toEqual({ parameter: 'port_id' });
  });

  it.each([
    [`/v2/vessels/9999998/future_positions?port_id=${LAX.id}`, undefined],
    [`/v2/vessels/${vesselId('9999998')}/future_positions_with_coordinates?port_id=${LAX.id}&latitude=30&longitude=-130`, undefined],
    [`${WITH_COORDINATES}?port_id=${vesselId('9999998')}&latitude=30&longitude=-130`, 'port_id'],
    [`${WITH_COORDINATES}?port_id=XXNOPE&latitude=30&longitude=-130`, 'port_id'],
    [`${FROM_LAST}?port_id=${LAX.id}&previous_port_id=XXNOPE`, 'previous_port_id'],
  ])('404 JSON for an unknown vessel or port: %s', async (url, parameter) => {
    const res = await get(url);
    expect(res.statusCode, res.body).toBe(404);
    const error = res.json().errors[0];
    expect(error).toMatchObject({ status: '404', title: 'Not Found' });
    if (parameter) expect(error.source).toEqual({ parameter });
  });

  it('422 for future_positions of a vessel without a known position', async () => {
    const res = await get(`/v2/vessels/${UNLOCATED}/future_positions?port_id=${LAX.id}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({
      status: '422',
      code: 'no_position',
      detail: expect.stringContaining('future_positions_with_coordinates'),
    });
  });
});

describe('positions', () => {
  it('start at the coordinates now, end at the port, one minute apart, estimated, headed at the next position', async () => {
    const url = `${WITH_COORDINATES}?port_id=${LAX.id}&previous_port_id=${HKG.id}&latitude=30.5&longitude=-130.25`;
    const res = await get(url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
    const doc = res.json();
    expect(doc.links).toEqual({ self: `http://tidemark.test${url}` });
    const { attributes, ...vessel } = doc.data;
    expect(vessel).toEqual({ id: vesselId(IMO), type: 'vessel', relationships: {} });
    // The vessel's own latest position is unchanged beside the estimated ones.
    expect(attributes).toMatchObject({ imo: IMO, name: 'EVER TEST', latitude: 33.1, longitude: -140.5, nautical_speed_knots: 17.5 });
    const positions = attributes.positions as Position[];
    // The clock says 12:00:00.5: the first position is at the whole second.
    expect(positions[0]).toEqual({
      latitude: 30.5,
      longitude: -130.25,
      heading: expect.any(Number),
      timestamp: '2026-03-01T12:00:00Z',
      estimated: true,
    });
    expect(positions.at(-1)).toMatchObject({ latitude: LAX.latitude, longitude: LAX.longitude, estimated: true });
    for (let i = 1; i < positions.length; i++) {
      expect(Date.parse(positions[i]!.timestamp) - Date.parse(positions[i - 1]!.timestamp)).toBe(60_000);
      const a = { lat: positions[i - 1]!.latitude, lon: positions[i - 1]!.longitude };
      const b = { lat: positions[i]!.latitude, lon: positions[i]!.longitude };
      expect(Math.abs(positions[i - 1]!.heading! - initialBearingDeg(a, b))).toBeLessThanOrEqual(0.05 + 1e-9);
    }
    for (const p of positions) expect(p.estimated).toBe(true);
    // The median of the track's speeds over ground: 18 kn, so the distance takes that many minutes.
    expect(doc.meta).toMatchObject({
      port_id: LAX.id,
      port_locode: 'USLAX',
      previous_port_id: HKG.id,
      starts_from: 'coordinates',
      speed_knots: 18,
      speed_basis: 'ais',
      positions_count: positions.length,
      estimated_arrival_at: positions.at(-1)!.timestamp,
    });
    // As many minutes as the distance takes at that speed (`distance_nm` is rounded to a tenth).
    expect(Math.abs(positions.length - 1 - (doc.meta.distance_nm / 18) * 60)).toBeLessThanOrEqual(1);
    expect(haversineNm({ lat: 30.5, lon: -130.25 }, { lat: LAX.latitude, lon: LAX.longitude })).toBeLessThanOrEqual(doc.meta.distance_nm);
  });

  it('take the port by UN/LOCODE too, and come out the same', async () => {
    const byId = (await get(`${WITH_COORDINATES}?port_id=${LAX.id}&latitude=30.5&longitude=-130.25`)).json();
    const byCode = (await get(`${WITH_COORDINATES}?port_id=USLAX&latitude=30.5&longitude=-130.25`)).json();
    expect(byCode.data).toEqual(byId.data);
  });

  it("from the vessel's latest position start there, at that position's time", async () => {
    const res = await get(`/v2/vessels/${vesselId(IMO)}/future_positions?port_id=${LAX.id}&previous_port_id=${HKG.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const doc = res.json();
    const positions = doc.data.attributes.positions as Position[];
    expect(positions[0]).toMatchObject({ latitude: 33.1, longitude: -140.5, timestamp: doc.data.attributes.position_timestamp });
    expect(positions.at(-1)).toMatchObject({ latitude: LAX.latitude, longitude: LAX.longitude });
    expect(doc.meta).toMatchObject({ starts_from: 'last_position', speed_knots: 18, speed_basis: 'ais' });
  });
});
