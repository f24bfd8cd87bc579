import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, onServer, type TestDatabase } from '../../test/kit/databases.js';
import { FixedClock } from '../domain/clock.js';
import { PgDb } from '../storage/pg.js';
import { listAccounts } from '../storage/repositories/accounts.js';
import { AccountService, digestToken } from './accounts.js';
import type { Db } from '../storage/db.js';
import { firstStartSetup, verifyAdminToken } from './setup.js';
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
    publicUrl: () => 'http://tidemark.test',
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
    expect(account).toMatchObject({ name: 'operator', plan: 'unlimited' });
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
