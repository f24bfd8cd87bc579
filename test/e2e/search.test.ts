// GET /v2/search on numbers tracked for real: the job queue runs the attempts, the DCSA, terminal and rail
// adapters read the sandbox faces over loopback HTTP, and the engine writes shipments and containers.
import { afterEach, describe, expect, it } from 'vitest';
import type { Account } from '../../src/domain/account.js';
import { testApp, type TestApp } from '../kit/app.js';

interface Example {
  scenario: string;
  scac: string | null;
  request_type: 'bill_of_lading' | 'booking_number' | 'container';
  request_number: string;
}

interface Hit {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, { data: unknown }>;
}

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

/** A fresh world on a fresh database, its faces listening on a loopback port for the adapters. */
async function world(): Promise<{ t: TestApp; account: Account; auth: { authorization: string }; examples: Example[] }> {
  t = await testApp({ sandbox: true, queue: true, listen: true });
  const { account, auth } = await t.account();
  const res = await t.app.inject({ method: 'GET', url: '/sandbox/examples', headers: auth });
  return { t, account, auth, examples: res.json().data };
}

async function search(app: TestApp, auth: { authorization: string }, query: string): Promise<Hit[]> {
  const res = await app.app.inject({ url: `/v2/search?query=${encodeURIComponent(query)}`, headers: auth });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().links.current).toBe(`${app.services.config.publicUrl}/v2/search?query=${encodeURIComponent(query.trim())}`);
  return res.json().data;
}

/** `MSKU1234567` as people type it: `msku 123456-7`. */
const typed = (n: string) => `${n.slice(0, 4).toLowerCase()} ${n.slice(4, 10)}-${n.slice(10)}`;

describe('search over tracked sandbox numbers', () => {
  it('finds the shipment by its bill of lading and its reference number, and a container typed with spaces and a dash', async () => {
    const { t, account, auth, examples } = await world();
    const multi = examples.find((x) => x.scenario === 'multi_container')!;
    const missing = examples.find((x) => x.scenario === 'not_found')!;
    for (const [e, refs] of [
      [multi, ['PO-SEARCH-42']],
      [missing, []],
    ] as const) {
      await t.services.trackingRequests.create(account, {
        requestType: e.request_type,
        requestNumber: e.request_number,
        scac: e.scac,
        autoDetect: false,
        refNumbers: [...refs],
        shipmentTags: [],
        customerId: null,
      });
    }
    expect(await t.queue!.runOnce('tracking.attempt')).toEqual({ completed: 2, failed: 0 });

    const [shipment] = await t.database.db.query<{ id: string; port_of_lading_name: string; port_of_discharge_name: string }>(
      'SELECT id, port_of_lading_name, port_of_discharge_name FROM shipments WHERE account_id = $1',
      [account.id],
    );
    const containers = await t.database.db.query<{ id: string; number: string; current_status: string }>(
      'SELECT id, number, current_status FROM containers WHERE shipment_id = $1 ORDER BY number',
      [shipment!.id],
    );
    expect(containers.length).toBeGreaterThanOrEqual(4);

    // By bill of lading, in lower case: the shipment; its tracking request is represented by it.
    const byBl = await search(t, auth, multi.request_number.toLowerCase());
    expect(byBl).toHaveLength(1);
    expect(byBl[0]).toMatchObject({
      id: shipment!.id,
      type: 'search_result',
      attributes: {
        entity_type: 'shipment',
        number: multi.request_number,
        shipment_id: shipment!.id,
        scac: 'MSCU',
        port_of_lading_name: shipment!.port_of_lading_name,
        port_of_discharge_name: shipment!.port_of_discharge_name,
        containers_count: containers.length,
        tracking_stopped: false,
        status: 'created',
        ref_numbers: ['PO-SEARCH-42'],
      },
      relationships: { shipment: { data: { id: shipment!.id, type: 'shipment' } } },
    });
    expect(byBl[0]!.attributes.port_of_lading_name).toEqual(expect.any(String));
    expect((await t.app.inject({ url: `/v2/shipments/${byBl[0]!.id}`, headers: auth })).statusCode).toBe(200);

    // By one container number typed the way people write it.
    const box = containers[1]!;
    const byNumber = await search(t, auth, typed(box.number));
    expect(byNumber[0]).toMatchObject({
      id: box.id,
      attributes: { entity_type: 'cargo', number: box.number, shipment_id: shipment!.id, status: box.current_status, scac: 'MSCU' },
    });
    expect(byNumber.filter((h) => h.attributes.entity_type === 'cargo')).toHaveLength(1);
    expect((await t.app.inject({ url: `/v2/containers/${box.id}`, headers: auth })).statusCode).toBe(200);

    // By reference number, in another case and in part.
    expect((await search(t, auth, 'po-search-42')).map((h) => h.id)).toEqual([shipment!.id]);
    expect((await search(t, auth, 'SEARCH-4')).map((h) => h.id)).toEqual([shipment!.id]);

    // A request that failed has no shipment: the request itself is the result.
    const failed = await search(t, auth, typed(missing.request_number));
    expect(failed).toHaveLength(1);
    expect(failed[0]!.attributes).toMatchObject({
      entity_type: 'tracking_request',
      number: missing.request_number,
      shipment_id: null,
      status: 'failed',
      failed_reason: 'not_found',
    });

    // Another account sees none of it.
    const other = await t.account();
    expect(await search(t, other.auth, multi.request_number)).toEqual([]);
    expect(await search(t, other.auth, typed(box.number))).toEqual([]);
  });
});
