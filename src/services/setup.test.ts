import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, onServer, type TestDatabase } from '../../test/kit/databases.js';
import { FixedClock } from '../domain/clock.js';
import { PgDb } from '../storage/pg.js';
import { listAccounts } from '../storage/repositories/accounts.js';
import { AccountService, digestToken } from './accounts.js';
import type { Db } from '../storage/db.js';
import { firstStartSetup, issueAdminToken, issueOwnerSetupLink, verifyAdminToken } from './setup.js';
import { RateLimitService } from './rate-limits.js';
import { UserService } from './users.js';

let t: TestDatabase;
const clock = new FixedClock();
const accounts = new AccountService(clock);
/** The users service of a database: first start issues the owner's setup link through it. */
const users = (db: Db) =>
  new UserService({
    db,
    wall: clock,
    accounts,
    rateLimits: new RateLimitService(db, clock),
    signupEnabled: true,
    defaultPlan: 'free',
    publicUrl: 'http://tidemark.test',
  });
beforeAll(async () => {
  t = await freshDatabase();
});
afterAll(() => t.drop());

describe('first start', () => {
  it('creates the operator account, a key and an admin token once, storing only digests', async () => {
    const first = await firstStartSetup(t.db, accounts, clock, undefined, users(t.db));
    expect(first).not.toBeNull();
    expect(first!.apiKey).toMatch(/^tm_[A-Za-z0-9_-]{40,}$/);
    expect(first!.adminToken).toMatch(/^tma_/);
    // The owner's one-time setup link: its token is stored only as a digest, and it names the operator account.
    expect(first!.ownerSetupToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(await users(t.db).describeLink(first!.ownerSetupToken)).toEqual({ kind: 'owner_setup', email: null, account_name: 'Operator' });
    const [account] = await listAccounts(t.db);
    // Marked as the first account: its API reads are never gated by the API trial, whatever its plan becomes.
    expect(account).toMatchObject({ name: 'operator', plan: 'unlimited', firstAccount: true, apiTrial: null });
    expect(account!.features).toEqual(['routing', 'rail_lfd', 'refresh', 'widget', 'extra_carriers', 'sandbox_control']);
    expect(await firstStartSetup(t.db, accounts, clock, undefined, users(t.db))).toBeNull();

    const stored = JSON.stringify(await t.db.query('SELECT * FROM settings')) + JSON.stringify(await t.db.query('SELECT * FROM api_keys'));
    expect(stored).not.toContain(first!.apiKey);
    expect(JSON.stringify(await t.db.query('SELECT * FROM one_time_tokens'))).not.toContain(first!.ownerSetupToken);
    expect(stored).not.toContain(first!.adminToken!);
    expect(stored).toContain(digestToken(first!.apiKey));

    expect(await verifyAdminToken(t.db, first!.adminToken!)).toBe(true);
    expect(await verifyAdminToken(t.db, `${first!.adminToken!}x`)).toBe(false);
  });

  it('uses TIDEMARK_ADMIN_TOKEN when it is configured', async () => {
    const configured = 'a-configured-admin-token-of-length';
    expect(await verifyAdminToken(t.db, configured, configured)).toBe(true);
    expect(await verifyAdminToken(t.db, 'something-else', configured)).toBe(false);
  });

  it.skipIf(!onServer())('creates exactly one account when several processes start together on an empty server', async () => {
    await t.db.exec('DELETE FROM api_keys; DELETE FROM accounts; DELETE FROM settings');
    const pools = [1, 2, 3, 4].map(() => new PgDb(t.url!, { max: 2 }));
    try {
      const results = await Promise.all(pools.map((db) => firstStartSetup(db, accounts, clock, undefined, users(db))));
      expect(results.filter((r) => r !== null)).toHaveLength(1);
      expect(await listAccounts(t.db)).toHaveLength(1);
    } finally {
      await Promise.all(pools.map((p) => p.close()));
    }
  });
});

describe('recovering what the first start showed', () => {
  let d: TestDatabase;
  beforeAll(async () => {
    d = await freshDatabase();
  });
  afterAll(() => d.drop());

  it('shows the secrets before the commit: a failure there leaves nothing, and the next start shows new ones', async () => {
    const shown: string[] = [];
    await expect(
      firstStartSetup(d.db, accounts, clock, undefined, users(d.db), {
        announce: (r) => {
          shown.push(r.apiKey);
          throw new Error('stdout is gone');
        },
      }),
    ).rejects.toThrow('stdout is gone');
    expect(shown).toHaveLength(1);
    expect(await listAccounts(d.db)).toHaveLength(0);
    // Nothing to recover before a first start: it would replace the token anyway.
    await expect(issueAdminToken(d.db, clock, undefined)).rejects.toThrow(/first start has not run/);
    const order: string[] = [];
    const first = await firstStartSetup(d.db, accounts, clock, undefined, users(d.db), {
      announce: () => order.push('announce'),
      afterCommit: () => order.push('after commit'),
    });
    expect(first!.apiKey).not.toBe(shown[0]);
    expect(order).toEqual(['announce', 'after commit']);
  });

  it('a new admin token replaces the stored one; refused while TIDEMARK_ADMIN_TOKEN is the admin token', async () => {
    const a = await issueAdminToken(d.db, clock, undefined);
    expect(a).toMatch(/^tma_/);
    const b = await issueAdminToken(d.db, clock, undefined);
    expect(await verifyAdminToken(d.db, b)).toBe(true);
    expect(await verifyAdminToken(d.db, a)).toBe(false);
    expect(JSON.stringify(await d.db.query('SELECT * FROM settings'))).not.toContain(b);
    await expect(issueAdminToken(d.db, clock, 'a-configured-admin-token-of-length')).rejects.toThrow(/TIDEMARK_ADMIN_TOKEN is set/);
  });

  it('a new owner link replaces unused ones, makes an owner, and is refused once there is one unless asked to add one', async () => {
    const u = users(d.db);
    const old = await issueOwnerSetupLink(d.db, clock, u);
    const fresh = await issueOwnerSetupLink(d.db, clock, u);
    expect(fresh).toMatchObject({ accountName: 'operator', expiredLinks: 1 });
    await expect(u.describeLink(old.token)).rejects.toThrow(/not found/);
    expect(await u.describeLink(fresh.token)).toMatchObject({ kind: 'owner_setup', account_name: 'Operator' });
    const signedIn = await u.useLink(fresh.token, { email: 'owner@example.com', password: 'a long enough passphrase 42' });
    expect(signedIn.user.role).toBe('owner');
    await expect(issueOwnerSetupLink(d.db, clock, u)).rejects.toThrow(/has an owner already.*--add-owner/);
    const another = await issueOwnerSetupLink(d.db, clock, u, { addOwner: true });
    expect(await u.describeLink(another.token)).toMatchObject({ kind: 'owner_setup' });
    await expect(issueOwnerSetupLink(d.db, clock, u, { accountName: 'nobody' })).rejects.toThrow(/No account named nobody/);
  });
});
