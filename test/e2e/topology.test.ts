// The documented production topology (docs/operations.md, "Deploying with containers") run as plain processes on
// CI's PostgreSQL server: every tidemark service of compose.yaml, with compose.yaml's own command and environment,
// interpolated from a test operator's .env (the mail catcher as SMTP server) — only DATABASE_URL, the listen
// address and the ports are the test's, since no container network exists here. The one-shot migrate runs first,
// on an empty database, then the two API processes and the two workers start together, as Compose starts them.
//
// The sandbox is off in the deployment, so the carrier is reached over HTTP like a real one: one more `tidemark
// start --roles sandbox` process on a PGlite data directory of its own plays the carrier, and the deployment's
// TIDEMARK_CARRIER_MAEU_URL points at its DCSA face (an operator adds carrier endpoints to the shared environment
// the same way). Then: a sign-up confirmed by mail, an account and key made through the admin API, a number tracked
// through api-1, a webhook registered through api-2, the workers track it and deliver the notification (signed),
// the shipment read through api-2, the image's health check run against an API process, and every process stopped
// with SIGTERM, each exiting 0 within its stop timeout. Needs TEST_DATABASE_URL; compose.yaml's shape itself is
// checked by test/deploy/static.test.ts.
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FEATURES } from '../../src/domain/account.js';
import { EVENT_NAMES } from '../../src/domain/event-catalogue.js';
import { parseDuration } from '../../src/lib/durations.js';
import { SANDBOX_EXAMPLES } from '../../src/sandbox/world/scenarios.js';
import { commandOf, environmentOf, interpolateAll, parseCompose, ROOT, tidemarkServices } from '../deploy/compose.js';
import { callServer as call, runProcess, type Server, startServer, tidemark } from '../kit/cli.js';
import { onServer, serverUrl } from '../kit/databases.js';
import { type MailCatcher, mailCatcher } from '../kit/mail.js';
import { type Receiver, startReceiver } from '../kit/receiver.js';
import { until } from '../kit/wait.js';

/** A number whose tracking request ends `created` at the carrier's first answer. */
const TRACKED = SANDBOX_EXAMPLES.find((e) => e.scenario === 'succeeded')!;
const ADMIN_TOKEN = `tma_${randomBytes(24).toString('hex')}`;
const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };
const DOMAIN = 'tidemark.test';
const EMAIL = 'dispatch@harbor.example';
const PASSWORD = 'a long enough password';

type Json = Record<string, unknown>;

describe.skipIf(!onServer())('the compose topology as processes: migrate, two API processes, two workers (needs TEST_DATABASE_URL)', () => {
  const database = `${inject('serverTemplate')}__topology_${process.pid}`;
  let carrierData: string;
  let smtp: MailCatcher;
  let receiver: Receiver;
  let carrier: Server;
  /** The deployment's running services, by their compose names. */
  const running = new Map<string, Server>();
  const stopTimeouts = new Map<string, number>();
  let apiKey: string;

  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: serverUrl('postgres') });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };

  /** One number read from the deployment's database. */
  const count = async (sql: string) => {
    const c = new pg.Client({ connectionString: serverUrl(database) });
    await c.connect();
    try {
      return (await c.query<{ n: number }>(sql)).rows[0]!.n;
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    // An empty database, as a new PostgreSQL server's: the migrate service applies every migration. Named after
    // the run's template, so that .ci/run drops it even if this file is killed.
    await admin(`CREATE DATABASE "${database}"`);
    [smtp, receiver] = await Promise.all([mailCatcher(), startReceiver()]);
    carrierData = mkdtempSync(join(tmpdir(), 'tidemark-carrier-'));
    carrier = await startServer(['--roles', 'sandbox'], { TIDEMARK_DATA_DIR: carrierData, TIDEMARK_LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    for (const s of [...running.values(), carrier]) s?.child.kill('SIGKILL');
    await Promise.all([smtp?.close(), receiver?.close()]);
    await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    if (carrierData) rmSync(carrierData, { recursive: true, force: true });
  });

  it('runs compose.yaml’s services: migrate to completion, then both API processes and both workers', { timeout: 120_000 }, async () => {
    // The operator's .env, with test values; the SMTP server is the mail catcher.
    const operatorEnv = {
      TIDEMARK_DOMAIN: DOMAIN,
      POSTGRES_PASSWORD: 'unused-here',
      TIDEMARK_SECRET_KEY: randomBytes(32).toString('base64'),
      TIDEMARK_ADMIN_TOKEN: ADMIN_TOKEN,
      TIDEMARK_SMTP_URL: smtp.url,
    };
    const compose = interpolateAll(parseCompose(), operatorEnv);
    const services = tidemarkServices(compose);
    const environment = (env: Record<string, string>) => ({
      ...env,
      // What a container network gives and a CI machine cannot: the test's database, loopback, a free port.
      DATABASE_URL: serverUrl(database),
      TIDEMARK_HOST: '127.0.0.1',
      PORT: '0',
      // The operator's carrier endpoint (compose.yaml's comment says where it goes): the carrier process's DCSA
      // Track & Trace face, and its Arrival Notice face.
      TIDEMARK_CARRIER_MAEU_URL: `${carrier.url}/sandbox/carriers/MAEU`,
      TIDEMARK_CARRIER_MAEU_AN_URL: `${carrier.url}/sandbox/carriers/MAEU/v1`,
      // The receiver listens on loopback over plain HTTP, which a deployment refuses.
      TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: 'on',
    });

    // First the service every other one waits for (depends_on: service_completed_successfully).
    const oneShot = services.filter(([, s]) => commandOf(s)?.[0] !== 'start');
    expect(oneShot.map(([n, s]) => `${n}: ${commandOf(s)?.join(' ')}`)).toEqual(['migrate: migrate']);
    const migrated = await tidemark(commandOf(oneShot[0]![1])!, environment(environmentOf(oneShot[0]![1])));
    expect(migrated.code, migrated.stdout + migrated.stderr).toBe(0);
    // Every migration is applied before any other process starts (the command's own output says "up to date"
    // either way: it migrates before its action runs).
    const files = readdirSync(join(ROOT, 'src/storage/migrations')).filter((f) => f.endsWith('.sql'));
    expect(await count('SELECT count(*)::int AS n FROM schema_migrations')).toBe(files.length);

    // Then every `start` service at once.
    const long = services.filter(([, s]) => commandOf(s)?.[0] === 'start');
    expect(long.map(([n]) => n).sort()).toEqual(['api-1', 'api-2', 'worker-1', 'worker-2']);
    const started = await Promise.all(
      long.map(([, s]) => {
        expect(commandOf(s)).toEqual(['start']);
        return startServer([], environment(environmentOf(s)));
      }),
    );
    long.forEach(([name, s], i) => {
      running.set(name, started[i]!);
      stopTimeouts.set(name, parseDuration(environmentOf(s).TIDEMARK_STOP_TIMEOUT ?? '10s'));
    });
    // The roles come from each service's TIDEMARK_ROLES: only the API processes listen.
    expect(
      [...running]
        .filter(([, s]) => s.url)
        .map(([n]) => n)
        .sort(),
    ).toEqual(['api-1', 'api-2']);
    // The first start ran once (the admin token is the operator's, so only the first key is printed).
    const keys = [...running.values()].map((s) => s.apiKey).filter(Boolean);
    expect(keys).toHaveLength(1);
    apiKey = keys[0]!;
    expect([...running.values()].every((s) => s.adminToken === null)).toBe(true);
  });

  it('serves one deployment through either API process: sign-up by mail, tracking, a delivered webhook', { timeout: 60_000 }, async () => {
    const api1 = running.get('api-1')!;
    const api2 = running.get('api-2')!;

    // The image's HEALTHCHECK command (test/deploy/static.test.ts pins it) against an API process: ready.
    const port = new URL(api1.url!).port;
    const health = await runProcess(['deploy/healthcheck.mjs'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, PORT: port, TIDEMARK_HOST: '0.0.0.0' },
    });
    expect(health.code, health.stderr).toBe(0);
    // The sandbox is off: no simulated world, no unauthenticated faces.
    expect((await fetch(`${api1.url}/sandbox/clock`)).status).toBe(404);
    expect((await fetch(`${api2.url}/sandbox/carriers/MAEU/v2/events?transportDocumentReference=${TRACKED.request_number}`)).status).toBe(
      404,
    );

    // Real SMTP: a self-serve sign-up through api-1 must confirm its address by the mailed link, whose address is
    // the public URL; confirmed through api-2, signed in through api-1.
    const signup = await call(api1, {}, 'POST', '/auth/signup', { email: EMAIL, password: PASSWORD, company_name: 'Harbor Freight' });
    expect(signup.status, JSON.stringify(signup.body)).toBe(201);
    expect(signup.body).toMatchObject({ verification_required: true, emailed: true });
    const mail = await until('the confirmation e-mail', 10_000, () => smtp.received.find((m) => m.to.includes(EMAIL)));
    const token = new RegExp(`https://${DOMAIN.replace('.', '\\.')}/verify/([\\w.-]+)`).exec(mail.body)?.[1];
    expect(token, mail.body).toBeTruthy();
    expect((await call(api1, {}, 'POST', '/auth/signin', { email: EMAIL, password: PASSWORD })).status).toBe(403);
    expect((await call(api2, {}, 'POST', `/auth/verification/${token}`)).status).toBe(200);
    const signedIn = await call(api1, {}, 'POST', '/auth/signin', { email: EMAIL, password: PASSWORD });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);

    // The operator's admin API (the token from the operator's .env): an account and its key, through api-2.
    const made = await call(api2, ADMIN, 'POST', '/admin/accounts', { name: 'harbor', plan: 'unlimited', features: [...FEATURES] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const key = await call(api2, ADMIN, 'POST', '/admin/accounts/harbor/keys', {});
    expect(key.status).toBe(201);
    const auth = { authorization: `Token ${(key.body.data as Json).key as string}` };
    // The first start's key works too, on either process.
    expect((await call(api2, { authorization: `Token ${apiKey}` }, 'GET', '/v2/shipments')).status).toBe(200);

    // A webhook through api-2, a tracking request through api-1.
    const hook = await call(api2, auth, 'POST', '/v2/webhooks', {
      data: { type: 'webhook', attributes: { url: receiver.url, events: [...EVENT_NAMES] } },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const secret = (hook.body.data as { attributes: { secret: string } }).attributes.secret;
    const tracked = await call(api1, auth, 'POST', '/v2/tracking_requests', {
      data: {
        type: 'tracking_request',
        attributes: { request_type: TRACKED.request_type, request_number: TRACKED.request_number, scac: TRACKED.scac },
      },
    });
    expect(tracked.status, JSON.stringify(tracked.body)).toBe(201);
    const requestId = (tracked.body.data as Json).id as string;

    // A worker fetches from the carrier over HTTP and a worker delivers the notification to the receiver.
    const delivered = await until(
      () => `tracking_request.succeeded at the receiver (got: ${receiver.received.map((r) => r.json.data.attributes.event).join(', ')})`,
      45_000,
      () => receiver.received.find((r) => r.json.data.attributes.event === 'tracking_request.succeeded'),
      250,
    );
    expect(JSON.stringify(delivered.json)).toContain(requestId);
    for (const r of receiver.received) {
      expect(r.headers['x-tidemark-webhook-signature']).toBe(createHmac('sha256', secret).update(r.body, 'utf8').digest('hex'));
    }
    expect(carrier.output()).toContain(`/sandbox/carriers/MAEU/v2/events?transportDocumentReference=${TRACKED.request_number}`);

    // The shipment, read through the other API process.
    const request = await call(api2, auth, 'GET', `/v2/tracking_requests/${requestId}`);
    expect(request.status).toBe(200);
    const data = request.body.data as {
      attributes: { status: string };
      relationships: { tracked_object: { data: { id: string; type: string } } };
    };
    expect(data.attributes.status).toBe('created');
    expect(data.relationships.tracked_object.data.type).toBe('shipment');
    const shipment = await call(api2, auth, 'GET', `/v2/shipments/${data.relationships.tracked_object.data.id}`);
    expect(shipment.status).toBe(200);
    const read = shipment.body.data as { attributes: Json; relationships: { containers: { data: unknown[] } } };
    expect(read.attributes.bill_of_lading_number).toBe(TRACKED.request_number);
    expect(read.relationships.containers.data.length).toBeGreaterThan(0);
  });

  it('stops every process on SIGTERM: each exits 0 within its stop timeout', { timeout: 30_000 }, async () => {
    const api1Port = new URL(running.get('api-1')!.url!).port;
    const stops = await Promise.all(
      [...running].map(async ([name, server]) => {
        const began = Date.now();
        const code = await server.stop('SIGTERM');
        return { name, code, inTime: Date.now() - began < stopTimeouts.get(name)! };
      }),
    );
    expect(stops).toEqual([...running.keys()].map((name) => ({ name, code: 0, inTime: true })));
    expect(await carrier.stop('SIGTERM')).toBe(0);
    // Stopped, the API process fails the image's health check.
    const health = await runProcess(['deploy/healthcheck.mjs'], { cwd: ROOT, env: { PATH: process.env.PATH, PORT: api1Port } });
    expect(health.code).toBe(1);
  });
});
