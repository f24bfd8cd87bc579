// Backups on a PostgreSQL server (docs/operations.md, "Backing up and restoring"): a `pg_dump` taken while the app
// serves a database the sandbox world has filled, restored with `pg_restore` into a fresh database, serves the same
// answers with the same keys, and the sealed webhook secret still opens with the installation's secret key.
// Runs only with TEST_DATABASE_URL (a PGlite directory is backed up by copying it while stopped).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { FixedClock } from '../../src/domain/clock.js';
import { PgDb } from '../../src/storage/pg.js';
import { type TestApp, testApp } from '../kit/app.js';
import { onServer, serverUrl, type TestDatabase } from '../kit/databases.js';
import { type SandboxWorld, sandboxWorld, shipmentOf } from '../kit/sandbox-world.js';

const run = promisify(execFile);

/** A document with its `included` in one order: JSON:API gives that list no order, and a restore may change it. */
function comparable(body: string): unknown {
  const doc = JSON.parse(body) as { included?: { type: string; id: string }[] };
  if (doc.included) doc.included.sort((a, b) => `${a.type}/${a.id}`.localeCompare(`${b.type}/${b.id}`));
  return doc;
}
const SCENARIOS = ['succeeded', 'multi_container', 'holds'];

describe.skipIf(!onServer())('a pg_dump of a populated database restores into one that serves the same (needs TEST_DATABASE_URL)', () => {
  let world: SandboxWorld;
  let restored: TestApp;
  let restoredDb: TestDatabase;
  let dir: string;
  const restoredName = `${inject('serverTemplate')}__restore_${process.pid}`;
  /** The reads compared, by the world's first account. */
  const paths: string[] = [];
  let webhookId: string;

  const admin = async <T>(fn: (c: pg.Client) => Promise<T>): Promise<T> => {
    const c = new pg.Client({ connectionString: serverUrl('postgres') });
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    world = await sandboxWorld({
      scenarios: (e) => SCENARIOS.includes(e.scenario),
      days: 6,
      env: { TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: 'on' },
    });
    const account = world.accounts[0]!;
    const hook = await world.t.app.inject({
      method: 'POST',
      url: '/v2/webhooks',
      headers: { ...account.auth, 'content-type': 'application/json' },
      payload: { data: { type: 'webhook', attributes: { url: 'http://127.0.0.1:9/hook', active: true } } },
    });
    expect(hook.statusCode).toBe(201);
    webhookId = hook.json().data.id;
    const shipment = await shipmentOf(world, account, 'multi_container');
    const containers = await world.t.app.inject({ method: 'GET', url: `/v2/shipments/${shipment}`, headers: account.auth });
    const containerId: string = containers.json().data.relationships.containers.data[0].id;
    paths.push(
      '/v2/shipments?include=containers,pod_terminal',
      `/v2/shipments/${shipment}?include=containers`,
      '/v2/containers',
      `/v2/containers/${containerId}`,
      `/v2/containers/${containerId}/transport_events`,
      `/v2/containers/${containerId}/raw_events`,
      '/v2/tracking_requests',
      '/v2/webhooks',
      `/v2/webhooks/${webhookId}`,
      '/v2/webhook_notifications',
    );

    dir = mkdtempSync(join(tmpdir(), 'tidemark-backup-'));
    const dump = join(dir, 'tidemark.dump');
    // Taken while the app serves (its pool is open): pg_dump reads one snapshot.
    await run('pg_dump', ['--format=custom', '--file', dump, world.t.database.url!]);
    await admin((c) => c.query(`CREATE DATABASE "${restoredName}" TEMPLATE template0`));
    await run('pg_restore', ['--no-owner', '--exit-on-error', '--dbname', serverUrl(restoredName), dump]);
    const db = new PgDb(serverUrl(restoredName), { max: 5 });
    restoredDb = {
      db,
      url: serverUrl(restoredName),
      drop: async () => {
        await db.close();
        await admin((c) => c.query(`DROP DATABASE IF EXISTS "${restoredName}" WITH (FORCE)`));
      },
    };
    restored = await testApp({
      database: restoredDb,
      sandbox: true,
      queue: true,
      listen: true,
      clock: new FixedClock(world.t.clock.now()),
    });
  }, 120_000);

  afterAll(async () => {
    await restored?.close();
    await restoredDb?.drop();
    await world?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('serves every read the same, with the same key', async () => {
    const auth = world.accounts[0]!.auth;
    for (const url of paths) {
      const before = await world.t.app.inject({ method: 'GET', url, headers: auth });
      const after = await restored.app.inject({ method: 'GET', url, headers: auth });
      expect(before.statusCode, url).toBe(200);
      expect(after.statusCode, url).toBe(200);
      // Each app listens on a loopback port of its own and names it in links.
      expect(comparable(after.body.replaceAll(restored.url!, world.t.url!)), url).toEqual(comparable(before.body));
    }
    const containers = (await restored.app.inject({ method: 'GET', url: '/v2/containers', headers: auth })).json();
    expect(containers.data.length).toBeGreaterThanOrEqual(6);
  });

  it('opens the sealed webhook secret with the installation key', async () => {
    const [row] = await restored.database.db.query<{ secret_sealed: unknown }>('SELECT secret_sealed FROM webhooks WHERE id = $1', [
      webhookId,
    ]);
    expect(row?.secret_sealed).toBeTruthy();
    const webhook = (
      await restored.app.inject({ method: 'GET', url: `/v2/webhooks/${webhookId}`, headers: world.accounts[0]!.auth })
    ).json();
    expect(webhook.data.attributes.secret).toMatch(/^whsec_/);
  });

  it('takes new work: a tracking request on the restored database is attempted by its queue', async () => {
    const res = await restored.app.inject({
      method: 'POST',
      url: '/v2/tracking_requests',
      headers: { ...world.accounts[0]!.auth, 'content-type': 'application/json' },
      payload: {
        data: { type: 'tracking_request', attributes: { request_type: 'bill_of_lading', request_number: 'MAEU240199991', scac: 'MAEU' } },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.attributes.status).toBe('pending');
    await restored.queue!.runOnce('tracking.attempt');
    const after = await restored.app.inject({
      method: 'GET',
      url: `/v2/tracking_requests/${res.json().data.id}`,
      headers: world.accounts[0]!.auth,
    });
    expect(after.json().data.attributes.status).toBe('created');
  });
});
