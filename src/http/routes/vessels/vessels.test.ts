import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../../test/kit/app.js';
import { vesselId } from '../../../services/vessels.js';
import { recordVesselPositions, rememberVessels } from '../../../storage/repositories/vessels.js';

const HOUR = 3600_000;
const IMO = '9811000';

let t: TestApp;
let plain: { authorization: string };
let routing: { authorization: string };
/** Domain time of the test app (the sandbox is off: the fixed clock). */
let now: number;

beforeAll(async () => {
  t = await testApp();
  now = t.clock.now().getTime();
  plain = (await t.account()).auth;
  routing = (await t.account({ features: ['routing'] })).auth;
  const db = t.database.db;
  await rememberVessels(db, [{ id: vesselId(IMO), imo: IMO, name: 'MAERSK TEST' }], t.clock.now());
  // Positions 8 days, 6 days, 2 hours and 1 hour ago.
  const at = [8 * 24 * HOUR, 6 * 24 * HOUR, 2 * HOUR, HOUR].map((ago) => new Date(Math.floor((now - ago) / 1000) * 1000));
  await recordVesselPositions(
    db,
    vesselId(IMO),
    {
      mmsi: '563001000',
      name: null,
      positions: at.map((d, i) => ({
        at: d,
        latitude: 10 + i,
        longitude: 100 + i,
        speedKnots: 15 + i,
        headingDegrees: i === 3 ? null : 90,
      })),
    },
    t.clock.now(),
  );
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = plain) => t.app.inject({ url, headers });
const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

describe('GET /v2/vessels/{id or IMO}', () => {
  it('finds a vessel by IMO with its latest position and no positions key; the self link echoes the IMO', async () => {
    const res = await get(`/v2/vessels/${IMO}`);
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.links).toEqual({ self: `http://tidemark.test/v2/vessels/${IMO}` });
    expect(doc.data).toEqual({
      id: vesselId(IMO),
      type: 'vessel',
      attributes: {
        name: 'MAERSK TEST',
        imo: IMO,
        mmsi: '563001000',
        latitude: 13,
        longitude: 103,
        nautical_speed_knots: 18,
        navigational_heading_degrees: null,
        position_timestamp: iso(Math.floor((now - HOUR) / 1000) * 1000),
      },
      relationships: {},
    });
  });

  it('finds it by id and by `IMO<number>`', async () => {
    const byId = await get(`/v2/vessels/${vesselId(IMO)}`);
    expect(byId.statusCode).toBe(200);
    expect(byId.json().links.self).toBe(`http://tidemark.test/v2/vessels/${vesselId(IMO)}`);
    expect((await get(`/v2/vessels/IMO${IMO}`)).json().data.id).toBe(vesselId(IMO));
  });

  it.each(['9999998', vesselId('9999998'), 'nope', '98110001'])('answers JSON 404 for %s', async (key) => {
    const res = await get(`/v2/vessels/${key}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().errors[0]).toMatchObject({ status: '404', title: 'Not Found' });
  });

  it('needs an API key', async () => {
    const res = await get(`/v2/vessels/${IMO}`, {});
    expect(res.statusCode).toBe(401);
  });
});

describe('vessel positions', () => {
  it('are 403 "not enabled" with an empty source without the routing feature', async () => {
    for (const query of ['show_positions[from_timestamp]=2026-02-27T00:00:00Z', 'show_positions%5Bto_timestamp%5D=nonsense']) {
      const res = await get(`/v2/vessels/${IMO}?${query}`);
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
    }
  });

  it('default to the last 7 days of domain time, oldest first', async () => {
    const res = await get(`/v2/vessels/${IMO}?show_positions[to_timestamp]=`, routing);
    expect(res.statusCode).toBe(200);
    const positions = res.json().data.attributes.positions;
    expect(positions).toEqual([
      { latitude: 11, longitude: 101, heading: 90, timestamp: iso(Math.floor((now - 6 * 24 * HOUR) / 1000) * 1000), estimated: false },
      { latitude: 12, longitude: 102, heading: 90, timestamp: iso(Math.floor((now - 2 * HOUR) / 1000) * 1000), estimated: false },
      { latitude: 13, longitude: 103, heading: null, timestamp: iso(Math.floor((now - HOUR) / 1000) * 1000), estimated: false },
    ]);
  });

  it('default `from` to now − 7 days whatever `to` is, and to 7 days before `to` when `to` is earlier still', async () => {
    const latitudes = async (query: string) =>
      (await get(`/v2/vessels/${IMO}?${query}`, routing)).json().data.attributes.positions.map((p: { latitude: number }) => p.latitude);
    // A day and a half ago: the window starts 7 days before now (not before `to`), so 8 days ago stays out.
    expect(await latitudes(`show_positions[to_timestamp]=${iso(now - 36 * HOUR)}`)).toEqual([11]);
    // Before now − 7 days: the window is the 7 days before `to`.
    expect(await latitudes(`show_positions[to_timestamp]=${iso(now - 180 * HOUR)}`)).toEqual([10]);
    // `show_positions=true` asks for the default window.
    expect(await latitudes('show_positions=true')).toEqual([11, 12, 13]);
  });

  it('are cut to the asked window (raw or percent-encoded brackets, Z or an offset, or a date)', async () => {
    const from = iso(now - 3 * HOUR);
    const to = iso(now - 90 * 60_000);
    const raw = (await get(`/v2/vessels/${IMO}?show_positions[from_timestamp]=${from}&show_positions[to_timestamp]=${to}`, routing)).json();
    expect(raw.data.attributes.positions.map((p: { latitude: number }) => p.latitude)).toEqual([12]);
    const encoded = await get(`/v2/vessels/${IMO}?show_positions%5Bfrom_timestamp%5D=${encodeURIComponent(from)}`, routing);
    expect(encoded.json().data.attributes.positions.map((p: { latitude: number }) => p.latitude)).toEqual([12, 13]);
    // A raw `+` in an offset arrives as a space.
    const offset = await get(`/v2/vessels/${IMO}?show_positions[from_timestamp]=2026-03-01T00:00:00+01:00`, routing);
    expect(offset.json().data.attributes.positions.map((p: { latitude: number }) => p.latitude)).toEqual([12, 13]);
    const date = await get(`/v2/vessels/${IMO}?show_positions[from_timestamp]=2026-02-01&show_positions[to_timestamp]=2026-02-22`, routing);
    expect(date.json().data.attributes.positions.map((p: { latitude: number }) => p.latitude)).toEqual([10]);
  });

  it.each([
    ['show_positions[from_timestamp]=yesterday', 'show_positions[from_timestamp]'],
    ['show_positions[to_timestamp]=2026-13-01T00:00:00Z', 'show_positions[to_timestamp]'],
    [
      'show_positions[from_timestamp]=2026-03-02T00:00:00Z&show_positions[to_timestamp]=2026-03-01T00:00:00Z',
      'show_positions[from_timestamp]',
    ],
    ['show_positions[since]=2026-03-01T00:00:00Z', 'show_positions[since]'],
    ['show_positions=yes', 'show_positions'],
  ])('answer 400 naming the parameter for %s', async (query, parameter) => {
    const res = await get(`/v2/vessels/${IMO}?${query}`, routing);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ status: '400', title: 'Bad Request', source: { parameter } });
  });
});
