import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshDatabase, onServer, type TestDatabase } from '../../test/kit/databases.js';
import { FixedClock } from '../domain/clock.js';
import type { Db } from '../storage/db.js';
import { PgDb } from '../storage/pg.js';
import { changed } from '../storage/repositories/changes.js';
import { changeTag, DocumentCache } from './document-cache.js';

// Two API processes: each its own cache and, on a server, its own pool and LISTEN connection.
let t: TestDatabase;
let other: Db;
const clock = new FixedClock('2026-11-24T10:00:00Z');
const here = new DocumentCache(clock, { ttlMs: 60_000 });
const there = new DocumentCache(clock);

beforeAll(async () => {
  t = await freshDatabase();
  other = t.url ? new PgDb(t.url, { max: 2 }) : t.db;
  await here.start(t.db);
  await there.start(other);
});
afterAll(async () => {
  await here.stop();
  await there.stop();
  if (other !== t.db) await other.close();
  await t.drop();
});

let n = 0;
/** A document key and the shipment tag it is built from, new for each test. */
function doc() {
  const id = `00000000-0000-4000-8000-${String(n++).padStart(12, '0')}`;
  return { key: `acct /v2/containers/${id}`, tag: changeTag.shipment(id), body: Buffer.from(`{"data":{"id":"${id}"}}`) };
}

const keep = (cache: DocumentCache, d: ReturnType<typeof doc>, tags = [d.tag]) => cache.set(d.key, d.body, tags, cache.epoch());

describe('rendered documents kept in the process until what they were built from changes', () => {
  it('serves a kept document; keeps nothing while not listening', async () => {
    const d = doc();
    keep(here, d);
    expect(here.get(d.key)?.toString()).toBe(d.body.toString());

    const idle = new DocumentCache(clock);
    keep(idle, d);
    expect(idle.get(d.key)).toBeUndefined();
  });

  it('keeps nothing when given no memory (TIDEMARK_DOCUMENT_CACHE_MB=0), even once started', async () => {
    const off = new DocumentCache(clock, { maxBytes: 0 });
    await off.start(t.db);
    try {
      const d = doc();
      keep(off, d);
      expect(off.get(d.key)).toBeUndefined();
      // Not even listening: a lookup is not counted as a miss.
      expect(off.stats()).toMatchObject({ entries: 0, hits: 0, misses: 0 });
    } finally {
      await off.stop();
    }
  });

  it('drops the documents built from what a transaction changed at its commit, in the writing process at once', async () => {
    const [a, b] = [doc(), doc()];
    keep(here, a);
    keep(here, b);
    await t.db.transaction(async (tx) => {
      changed(tx, [a.tag]);
      // Not before the commit: a read now still sees the old rows.
      expect(here.get(a.key)).toBeDefined();
    });
    expect(here.get(a.key)).toBeUndefined();
    expect(here.get(b.key)).toBeDefined();
  });

  it('drops nothing for a transaction rolled back', async () => {
    const d = doc();
    keep(here, d);
    await expect(
      t.db.transaction(async (tx) => {
        changed(tx, [d.tag]);
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    await new Promise((r) => setTimeout(r, 50));
    expect(here.get(d.key)).toBeDefined();
  });

  it('another process hears the change and drops its document', async () => {
    const d = doc();
    keep(there, d);
    await t.db.transaction(async (tx) => changed(tx, [d.tag]));
    await vi.waitFor(() => expect(there.get(d.key)).toBeUndefined(), { timeout: 5000 });
  });

  it('many changes at once reach the other process (several NOTIFY messages when one would be too long)', async () => {
    const docs = Array.from({ length: 400 }, () => doc());
    for (const d of docs) keep(there, d);
    await t.db.transaction(async (tx) =>
      changed(
        tx,
        docs.map((d) => d.tag),
      ),
    );
    await vi.waitFor(() => expect(docs.filter((d) => there.get(d.key)).length).toBe(0), { timeout: 5000 });
  });

  it('does not keep a document read while something it was built from changed', async () => {
    const d = doc();
    const epoch = here.epoch();
    // The read is under way when another writer commits …
    await t.db.transaction(async (tx) => changed(tx, [d.tag]));
    // … so what it read may predate the write: not kept.
    here.set(d.key, d.body, [d.tag], epoch);
    expect(here.get(d.key)).toBeUndefined();
    // A change of something else does not stop it.
    const e = doc();
    const before = here.epoch();
    await t.db.transaction(async (tx) => changed(tx, [changeTag.shipment('elsewhere')]));
    here.set(e.key, e.body, [e.tag], before);
    expect(here.get(e.key)).toBeDefined();
  });

  it('forgets a document after its time to live', () => {
    const d = doc();
    keep(here, d);
    clock.advance(59_000);
    expect(here.get(d.key)).toBeDefined();
    clock.advance(2_000);
    expect(here.get(d.key)).toBeUndefined();
  });

  it('keeps within its size, the least recently used going first, and still drops what is left by tag', async () => {
    const small = new DocumentCache(clock, { maxBytes: 1000 });
    await small.start(t.db);
    try {
      const docs = Array.from({ length: 20 }, () => doc());
      for (const d of docs) keep(small, d, [d.tag, changeTag.account('acct')]);
      expect(small.stats().bytes).toBeLessThanOrEqual(1000);
      expect(small.get(docs[0]!.key)).toBeUndefined();
      const last = docs.at(-1)!;
      expect(small.get(last.key)).toBeDefined();
      await t.db.transaction(async (tx) => changed(tx, [changeTag.account('acct')]));
      expect(docs.filter((d) => small.get(d.key)).length).toBe(0);
    } finally {
      await small.stop();
    }
  });

  it.skipIf(!onServer())('drops everything when its listening connection was lost (messages may have been missed)', async () => {
    const d = doc();
    keep(there, d);
    await t.db.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'tidemark listen'",
    );
    // Back after a reconnect (a second): whatever was kept before is gone, and keeping works again.
    await vi.waitFor(() => expect(there.get(d.key)).toBeUndefined(), { timeout: 10_000 });
    await vi.waitFor(
      () => {
        const e = doc();
        keep(there, e);
        expect(there.get(e.key)).toBeDefined();
      },
      { timeout: 10_000 },
    );
  });
});
