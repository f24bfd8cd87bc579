// `tidemark db copy` from a real PGlite data directory to a new database on the PostgreSQL server of the test run
// (docs/operations.md "Moving from PGlite to PostgreSQL"). The data directory is filled through the product: a
// first start, sandbox stories tracked and walked through time, a webhook whose receiver is failing with
// notifications waiting, users signed up, signed in and invited, an OAuth client, parties, custom fields, an
// on-demand refresh served and one waiting, a tracking request not yet attempted; every table of our schema must
// hold a row, so a table added without data here fails the test. Then the copy, the refusals (the directory held
// by a process, a target with rows), and the real `tidemark` on the target: the same API answers, and the waiting
// work done by a worker (the webhook delivered once the receiver is back, the request attempted, the refresh served).
// Needs TEST_DATABASE_URL (the PostgreSQL pass of docs/testing.md): without a server it is skipped.
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstStartSetup } from '../../src/services/setup.js';
import { FEATURES, type Feature } from '../../src/domain/account.js';
import { EVENT_NAMES } from '../../src/domain/event-catalogue.js';
import { readSchema } from '../../src/storage/copy.js';
import { migrate } from '../../src/storage/migrate.js';
import { PgDb } from '../../src/storage/pg.js';
import { PgliteDb } from '../../src/storage/pglite.js';
import { type TestApp, testApp } from '../kit/app.js';
import { type CliResult, callServer, type Server, startServer, tidemark } from '../kit/cli.js';
import { serverUrl } from '../kit/databases.js';
import { type MailCatcher, mailCatcher } from '../kit/mail.js';
import { type Receiver, startReceiver } from '../kit/receiver.js';
import { DAY, type Example, unlimited } from '../kit/sandbox-world.js';
import { until } from '../kit/wait.js';

const ON_SERVER = Boolean(process.env.TEST_DATABASE_URL);
const PASSWORD = 'a long enough password';
/** The settings the source ran with and the target's processes share (the world clock stands still in both). */
const SHARED = { TIDEMARK_SANDBOX: 'on', TIDEMARK_SANDBOX_SPEED: '0', TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: 'on' };

interface Source {
  /** The API key of the account that tracks, and the admin token of the first start. */
  auth: { authorization: string };
  admin: { authorization: string };
  webhookSecret: string;
  /** Notifications that failed at the receiver and wait for their next attempt. */
  pendingNotifications: string[];
  /** The tracking request created but never attempted, and the container whose on-demand refresh waits. */
  pendingRequest: string;
  waitingRefresh: string;
  /** Rows per table, read from the source once it was closed. */
  counts: Map<string, number>;
  /** The answers of GET paths on the source, with its address replaced by BASE. */
  answers: Map<string, unknown>;
  /** The copy run while the test still held the data directory. */
  whileLocked: CliResult;
}

/** Made by the suite's beforeAll (nothing is made where it is skipped). */
let dir = '';
let dataDir = '';
const targetName = `tidemark_copy_${process.pid}_${Date.now()}`;
const targetUrl = ON_SERVER ? serverUrl(targetName) : '';
const servers: Server[] = [];
let receiver: Receiver;
let mail: MailCatcher;
let source: Source;
/** The key `tidemark secret-key export` printed, as the copy's output says to set it. */
let targetKey = '';

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: serverUrl('postgres') });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/**
 * An answer as two servers' answers compare: the server's address as one word, and the included resources by type and
 * id (the order a list's includes come in is not part of the API, and differs between PGlite and a server).
 */
function normalized(body: unknown, base: string): unknown {
  const out = JSON.parse(JSON.stringify(body).replaceAll(base, 'BASE')) as { included?: { type: string; id: string }[] };
  out.included?.sort((a, b) => `${a.type}/${a.id}`.localeCompare(`${b.type}/${b.id}`));
  return out;
}

/** The GET paths whose answers must be the same on the target. */
function pathsToCompare(shipmentId: string, containerId: string): string[] {
  return [
    '/v2/shipments?include=containers,customer',
    `/v2/shipments/${shipmentId}?include=containers,pod_terminal,port_of_lading,port_of_discharge`,
    '/v2/containers',
    `/v2/containers/${containerId}/transport_events`,
    `/v2/containers/${containerId}/raw_events`,
    '/v2/tracking_requests',
    '/v2/webhooks',
    '/v2/webhook_notifications',
    '/v2/parties',
    '/v2/custom_field_definitions?include=options',
    `/v2/shipments/${shipmentId}/custom_fields`,
  ];
}

async function populate(t: TestApp, db: PgliteDb): Promise<Omit<Source, 'counts' | 'whileLocked'>> {
  const inject = async (method: 'GET' | 'POST' | 'PATCH', url: string, headers: Record<string, string>, payload?: object) => {
    const res = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.body ? res.json() : {};
  };
  const first = await firstStartSetup(db, t.services.accounts, t.clock, undefined, t.services.users);
  const { account, auth } = await t.account({ features: [...FEATURES] as Feature[] });
  await unlimited(t, account.id);

  receiver.respond = () => ({ status: 503 });
  const hook = await inject('POST', '/v2/webhooks', auth, {
    data: { type: 'webhook', attributes: { url: receiver.url, events: [...EVENT_NAMES] } },
  });
  const party = await inject('POST', '/v2/parties', auth, { data: { type: 'party', attributes: { company_name: 'Consignee Ltd' } } });
  const examples = (await inject('GET', '/sandbox/examples', auth)).data as Example[];
  const example = (scenario: string) => examples.find((e) => e.scenario === scenario)!;
  const track = (e: Example) =>
    inject('POST', '/v2/tracking_requests', auth, {
      data: {
        type: 'tracking_request',
        attributes: { request_type: e.request_type, request_number: e.request_number, scac: e.scac },
        relationships: { customer: { data: { type: 'party', id: party.data.id } } },
      },
    });
  // A container number's story indexes its bill of lading (sandbox_documents).
  for (const scenario of ['multi_container', 'rail', 'container']) await track(example(scenario));
  await t.queue!.runOnce('tracking.attempt');
  await t.services.sandbox!.advance(6 * DAY);
  // Every notification so far fails at the receiver (503): logged, each waiting for its next attempt.
  while ((await t.services.webhookDelivery.deliverDue()) > 0) {}

  const shipments = (await inject('GET', '/v2/shipments?include=containers', auth)).data as { id: string }[];
  const containers = (await inject('GET', '/v2/containers', auth)).data as { id: string }[];
  const shipmentId = shipments[0]!.id;
  // One on-demand refresh served (the account's turn recorded), one waiting for its job.
  await inject('PATCH', `/v2/containers/${containers[0]!.id}/refresh`, auth);
  await t.queue!.runOnce('tracking.refresh');
  await inject('PATCH', `/v2/containers/${containers[1]!.id}/refresh`, auth);
  // A tracking request whose first attempt is still queued.
  const pending = await track(example('succeeded'));

  const definition = await inject('POST', '/v2/custom_field_definitions', auth, {
    data: {
      type: 'custom_field_definition',
      attributes: { entity_type: 'Shipment', api_slug: 'lane', display_name: 'Lane', data_type: 'enum', default_value: null },
    },
  });
  await inject('POST', `/v2/custom_field_definitions/${definition.data.id}/options`, auth, {
    data: { type: 'custom_field_option', attributes: { label: 'Asia–Europe', value: 'asia_europe' } },
  });
  await inject('POST', `/v2/shipments/${shipmentId}/custom_fields`, auth, {
    data: { type: 'custom_field', attributes: { api_slug: 'lane', value: 'asia_europe' } },
  });

  // Users: one signs up, confirms the mailed link, signs in and invites a member; another has not confirmed yet.
  const signUp = (email: string) => inject('POST', '/auth/signup', {}, { email, password: PASSWORD, company_name: `Company of ${email}` });
  await signUp('owner@example.com');
  const link = /\/verify\/([\w.-]+)/.exec(mail.received.find((m) => m.to.includes('owner@example.com'))!.body)![1]!;
  await inject('POST', `/auth/verification/${link}`, {});
  const signedIn = await t.app.inject({
    method: 'POST',
    url: '/auth/signin',
    remoteAddress: '198.51.100.7',
    payload: { email: 'owner@example.com', password: PASSWORD },
  });
  const cookie = [signedIn.headers['set-cookie']].flat()[0]!.split(';')[0]!;
  await inject('POST', '/auth/invites', { cookie, 'x-csrf-token': signedIn.json().csrf_token }, { email: 'member@example.com' });
  await signUp('later@example.com');
  await inject(
    'POST',
    '/oauth/register',
    {},
    {
      client_name: 'Copied client',
      redirect_uris: ['https://app.example.com/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    },
  );

  const answers = new Map<string, unknown>();
  for (const path of pathsToCompare(shipmentId, containers[0]!.id)) answers.set(path, normalized(await inject('GET', path, auth), t.url!));
  answers.set(
    '/admin/accounts',
    normalized(await inject('GET', '/admin/accounts', { authorization: `Bearer ${first!.adminToken}` }), t.url!),
  );
  const notifications = await db.query<{ id: string }>(
    "SELECT id FROM webhook_notifications WHERE delivery_status = 'pending' ORDER BY id",
  );
  return {
    auth,
    admin: { authorization: `Bearer ${first!.adminToken}` },
    webhookSecret: hook.data.attributes.secret,
    pendingNotifications: notifications.map((n) => n.id),
    pendingRequest: pending.data.id,
    waitingRefresh: containers[1]!.id,
    answers,
  };
}

async function countRows(db: { query: PgliteDb['query'] }, tables: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const t of tables) counts.set(t, (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${t}"`))[0]!.n);
  return counts;
}

describe.skipIf(!ON_SERVER)('tidemark db copy: a PGlite data directory to the PostgreSQL server (needs TEST_DATABASE_URL)', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tidemark-db-copy-'));
    dataDir = join(dir, 'data');
    [receiver, mail] = await Promise.all([startReceiver(), mailCatcher()]);
    const sourceKey = randomBytes(32).toString('base64');
    const db = await PgliteDb.open(dataDir, 'the test filling it');
    await migrate(db);
    const t = await testApp({
      database: { db, url: null, drop: async () => {} },
      sandbox: true,
      queue: true,
      listen: true,
      env: { ...SHARED, TIDEMARK_SECRET_KEY: sourceKey, TIDEMARK_SMTP_URL: mail.url },
    });
    try {
      await admin(`CREATE DATABASE "${targetName}"`);
      // Refused at once while the test holds the directory: run beside the filling.
      const locked = tidemark(['db', 'copy', '--data-dir', dataDir, '--to', targetUrl]);
      const filled = await populate(t, db);
      const whileLocked = await locked;
      const counts = await countRows(
        db,
        (await readSchema(db)).tables.map((table) => table.name),
      );
      source = { ...filled, counts, whileLocked };
    } finally {
      await t.close();
      await db.close();
    }
    // As a PGlite start without TIDEMARK_SECRET_KEY leaves it: the key that sealed the secrets, in the directory.
    writeFileSync(join(dataDir, 'secret-key'), `${sourceKey}\n`, { mode: 0o600 });
  }, 120_000);

  afterAll(async () => {
    for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) await s.stop('SIGKILL');
    if (ON_SERVER) await admin(`DROP DATABASE IF EXISTS "${targetName}" WITH (FORCE)`);
    await receiver?.close();
    await mail?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the source holds a row in every table of our schema (a new table needs its data here)', () => {
    const empty = [...source.counts].filter(([, n]) => n === 0).map(([table]) => table);
    expect(empty).toEqual([]);
    expect(source.pendingNotifications.length).toBeGreaterThan(0);
  });

  it('refuses while a process holds the data directory', () => {
    expect(source.whileLocked.code).toBe(3);
    expect(source.whileLocked.stderr).toMatch(/The data directory .* is in use by another Tidemark process \(pid \d+, the test filling it/);
  });

  it('copies every table, checked, and says how to switch; a second copy into the same database is refused; the key to set is exported', {
    timeout: 60_000,
  }, async () => {
    const copy = await tidemark(['db', 'copy', '--data-dir', dataDir, '--to', targetUrl]);
    expect(copy.code, copy.stderr).toBe(0);
    const rows = [...source.counts.values()].reduce((a, b) => a + b, 0);
    expect(copy.stdout).toContain(`Copied ${source.counts.size} tables (${rows} rows) from ${dataDir} to ${targetUrl}`);
    expect(copy.stdout).toContain("Checked: every table's row count and checksum are the same on both sides.");
    for (const [table, n] of source.counts) expect(copy.stdout).toMatch(new RegExp(`^  ${table} +${n}$`, 'm'));
    expect(copy.stdout).toContain(`Set DATABASE_URL=${targetUrl}`);
    expect(copy.stdout).toContain(`tidemark secret-key export --data-dir ${dataDir}`);
    expect(copy.stdout).toMatch(/1 on-demand refresh \(a job queued for each\)/);

    const target = new PgDb(targetUrl, { max: 1 });
    try {
      expect(await countRows(target, [...source.counts.keys()])).toEqual(source.counts);
      // The job queue's own tables were not copied: its schema holds the one job the waiting refresh needs.
      const jobs = await target.query<{ name: string }>("SELECT name FROM pgboss.job WHERE state = 'created'");
      expect(jobs.map((j) => j.name)).toEqual(['tracking.refresh']);
    } finally {
      await target.close();
    }

    // Both open the data directory: one after the other.
    const again = await tidemark(['db', 'copy', '--data-dir', dataDir, '--to', targetUrl]);
    const exported = await tidemark(['secret-key', 'export', '--data-dir', dataDir]);
    expect(exported.code, exported.stderr).toBe(0);
    targetKey = exported.stdout.trim();
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/The target database is not empty: .*accounts \(\d+ rows\)/);
  });

  it('the target serves the same answers, and a worker there does the waiting work', { timeout: 120_000 }, async () => {
    const env = { ...SHARED, DATABASE_URL: targetUrl, TIDEMARK_SECRET_KEY: targetKey };
    const api = await startServer(['--roles', 'api'], env);
    servers.push(api);
    expect(api.apiKey).toBeNull(); // not a first start: the copied one counts
    for (const [path, body] of source.answers) {
      const res = await callServer(api, path === '/admin/accounts' ? source.admin : source.auth, 'GET', path);
      expect(res.status, path).toBe(200);
      expect(normalized(res.body, api.url!), path).toEqual(body);
    }

    receiver.respond = () => ({ status: 200 });
    const before = receiver.received.length;
    const worker = await startServer(['--roles', 'worker'], { ...env, TIDEMARK_SANDBOX_URL: api.url! });
    servers.push(worker);
    const delivered = () => new Set(receiver.received.slice(before).map((r) => r.json.data.id));
    await until('the waiting notifications delivered', 60_000, () => source.pendingNotifications.every((id) => delivered().has(id)));
    const late = receiver.received.slice(before).filter((r) => source.pendingNotifications.includes(r.json.data.id));
    // Once each, signed with the secret the source sealed: it opens on the target.
    expect(late).toHaveLength(source.pendingNotifications.length);
    for (const r of late) {
      expect(r.headers['x-tidemark-webhook-signature']).toBe(
        createHmac('sha256', source.webhookSecret).update(r.body, 'utf8').digest('hex'),
      );
    }
    // The request whose attempt was queued in the source is attempted by the target's sweep.
    await until('the queued tracking request attempted', 60_000, async () => {
      const res = await callServer(api, source.auth, 'GET', `/v2/tracking_requests/${source.pendingRequest}`);
      return (res.body.data as { attributes: { status: string } }).attributes.status !== 'pending';
    });
    // The waiting on-demand refresh is served by the job the copy queued.
    const target = new PgDb(targetUrl, { max: 1 });
    try {
      await until('the waiting refresh served', 60_000, async () => (await target.query('SELECT 1 FROM container_refreshes')).length === 0);
    } finally {
      await target.close();
    }
  });
});
