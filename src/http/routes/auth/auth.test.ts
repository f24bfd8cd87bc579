import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../../test/kit/app.js';
import { mailCatcher } from '../../../../test/kit/mail.js';
import { seedShipment } from '../../../../test/kit/seed.js';

// This file signs up dozens of accounts from one address: the sign-up limits are tested in abuse.test.ts.
const LIMITS = { TIDEMARK_SIGNUP_LIMIT_PER_ADDRESS: '1000', TIDEMARK_SIGNUP_LIMIT_TOTAL: '1000' };

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ env: LIMITS });
});
afterAll(() => t.close());

let n = 0;
const email = () => `person${process.pid}-${n++}@example.com`;
const PASSWORD = 'a long enough password';

/** The cookie header a browser would send back, from a response's Set-Cookie. */
function cookieOf(res: { headers: Record<string, unknown> }): string {
  const set = [res.headers['set-cookie']].flat().find((c) => typeof c === 'string' && c.startsWith('tm_session='));
  if (typeof set !== 'string') throw new Error('no session cookie set');
  return set.split(';')[0]!;
}

async function signUp(app = t, who = email()) {
  const res = await app.app.inject({
    method: 'POST',
    url: '/auth/signup',
    payload: { email: who, password: PASSWORD, company_name: 'Acme Imports' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { email: who, cookie: cookieOf(res), csrf: res.json().csrf_token as string, body: res.json() };
}

describe('sign-up, sessions and CSRF', () => {
  it('signs up an owner of a new account with an http-only, same-site session cookie', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: { email: 'Mixed.Case@Example.com', password: PASSWORD, company_name: ' Acme ' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      user: { email: 'mixed.case@example.com', role: 'owner' },
      account: { name: 'Acme', plan: 'free' },
      sandbox: false,
    });
    expect(body.csrf_token).toMatch(/^[\w-]{20,}$/);
    const cookie = [res.headers['set-cookie']].flat()[0] as string;
    expect(cookie).toMatch(/^tm_session=[\w-]{40,};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
    // Stored only as a hash.
    const [row] = await t.services.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE email = $1', [
      'mixed.case@example.com',
    ]);
    expect(row!.password_hash).toMatch(/^scrypt\$/);
    expect(row!.password_hash).not.toContain(PASSWORD);
  });

  it('the session reads /v2; its writes need the CSRF header; it counts in a rate bucket of its own', async () => {
    const s = await signUp();
    const session = await t.app.inject({ url: '/auth/session', headers: { cookie: s.cookie } });
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ user: { email: s.email }, csrf_token: s.csrf });
    expect((await t.app.inject({ url: '/v2/shipments', headers: { cookie: s.cookie } })).statusCode).toBe(200);
    const payload = { data: { type: 'party', attributes: { company_name: 'Customer' } } };
    const noCsrf = await t.app.inject({ method: 'POST', url: '/v2/parties', headers: { cookie: s.cookie }, payload });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().errors[0].detail).toMatch(/CSRF/);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/v2/parties',
      headers: { cookie: s.cookie, 'x-csrf-token': 'nope' },
      payload,
    });
    expect(wrong.statusCode).toBe(403);
    const ok = await t.app.inject({ method: 'POST', url: '/v2/parties', headers: { cookie: s.cookie, 'x-csrf-token': s.csrf }, payload });
    expect(ok.statusCode).toBe(201);
    const buckets = await t.services.db.query<{ key: string }>('SELECT DISTINCT key FROM rate_limit_windows WHERE key LIKE $1', [
      `${s.body.account.id}:%`,
    ]);
    expect(buckets.map((b) => b.key)).toEqual([`${s.body.account.id}:session`]);
  });

  it('bad sign-ups: 422 with pointers, nothing written; a taken address; sign-up off', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: { email: 'not-an-address', password: 'short', company_name: '' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual([
      '/email',
      '/password',
      '/company_name',
    ]);
    const s = await signUp();
    const again = await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: { email: s.email.toUpperCase(), password: PASSWORD, company_name: 'X' },
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors[0]).toMatchObject({ code: 'taken', source: { pointer: '/email' } });

    const off = await testApp({ database: t.database, env: { ...LIMITS, TIDEMARK_SIGNUP: 'off' } });
    try {
      expect((await off.app.inject({ url: '/auth/config' })).json()).toEqual({
        signup_enabled: false,
        email_verification: false,
        sandbox: false,
      });
      const refused = await off.app.inject({
        method: 'POST',
        url: '/auth/signup',
        payload: { email: email(), password: PASSWORD, company_name: 'X' },
      });
      expect(refused.statusCode).toBe(403);
    } finally {
      await off.app.close();
    }
  });

  it('signs in and out; wrong passwords are 401 and throttled (abuse.test.ts has the whole scheme)', async () => {
    // Sign-ins of earlier tests count in the same minute (every injected request comes from one address).
    t.clock.advance(61_000);
    const s = await signUp();
    const ok = await t.app.inject({ method: 'POST', url: '/auth/signin', payload: { email: s.email, password: PASSWORD } });
    expect(ok.statusCode).toBe(200);
    const cookie = cookieOf(ok);
    const out = await t.app.inject({ method: 'POST', url: '/auth/signout', headers: { cookie, 'x-csrf-token': ok.json().csrf_token } });
    expect(out.statusCode).toBe(204);
    expect([out.headers['set-cookie']].flat()[0]).toMatch(/^tm_session=;/);
    expect((await t.app.inject({ url: '/auth/session', headers: { cookie } })).statusCode).toBe(401);

    const who = email();
    await signUp(t, who);
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      codes.push(
        (
          await t.app.inject({
            method: 'POST',
            url: '/auth/signin',
            remoteAddress: '203.0.113.5',
            payload: { email: who, password: 'wrong password!' },
          })
        ).statusCode,
      );
    }
    expect(codes).toEqual([401, 401, 401, 401, 401, 429]);
    // Past the limit the right password does not help from that address; from another it does.
    const limited = await t.app.inject({
      method: 'POST',
      url: '/auth/signin',
      remoteAddress: '203.0.113.5',
      payload: { email: who, password: PASSWORD },
    });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/auth/signin',
      remoteAddress: '198.51.100.9',
      payload: { email: who, password: PASSWORD },
    });
    expect(elsewhere.statusCode).toBe(200);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/auth/signin',
      remoteAddress: '198.51.100.10',
      payload: { email: email(), password: PASSWORD },
    });
    expect(unknown.json().errors[0].detail).toBe('Wrong e-mail address or password');
  });

  it('marks the cookie Secure when the public URL is https', async () => {
    const https = await testApp({ database: t.database, env: { ...LIMITS, TIDEMARK_PUBLIC_URL: 'https://tidemark.example.com' } });
    try {
      const res = await https.app.inject({
        method: 'POST',
        url: '/auth/signup',
        payload: { email: email(), password: PASSWORD, company_name: 'X' },
      });
      expect([res.headers['set-cookie']].flat()[0]).toMatch(/Secure/);
    } finally {
      await https.app.close();
    }
  });
});

describe('one-time links and the team', () => {
  it('owner setup: the link names the account, sets the owner up once, and signs them in', async () => {
    const { account } = await t.account({ name: `setup-${n++}` });
    const token = await t.services.users.issueToken(t.services.db, 'owner_setup', { accountId: account.id, role: 'owner' });
    const described = await t.app.inject({ url: `/auth/tokens/${token}` });
    expect(described.json()).toEqual({ kind: 'owner_setup', email: null, account_name: account.companyName });
    const missingEmail = await t.app.inject({ method: 'POST', url: `/auth/tokens/${token}`, payload: { password: PASSWORD } });
    expect(missingEmail.statusCode).toBe(422);
    const who = email();
    const used = await t.app.inject({ method: 'POST', url: `/auth/tokens/${token}`, payload: { email: who, password: PASSWORD } });
    expect(used.statusCode, used.body).toBe(200);
    expect(used.json()).toMatchObject({ user: { email: who, role: 'owner' }, account: { id: account.id } });
    expect(
      (await t.app.inject({ method: 'POST', url: `/auth/tokens/${token}`, payload: { email: email(), password: PASSWORD } })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: `/auth/tokens/${token}` })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/auth/tokens/not-a-token' })).statusCode).toBe(404);
  });

  it('owners invite, list, reset and remove members; members cannot; the last owner stays', async () => {
    t.clock.advance(61_000);
    const owner = await signUp();
    const h = { cookie: owner.cookie, 'x-csrf-token': owner.csrf };
    const invite = await t.app.inject({ method: 'POST', url: '/auth/invites', headers: h, payload: { email: 'Member@Example.com' } });
    expect(invite.statusCode, invite.body).toBe(201);
    const url = invite.json().url as string;
    expect(url).toMatch(/^http:\/\/tidemark\.test\/setup\/[\w-]+$/);
    const token = url.split('/').pop()!;
    expect((await t.app.inject({ url: `/auth/tokens/${token}` })).json()).toMatchObject({ kind: 'invite', email: 'member@example.com' });
    const joined = await t.app.inject({ method: 'POST', url: `/auth/tokens/${token}`, payload: { password: PASSWORD } });
    expect(joined.json()).toMatchObject({ user: { email: 'member@example.com', role: 'member' }, account: { id: owner.body.account.id } });
    const member = { cookie: cookieOf(joined), 'x-csrf-token': joined.json().csrf_token };

    const members = await t.app.inject({ url: '/auth/members', headers: { cookie: owner.cookie } });
    // Signing up and joining by a link count as signing in.
    expect(members.json().data.map((m: { last_sign_in_at: string | null }) => m.last_sign_in_at)).toEqual([
      expect.stringMatching(/Z$/),
      expect.stringMatching(/Z$/),
    ]);
    expect(members.json().data.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [owner.email, 'owner'],
      ['member@example.com', 'member'],
    ]);
    // A member sees the account's data but does not manage the team.
    expect((await t.app.inject({ method: 'POST', url: '/auth/invites', headers: member, payload: { email: email() } })).statusCode).toBe(
      403,
    );

    // A reset link: the new password works, the old one and the member's sessions do not.
    const memberId = members.json().data[1].id;
    const reset = await t.app.inject({ method: 'POST', url: `/auth/members/${memberId}/reset`, headers: h });
    expect(reset.statusCode).toBe(201);
    const resetToken = (reset.json().url as string).split('/').pop()!;
    const renewed = await t.app.inject({
      method: 'POST',
      url: `/auth/tokens/${resetToken}`,
      payload: { password: 'another long password' },
    });
    expect(renewed.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/auth/session', headers: { cookie: member.cookie } })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/auth/signin', payload: { email: 'member@example.com', password: PASSWORD } }))
        .statusCode,
    ).toBe(401);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/auth/signin',
          payload: { email: 'member@example.com', password: 'another long password' },
        })
      ).statusCode,
    ).toBe(200);

    const lastOwner = await t.app.inject({ method: 'DELETE', url: `/auth/members/${owner.body.user.id}`, headers: h });
    expect(lastOwner.statusCode).toBe(422);
    expect((await t.app.inject({ method: 'DELETE', url: `/auth/members/${memberId}`, headers: h })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'DELETE', url: `/auth/members/${memberId}`, headers: h })).statusCode).toBe(404);
    // Another account's owner cannot touch this account's users.
    const stranger = await signUp();
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/auth/members/${owner.body.user.id}/reset`,
      headers: { cookie: stranger.cookie, 'x-csrf-token': stranger.csrf },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('the admin API issues a password-reset link by e-mail address', async () => {
    const s = await signUp();
    const admin = { authorization: `Bearer ${t.services.config.adminToken ?? ''}` };
    const token = await (await import('../../../services/setup.js')).resetAdminToken(t.services.db, t.clock);
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/password_resets',
      headers: { authorization: `Bearer ${token}` },
      payload: { email: s.email },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ url: expect.stringMatching(/\/setup\//), emailed: false });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/admin/password_resets',
      headers: { authorization: `Bearer ${token}` },
      payload: { email: 'nobody@example.com' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'POST', url: '/admin/password_resets', headers: admin, payload: { email: s.email } })).statusCode,
    ).toBe(401);
  });
});

describe('API keys over the API', () => {
  it('a session creates a key (shown once), lists it masked, and revokes it', async () => {
    const s = await signUp();
    const h = { cookie: s.cookie, 'x-csrf-token': s.csrf };
    const created = await t.app.inject({
      method: 'POST',
      url: '/v2/api_keys',
      headers: h,
      payload: { data: { type: 'api_key', attributes: { name: 'CI' } } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const key = created.json().data.attributes.key as string;
    expect(key).toMatch(/^tm_/);
    const list = await t.app.inject({ url: '/v2/api_keys', headers: { cookie: s.cookie } });
    expect(list.json().data).toEqual([
      expect.objectContaining({
        id: created.json().data.id,
        type: 'api_key',
        attributes: expect.objectContaining({ name: 'CI', last_used_at: null }),
      }),
    ]);
    expect(JSON.stringify(list.json())).not.toContain(key);
    expect(list.json().data[0].attributes.masked).toContain(key.slice(-4));
    // The key works (on the tracking requests: a signed-up account is on the free plan, whose keys read tracking
    // data only during an API trial), and is listed with its last use.
    expect((await t.app.inject({ url: '/v2/tracking_requests', headers: { authorization: `Token ${key}` } })).statusCode).toBe(200);
    const del = await t.app.inject({ method: 'DELETE', url: `/v2/api_keys/${created.json().data.id}`, headers: h });
    expect(del.statusCode).toBe(204);
    expect((await t.app.inject({ url: '/v2/shipments', headers: { authorization: `Token ${key}` } })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/v2/api_keys', headers: { cookie: s.cookie } })).json().data).toEqual([]);
    // Another account cannot revoke it.
    const other = await t.account();
    const again = await t.app.inject({
      method: 'POST',
      url: '/v2/api_keys',
      headers: h,
      payload: { data: { type: 'api_key', attributes: {} } },
    });
    expect((await t.app.inject({ method: 'DELETE', url: `/v2/api_keys/${again.json().data.id}`, headers: other.auth })).statusCode).toBe(
      404,
    );
  });
});

describe('the deep link /shipments/find', () => {
  it('sends a visitor who is not signed in to sign in, then back', async () => {
    const res = await t.app.inject({ url: '/shipments/find?q=MSKU9070323' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`/signin?next=${encodeURIComponent('/shipments/find?q=MSKU9070323')}`);
  });

  it('resolves in the documented order, within the signed-in account only', async () => {
    const s = await signUp();
    const accountId = s.body.account.id as string;
    const a = await seedShipment(t, accountId, { bl: 'MAEU240100001', refs: ['PO-7781'], containers: [{ number: 'MSKU9070323' }] });
    const b = await seedShipment(t, accountId, { bl: 'HLCU99887766', booking: 'BKG-4455', containers: [{ number: 'TGHU1234567' }] });
    // Another account's container of the same number never matches.
    const other = await t.account();
    await seedShipment(t, other.account.id, { bl: 'ZIMU1', containers: [{ number: 'CMAU1234562' }] });
    const go = async (q: string) => {
      const res = await t.app.inject({ url: `/shipments/find?q=${encodeURIComponent(q)}`, headers: { cookie: s.cookie } });
      expect(res.statusCode).toBe(302);
      return res.headers.location;
    };
    expect(await go('msku 907032-3')).toBe(`/shipments/${a.id}?container=${a.containerIds[0]}`);
    expect(await go('maeu240100001')).toBe(`/shipments/${a.id}`);
    expect(await go('bkg-4455')).toBe(`/shipments/${b.id}`);
    expect(await go('PO-7781')).toBe(`/shipments/${a.id}`);
    expect(await go('TGHU 1234')).toBe(`/shipments/${b.id}?container=${b.containerIds[0]}`);
    expect(await go('99887')).toBe(`/shipments/${b.id}`);
    expect(await go('CMAU1234562')).toBe('/shipments?q=CMAU1234562');
    expect(await go('')).toBe('/shipments');
  });
});

describe('e-mail when SMTP is configured', () => {
  it('sends invitations and password resets to the address, through the SMTP server', async () => {
    const smtp = await mailCatcher();
    const received = smtp.received;
    const mail = await testApp({
      database: t.database,
      env: { ...LIMITS, TIDEMARK_SMTP_URL: smtp.url, TIDEMARK_SMTP_FROM: 'Tidemark <noreply@tidemark.test>' },
    });
    try {
      // With SMTP a sign-up confirms its address first (verification.test.ts): this owner joins by a setup link.
      const { account } = await mail.account();
      const setup = await mail.services.users.issueToken(mail.services.db, 'owner_setup', { accountId: account.id, role: 'owner' });
      const joined = await mail.app.inject({
        method: 'POST',
        url: `/auth/tokens/${setup}`,
        payload: { email: email(), password: PASSWORD },
      });
      expect(joined.statusCode, joined.body).toBe(200);
      const owner = { email: joined.json().user.email as string, body: joined.json() };
      const h = { cookie: cookieOf(joined), 'x-csrf-token': joined.json().csrf_token as string };
      const invite = await mail.app.inject({ method: 'POST', url: '/auth/invites', headers: h, payload: { email: 'Invitee@Example.com' } });
      expect(invite.statusCode).toBe(201);
      expect(invite.json()).toMatchObject({ emailed: true, url: expect.stringMatching(/\/setup\//) });
      const reset = await mail.app.inject({ method: 'POST', url: `/auth/members/${owner.body.user.id}/reset`, headers: h });
      expect(reset.json()).toMatchObject({ emailed: true });
      expect(received.map((r) => r.to)).toEqual([['invitee@example.com'], [owner.email]]);
      // The catcher undoes quoted-printable's folding of long lines.
      const text = (i: number) => received[i]!.body;
      expect(text(0)).toContain(invite.json().url);
      expect(text(0)).toMatch(/From: Tidemark <noreply@tidemark\.test>/);
      expect(text(1)).toContain(reset.json().url);
    } finally {
      await mail.app.close();
      await smtp.close();
    }
  });

  it('still hands the link over when the SMTP server cannot be reached', async () => {
    const mail = await testApp({ database: t.database, env: { ...LIMITS, TIDEMARK_SMTP_URL: 'smtp://127.0.0.1:9' } });
    try {
      // A sign-up whose confirmation could not be sent is created all the same (the link can be asked for again).
      const pending = await mail.app.inject({
        method: 'POST',
        url: '/auth/signup',
        payload: { email: email(), password: PASSWORD, company_name: 'Acme' },
      });
      expect(pending.statusCode).toBe(201);
      expect(pending.json()).toMatchObject({ verification_required: true, emailed: false });
      const owner = await signUp(t);
      const invite = await mail.app.inject({
        method: 'POST',
        url: '/auth/invites',
        headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrf },
        payload: { email: email() },
      });
      expect(invite.statusCode).toBe(201);
      expect(invite.json()).toMatchObject({ emailed: false, url: expect.stringMatching(/\/setup\//) });
    } finally {
      await mail.app.close();
    }
  });
});
