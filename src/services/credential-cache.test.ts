import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshDatabase, onServer, type TestDatabase } from '../../test/kit/databases.js';
import { FixedClock } from '../domain/clock.js';
import type { Db } from '../storage/db.js';
import { PgDb } from '../storage/pg.js';
import { AccountService } from './accounts.js';
import { CredentialCache } from './credential-cache.js';

// Two API processes: each its own cache and, on a server, its own connection pool; one changes, the other hears.
let t: TestDatabase;
let other: Db;
const clock = new FixedClock('2026-11-24T10:00:00Z');
const cacheA = new CredentialCache(clock);
const cacheB = new CredentialCache(clock);
const a = new AccountService(clock, cacheA);
const b = new AccountService(clock, cacheB);

beforeAll(async () => {
  t = await freshDatabase();
  other = t.url ? new PgDb(t.url, { max: 2 }) : t.db;
  await cacheA.start(t.db);
  await cacheB.start(other);
});
afterAll(async () => {
  await cacheA.stop();
  await cacheB.stop();
  if (other !== t.db) await other.close();
  await t.drop();
});

let n = 0;
async function accountWithKey() {
  const account = await a.create(t.db, { name: `cache-${n++}`, plan: 'free' });
  const { key, token } = await a.issueKey(t.db, account.id);
  return { account, key, token };
}

/** The other process's pool, counting the statements it runs: a cached answer runs none. */
function counting(): { db: Db; count: () => number } {
  let n = 0;
  const db = {
    ...other,
    query: (text: string, values?: readonly unknown[]) => {
      n++;
      return other.query(text, values);
    },
  } as Db;
  return { db, count: () => n };
}

describe('API keys resolved from memory, changes heard from every process', () => {
  it('answers a known key without reading the database', async () => {
    const { account, token } = await accountWithKey();
    expect((await b.authenticate(other, token))?.account.id).toBe(account.id);
    const pool = counting();
    expect((await b.authenticate(pool.db, token))?.account.id).toBe(account.id);
    expect(pool.count()).toBe(0);
  });

  it('stops accepting a key revoked by another process', async () => {
    const { key, token } = await accountWithKey();
    expect(await b.authenticate(other, token)).not.toBeNull();
    await a.revokeKey(t.db, key.id);
    await vi.waitFor(async () => expect(await b.authenticate(other, token)).toBeNull());
  });

  it("sees another process's change of the account's limits and features", async () => {
    const { account, token } = await accountWithKey();
    expect((await b.authenticate(other, token))?.account.rateLimits).toEqual({});
    await a.update(t.db, account.id, { rateLimits: { default: 7 }, enable: ['routing'] });
    await vi.waitFor(async () => {
      const found = await b.authenticate(other, token);
      expect(found?.account.rateLimits).toEqual({ default: 7 });
      expect(found?.account.features).toContain('routing');
    });
  });

  it('keeps nothing while not listening, nor an answer read while a change was announced', async () => {
    const entry = { account: { id: 'x' } as never, keyId: 'k', touchedAt: 0 };
    const cache = new CredentialCache(clock);
    cache.set('digest', entry, cache.epoch());
    expect(cache.get('digest')).toBeUndefined();
    await cache.start(t.db);
    try {
      const before = cache.epoch();
      await a.update(t.db, (await accountWithKey()).account.id, { rateLimits: { default: 9 } });
      await vi.waitFor(() => expect(cache.epoch()).not.toBe(before));
      cache.set('digest', entry, before);
      expect(cache.get('digest')).toBeUndefined();
      cache.set('digest', entry, cache.epoch());
      expect(cache.get('digest')).toBeDefined();
    } finally {
      await cache.stop();
    }
  });

  it('keeps entries for their time to live only', async () => {
    const { token } = await accountWithKey();
    await b.authenticate(other, token);
    clock.advance(61_000);
    const pool = counting();
    await b.authenticate(pool.db, token);
    expect(pool.count()).toBeGreaterThan(0);
  });

  it.skipIf(!onServer())('forgets everything when its listening connection was lost (server only)', async () => {
    const { account, token } = await accountWithKey();
    await b.authenticate(other, token);
    // A change whose announcement the lost connection can never deliver: written behind the service's back.
    await t.db.query('UPDATE accounts SET rate_limits = $2 WHERE id = $1', [account.id, JSON.stringify({ default: 3 })]);
    await t.db.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'tidemark listen' AND datname = current_database() AND pid <> pg_backend_pid()",
    );
    await vi.waitFor(async () => expect((await b.authenticate(other, token))?.account.rateLimits).toEqual({ default: 3 }), {
      timeout: 10_000,
    });
  });
});
