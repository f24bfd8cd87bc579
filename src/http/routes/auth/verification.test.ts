// E-mail verification of sign-ups when SMTP is configured, through a real SMTP server on a loopback port.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../../test/kit/app.js';
import { mailCatcher, type MailCatcher } from '../../../../test/kit/mail.js';

const PASSWORD = 'a long enough password';
let n = 0;
const email = () => `verify${process.pid}-${n++}@example.com`;

let smtp: MailCatcher;
let t: TestApp;

beforeAll(async () => {
  smtp = await mailCatcher();
  t = await testApp({ env: { TIDEMARK_SMTP_URL: smtp.url, TIDEMARK_SIGNUP_LIMIT_PER_ADDRESS: '100' } });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** The confirmation links mailed to `to`, oldest first (quoted-printable soft breaks undone). */
function linksTo(to: string): string[] {
  return smtp.received.filter((m) => m.to.includes(to)).map((m) => /http:\/\/tidemark\.test\/verify\/[\w.-]+/.exec(m.body)?.[0] ?? '');
}
const tokenOf = (link: string) => link.split('/').pop()!;

const signUp = (who: string) =>
  t.app.inject({ method: 'POST', url: '/auth/signup', payload: { email: who, password: PASSWORD, company_name: 'Acme' } });
const signIn = (who: string, password = PASSWORD) =>
  t.app.inject({ method: 'POST', url: '/auth/signin', remoteAddress: '198.51.100.1', payload: { email: who, password } });
const verify = (token: string) => t.app.inject({ method: 'POST', url: `/auth/verification/${token}` });
const resend = (who: string, remoteAddress = '198.51.100.2') =>
  t.app.inject({ method: 'POST', url: '/auth/verification', remoteAddress, payload: { email: who } });

describe('e-mail verification (SMTP configured)', () => {
  it('sign-up → cannot sign in → the e-mailed link → can sign in; the link works once', async () => {
    expect((await t.app.inject({ url: '/auth/config' })).json()).toMatchObject({ signup_enabled: true, email_verification: true });
    const who = email();
    const res = await signUp(who);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ verification_required: true, email: who, emailed: true });
    expect(res.headers['set-cookie']).toBeUndefined();
    const [link] = linksTo(who);
    expect(link).toMatch(/\/verify\/[0-9a-f-]{36}\.[\w-]{40,}$/);

    // The right password says to confirm the address; a wrong one says nothing about it.
    const early = await signIn(who);
    expect(early.statusCode).toBe(403);
    expect(early.json().errors[0]).toMatchObject({ code: 'email_unverified', detail: expect.stringMatching(/link we sent to/) });
    expect(early.json().errors[0].detail).toMatch(/new link/);
    expect((await signIn(who, 'wrong password!')).statusCode).toBe(401);

    // Stored only as a digest.
    const secret = tokenOf(link!).split('.')[1]!;
    const rows = await t.services.db.query<{ secret_sha256: Buffer }>(
      'SELECT v.secret_sha256 FROM email_verifications v JOIN users u ON u.id = v.user_id WHERE u.email = $1',
      [who],
    );
    expect(rows).toHaveLength(1);
    expect(Buffer.from(rows[0]!.secret_sha256).toString('utf8')).not.toContain(secret);
    expect(Buffer.from(rows[0]!.secret_sha256).toString('base64url')).not.toBe(secret);

    // A wrong secret with the right id does not work, and does not use the link up.
    const [id] = tokenOf(link!).split('.');
    expect((await verify(`${id}.${'A'.repeat(43)}`)).statusCode).toBe(404);
    const ok = await verify(tokenOf(link!));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ verified: true, email: who });
    const again = await verify(tokenOf(link!));
    expect(again.statusCode).toBe(404);
    expect(again.json().errors[0].detail).toMatch(/already used, has expired/);

    const signedIn = await signIn(who);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect([signedIn.headers['set-cookie']].flat()[0]).toMatch(/^tm_session=/);
  });

  it('an expired link is refused; a new one can be asked for, and the old one stays dead', async () => {
    const who = email();
    expect((await signUp(who)).statusCode).toBe(201);
    const [first] = linksTo(who);
    t.clock.advance(24 * 3600_000 + 1000);
    expect((await verify(tokenOf(first!))).statusCode).toBe(404);
    expect((await signIn(who)).statusCode).toBe(403);

    const asked = await resend(who);
    expect(asked.statusCode).toBe(202);
    const links = linksTo(who);
    expect(links).toHaveLength(2);
    expect(links[1]).not.toBe(first);
    expect((await verify(tokenOf(first!))).statusCode).toBe(404);
    expect((await verify(tokenOf(links[1]!))).statusCode).toBe(200);
    expect((await signIn(who)).statusCode).toBe(200);
  });

  it('resending replaces the previous link, answers alike for any address, and is rate-limited', async () => {
    const who = email();
    expect((await signUp(who)).statusCode).toBe(201);
    expect((await resend(who)).statusCode).toBe(202);
    const [first, second] = linksTo(who);
    expect((await verify(tokenOf(first!))).statusCode).toBe(404);
    // Unknown and already confirmed addresses get the same answer, and no e-mail.
    const before = smtp.received.length;
    expect((await resend(email())).statusCode).toBe(202);
    expect(smtp.received.length).toBe(before);
    // Three an hour per e-mail address.
    expect((await resend(who)).statusCode).toBe(202);
    expect((await resend(who)).statusCode).toBe(202);
    const limited = await resend(who);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(linksTo(who)).toHaveLength(4);
    // Only the newest link works.
    expect((await verify(tokenOf(second!))).statusCode).toBe(404);
    expect((await verify(tokenOf(linksTo(who)[3]!))).statusCode).toBe(200);
    t.clock.advance(3600_000 + 300_000);
  });

  it('an unconfirmed sign-up holds its address for the life of its link, then gives way to a new sign-up', async () => {
    const who = email();
    expect((await signUp(who)).statusCode).toBe(201);
    const taken = await signUp(who);
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors[0]).toMatchObject({ code: 'taken' });
    t.clock.advance(24 * 3600_000 + 1000);
    const [old] = linksTo(who);
    const fresh = await signUp(who);
    expect(fresh.statusCode, fresh.body).toBe(201);
    const accounts = await t.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE email = $1', [who]);
    expect(accounts[0]!.n).toBe(1);
    expect((await verify(tokenOf(old!))).statusCode).toBe(404);
    expect((await verify(tokenOf(linksTo(who)[1]!))).statusCode).toBe(200);
    // A confirmed address is never taken over.
    t.clock.advance(24 * 3600_000 + 1000);
    expect((await signUp(who)).statusCode).toBe(422);
  });

  it('invited people and owner setups need no confirmation (the link came from an owner or the operator)', async () => {
    const { account } = await t.account();
    const token = await t.services.users.issueToken(t.services.db, 'invite', { accountId: account.id, email: email(), role: 'member' });
    const joined = await t.app.inject({ method: 'POST', url: `/auth/tokens/${token}`, payload: { password: PASSWORD } });
    expect(joined.statusCode, joined.body).toBe(200);
    expect((await signIn(joined.json().user.email)).statusCode).toBe(200);
    // A password reset the operator issues for an unconfirmed sign-up vouches for the address too.
    const who = email();
    expect((await signUp(who)).statusCode).toBe(201);
    const reset = await t.services.users.resetLinkForEmail(who);
    const used = await t.app.inject({
      method: 'POST',
      url: `/auth/tokens/${reset.url.split('/').pop()}`,
      payload: { password: 'another long password' },
    });
    expect(used.statusCode, used.body).toBe(200);
    expect((await signIn(who, 'another long password')).statusCode).toBe(200);
  });
});

describe('without SMTP', () => {
  it('accounts work at once, and there is nothing to resend', async () => {
    const plain = await testApp({ database: t.database, clock: t.clock });
    try {
      expect((await plain.app.inject({ url: '/auth/config' })).json()).toMatchObject({ email_verification: false });
      const who = email();
      const res = await plain.app.inject({
        method: 'POST',
        url: '/auth/signup',
        remoteAddress: '192.0.2.99',
        payload: { email: who, password: PASSWORD, company_name: 'Acme' },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ user: { email: who } });
      const resent = await plain.app.inject({ method: 'POST', url: '/auth/verification', payload: { email: who } });
      expect(resent.statusCode).toBe(404);
    } finally {
      await plain.app.close();
    }
  });
});

describe('maintenance of sign-ups', () => {
  it('drops expired links and, a week on, sign-ups never confirmed with their accounts; confirmed people stay', async () => {
    const kept = email();
    const dropped = email();
    expect((await signUp(kept)).statusCode).toBe(201);
    expect((await signUp(dropped)).statusCode).toBe(201);
    expect((await verify(tokenOf(linksTo(kept).at(-1)!))).statusCode).toBe(200);
    const accountOf = async (who: string) =>
      (await t.services.db.query<{ account_id: string }>('SELECT account_id FROM users WHERE email = $1', [who]))[0]?.account_id;
    const droppedAccount = await accountOf(dropped);
    const links = async () =>
      (
        await t.services.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM email_verifications v JOIN users u ON u.id = v.user_id WHERE u.email = ANY($1)',
          [[kept, dropped]],
        )
      )[0]!.n;
    expect(await links()).toBe(2);

    t.clock.advance(24 * 3600_000 + 1000);
    await t.services.users.prune();
    expect(await links()).toBe(0);
    expect(await accountOf(dropped)).toBe(droppedAccount);

    t.clock.advance(6 * 24 * 3600_000);
    await t.services.users.prune();
    expect(await accountOf(dropped)).toBeUndefined();
    expect(await t.services.db.query('SELECT 1 FROM accounts WHERE id = $1', [droppedAccount])).toEqual([]);
    expect(await accountOf(kept)).toBeDefined();
    expect((await signIn(kept)).statusCode).toBe(200);
  });
});
