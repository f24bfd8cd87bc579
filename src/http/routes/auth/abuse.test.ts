// Sign-up and sign-in against abuse: sign-ups limited per client address and in all, client addresses taken from
// X-Forwarded-For only behind a trusted proxy, and wrong passwords throttled so that an attacker cannot lock the
// owner out. Every app here shares one database (the limits live in it): each test uses its own addresses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../../test/kit/app.js';

const PASSWORD = 'a long enough password';
let n = 0;
const email = () => `abuse${process.pid}-${n++}@example.com`;

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

async function withApp<T>(env: Record<string, string>, run: (app: TestApp) => Promise<T>): Promise<T> {
  const app = await testApp({ database: t.database, clock: t.clock, env });
  try {
    return await run(app);
  } finally {
    await app.app.close();
  }
}

const signUp = (app: TestApp, remoteAddress: string, headers: Record<string, string> = {}, who = email()) =>
  app.app.inject({
    method: 'POST',
    url: '/auth/signup',
    remoteAddress,
    headers,
    payload: { email: who, password: PASSWORD, company_name: 'Acme' },
  });

const signIn = (remoteAddress: string, who: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/auth/signin', remoteAddress, payload: { email: who, password } });

describe('sign-up limits', () => {
  it('limits sign-ups per client address and in all, over a rolling hour, with a JSON:API 429 and Retry-After', async () => {
    await withApp({ TIDEMARK_SIGNUP_LIMIT_PER_ADDRESS: '2', TIDEMARK_SIGNUP_LIMIT_TOTAL: '3' }, async (app) => {
      // An invalid request costs no password hash and does not count.
      const invalid = await app.app.inject({
        method: 'POST',
        url: '/auth/signup',
        remoteAddress: '192.0.2.1',
        payload: { email: 'nope', password: PASSWORD, company_name: 'Acme' },
      });
      expect(invalid.statusCode).toBe(422);
      expect((await signUp(app, '192.0.2.1')).statusCode).toBe(201);
      expect((await signUp(app, '192.0.2.1')).statusCode).toBe(201);
      const refusedEmail = email();
      const perAddress = await signUp(app, '192.0.2.1', {}, refusedEmail);
      expect(perAddress.statusCode).toBe(429);
      expect(perAddress.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
      expect(perAddress.json().errors[0]).toMatchObject({ status: '429', detail: expect.stringMatching(/from your address/) });
      const retry = Number(perAddress.headers['retry-after']);
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(3600 + 300);
      // Nothing was written for the refused one.
      expect(await t.services.db.query('SELECT 1 FROM users WHERE email = $1', [refusedEmail])).toEqual([]);
      // Another address gets its own bucket, until the overall limit.
      expect((await signUp(app, '192.0.2.2')).statusCode).toBe(201);
      const overall = await signUp(app, '192.0.2.3');
      expect(overall.statusCode).toBe(429);
      expect(overall.json().errors[0].detail).toMatch(/on this installation/);
      // The hour rolls on: both limits have room again.
      t.clock.advance(3600_000 + 300_000);
      expect((await signUp(app, '192.0.2.1')).statusCode).toBe(201);
      t.clock.advance(3600_000 + 300_000);
    });
  });

  it('an IPv6 client counts by its /64: fresh addresses of one network share its bucket', async () => {
    await withApp({ TIDEMARK_SIGNUP_LIMIT_PER_ADDRESS: '2' }, async (app) => {
      expect((await signUp(app, '2001:db8:7:1::a')).statusCode).toBe(201);
      expect((await signUp(app, '2001:db8:7:1:ffff::b')).statusCode).toBe(201);
      expect((await signUp(app, '2001:db8:7:1:1234:5678:9abc:def0')).statusCode).toBe(429);
      expect((await signUp(app, '2001:db8:7:2::a')).statusCode).toBe(201);
      t.clock.advance(3600_000 + 300_000);
    });
  });

  it('the defaults (5 an hour per address) hold without any setting', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await signUp(t, '192.0.2.50')).statusCode);
    expect(codes).toEqual([201, 201, 201, 201, 201, 429]);
    t.clock.advance(3600_000 + 300_000);
  });
});

describe('client addresses behind a proxy', () => {
  it('with trusted proxies, X-Forwarded-For names the client; from any other peer it is ignored', async () => {
    await withApp({ TIDEMARK_TRUSTED_PROXIES: '10.0.0.0/8, ::1', TIDEMARK_SIGNUP_LIMIT_PER_ADDRESS: '1' }, async (app) => {
      const viaProxy = (xff: string) => signUp(app, '10.1.2.3', { 'x-forwarded-for': xff });
      // Two users behind the proxy: two buckets.
      expect((await viaProxy('203.0.113.10')).statusCode).toBe(201);
      expect((await viaProxy('203.0.113.11')).statusCode).toBe(201);
      expect((await viaProxy('203.0.113.10')).statusCode).toBe(429);
      // A client cannot choose its address by sending its own X-Forwarded-For through the proxy: the proxy
      // appends the real one, and that is the one believed.
      expect((await viaProxy('198.18.0.1, 203.0.113.12')).statusCode).toBe(201);
      expect((await viaProxy('198.18.0.2, 203.0.113.12')).statusCode).toBe(429);
      // A peer that is not a trusted proxy cannot spoof: its socket address is the client's.
      expect((await signUp(app, '198.51.100.50', { 'x-forwarded-for': '203.0.113.30' })).statusCode).toBe(201);
      expect((await signUp(app, '198.51.100.50', { 'x-forwarded-for': '203.0.113.31' })).statusCode).toBe(429);
    });
    // Without the setting the header is ignored: everyone behind the proxy shares its address.
    await withApp({ TIDEMARK_SIGNUP_LIMIT_PER_ADDRESS: '1' }, async (app) => {
      expect((await signUp(app, '10.9.9.9', { 'x-forwarded-for': '203.0.113.20' })).statusCode).toBe(201);
      expect((await signUp(app, '10.9.9.9', { 'x-forwarded-for': '203.0.113.21' })).statusCode).toBe(429);
    });
    t.clock.advance(3600_000 + 300_000);
  });

  it('sign-in failures are counted per forwarded client, not per proxy', { timeout: 60_000 }, async () => {
    const who = email();
    expect((await signUp(t, '192.0.2.60', {}, who)).statusCode).toBe(201);
    await withApp({ TIDEMARK_TRUSTED_PROXIES: '10.0.0.0/8' }, async (app) => {
      const attempt = (xff: string, password: string) =>
        app.app.inject({
          method: 'POST',
          url: '/auth/signin',
          remoteAddress: '10.0.0.2',
          headers: { 'x-forwarded-for': xff },
          payload: { email: who, password },
        });
      const attacker: number[] = [];
      for (let i = 0; i < 7; i++) attacker.push((await attempt('203.0.113.77', 'wrong password!')).statusCode);
      expect(attacker).toEqual([401, 401, 401, 401, 401, 429, 429]);
      // The owner comes through the same proxy from elsewhere.
      expect((await attempt('198.51.100.77', PASSWORD)).statusCode).toBe(200);
    });
  });
});

// Each wrong password costs a scrypt hash (about 100 ms, far more on a loaded machine): the sign-in tests get 60 s.
describe('sign-in throttling', () => {
  it("an attacker's wrong passwords from one address do not stop the owner signing in from another", { timeout: 60_000 }, async () => {
    const owner = email();
    expect((await signUp(t, '192.0.2.70', {}, owner)).statusCode).toBe(201);
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) codes.push((await signIn('203.0.113.5', owner, 'wrong password!')).statusCode);
    // Five wrong passwords, then that address waits (the right password does not help it either).
    expect(codes).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
    const blocked = await signIn('203.0.113.5', owner, PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The owner, from an address that never failed, signs in.
    expect((await signIn('198.51.100.9', owner, PASSWORD)).statusCode).toBe(200);
    // A quarter hour later the attacker's address may try again (and is refused by the password alone).
    t.clock.advance(16 * 60_000);
    expect((await signIn('203.0.113.5', owner, 'wrong password!')).statusCode).toBe(401);
    t.clock.advance(3600_000 + 300_000);
  });

  it('an attack from many addresses leaves the owner their known addresses; strangers wait out the hour', { timeout: 60_000 }, async () => {
    // The default is 20 wrong passwords an hour for one account; 4 here, to hash fewer passwords.
    const app = await testApp({ database: t.database, clock: t.clock, env: { TIDEMARK_SIGNIN_ACCOUNT_FAILURES: '4' } });
    const signIn = (remoteAddress: string, who: string, password: string) =>
      app.app.inject({ method: 'POST', url: '/auth/signin', remoteAddress, payload: { email: who, password } });
    try {
      const owner = email();
      expect((await signUp(app, '192.0.2.80', {}, owner)).statusCode).toBe(201);
      // The owner signs in from the office once: a known address from then on.
      expect((await signIn('198.51.100.20', owner, PASSWORD)).statusCode).toBe(200);
      t.clock.advance(60_000);
      const codes: number[] = [];
      for (let i = 0; i < 7; i++) codes.push((await signIn(`203.0.113.${100 + i}`, owner, 'wrong password!')).statusCode);
      expect(codes).toEqual([...Array(4).fill(401), ...Array(3).fill(429)]);
      const stranger = await signIn('203.0.113.200', owner, PASSWORD);
      expect(stranger.statusCode).toBe(429);
      expect(stranger.json().errors[0].detail).toMatch(/only from a network it was used from before/);
      // The office still gets in, and the account's own sign-up address too (signing up signs in).
      expect((await signIn('198.51.100.20', owner, PASSWORD)).statusCode).toBe(200);
      expect((await signIn('192.0.2.80', owner, PASSWORD)).statusCode).toBe(200);
      // An unknown e-mail address is throttled alike: the answers do not tell which addresses have users.
      const nobody = email();
      const unknown: number[] = [];
      for (let i = 0; i < 5; i++) unknown.push((await signIn(`203.0.114.${i}`, nobody, 'wrong password!')).statusCode);
      expect(unknown).toEqual([...Array(4).fill(401), 429]);
      // Once the hour has passed, a new address signs in.
      t.clock.advance(3600_000 + 300_000);
      expect((await signIn('198.51.100.21', owner, PASSWORD)).statusCode).toBe(200);
    } finally {
      await app.app.close();
    }
  });

  it('an owner who only ever came in by a setup link keeps that address through an attack', { timeout: 60_000 }, async () => {
    const app = await testApp({ database: t.database, clock: t.clock, env: { TIDEMARK_SIGNIN_ACCOUNT_FAILURES: '2' } });
    const signIn = (remoteAddress: string, who: string, password: string) =>
      app.app.inject({ method: 'POST', url: '/auth/signin', remoteAddress, payload: { email: who, password } });
    try {
      const { account } = await app.account();
      const token = await app.services.users.issueToken(app.services.db, 'owner_setup', { accountId: account.id, role: 'owner' });
      const owner = email();
      const joined = await app.app.inject({
        method: 'POST',
        url: `/auth/tokens/${token}`,
        remoteAddress: '198.51.100.40',
        payload: { email: owner, password: PASSWORD },
      });
      expect(joined.statusCode, joined.body).toBe(200);
      for (let i = 0; i < 3; i++) await signIn(`203.0.113.${150 + i}`, owner, 'wrong password!');
      expect((await signIn('203.0.113.160', owner, PASSWORD)).statusCode).toBe(429);
      expect((await signIn('198.51.100.40', owner, PASSWORD)).statusCode).toBe(200);
      t.clock.advance(3600_000 + 300_000);
    } finally {
      await app.app.close();
    }
  });

  it('wrong passwords sent all at once are throttled like those sent one by one', { timeout: 60_000 }, async () => {
    const owner = email();
    expect((await signUp(t, '192.0.2.75', {}, owner)).statusCode).toBe(201);
    // Eight guesses in flight together: five are judged (wrong), the rest wait, as they would one after another.
    const codes = (await Promise.all(Array.from({ length: 8 }, () => signIn('203.0.113.7', owner, 'wrong password!')))).map(
      (r) => r.statusCode,
    );
    expect(codes.filter((s) => s === 401)).toHaveLength(5);
    expect(codes.filter((s) => s === 429)).toHaveLength(3);
    // The owner is not held back, and a right password gives back what it held: the owner's address stays clear.
    for (let i = 0; i < 6; i++) expect((await signIn('198.51.100.7', owner, PASSWORD)).statusCode).toBe(200);
    t.clock.advance(3600_000 + 300_000);
  });

  it('still limits attempts per client address whatever the account', { timeout: 60_000 }, async () => {
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await signIn('203.0.113.250', email(), 'wrong password!')).statusCode);
    expect(codes).toEqual([...Array(10).fill(401), 429]);
    t.clock.advance(61_000);
  });
});
