// Places and vessels through the real seams: sandbox numbers tracked by the job queue over loopback HTTP, the
// world clock walked forward (each step refreshes and moves the vessels on), everything read back over /v2.
import { afterEach, describe, expect, it } from 'vitest';
import type { Account } from '../../src/domain/account.js';
import type { NewTrackingRequestInput } from '../../src/services/tracking-requests.js';
import { testApp, type TestApp } from '../kit/app.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

interface Ref {
  id: string;
  type: string;
}
interface Resource extends Ref {
  attributes: Record<string, unknown>;
  relationships: Record<string, { data: Ref | Ref[] | null }>;
}
interface Doc {
  data: Resource | Resource[];
  included?: Resource[];
}

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

/** A fresh world on a fresh database, its faces listening on a loopback port for the adapters. */
async function world(): Promise<{ t: TestApp; account: Account; headers: { authorization: string } }> {
  t = await testApp({ sandbox: true, queue: true, listen: true });
  const { account, auth } = await t.account({ features: ['routing'] });
  return { t, account, headers: auth };
}

async function track(app: TestApp, account: Account, scac: string, number: string): Promise<string> {
  const input: NewTrackingRequestInput = {
    requestType: 'bill_of_lading',
    requestNumber: number,
    scac,
    autoDetect: false,
    refNumbers: [],
    shipmentTags: [],
    customerId: null,
  };
  const req = await app.services.trackingRequests.create(account, input);
  await app.queue!.runOnce('tracking.attempt');
  const [row] = await app.database.db.query<{ shipment_id: string | null }>('SELECT shipment_id FROM tracking_requests WHERE id = $1', [
    req.id,
  ]);
  expect(row?.shipment_id, `${number} tracked`).toBeTruthy();
  return row!.shipment_id!;
}

const key = (r: Ref) => `${r.type}:${r.id}`;
const refs = (data: Ref | Ref[] | null) => (data === null ? [] : Array.isArray(data) ? data : [data]);

/**
 * Every relationship an include path walks names an object that is in the document (ids equal, types equal),
 * and `included` holds each object once.
 */
function expectComplete(doc: Doc, include: string): void {
  const included = doc.included ?? [];
  const primary = [doc.data].flat();
  expect(new Set(included.map(key)).size, 'no duplicates in included').toBe(included.length);
  const index = new Map([...primary, ...included].map((o) => [key(o), o]));
  for (const path of include.split(',')) {
    let level = primary;
    for (const name of path.split('.')) {
      const next: Resource[] = [];
      for (const obj of level) {
        expect(obj.relationships, `${key(obj)} declares ${name}`).toHaveProperty(name);
        for (const ref of refs(obj.relationships[name]!.data)) {
          const found = index.get(key(ref));
          expect(found, `${path}: ${key(obj)} → ${key(ref)} is included`).toBeDefined();
          next.push(found!);
        }
      }
      level = next;
    }
  }
}

const get = async (app: TestApp, url: string, headers: Record<string, string>): Promise<Doc> => {
  const res = await app.app.inject({ method: 'GET', url, headers });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
};

const SHIPMENT_INCLUDE = 'port_of_lading,port_of_discharge,destination,pod_terminal,destination_terminal,pod_terminal.port';
const CONTAINER_INCLUDE = 'shipment,pod_terminal,pickup_facility,shipment.port_of_lading,shipment.pod_terminal,shipment.destination';
const EVENT_INCLUDE = 'location,terminal,vessel,terminal.port';

describe('includes that point at places and vessels', () => {
  it('name real places on shipments, containers and transport events, each included when asked', async () => {
    const { t, account, headers } = await world();
    const direct = await track(t, account, 'MAEU', 'MAEU240100001');
    const rail = await track(t, account, 'HLCU', 'HLCU240400004');
    // Into the terminal's window: the POD terminal answers for the containers.
    await t.services.sandbox!.advance(12 * DAY);

    for (const shipmentId of [direct, rail]) {
      const doc = await get(t, `/v2/shipments/${shipmentId}?include=${SHIPMENT_INCLUDE}`, headers);
      expectComplete(doc, SHIPMENT_INCLUDE);
      const s = doc.data as Resource;
      const byKey = new Map((doc.included ?? []).map((o) => [key(o), o]));
      const pol = byKey.get(key(s.relationships.port_of_lading!.data as Ref))!;
      const pod = byKey.get(key(s.relationships.port_of_discharge!.data as Ref))!;
      expect(pol.attributes.code).toBe(s.attributes.port_of_lading_locode);
      expect(pod.attributes.code).toBe(s.attributes.port_of_discharge_locode);
      expect(pod.attributes.latitude).toEqual(expect.stringMatching(/^-?\d+\.\d{4}$/));
      // The carrier names the POD terminal: it is a reference terminal at the POD.
      const terminal = byKey.get(key(s.relationships.pod_terminal!.data as Ref))!;
      expect(terminal.type).toBe('terminal');
      expect(terminal.relationships.port!.data).toEqual({ id: pod.id, type: 'port' });
      // A direct move ends at the POD (no destination); the rail move's destination is an inland metro area.
      const destination = s.relationships.destination!.data as Ref | null;
      if (shipmentId === direct) expect(destination).toBeNull();
      else {
        expect(destination!.type).toBe('metro_area');
        expect(byKey.get(key(destination!))!.attributes.code).toBe(s.attributes.destination_locode);
      }

      // Relationship data is there without include too.
      const bare = await get(t, `/v2/shipments/${shipmentId}`, headers);
      for (const name of ['port_of_lading', 'port_of_discharge', 'destination', 'pod_terminal', 'destination_terminal']) {
        expect((bare.data as Resource).relationships[name], name).toEqual(s.relationships[name]);
      }

      const containers = refs(s.relationships.containers!.data).map((r) => r.id);
      expect(containers.length).toBeGreaterThan(0);
      for (const id of containers) {
        const c = await get(t, `/v2/containers/${id}?include=${CONTAINER_INCLUDE}`, headers);
        expectComplete(c, CONTAINER_INCLUDE);
        const podTerminal = (c.data as Resource).relationships.pod_terminal!.data as Ref | null;
        expect(podTerminal, 'the terminal has answered').not.toBeNull();
        expect(podTerminal!.type).toBe('terminal');

        const events = await get(t, `/v2/containers/${id}/transport_events?include=${EVENT_INCLUDE}&page[size]=100`, headers);
        expectComplete(events, EVENT_INCLUDE);
        const list = events.data as Resource[];
        const withVessel = list.filter((e) => e.relationships.vessel!.data !== null);
        expect(withVessel.length, 'vessel events name their vessel').toBeGreaterThan(0);
        const vessels = (events.included ?? []).filter((o) => o.type === 'vessel');
        for (const v of vessels) expect(v.attributes.imo).toMatch(/^\d{7}$/);
        expect(vessels.map((v) => v.attributes.imo)).toContain(s.attributes.pod_vessel_imo);
        expect(list.filter((e) => e.relationships.location!.data !== null).length).toBeGreaterThan(0);
      }
    }
  }, 300_000);
});

describe('vessels', () => {
  it('are learned from the carrier and move as the sandbox clock advances', async () => {
    const { t, account, headers } = await world();
    const shipmentId = await track(t, account, 'MAEU', 'MAEU240100001');
    const shipment = (await get(t, `/v2/shipments/${shipmentId}`, headers)).data as Resource;
    const imo = shipment.attributes.pod_vessel_imo as string;
    expect(imo).toMatch(/^\d{7}$/);

    // Known from the carrier at once, not yet located.
    const known = await get(t, `/v2/vessels/${imo}`, headers);
    expect((known.data as Resource).attributes).toMatchObject({ imo, name: shipment.attributes.pod_vessel_name, position_timestamp: null });
    expect((known.data as Resource).attributes).not.toHaveProperty('positions');

    await t.services.sandbox!.advance(DAY);
    const now = t.services.clocks.world.now().getTime();
    const vessel = (await get(t, `/v2/vessels/${imo}?show_positions[to_timestamp]=`, headers)).data as Resource;
    const positions = vessel.attributes.positions as { latitude: number; longitude: number; timestamp: string; estimated: boolean }[];
    // Hourly positions from AIS, over the day walked (and the feed's day before it), none outside the window.
    expect(positions.length).toBeGreaterThanOrEqual(24);
    const times = positions.map((p) => Date.parse(p.timestamp));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    for (const p of positions) {
      expect(p.latitude).toBeTypeOf('number');
      expect(p.longitude).toBeTypeOf('number');
      expect(p.estimated).toBe(false);
    }
    expect(times[0]!).toBeGreaterThanOrEqual(now - 7 * DAY);
    expect(times.at(-1)!).toBeLessThanOrEqual(now);
    expect(vessel.attributes.position_timestamp).toBe(positions.at(-1)!.timestamp);
    expect(vessel.attributes.latitude).toBe(positions.at(-1)!.latitude);
    expect(vessel.attributes.mmsi).toMatch(/^\d{9}$/);

    // A narrower window; and the history grows as the world walks on.
    const from = new Date(now - 6 * HOUR).toISOString();
    const recent = (await get(t, `/v2/vessels/${imo}?show_positions[from_timestamp]=${from}`, headers)).data as Resource;
    const recentTimes = (recent.attributes.positions as { timestamp: string }[]).map((p) => Date.parse(p.timestamp));
    expect(recentTimes.length).toBeGreaterThan(0);
    for (const x of recentTimes) expect(x).toBeGreaterThanOrEqual(now - 6 * HOUR);
    await t.services.sandbox!.advance(DAY);
    const later = (await get(t, `/v2/vessels/${imo}?show_positions[to_timestamp]=`, headers)).data as Resource;
    expect((later.attributes.positions as unknown[]).length).toBeGreaterThan(positions.length);
    expect(Date.parse(later.attributes.position_timestamp as string)).toBeGreaterThan(
      Date.parse(vessel.attributes.position_timestamp as string),
    );

    // Vessel positions are the routing feature's.
    const plain = (await t.account()).auth;
    expect((await t.app.inject({ url: `/v2/vessels/${imo}?show_positions[to_timestamp]=`, headers: plain })).statusCode).toBe(403);
    expect((await t.app.inject({ url: `/v2/vessels/${imo}`, headers: plain })).statusCode).toBe(200);
  }, 120_000);
});
