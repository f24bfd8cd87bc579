// Issue 9's AIS transport events on the sandbox world: a container on the water, the world clock walked forward
// (each step refreshes what is due, gathers AIS positions and applies them, as workers do) until the line
// reports the arrival at the POD. The POD vessel's AIS track gives a `container.transport.vessel_arrived` with
// `data_source: ais` when it reaches the POD before the line says so; whoever is first, the arrival is announced
// once per container, and the stored event ends as the line's (src/tracking/port-calls.ts, changes.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../kit/route-suite.js';
import { type SandboxWorld, sandboxWorld, shipmentOf, type WorldAccount } from '../kit/sandbox-world.js';

const HOUR = 3600_000;

let world: SandboxWorld;
let A: WorldAccount;
let shipmentId: string;

beforeAll(async () => {
  world = await sandboxWorld({ accounts: 1, scenarios: (e) => e.scenario === 'succeeded' });
  A = world.accounts[0]!;
  shipmentId = await shipmentOf(world, A, 'succeeded');
}, 180_000);
afterAll(() => world?.close());

const shipment = async () =>
  (await send(world.t, 'GET', `/v2/shipments/${shipmentId}`, A.auth)).json.data.attributes as Record<string, string | null>;

/** The account's vessel_arrived webhooks-to-be at the POD: container id and the data source they carried. */
const arrivalEvents = async (pod: string) =>
  world.t.database.db.query<{ container_id: string; data_source: string; timestamp: string }>(
    `SELECT container_id, payload->'transport_event'->>'data_source' AS data_source,
            payload->'transport_event'->>'timestamp' AS timestamp
     FROM account_events
     WHERE shipment_id = $1 AND event = 'container.transport.vessel_arrived'
       AND payload->'transport_event'->>'location_locode' = $2
     ORDER BY seq`,
    [shipmentId, pod],
  );

const arrivalRecords = async (pod: string) =>
  world.t.database.db.query<{ container_id: string; data_source: string }>(
    `SELECT container_id, record->>'data_source' AS data_source FROM transport_events
     WHERE shipment_id = $1 AND event = 'container.transport.vessel_arrived' AND record->>'location_locode' = $2`,
    [shipmentId, pod],
  );

describe('AIS port calls', () => {
  it('announce the POD arrival once per container, AIS first when it sees it first, and the line’s word stays', async () => {
    let s = await shipment();
    const pod = s.port_of_discharge_locode!;
    let aisFirst = false;
    // A day at a time while far out, an hour at a time in the last day before the ETA.
    for (let step = 0; step < 24 * 60 && !s.pod_ata_at; step++) {
      const eta = s.pod_eta_at ? Date.parse(s.pod_eta_at) : null;
      const now = (await world.t.services.clocks.world.now()).getTime();
      await world.walk(eta !== null && eta - now < 30 * HOUR ? 1 / 24 : 1);
      s = await shipment();
      if (!s.pod_ata_at && (await arrivalEvents(pod)).some((e) => e.data_source === 'ais')) aisFirst = true;
    }
    expect(s.pod_ata_at, 'the vessel arrives').not.toBeNull();
    // A few more steps: the line and AIS keep saying it, nothing more is announced.
    await world.walk(1 / 24);
    await world.walk(1);

    const containers = await world.t.database.db.query<{ id: string }>('SELECT id FROM containers WHERE shipment_id = $1', [shipmentId]);
    const events = await arrivalEvents(pod);
    const records = await arrivalRecords(pod);
    console.log(`AIS arrival before the line's: ${aisFirst}; events: ${JSON.stringify(events)}`);
    expect(aisFirst, 'the sandbox vessel is seen inside the POD geofence before the line reports it').toBe(true);
    for (const c of containers) {
      expect(
        events.filter((e) => e.container_id === c.id),
        'one vessel_arrived webhook per container',
      ).toHaveLength(1);
      expect(records.filter((r) => r.container_id === c.id).map((r) => r.data_source)).toEqual(['shipping_line']);
    }
    expect(events.every((e) => e.data_source === 'ais')).toBe(true);
  }, 300_000);
});
