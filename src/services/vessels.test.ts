// The AIS sweep against the real sandbox AIS adapter, its HTTP answered by an injected fetch.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../test/kit/databases.js';
import { FixedClock } from '../domain/clock.js';
import { newId } from '../lib/ids.js';
import { SourceRegistry } from '../sources/registry.js';
import { rememberVessels } from '../storage/repositories/vessels.js';
import { normalizeImo, VesselService, vesselId, vesselsNamedIn } from './vessels.js';

const HOUR = 3600_000;
const START = '2026-03-01T12:00:00Z';

let database: TestDatabase;
let clock: FixedClock;
/** What the fake AIS feed answers, by IMO: a track, or an HTTP status. */
let feed: Map<string, { mmsi: string; name: string } | number>;
let asked: string[];

beforeEach(async () => {
  database = await freshDatabase();
  clock = new FixedClock(START);
  feed = new Map();
  asked = [];
});
afterEach(() => database.drop());

/** The feed's default window: hourly positions over the 24 hours up to the world time. */
const fakeFetch: typeof fetch = async (input) => {
  const url = new URL(String(input));
  const imo = url.pathname.split('/').pop()!;
  asked.push(imo);
  const answer = feed.get(imo);
  if (answer === undefined || typeof answer === 'number') return new Response('{}', { status: answer ?? 404 });
  const end = Math.floor(clock.now().getTime() / HOUR) * HOUR;
  const positions = Array.from({ length: 25 }, (_, i) => {
    const t = end - (24 - i) * HOUR;
    return { timestamp: new Date(t).toISOString(), lat: 30 + i / 100, lon: -120 - i / 100, sog: 17.5, heading: i === 24 ? null : 45 };
  });
  return Response.json({ imo, mmsi: answer.mmsi, name: answer.name, positions });
};

function service(withAis = true) {
  const registry = new SourceRegistry({ sandboxUrl: withAis ? 'http://sandbox.test' : null, carriers: {}, fetch: fakeFetch });
  return new VesselService({ db: database.db, clocks: { wall: clock, world: clock }, registry: () => registry });
}

/** A tracked shipment whose carrier names `imo` as the POD vessel. */
async function tracked(imo: string, opts: { arrived?: boolean; active?: boolean } = {}) {
  const shipment = { pod_vessel_imo: imo, pod_vessel_name: `VESSEL ${imo}`, pod_ata_at: opts.arrived ? START : null };
  await database.db.query(
    `INSERT INTO tracked_shipments (id, scac, number_type, number, state, active, created_at, updated_at)
     VALUES ($1, 'MAEU', 'bill_of_lading', $2, $3, $4, $5, $5)`,
    [newId(), `MAEU${imo}`, JSON.stringify({ shipment }), opts.active ?? true, clock.now()],
  );
  await rememberVessels(database.db, [{ id: vesselId(imo), imo, name: shipment.pod_vessel_name }], clock.now());
}

const positionCount = async (imo: string) =>
  (await database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM vessel_positions WHERE vessel_id = $1', [vesselId(imo)]))[0]!.n;

describe('VesselService.gatherPositions', () => {
  it('stores the track, the latest position and the MMSI of a vessel still at sea', async () => {
    feed.set('9811000', { mmsi: '563001000', name: 'AIS NAME' });
    await tracked('9811000');
    expect(await service().gatherPositions()).toBe(1);
    expect(await positionCount('9811000')).toBe(25);
    const vessel = await service().get('9811000');
    expect(vessel).toMatchObject({
      imo: '9811000',
      mmsi: '563001000',
      // The carrier's name stays: AIS fills only a missing one.
      name: 'VESSEL 9811000',
      latitude: 30.24,
      longitude: -120.24,
      speed_knots: 17.5,
      heading_degrees: null,
      position_at: new Date(START),
      positions_checked_at: new Date(START),
    });
  });

  it('asks about a vessel at most once an hour of domain time, and keeps each position once', async () => {
    feed.set('9811000', { mmsi: '563001000', name: 'A' });
    await tracked('9811000');
    const s = service();
    await s.gatherPositions();
    clock.advance(30 * 60_000);
    expect(await s.gatherPositions()).toBe(0);
    expect(asked).toEqual(['9811000']);
    clock.advance(30 * 60_000);
    expect(await s.gatherPositions()).toBe(1);
    // The overlapping 24 hours are not stored twice; the new hour is.
    expect(await positionCount('9811000')).toBe(26);
    expect((await s.get('9811000')).position_at).toEqual(new Date('2026-03-01T13:00:00Z'));
  });

  it('leaves vessels of arrived or stopped shipments alone', async () => {
    feed.set('9811000', { mmsi: '563001000', name: 'A' });
    feed.set('9822000', { mmsi: '563002000', name: 'B' });
    await tracked('9811000', { arrived: true });
    await tracked('9822000', { active: false });
    expect(await service().gatherPositions()).toBe(0);
    expect(asked).toEqual([]);
  });

  it('logs a failing source into source health and goes on with the next vessel', async () => {
    feed.set('9811000', 503);
    feed.set('9822000', { mmsi: '563002000', name: 'B' });
    await tracked('9811000');
    await tracked('9822000');
    expect(await service().gatherPositions()).toBe(2);
    expect(await positionCount('9822000')).toBe(25);
    const [health] = await database.db.query<{ consecutive_failures: number; last_error: string | null }>(
      "SELECT consecutive_failures, last_error FROM source_health WHERE source_id = 'ais:sandbox'",
    );
    expect(health!.last_error).toMatch(/^unavailable/);
    // The failing vessel is asked again only after the hour.
    asked = [];
    expect(await service().gatherPositions()).toBe(0);
    expect(asked).toEqual([]);
  });

  it('does nothing without an AIS source (sandbox off)', async () => {
    await tracked('9811000');
    expect(await service(false).gatherPositions()).toBe(0);
  });
});

describe('vessels named by carriers', () => {
  it('takes every IMO of a state once, normalized, with the first name given', () => {
    const state = {
      shipment: { pod_vessel_imo: 'IMO 9811000', pod_vessel_name: null },
      transportEvents: [
        { vessel_imo: '9811000', vessel_name: 'MAERSK A' },
        { vessel_imo: '9822000', vessel_name: 'FEEDER B' },
        { vessel_imo: '12345', vessel_name: 'NOT AN IMO' },
        { vessel_imo: null, vessel_name: 'NO IMO' },
      ],
      estimatedEvents: [{ vessel_imo: '9822000', vessel_name: 'OTHER NAME' }],
    } as unknown as Parameters<typeof vesselsNamedIn>[0];
    expect(vesselsNamedIn(state)).toEqual([
      { id: vesselId('9811000'), imo: '9811000', name: 'MAERSK A' },
      { id: vesselId('9822000'), imo: '9822000', name: 'FEEDER B' },
    ]);
    expect(normalizeImo(' imo9811000 ')).toBe('9811000');
    expect(normalizeImo('981100')).toBeNull();
  });
});
