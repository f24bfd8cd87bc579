// WebhookService built by hand on a real test database: the create-time SSRF check with an injected resolver
// (no DNS query leaves the machine, no request is sent anywhere), secrets sealed at rest with the installation's
// key, the rotation's grace period, and the egress addresses' `last_updated`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../test/kit/databases.js';
import type { Feature } from '../domain/account.js';
import { FixedClock } from '../domain/clock.js';
import { TidemarkError } from '../domain/errors.js';
import { newSecretKey, parseSecretKey, unseal } from '../lib/sealed.js';
import { findWebhook } from '../storage/repositories/webhooks.js';
import type { Resolver } from '../webhooks/ssrf.js';
import type { DeliveryRequest, DeliveryResult } from '../webhooks/transport.js';
import { AccountService } from './accounts.js';
import { SecretKeyring } from './keyring.js';
import { ROTATION_GRACE_MS, WebhookService } from './webhooks.js';

const START = '2026-03-01T12:00:00.500Z';
const EVENTS = ['container.transport.vessel_arrived'];

let database: TestDatabase;
let clock: FixedClock;

beforeAll(async () => {
  database = await freshDatabase();
  clock = new FixedClock(START);
});
afterAll(() => database?.drop());

/** A fake DNS: the addresses of each name; any other name does not resolve (ENOTFOUND). Records every question. */
function fakeDns(zone: Record<string, string[]>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    const addresses = zone[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses;
  };
  return Object.assign(resolve, { asked });
}

/** A transport that sends nothing: it records each request and answers 204. */
function recordingTransport() {
  const sent: DeliveryRequest[] = [];
  return {
    sent,
    async post(req: DeliveryRequest): Promise<DeliveryResult> {
      sent.push(req);
      return {
        succeeded: true,
        statusCode: 204,
        responseHeaders: {},
        responseBody: '',
        error: null,
        startedAt: clock.now(),
        durationMs: 1,
        retryAfterSeconds: null,
      };
    },
  };
}

/** The installation's key in these tests (TIDEMARK_SECRET_KEY); services/keyring.test.ts covers where it lives. */
const TEST_KEY = parseSecretKey(newSecretKey());

function service(
  o: {
    allowPrivate?: boolean;
    resolver?: Resolver;
    key?: Buffer | null;
    egressIps?: string[];
    transport?: ReturnType<typeof recordingTransport>;
  } = {},
) {
  return new WebhookService({
    db: database.db,
    wall: clock,
    keyring: new SecretKeyring({ db: database.db, configured: o.key ?? TEST_KEY, keyFile: null }),
    allowPrivate: o.allowPrivate ?? false,
    ...(o.resolver ? { resolver: o.resolver } : {}),
    transport: o.transport ?? recordingTransport(),
    publicUrl: 'http://tidemark.test',
    delivery: { timeoutMs: 1000, userAgent: 'Tidemark-Webhooks/test', referenceHeader: false },
    egressIps: o.egressIps ?? [],
  });
}

let accounts = 0;
async function account(features: Feature[] = []) {
  return new AccountService(clock).create(database.db, { name: `svc-${process.pid}-${accounts++}`, plan: 'unlimited', features });
}

const webhookCount = async (accountId: string) =>
  (await database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks WHERE account_id = $1', [accountId]))[0]!.n;

/** The 422 items of a refused call (fails when the call succeeded or failed otherwise). */
async function refusal(p: Promise<unknown>): Promise<{ pointer?: string; detail?: string | null; code?: string }[]> {
  const err = await p.then(
    (v) => {
      throw new Error(`expected a validation failure, got ${JSON.stringify(v)}`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TidemarkError);
  expect((err as TidemarkError).code).toBe('validation_failed');
  return (err as TidemarkError).items;
}

describe('the create-time SSRF check (injected resolver)', () => {
  const dns = () =>
    fakeDns({
      'hooks.internal.example': ['10.0.0.7'],
      'mixed.example': ['93.184.216.34', '127.0.0.1'],
      'mapped.example': ['::ffff:10.0.0.7'],
      'metadata.example': ['169.254.169.254'],
      'metadata6.example': ['fd00:ec2::254'],
      'public.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    });

  it('refuses a hostname that resolves to 10.0.0.7, naming the address; nothing is written', async () => {
    const resolver = dns();
    const a = await account();
    const items = await refusal(service({ resolver }).create(a, { url: 'https://hooks.internal.example/in', events: EVENTS }));
    expect(items).toEqual([
      expect.objectContaining({ pointer: '/data/attributes/url', code: 'invalid', detail: expect.stringContaining('10.0.0.7') }),
    ]);
    expect(resolver.asked).toEqual(['hooks.internal.example']);
    expect(await webhookCount(a.id)).toBe(0);
  });

  it.each([
    ['mixed.example', '127.0.0.1'],
    ['mapped.example', '::ffff:10.0.0.7'],
    ['metadata.example', '169.254.169.254'],
    ['metadata6.example', 'fd00:ec2::254'],
  ])('refuses %s (one forbidden address among its answers: %s)', async (host, address) => {
    const a = await account();
    const items = await refusal(service({ resolver: dns() }).create(a, { url: `https://${host}/hooks`, events: EVENTS }));
    expect(items).toEqual([expect.objectContaining({ pointer: '/data/attributes/url', detail: expect.stringContaining(address) })]);
    expect(await webhookCount(a.id)).toBe(0);
  });

  it('accepts a hostname whose every address is public', async () => {
    const resolver = dns();
    const a = await account();
    const hook = await service({ resolver }).create(a, { url: 'https://public.example/hooks', events: EVENTS });
    expect(hook).toMatchObject({ url: 'https://public.example/hooks', active: true, events: EVENTS });
    expect(resolver.asked).toEqual(['public.example']);
  });

  it('accepts an unresolvable hostname at create time (its DNS may not exist yet)', async () => {
    const resolver = dns();
    const a = await account();
    const hook = await service({ resolver }).create(a, { url: 'https://not-yet.example/hooks', events: EVENTS });
    expect(resolver.asked).toEqual(['not-yet.example']);
    const row = await findWebhook(database.db, a.id, hook.id);
    expect(row?.url).toBe('https://not-yet.example/hooks');
  });

  it('refuses IP literals and localhost without asking the resolver', async () => {
    const resolver = dns();
    const a = await account();
    for (const url of [
      'https://127.0.0.1/x',
      'https://10.1.2.3/x',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://localhost/x',
      'https://api.localhost/x',
    ]) {
      const items = await refusal(service({ resolver }).create(a, { url, events: EVENTS }));
      expect(items, url).toEqual([expect.objectContaining({ pointer: '/data/attributes/url', code: 'invalid' })]);
    }
    expect(resolver.asked).toEqual([]);
    expect(await webhookCount(a.id)).toBe(0);
  });

  it('checks a new URL on PATCH the same way, and leaves the webhook as it was', async () => {
    const a = await account();
    const svc = service({ resolver: dns() });
    const hook = await svc.create(a, { url: 'https://public.example/hooks', events: EVENTS });
    const items = await refusal(svc.update(a, hook.id, { url: 'https://hooks.internal.example/in' }));
    expect(items).toEqual([expect.objectContaining({ pointer: '/data/attributes/url', detail: expect.stringContaining('10.0.0.7') })]);
    expect((await findWebhook(database.db, a.id, hook.id))?.url).toBe('https://public.example/hooks');
  });

  it('refuses a trigger to a hostname resolving to a private address, and sends nothing', async () => {
    const transport = recordingTransport();
    const a = await account();
    const items = await refusal(
      service({ resolver: dns(), transport }).trigger(a, {
        url: 'https://hooks.internal.example/in',
        event: 'container.transport.vessel_arrived',
        secret: null,
      }),
    );
    expect(items).toEqual([expect.objectContaining({ pointer: '/url', detail: expect.stringContaining('10.0.0.7') })]);
    expect(transport.sent).toEqual([]);
  });

  it('with allowPrivate: http and loopback or private targets are accepted (development and tests)', async () => {
    const resolver = dns();
    const a = await account();
    const svc = service({ allowPrivate: true, resolver });
    for (const url of [
      'http://127.0.0.1:8080/hooks',
      'https://10.1.2.3/x',
      'http://hooks.internal.example/in',
      'http://localhost:3000/x',
    ]) {
      const hook = await svc.create(a, { url, events: EVENTS });
      expect(hook.url).toBe(url);
    }
    expect(await webhookCount(a.id)).toBe(4);
    // Still not: another scheme, or credentials in the URL.
    for (const url of ['ftp://127.0.0.1/x', 'http://user:pass@127.0.0.1/x']) {
      const items = await refusal(svc.create(a, { url, events: EVENTS }));
      expect(items, url).toEqual([expect.objectContaining({ pointer: '/data/attributes/url' })]);
    }
  });
});

describe('secrets at rest', () => {
  // Where the key lives without TIDEMARK_SECRET_KEY (never in the database): src/services/keyring.test.ts.
  it('with a configured key: secrets are sealed with it, and another key cannot open them', async () => {
    const keyText = newSecretKey();
    const key = parseSecretKey(keyText);
    const a = await account();
    const hook = await service({ key }).create(a, {
      url: 'https://93.184.216.34/hooks',
      events: EVENTS,
      secret: 'legacy-reference-secret-1234',
    });
    expect(hook.secret).toBe('legacy-reference-secret-1234');
    const row = (await findWebhook(database.db, a.id, hook.id))!;
    expect(row.secret_sealed).not.toContain('legacy-reference-secret-1234');
    expect(unseal(key, row.secret_sealed)).toBe('legacy-reference-secret-1234');
    await expect(service({ key: parseSecretKey(newSecretKey()) }).get(a.id, hook.id)).rejects.toThrow(/sealed value could not be opened/);
  });

  it('refuses a kept secret shorter than 16 characters', async () => {
    const a = await account();
    const items = await refusal(service().create(a, { url: 'https://93.184.216.34/hooks', events: EVENTS, secret: 'short' }));
    expect(items).toEqual([expect.objectContaining({ pointer: '/data/attributes/secret', code: 'too_short' })]);
    expect(await webhookCount(a.id)).toBe(0);
  });
});

describe('signingSecrets after a rotation', () => {
  it('gives the new secret first and the old one until the grace period ends, then the new one alone', async () => {
    const a = await account();
    const svc = service();
    const hook = await svc.create(a, { url: 'https://93.184.216.34/hooks', events: EVENTS });
    const before = (await findWebhook(database.db, a.id, hook.id))!;
    expect(await svc.signingSecrets(before, clock.now())).toEqual([hook.secret]);

    const rotatedAt = clock.now().getTime();
    const rotated = await svc.rotateSecret(a.id, hook.id);
    expect(rotated.secret).not.toBe(hook.secret);
    expect(rotated.previous_secret_expires_at?.getTime()).toBe(rotatedAt + ROTATION_GRACE_MS);
    const row = (await findWebhook(database.db, a.id, hook.id))!;
    expect(await svc.signingSecrets(row, new Date(rotatedAt))).toEqual([rotated.secret, hook.secret]);
    expect(await svc.signingSecrets(row, new Date(rotatedAt + ROTATION_GRACE_MS - 1))).toEqual([rotated.secret, hook.secret]);
    expect(await svc.signingSecrets(row, new Date(rotatedAt + ROTATION_GRACE_MS))).toEqual([rotated.secret]);

    // Rotating again within the grace period: the secret just replaced is the one still honoured.
    clock.advance(3600_000);
    const again = await svc.rotateSecret(a.id, hook.id);
    const row2 = (await findWebhook(database.db, a.id, hook.id))!;
    expect(await svc.signingSecrets(row2, clock.now())).toEqual([again.secret, rotated.secret]);
  });
});

describe('egress addresses (GET /v2/webhooks/ips)', () => {
  it('keeps last_updated while the configured list stays the same, and moves it when the list changes', async () => {
    const db = await freshDatabase();
    const clk = new FixedClock('2026-03-01T12:00:00.750Z');
    const make = (egressIps: string[]) =>
      new WebhookService({
        db: db.db,
        wall: clk,
        keyring: new SecretKeyring({ db: db.db, configured: TEST_KEY, keyFile: null }),
        allowPrivate: false,
        transport: recordingTransport(),
        publicUrl: 'http://tidemark.test',
        delivery: { timeoutMs: 1000, userAgent: 'Tidemark-Webhooks/test', referenceHeader: false },
        egressIps,
      });
    try {
      const first = await make(['35.222.62.171', '3.230.67.145']).egressIps();
      expect(first).toEqual({ webhook_notification_ips: ['35.222.62.171', '3.230.67.145'], last_updated: '2026-03-01T12:00:00Z' });
      clk.advance(86_400_000);
      // Again, and from another process with the same list: unchanged.
      expect(await make(['35.222.62.171', '3.230.67.145']).egressIps()).toEqual(first);
      clk.advance(86_400_000);
      const changed = await make(['35.222.62.171', '3.230.67.145', '44.217.15.129']).egressIps();
      expect(changed).toEqual({
        webhook_notification_ips: ['35.222.62.171', '3.230.67.145', '44.217.15.129'],
        last_updated: '2026-03-03T12:00:00Z',
      });
      clk.advance(3600_000);
      expect(await make(['35.222.62.171', '3.230.67.145', '44.217.15.129']).egressIps()).toEqual(changed);
      // Back to an empty list: that is a change too.
      expect(await make([]).egressIps()).toEqual({ webhook_notification_ips: [], last_updated: '2026-03-03T13:00:00Z' });
    } finally {
      await db.drop();
    }
  });
});
