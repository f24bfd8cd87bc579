// The documented production topology (docs/operations.md, "Deploying with containers") run as plain processes on
// CI's PostgreSQL server: every tidemark service of compose.yaml, with compose.yaml's own command and environment,
// interpolated from a test operator's .env (the mail catcher as SMTP server) — only DATABASE_URL, the listen
// address and the ports are the test's, since no container network exists here. The one-shot migrate runs first,
// on an empty database, then the two API processes and the two workers start together, as Compose starts them.
//
// The sandbox is off in the deployment, so the carrier is reached over HTTP like a real one: one more `tidemark
// start --roles sandbox` process on a PGlite data directory of its own plays the carrier, and the deployment's
// TIDEMARK_CARRIER_MAEU_URL points at its DCSA face (an operator adds carrier endpoints to the shared environment
// the same way). In front of the API processes runs the real TLS proxy: `caddy run` (Debian's package) on a
// Caddyfile derived from deploy/Caddyfile (test/deploy/caddy.ts: the same site block and reverse_proxy options,
// only the upstreams and a test's global options block differ), on a loopback HTTPS port, its certificate from
// Caddy's local CA; compose's TIDEMARK_DOMAIN is that address, so TIDEMARK_PUBLIC_URL is the proxy's https address,
// and TIDEMARK_TRUSTED_PROXIES names the proxy's loopback address as compose names its edge address. Every client
// call goes through the proxy over HTTPS, trusting Caddy's local root and nothing else, from another loopback
// address (127.0.0.2), so that the client's address can be told from the proxy's. Then: a sign-up confirmed by
// mail, the client's own address recorded at sign-in (X-Forwarded-For from the trusted proxy, a spoofed one
// ignored), an account and key made through the admin API, a number tracked, a webhook registered, the workers
// track it and deliver the notification (signed), the shipment read; the proxy's requests reach both API
// processes (their X-Request-Ids in both logs), and with api-1 stopped it keeps answering through api-2. The
// image's health check runs against an API process, and every process stops on SIGTERM, each exiting 0 within its
// stop timeout. Needs TEST_DATABASE_URL and `caddy` on the PATH (skipped without it; under TIDEMARK_REQUIRE_CADDY=1,
// as in CI, failed); compose.yaml's shape itself is checked by test/deploy/static.test.ts.
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FEATURES } from '../../src/domain/account.js';
import { EVENT_NAMES } from '../../src/domain/event-catalogue.js';
import { parseDuration } from '../../src/lib/durations.js';
import { SANDBOX_EXAMPLES } from '../../src/sandbox/world/scenarios.js';
import {
  type Answer,
  adaptCaddyfile,
  CADDYFILE,
  type Caddy,
  caddyOrSkip,
  httpsClient,
  reverseProxies,
  startCaddy,
  testCaddyfile,
  writeFile,
} from '../deploy/caddy.js';
import { commandOf, environmentOf, interpolateAll, networksOf, parseCompose, ROOT, tidemarkServices } from '../deploy/compose.js';
import { runProcess, type Server, startServer, tidemark } from '../kit/cli.js';
import { onServer, serverUrl } from '../kit/databases.js';
import { type MailCatcher, mailCatcher } from '../kit/mail.js';
import { type Receiver, startReceiver } from '../kit/receiver.js';
import { until } from '../kit/wait.js';

/** A number whose tracking request ends `created` at the carrier's first answer. */
const TRACKED = SANDBOX_EXAMPLES.find((e) => e.scenario === 'succeeded')!;
const ADMIN_TOKEN = `tma_${randomBytes(24).toString('hex')}`;
const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };
/** The address Caddy connects to the API processes from (it dials their loopback addresses). */
const PROXY_ADDRESS = '127.0.0.1';
/** The client's address: another loopback address, so that Tidemark's idea of the client can be told from the proxy. */
const CLIENT_ADDRESS = '127.0.0.2';
/** What a client claims in its own X-Forwarded-For: the proxy must not pass it on as the client's address. */
const SPOOFED_ADDRESS = '203.0.113.7';
const EMAIL = 'dispatch@harbor.example';
const PASSWORD = 'a long enough password';

type Json = Record<string, unknown>;

/** A free TCP port on loopback (for the proxy: Caddy cannot be asked for port 0 and tell which it got). */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}

/**
 * Needs TEST_DATABASE_URL (skipped on the PGlite pass), then `caddy` on the PATH: only on the PostgreSQL pass is it
 * asked for (and required, under TIDEMARK_REQUIRE_CADDY=1).
 */
const caddyGate = onServer() ? caddyOrSkip() : { skip: true };

describe.skipIf(caddyGate.skip)('the compose topology as processes behind Caddy: migrate, two API processes, two workers', () => {
  const database = `${inject('serverTemplate')}__topology_${process.pid}`;
  let carrierData: string;
  let proxyDir: string;
  let proxyPort: number;
  let proxy: Caddy;
  let client: ReturnType<typeof httpsClient>;
  /** The X-Request-Id of every answer that came through the proxy. */
  const proxiedIds: string[] = [];
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

  /** Rows read from the deployment's database. */
  const rows = async <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) => {
    const c = new pg.Client({ connectionString: serverUrl(database) });
    await c.connect();
    try {
      return (await c.query<T>(sql, values)).rows;
    } finally {
      await c.end();
    }
  };
  /** One number read from the deployment's database. */
  const count = async (sql: string) => (await rows<{ n: number }>(sql))[0]!.n;

  /** One JSON call through the proxy, over HTTPS, from the client's address; its request id is kept. */
  const viaProxy = async (headers: Record<string, string>, method: string, path: string, body?: unknown): Promise<Answer> => {
    const answer = await client.call(proxy.url, headers, method, path, body);
    const id = answer.headers['x-request-id'];
    expect(typeof id, `${method} ${path} answered without an X-Request-Id`).toBe('string');
    proxiedIds.push(id as string);
    return answer;
  };
  /** The API processes whose log names a request id. */
  const servedBy = (id: string) => [...running].filter(([name, s]) => name.startsWith('api-') && s.output().includes(id)).map(([n]) => n);
  /** Which API process served each of `ids`, once every one of them is in a log (a process logs a request as it ends). */
  const whoServed = async (ids: string[]) => {
    await until(
      () => `every proxied request in an API process's log (missing: ${ids.filter((id) => servedBy(id).length === 0).join(', ')})`,
      5_000,
      () => ids.every((id) => servedBy(id).length > 0),
      50,
    );
    return ids.map(servedBy);
  };

  beforeAll(async () => {
    // An empty database, as a new PostgreSQL server's: the migrate service applies every migration. Named after
    // the run's template, so that .ci/run drops it even if this file is killed.
    await admin(`CREATE DATABASE "${database}"`);
    [smtp, receiver] = await Promise.all([mailCatcher(), startReceiver()]);
    carrierData = mkdtempSync(join(tmpdir(), 'tidemark-carrier-'));
    proxyDir = mkdtempSync(join(tmpdir(), 'tidemark-proxy-'));
    proxyPort = await freePort();
    carrier = await startServer(['--roles', 'sandbox'], { TIDEMARK_DATA_DIR: carrierData, TIDEMARK_LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    for (const s of [...running.values(), carrier, proxy]) s?.child.kill('SIGKILL');
    await Promise.all([smtp?.close(), receiver?.close()]);
    await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    if (carrierData) rmSync(carrierData, { recursive: true, force: true });
    if (proxyDir) rmSync(proxyDir, { recursive: true, force: true });
  });

  it('runs compose.yaml’s services: migrate to completion, then both API processes and both workers, then the proxy', {
    timeout: 120_000,
  }, async () => {
    // The operator's .env, with test values; the SMTP server is the mail catcher. The name the proxy answers for is
    // its loopback address and port (compose makes TIDEMARK_PUBLIC_URL https://<it>, and gives it to Caddy).
    const proxyAddress = `${PROXY_ADDRESS}:${proxyPort}`;
    const operatorEnv = {
      TIDEMARK_DOMAIN: proxyAddress,
      POSTGRES_PASSWORD: 'unused-here',
      TIDEMARK_SECRET_KEY: randomBytes(32).toString('base64'),
      TIDEMARK_ADMIN_TOKEN: ADMIN_TOKEN,
      TIDEMARK_SMTP_URL: smtp.url,
    };
    const compose = interpolateAll(parseCompose(), operatorEnv);
    const services = tidemarkServices(compose);
    const proxyService = compose.services.proxy!;
    // The proxy's fixed address on the edge network, which TIDEMARK_TRUSTED_PROXIES names: here, its loopback one.
    const edgeAddress = Object.values(networksOf(proxyService))[0]?.ipv4_address;
    const environment = (env: Record<string, string>) => ({
      ...env,
      // What a container network gives and a CI machine cannot: the test's database, loopback, a free port.
      DATABASE_URL: serverUrl(database),
      TIDEMARK_HOST: '127.0.0.1',
      PORT: '0',
      TIDEMARK_TRUSTED_PROXIES:
        env.TIDEMARK_TRUSTED_PROXIES === edgeAddress ? PROXY_ADDRESS : `not the proxy's: ${env.TIDEMARK_TRUSTED_PROXIES}`,
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
    for (const [, s] of long) expect(environmentOf(s).TIDEMARK_PUBLIC_URL).toBe(`https://${proxyAddress}`);
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

    // The proxy: deploy/Caddyfile with compose's upstreams (`<service>:<PORT>`) swapped for the processes' addresses.
    const upstreams = Object.fromEntries(
      long
        .filter(([name]) => running.get(name)!.url)
        .map(([name, s]) => [`${name}:${environmentOf(s).PORT}`, new URL(running.get(name)!.url!).host]),
    );
    const source = readFileSync(CADDYFILE, 'utf8');
    const caddyfile = writeFile(proxyDir, 'Caddyfile', testCaddyfile(source, upstreams));
    // Both adapt (Caddy's own parser): the derived file proxies exactly as deploy/Caddyfile does, to other upstreams,
    // with no admin endpoint and one listener, on loopback.
    const caddyEnv = { TIDEMARK_DOMAIN: environmentOf(proxyService).TIDEMARK_DOMAIN! };
    expect(caddyEnv.TIDEMARK_DOMAIN).toBe(proxyAddress);
    const [deployed, derived] = await Promise.all([adaptCaddyfile(CADDYFILE, caddyEnv), adaptCaddyfile(caddyfile, caddyEnv)]);
    const withoutUpstreams = (h: Record<string, unknown>) => ({ ...h, upstreams: undefined });
    expect(reverseProxies(deployed)).toHaveLength(1);
    expect(reverseProxies(derived).map(withoutUpstreams)).toEqual(reverseProxies(deployed).map(withoutUpstreams));
    expect(reverseProxies(derived)[0]!.upstreams).toEqual(Object.values(upstreams).map((dial) => ({ dial })));
    expect(derived.admin?.disabled).toBe(true);
    expect(Object.values(derived.apps.http.servers).flatMap((s) => s.listen)).toEqual([proxyAddress]);
    proxy = await startCaddy({ caddyfile, address: proxyAddress, dir: proxyDir, probePath: '/readyz' });
    client = httpsClient(proxy.rootCertificate, CLIENT_ADDRESS);
    // Only Caddy's local root is trusted: the same call without it is refused by the client.
    await expect(httpsClient(undefined, CLIENT_ADDRESS).call(proxy.url, {}, 'GET', '/readyz')).rejects.toThrow();
  });

  it('serves one deployment through the proxy, over both API processes: sign-up by mail, tracking, a delivered webhook', {
    timeout: 60_000,
  }, async () => {
    const api1 = running.get('api-1')!;

    // The image's HEALTHCHECK command (test/deploy/static.test.ts pins it) against an API process: ready.
    const port = new URL(api1.url!).port;
    const health = await runProcess(['deploy/healthcheck.mjs'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, PORT: port, TIDEMARK_HOST: '0.0.0.0' },
    });
    expect(health.code, health.stderr).toBe(0);
    // The sandbox is off: no simulated world, no unauthenticated faces.
    expect((await viaProxy({}, 'GET', '/sandbox/clock')).status).toBe(404);
    expect(
      (await viaProxy({}, 'GET', `/sandbox/carriers/MAEU/v2/events?transportDocumentReference=${TRACKED.request_number}`)).status,
    ).toBe(404);

    // Real SMTP: a self-serve sign-up must confirm its address by the mailed link, whose address is the public URL,
    // the proxy's.
    const signup = await viaProxy({}, 'POST', '/auth/signup', { email: EMAIL, password: PASSWORD, company_name: 'Harbor Freight' });
    expect(signup.status, JSON.stringify(signup.body)).toBe(201);
    expect(signup.body).toMatchObject({ verification_required: true, emailed: true });
    const mail = await until('the confirmation e-mail', 10_000, () => smtp.received.find((m) => m.to.includes(EMAIL)));
    const link = new RegExp(`${proxy.url.replaceAll('.', '\\.')}/verify/([\\w.-]+)`).exec(mail.body);
    expect(link?.[1], mail.body).toBeTruthy();
    expect((await viaProxy({}, 'POST', '/auth/signin', { email: EMAIL, password: PASSWORD })).status).toBe(403);
    expect((await viaProxy({}, 'POST', `/auth/verification/${link![1]}`)).status).toBe(200);
    // Signed in with a forged X-Forwarded-For: the proxy replaces it with the client's address, and the API
    // believes the proxy's, so the sign-in is recorded from the client's own address, neither the proxy's nor the
    // forged one.
    const signedIn = await viaProxy({ 'x-forwarded-for': SPOOFED_ADDRESS }, 'POST', '/auth/signin', { email: EMAIL, password: PASSWORD });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    const addresses = await rows<{ address: string }>(
      'SELECT a.address FROM user_sign_in_addresses a JOIN users u ON u.id = a.user_id WHERE u.email = $1',
      [EMAIL],
    );
    expect(addresses.map((r) => r.address)).toEqual([CLIENT_ADDRESS]);

    // The operator's admin API (the token from the operator's .env): an account and its key.
    const made = await viaProxy(ADMIN, 'POST', '/admin/accounts', { name: 'harbor', plan: 'unlimited', features: [...FEATURES] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const key = await viaProxy(ADMIN, 'POST', '/admin/accounts/harbor/keys', {});
    expect(key.status).toBe(201);
    const auth = { authorization: `Token ${(key.body.data as Json).key as string}` };
    // The first start's key works too.
    expect((await viaProxy({ authorization: `Token ${apiKey}` }, 'GET', '/v2/shipments')).status).toBe(200);

    // A webhook, then a tracking request.
    const hook = await viaProxy(auth, 'POST', '/v2/webhooks', {
      data: { type: 'webhook', attributes: { url: receiver.url, events: [...EVENT_NAMES] } },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const secret = (hook.body.data as { attributes: { secret: string } }).attributes.secret;
    const tracked = await viaProxy(auth, 'POST', '/v2/tracking_requests', {
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

    // The shipment, read through the proxy.
    const request = await viaProxy(auth, 'GET', `/v2/tracking_requests/${requestId}`);
    expect(request.status).toBe(200);
    const data = request.body.data as {
      attributes: { status: string };
      relationships: { tracked_object: { data: { id: string; type: string } } };
    };
    expect(data.attributes.status).toBe('created');
    expect(data.relationships.tracked_object.data.type).toBe('shipment');
    const shipment = await viaProxy(auth, 'GET', `/v2/shipments/${data.relationships.tracked_object.data.id}`);
    expect(shipment.status).toBe(200);
    const read = shipment.body.data as { attributes: Json; relationships: { containers: { data: unknown[] } } };
    expect(read.attributes.bill_of_lading_number).toBe(TRACKED.request_number);
    expect(read.relationships.containers.data.length).toBeGreaterThan(0);

    // The proxy balanced: each answer's request id is in the log of exactly one API process, and both served some.
    const served = await whoServed(proxiedIds);
    expect(served.filter((by) => by.length !== 1)).toEqual([]);
    expect([...new Set(served.flat())].sort()).toEqual(['api-1', 'api-2']);
  });

  it('keeps answering through api-2 once api-1 stopped; then stops every process on SIGTERM: each exits 0 within its stop timeout', {
    timeout: 30_000,
  }, async () => {
    const api1Port = new URL(running.get('api-1')!.url!).port;
    const stop = async ([name, server]: [string, Server]) => {
      const began = Date.now();
      const code = await server.stop('SIGTERM');
      return { name, code, inTime: Date.now() - began < stopTimeouts.get(name)! };
    };
    // api-1 first: the proxy keeps answering, every request on api-2 (a refused connection is tried on the other
    // process within lb_try_duration, and the active /readyz check leaves api-1 out).
    const first = await stop(['api-1', running.get('api-1')!]);
    const after = proxiedIds.length;
    for (let i = 0; i < 4; i++) expect((await viaProxy({ authorization: `Token ${apiKey}` }, 'GET', '/v2/shipments')).status).toBe(200);
    expect(await whoServed(proxiedIds.slice(after))).toEqual([['api-2'], ['api-2'], ['api-2'], ['api-2']]);

    const rest = await Promise.all([...running].filter(([name]) => name !== 'api-1').map(stop));
    expect([first, ...rest]).toEqual([...running.keys()].map((name) => ({ name, code: 0, inTime: true })));
    expect(await carrier.stop('SIGTERM')).toBe(0);
    expect(await proxy.stop('SIGTERM')).toBe(0);
    // Stopped, the API process fails the image's health check.
    const health = await runProcess(['deploy/healthcheck.mjs'], { cwd: ROOT, env: { PATH: process.env.PATH, PORT: api1Port } });
    expect(health.code).toBe(1);
  });
});
