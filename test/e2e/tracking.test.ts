// Issue 4's acceptance, through the real seams: tracking requests run by the job queue, the real DCSA,
// terminal and rail adapters reading the sandbox faces over loopback HTTP, a real database, the world clock
// walked forward step by step.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Account } from '../../src/domain/account.js';
import { MIGRATIONS_DIR } from '../../src/storage/migrate.js';
import { testApp, type TestApp } from '../kit/app.js';
import { type Example, trackingInput } from '../kit/sandbox-world.js';

const DAY = 86_400_000;

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

async function request(app: TestApp, id: string) {
  const [row] = await app.database.db.query<{
    status: string;
    failed_reason: string | null;
    is_retrying: boolean;
    retry_count: number | null;
    shipment_id: string | null;
  }>('SELECT status, failed_reason, is_retrying, retry_count, shipment_id FROM tracking_requests WHERE id = $1', [id]);
  return row!;
}

async function events(app: TestApp, accountId: string) {
  return app.database.db.query<{ event: string; payload: Record<string, unknown>; container_id: string | null }>(
    'SELECT event, payload, container_id FROM account_events WHERE account_id = $1 ORDER BY seq',
    [accountId],
  );
}

/** Walks the world clock forward; every step refreshes what is due, as the advance endpoint does. */
async function walk(app: TestApp, days: number): Promise<void> {
  await app.services.sandbox!.advance(days * DAY);
}

describe('tracking a sandbox number', () => {
  it('the succeeded example becomes created with its shipment, containers and history, announced once', async () => {
    const { t, account, examples } = await world();
    const e = examples.find((x) => x.scenario === 'succeeded')!;
    const req = await t.services.trackingRequests.create(account, trackingInput(e));
    expect(req.status).toBe('pending');
    expect(await t.queue!.runOnce('tracking.attempt')).toEqual({ completed: 1, failed: 0 });

    const done = await request(t, req.id);
    expect(done).toMatchObject({ status: 'created', failed_reason: null });
    const [shipment] = await t.database.db.query<Record<string, unknown>>('SELECT * FROM shipments WHERE id = $1', [done.shipment_id]);
    expect(shipment).toMatchObject({ account_id: account.id, bill_of_lading_number: e.request_number, shipping_line_scac: 'MAEU' });
    expect(shipment!.port_of_lading_locode).toMatch(/^[A-Z]{5}$/);
    expect(shipment!.port_of_discharge_locode).toMatch(/^[A-Z]{5}$/);
    expect(shipment!.pod_vessel_imo).toMatch(/^\d{7}$/);
    expect(shipment!.line_tracking_last_succeeded_at).toBeInstanceOf(Date);
    expect(shipment!.line_tracking_next_attempt_at).toBeInstanceOf(Date);

    const containers = await t.database.db.query<{ number: string; snapshot: Record<string, unknown> }>(
      'SELECT number, snapshot FROM containers WHERE shipment_id = $1',
      [done.shipment_id],
    );
    expect(containers.length).toBe(1);
    expect(containers[0]!.snapshot.equipment_length).toBeTypeOf('number');
    const history = await t.database.db.query<{ event: string }>('SELECT event FROM transport_events WHERE shipment_id = $1', [
      done.shipment_id,
    ]);
    // Mid-voyage at first sight: the load at the POL is history, stored but not announced.
    expect(history.map((h) => h.event)).toContain('container.transport.vessel_loaded');
    expect((await events(t, account.id)).map((x) => x.event)).toEqual(['container.created', 'tracking_request.succeeded']);
  });

  it('ends every documented scenario in its documented outcome', async () => {
    const { t, account, examples } = await world();
    const ids = new Map<string, string>();
    for (const e of examples) ids.set(e.scenario, (await t.services.trackingRequests.create(account, trackingInput(e))).id);
    await t.queue!.runOnce('tracking.attempt');

    // Right away: the permanent answers and the first temporary ones.
    const now = async (scenario: string) => request(t, ids.get(scenario)!);
    for (const e of examples) {
      const r = await now(e.scenario);
      const [kind, reason] = e.expected_outcome.split(':');
      if (kind === 'failed' && reason !== 'expired' && reason !== 'retries_exhausted') {
        expect(r, e.scenario).toMatchObject({ status: 'failed', failed_reason: reason });
      } else if (e.expected_outcome === 'created') {
        expect(r.status, e.scenario).toBe('created');
      }
    }
    expect(await now('awaiting_manifest')).toMatchObject({ status: 'awaiting_manifest', failed_reason: 'awaiting_manifest' });
    expect(await now('expired')).toMatchObject({ status: 'awaiting_manifest' });
    expect(await now('flaky')).toMatchObject({
      status: 'pending',
      is_retrying: true,
      retry_count: 1,
      failed_reason: 'shipping_line_unreachable',
    });
    expect(await now('retries_exhausted')).toMatchObject({ status: 'pending', is_retrying: true });

    // Later, as the world walks on.
    await walk(t, 2);
    expect(await now('flaky')).toMatchObject({ status: 'created' });
    expect(await now('retries_exhausted')).toMatchObject({ status: 'failed', failed_reason: 'retries_exhausted', retry_count: 13 });
    await walk(t, 6);
    expect(await now('awaiting_manifest')).toMatchObject({ status: 'created' });
    expect(await now('expired')).toMatchObject({ status: 'failed', failed_reason: 'expired' });

    const byRequest = await t.database.db.query<{ event: string; tracking_request_id: string }>(
      `SELECT event, tracking_request_id FROM account_events WHERE account_id = $1 AND event LIKE 'tracking_request.%' ORDER BY seq`,
      [account.id],
    );
    const of = (scenario: string) => byRequest.filter((x) => x.tracking_request_id === ids.get(scenario)).map((x) => x.event);
    // A temporary failure announces nothing; the final one once; awaiting_manifest once, on first occurrence.
    expect(of('flaky')).toEqual(['tracking_request.succeeded']);
    expect(of('retries_exhausted')).toEqual(['tracking_request.failed']);
    expect(of('awaiting_manifest')).toEqual(['tracking_request.awaiting_manifest', 'tracking_request.succeeded']);
    expect(of('expired')).toEqual(['tracking_request.awaiting_manifest', 'tracking_request.failed']);
  }, 300_000);

  it('a request awaiting its manifest is retrying (is_retrying: true) while it is asked again daily, until it is tracked or expires', async () => {
    const { t, account, auth, examples } = await world();
    const create = async (scenario: string) =>
      (await t.services.trackingRequests.create(account, trackingInput(examples.find((x) => x.scenario === scenario)!))).id;
    const later = await create('awaiting_manifest'); // manifested after 3 world days
    const never = await create('expired');
    await t.queue!.runOnce('tracking.attempt');
    const read = async (id: string) => {
      const res = await t.app.inject({ url: `/v2/tracking_requests/${id}`, headers: auth });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.attributes;
    };
    const awaiting = { status: 'awaiting_manifest', failed_reason: 'awaiting_manifest', is_retrying: true };
    expect(await read(later)).toMatchObject(awaiting);
    expect(await read(never)).toMatchObject(awaiting);
    const listed = await t.app.inject({ url: '/v2/tracking_requests?filter[status]=awaiting_manifest', headers: auth });
    expect(listed.json().data.map((r: { attributes: { is_retrying: boolean } }) => r.attributes.is_retrying)).toEqual([true, true]);

    // Migration 0025 gives the requests that were awaiting before the same.
    await t.database.db.query('UPDATE tracking_requests SET is_retrying = false WHERE id = ANY($1::uuid[])', [[later, never]]);
    await t.database.db.exec(readFileSync(`${MIGRATIONS_DIR}/0025_awaiting_manifest_retrying.sql`, 'utf8'));
    expect(await read(later)).toMatchObject(awaiting);
    expect(await read(never)).toMatchObject(awaiting);

    await walk(t, 2);
    expect(await read(never)).toMatchObject(awaiting);
    await walk(t, 2);
    expect(await read(later)).toMatchObject({ status: 'created', failed_reason: null, is_retrying: false });
    expect(await read(never)).toMatchObject(awaiting);
    await walk(t, 4);
    expect(await read(never)).toMatchObject({ status: 'failed', failed_reason: 'expired', is_retrying: false });
  }, 300_000);

  it('a number the account already tracks is accepted, then fails as duplicate pointing at the shipment', async () => {
    const { t, account, examples } = await world();
    const e = examples.find((x) => x.scenario === 'succeeded')!;
    const first = await t.services.trackingRequests.create(account, trackingInput(e));
    await t.queue!.runOnce('tracking.attempt');
    const second = await t.services.trackingRequests.create(account, trackingInput(e));
    await t.queue!.runOnce('tracking.attempt');
    const shipmentId = (await request(t, first.id)).shipment_id;
    expect(await request(t, second.id)).toMatchObject({ status: 'failed', failed_reason: 'duplicate', shipment_id: shipmentId });
    const [{ n }] = (await t.database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM shipments WHERE account_id = $1', [
      account.id,
    ])) as [{ n: number }];
    expect(n).toBe(1);
  });

  it('fetches once for every account that tracks the same number, and feeds each its own shipment', async () => {
    const { t, account, examples } = await world();
    const other = (await t.account()).account;
    const e = examples.find((x) => x.scenario === 'multi_container')!;
    const a = await t.services.trackingRequests.create(account, trackingInput(e));
    const b = await t.services.trackingRequests.create(other, trackingInput(e));
    await t.queue!.runOnce('tracking.attempt');
    const ra = await request(t, a.id);
    const rb = await request(t, b.id);
    expect(ra.status).toBe('created');
    expect(rb.status).toBe('created');
    expect(ra.shipment_id).not.toBe(rb.shipment_id);
    const [{ n }] = (await t.database.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM raw_observations WHERE source_id LIKE 'dcsa:%'",
    )) as [{ n: number }];
    expect(n).toBe(1);
    const counts = await t.database.db.query<{ account_id: string; n: number }>(
      'SELECT account_id, count(*)::int AS n FROM containers GROUP BY account_id',
    );
    expect(counts.length).toBe(2);
    expect(counts[0]!.n).toBeGreaterThanOrEqual(4);
    expect(counts[0]!.n).toBe(counts[1]!.n);
  });
});

describe('a tracked container over the API', () => {
  it('shows every container attribute, its events and the raw events the sources sent', async () => {
    const { t, account, examples } = await world();
    const headers = { authorization: `Token ${(await t.services.accounts.issueKey(t.database.db, account.id)).token}` };
    const req = await t.services.trackingRequests.create(account, trackingInput(examples.find((x) => x.scenario === 'succeeded')!));
    await t.queue!.runOnce('tracking.attempt');
    const shipmentId = (await request(t, req.id)).shipment_id!;
    const shipment = (await t.app.inject({ method: 'GET', url: '/v2/shipments', headers })).json().data[0];
    expect(shipment.id).toBe(shipmentId);
    const [ref] = shipment.relationships.containers.data;
    expect(ref.type).toBe('container');

    const res = await t.app.inject({ method: 'GET', url: `/v2/containers/${ref.id}?include=shipment`, headers });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const attrs = body.data.attributes;
    for (const name of [
      'number',
      'ref_numbers',
      'seal_number',
      'equipment_type',
      'equipment_length',
      'equipment_height',
      'weight_in_lbs',
      'current_status',
      'availability_known',
      'available_for_pickup',
      'terminal_checked_at',
      'location_at_pod_terminal',
      'pod_full_out_chassis_number',
      'pod_arrived_at',
      'pod_discharged_at',
      'pod_full_out_at',
      'pickup_appointment_at',
      'holds_at_pod_terminal',
      'fees_at_pod_terminal',
      'pod_timezone',
      'pod_last_tracking_request_at',
      'shipment_last_tracking_request_at',
      'pickup_lfd',
      'import_deadlines',
      'ind_facility_lfd_on',
      'pod_rail_carrier_scac',
      'ind_rail_carrier_scac',
      'pod_rail_loaded_at',
      'pod_rail_departed_at',
      'ind_eta_at',
      'ind_ata_at',
      'ind_rail_unloaded_at',
      'final_destination_full_out_at',
      'final_destination_timezone',
      'empty_terminated_at',
      'empty_terminated_timezone',
      'delivered_at',
      'empty_out_at',
      'pol_full_in_at',
      'pol_vessel_loaded_at',
      'pol_vessel_departed_at',
      'rail_last_tracking_request_at',
      'ind_facility_holds',
      'ind_facility_fees',
      'ssl_lfd',
      'created_at',
    ]) {
      expect(attrs, name).toHaveProperty(name);
    }
    expect(attrs).not.toHaveProperty('rail_move');
    expect(attrs.holds_at_pod_terminal).toEqual(expect.any(Array));
    expect(attrs.import_deadlines).toEqual({
      pickup_lfd_line: attrs.import_deadlines.pickup_lfd_line,
      pickup_lfd_terminal: attrs.import_deadlines.pickup_lfd_terminal,
      pickup_lfd_rail: attrs.import_deadlines.pickup_lfd_rail,
    });
    expect(body.data.relationships.shipment.data).toEqual({ id: shipmentId, type: 'shipment' });
    expect(body.data.relationships.transport_events.data.length).toBeGreaterThan(0);
    expect(body.included).toEqual([expect.objectContaining({ id: shipmentId, type: 'shipment' })]);
    expect(body.data.links).toBeUndefined();

    const raw = await t.app.inject({ method: 'GET', url: `/v2/containers/${ref.id}/raw_events`, headers });
    expect(raw.statusCode).toBe(200);
    const events = raw.json().data as { id: string; attributes: Record<string, unknown> }[];
    expect(events.map((e) => e.id)).toEqual(body.data.relationships.raw_events.data.map((r: { id: string }) => r.id));
    const loaded = events.find((e) => e.attributes.event === 'vessel_loaded') as
      | { attributes: Record<string, unknown>; relationships: Record<string, { data: { id: string; type: string } | null }> }
      | undefined;
    expect(loaded?.attributes).toMatchObject({
      data_source: 'shipping_line',
      data_provider_code: 'MAEU',
      data_provider_name: 'Maersk',
      estimated: false,
    });
    // As the reference answers: the events' locations, vessels and terminals included.
    const included = new Set((raw.json().included as { id: string; type: string }[]).map((r) => `${r.type}:${r.id}`));
    for (const rel of ['location', 'vessel'] as const) {
      const ref = loaded!.relationships[rel]!.data;
      expect(ref, rel).not.toBeNull();
      expect(included.has(`${ref!.type}:${ref!.id}`), `${rel} ${ref!.type} included`).toBe(true);
    }
    // Mid-voyage: the arrival is still an estimate.
    expect(events.some((e) => e.attributes.event === 'vessel_arrived' && e.attributes.estimated === true)).toBe(true);

    const transport = await t.app.inject({
      method: 'GET',
      url: `/v2/containers/${ref.id}/transport_events?include=container&page[size]=2`,
      headers,
    });
    expect(transport.statusCode, transport.body).toBe(200);
    const tb = transport.json();
    expect(tb.meta.total).toBe(body.data.relationships.transport_events.data.length);
    expect(tb.data.length).toBe(Math.min(2, tb.meta.total));
    expect(tb.data[0]).toMatchObject({
      type: 'transport_event',
      relationships: { container: { data: { id: ref.id, type: 'container' } }, shipment: { data: { id: shipmentId } } },
    });
    expect(tb.data[0].attributes.event).toMatch(/^container\./);
    expect(tb.included).toEqual([expect.objectContaining({ id: ref.id, type: 'container' })]);
    const withEvents = await t.app.inject({ method: 'GET', url: `/v2/containers/${ref.id}?include=transport_events`, headers });
    expect(withEvents.json().included.length).toBe(tb.meta.total);

    const number = attrs.number as string;
    const typed = `${number.slice(0, 4).toLowerCase()} ${number.slice(4, 10)}-${number.slice(10)}`;
    const found = await t.app.inject({ method: 'GET', url: `/v2/containers?filter[number]=${encodeURIComponent(typed)}`, headers });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().data.map((c: { id: string }) => c.id)).toEqual([ref.id]);
    const all = await t.app.inject({ method: 'GET', url: '/v2/containers', headers });
    expect(all.json().meta.total).toBe(1);
    expect((await t.app.inject({ method: 'GET', url: '/v2/containers', headers: (await t.account()).auth })).json().data).toEqual([]);

    const withContainers = await t.app.inject({ method: 'GET', url: `/v2/shipments/${shipmentId}?include=containers`, headers });
    expect(withContainers.statusCode).toBe(200);
    expect(withContainers.json().included).toEqual([expect.objectContaining({ id: ref.id, type: 'container' })]);
    expect(withContainers.json().links.self).toContain(`/v2/shipments/${shipmentId}?include=containers`);

    const stranger = (await t.account()).auth;
    expect((await t.app.inject({ method: 'GET', url: `/v2/shipments/${shipmentId}`, headers: stranger })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/v2/containers/${ref.id}`, headers: stranger })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/v2/containers/${ref.id}/raw_events`, headers: stranger })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/v2/containers/${ref.id}/transport_events`, headers: stranger })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ method: 'GET', url: '/v2/containers/x/raw_events', headers })).statusCode).toBe(404);
  });
});

describe('the sandbox clock endpoint', () => {
  it('answers with how many tracked items each advance refreshed, once their changes are committed', async () => {
    const { t, account, examples } = await world();
    const controller = (await t.account({ features: ['sandbox_control'] })).auth;
    await t.services.trackingRequests.create(account, trackingInput(examples.find((x) => x.scenario === 'holds')!));
    await t.queue!.runOnce('tracking.attempt');
    const before = (await events(t, account.id)).length;
    // Far enough for the vessel to arrive (estimates are revised only a few times a voyage, so two quiet days may
    // hold no change at all).
    const res = await t.app.inject({ method: 'POST', url: '/sandbox/clock/advance', headers: controller, payload: { days: 12 } });
    expect(res.statusCode).toBe(200);
    expect(res.json().refreshed).toBeGreaterThanOrEqual(4);
    // Committed before the answer: the events are there.
    expect((await events(t, account.id)).length).toBeGreaterThan(before);
  });
});

describe('stop, resume and refresh over the API', () => {
  it('stops a shipment for the user, keeps it quiet while stopped, and resumes it', async () => {
    const { t, account, examples } = await world();
    const key = (await t.services.accounts.issueKey(t.database.db, account.id)).token;
    const headers = { authorization: `Token ${key}` };
    const e = examples.find((x) => x.scenario === 'succeeded')!;
    const req = await t.services.trackingRequests.create(account, trackingInput(e));
    await t.queue!.runOnce('tracking.attempt');
    const shipmentId = (await request(t, req.id)).shipment_id!;

    const stopped = await t.app.inject({ method: 'PATCH', url: `/v2/shipments/${shipmentId}/stop_tracking`, headers });
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json().data.attributes).toMatchObject({ line_tracking_stopped_reason: 'cancelled_by_user' });
    expect(stopped.json().data.attributes.line_tracking_stopped_at).toBeTypeOf('string');
    expect((await request(t, req.id)).status).toBe('tracking_stopped');
    const quiet = (await events(t, account.id)).length;
    await walk(t, 3);
    const afterWalk = await events(t, account.id);
    expect(afterWalk.length).toBe(quiet);
    expect(afterWalk.filter((x) => x.event === 'tracking_request.tracking_stopped').length).toBe(1);

    const resumed = await t.app.inject({ method: 'PATCH', url: `/v2/shipments/${shipmentId}/resume_tracking`, headers });
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json().data.attributes).toMatchObject({ line_tracking_stopped_at: null, line_tracking_stopped_reason: null });
    expect((await request(t, req.id)).status).toBe('created');
    await walk(t, 3);
    expect((await events(t, account.id)).length).toBeGreaterThan(quiet);

    const other = await t.account();
    const foreign = await t.app.inject({ method: 'PATCH', url: `/v2/shipments/${shipmentId}/stop_tracking`, headers: other.auth });
    expect(foreign.statusCode).toBe(404);
    const junk = await t.app.inject({ method: 'PATCH', url: '/v2/shipments/not-a-uuid/resume_tracking', headers });
    expect(junk.statusCode).toBe(404);
  }, 120_000);

  it('refreshes a container on demand only with the refresh feature', async () => {
    const { t, examples } = await world();
    const plain = await t.account();
    const paid = await t.account({ features: ['refresh'] });
    const e = examples.find((x) => x.scenario === 'succeeded')!;
    await t.services.trackingRequests.create(paid.account, trackingInput(e));
    await t.queue!.runOnce('tracking.attempt');
    const [container] = await t.database.db.query<{ id: string }>('SELECT id FROM containers WHERE account_id = $1', [paid.account.id]);
    const url = `/v2/containers/${container!.id}/refresh`;

    const denied = await t.app.inject({ method: 'PATCH', url, headers: plain.auth });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().errors[0].detail).toContain('not enabled');

    const lastAsked = async () =>
      (
        await t.database.db.query<{ at: Date }>("SELECT max(last_fetched_at) AS at FROM raw_observations WHERE source_id LIKE 'dcsa:%'")
      )[0]!.at.getTime();
    const before = await lastAsked();
    const ok = await t.app.inject({ method: 'PATCH', url, headers: paid.auth });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: 'Started refresh for Shipping line, Terminal, Rail' });
    t.clock.advance(1000);
    expect(await t.queue!.runOnce('tracking.refresh')).toEqual({ completed: 1, failed: 0 });
    // The line was asked again at once, though it was not due for hours.
    expect(await lastAsked()).toBe(before + 1000);

    const foreign = await t.app.inject({ method: 'PATCH', url, headers: { ...(await t.account({ features: ['refresh'] })).auth } });
    expect(foreign.statusCode).toBe(404);
  });
});

describe('sources: health and our own rate limits', () => {
  it('records each source failure in /metrics and clears it when the source answers again', async () => {
    const { t, account, examples } = await world();
    const flaky = examples.find((x) => x.scenario === 'flaky')!;
    await t.services.trackingRequests.create(account, trackingInput(flaky));
    await t.queue!.runOnce('tracking.attempt');
    const metric = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/metrics' });
      return /tidemark_source_consecutive_failures\{source="dcsa:SEAU"\} (\d+)/.exec(res.body)?.[1];
    };
    expect(await metric()).toBe('1');
    await walk(t, 1);
    expect(await metric()).toBe('0');
  });

  it('keeps to TIDEMARK_CARRIER_<SCAC>_RATE_LIMIT across requests, retrying after the window', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    t = await testApp({
      sandbox: true,
      queue: true,
      env: { TIDEMARK_CARRIER_MAEU_URL: `${base}/sandbox/carriers/MAEU`, TIDEMARK_CARRIER_MAEU_RATE_LIMIT: '1' },
      listen: { port },
    });
    const { account } = await t.account();
    const examples: Example[] = (await t.app.inject({ method: 'GET', url: '/sandbox/examples', headers: (await t.account()).auth })).json()
      .data;
    const first = await t.services.trackingRequests.create(account, trackingInput(examples.find((x) => x.scenario === 'succeeded')!));
    const second = await t.services.trackingRequests.create(account, trackingInput(examples.find((x) => x.scenario === 'container')!));
    await t.queue!.runOnce('tracking.attempt');
    expect((await request(t, first.id)).status).toBe('created');
    // One request a minute: the second waits for the next window instead of calling the carrier.
    expect(await request(t, second.id)).toMatchObject({ status: 'pending', is_retrying: true });
    t.clock.advance(61_000);
    await walk(t, 1 / 24);
    expect((await request(t, second.id)).status).toBe('created');
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('walking the world clock through whole journeys', () => {
  it('plays the rail journey as events in order, each real change once, and stops when the box is back', async () => {
    const { t, account, examples } = await world();
    const e = examples.find((x) => x.scenario === 'rail')!;
    const req = await t.services.trackingRequests.create(account, trackingInput(e));
    await t.queue!.runOnce('tracking.attempt');
    await walk(t, 60);

    const all = await events(t, account.id);
    const transport = all.filter((x) => x.event.startsWith('container.transport.')).map((x) => x.event);
    const order = [
      'container.transport.vessel_arrived',
      'container.transport.vessel_discharged',
      'container.transport.rail_loaded',
      'container.transport.rail_departed',
      'container.transport.rail_arrived',
      'container.transport.rail_unloaded',
      'container.transport.full_out',
      'container.transport.empty_in',
    ];
    const first = order.map((name) => transport.indexOf(name));
    expect(
      first.every((i) => i >= 0),
      transport.join(' '),
    ).toBe(true);
    expect(
      [...first].sort((x, y) => x - y),
      transport.join(' '),
    ).toEqual(first);

    // Each actual transport event was announced once (estimated ones again whenever the estimate moves).
    const announced = all
      .filter((x) => x.event.startsWith('container.transport.') && !x.event.includes('.estimated.'))
      .map((x) => JSON.stringify([x.container_id, (x.payload.transport_event as { key: string }).key]));
    expect(new Set(announced).size).toBe(announced.length);

    // The empty return ends tracking: the request says so, once.
    expect((await request(t, req.id)).status).toBe('tracking_stopped');
    expect(all.filter((x) => x.event === 'tracking_request.tracking_stopped').length).toBe(1);
    const [shipment] = await t.database.db.query<{ line_tracking_stopped_reason: string }>(
      'SELECT line_tracking_stopped_reason FROM shipments WHERE account_id = $1',
      [account.id],
    );
    expect(shipment!.line_tracking_stopped_reason).toBe('all_containers_terminated');
  }, 300_000);

  it('shows the customs hold appear and clear, and refreshing twice at the same moment changes nothing', async () => {
    const { t, account, examples } = await world();
    const e = examples.find((x) => x.scenario === 'holds')!;
    await t.services.trackingRequests.create(account, trackingInput(e));
    await t.queue!.runOnce('tracking.attempt');
    await walk(t, 30);
    const updates = (await events(t, account.id))
      .filter((x) => x.event === 'container.updated')
      .map((x) => (x.payload.changeset as Record<string, [unknown, unknown]>).holds_at_pod_terminal)
      .filter((x) => x !== undefined);
    const names = (v: unknown) => ((v as { name: string }[] | null) ?? []).map((h) => h.name);
    const appeared = updates.findIndex(([, next]) => names(next).includes('customs'));
    expect(appeared).toBeGreaterThanOrEqual(0);
    expect(updates.slice(appeared + 1).some(([, next]) => !names(next).includes('customs'))).toBe(true);

    const [{ id }] = (await t.database.db.query<{ id: string }>('SELECT id FROM tracked_shipments')) as [{ id: string }];
    const before = (await events(t, account.id)).length;
    await t.services.trackingEngine.refresh(id, { force: true });
    const middle = (await events(t, account.id)).length;
    await t.services.trackingEngine.refresh(id, { force: true });
    expect((await events(t, account.id)).length).toBe(middle);
    expect(middle).toBeGreaterThanOrEqual(before);
  }, 300_000);
});
