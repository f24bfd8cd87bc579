// meta.total of the shipment, container, tracking request and webhook notification lists (issue 10): unfiltered, it
// is the account's count kept by the triggers of migrations 0012 and 0015; filtered, COUNT(*). Either way it must equal what COUNT(*) says
// after creates, deletes (cascades included), rollbacks, bulk statements over several accounts, writes from
// other sessions, and the migration's backfill of rows that were there before it. Runs on PGlite, and on the
// PostgreSQL server too with TEST_DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { loadMigrations } from '../../src/storage/migrate.js';
import { PgDb } from '../../src/storage/pg.js';
import { insertAccountEvents } from '../../src/storage/repositories/tracking.js';
import { insertTrackingRequest } from '../../src/storage/repositories/tracking-requests.js';
import type { Queryable } from '../../src/storage/db.js';
import { testApp, type TestApp } from '../kit/app.js';
import { onServer } from '../kit/databases.js';
import { seedShipment } from '../kit/seed.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t?.close());

const LISTS = { shipments: '/v2/shipments', containers: '/v2/containers', tracking_requests: '/v2/tracking_requests' } as const;
type Table = keyof typeof LISTS;
const TABLES = Object.keys(LISTS) as Table[];
type Auth = { authorization: string };

async function get(auth: Auth, url: string) {
  const res = await t.app.inject({ url, headers: auth });
  expect(res.statusCode, `${url} ${res.body}`).toBe(200);
  return res.json() as { data: { id: string }[]; meta: { total: number; size: number }; links: Record<string, string> };
}

/** meta.total of each unfiltered list. */
async function totals(auth: Auth): Promise<Record<Table, number>> {
  const out = {} as Record<Table, number>;
  for (const table of TABLES) out[table] = (await get(auth, `${LISTS[table]}?page[size]=5`)).meta.total;
  return out;
}

/** COUNT(*) of each table for the account: the truth. */
async function counted(accountId: string, q: Queryable = t.services.db): Promise<Record<Table, number>> {
  const out = {} as Record<Table, number>;
  for (const table of TABLES) {
    const [row] = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE account_id = $1`, [accountId]);
    out[table] = row!.n;
  }
  return out;
}

async function expectTotals(who: { account: { id: string }; auth: Auth }, expected?: Record<Table, number>) {
  const truth = await counted(who.account.id);
  if (expected) expect(truth).toEqual(expected);
  expect(await totals(who.auth)).toEqual(truth);
}

async function addRequests(q: Queryable, accountId: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    t.clock.advance(1000);
    const id = newId();
    await insertTrackingRequest(q, {
      id,
      account_id: accountId,
      request_type: 'bill_of_lading',
      request_number: `MAEU${200000 + i}`,
      scac: 'MAEU',
      auto_detect_scac: false,
      ref_numbers: [],
      shipment_tags: [],
      customer_id: null,
      next_attempt_at: null,
      created_at: t.clock.now(),
      updated_at: t.clock.now(),
    });
    ids.push(id);
  }
  return ids;
}

/** Back to the schema before 0012 (its functions take their triggers with them), rows in place; then 0012 and 0015 again. */
async function rerunCounterMigrations() {
  const migrations = loadMigrations().filter((m) => m.version === 12 || m.version === 15);
  expect(migrations).toHaveLength(2);
  await t.services.db.transaction(async (tx) => {
    await tx.exec(`DROP TABLE account_row_counts;
      DROP FUNCTION tidemark_count_rows, tidemark_count_moved_row, tidemark_count_truncated CASCADE;`);
    for (const m of migrations) await tx.exec(m.sql);
  });
}

let serial = 0;
async function addShipment(accountId: string, containers: number) {
  const n = serial++;
  return seedShipment(t, accountId, {
    bl: `MAEU${300000 + n}`,
    containers: Array.from({ length: containers }, (_, i) => ({ number: `MSCU${String(n * 10 + i).padStart(7, '0')}` })),
  });
}

describe('meta.total of the unfiltered lists', () => {
  it('follows creates, bulk statements over several accounts, deletes and their cascades', async () => {
    const a = await t.account();
    const b = await t.account();
    await expectTotals(a, { shipments: 0, containers: 0, tracking_requests: 0 });

    const first = await addShipment(a.account.id, 2);
    await addShipment(a.account.id, 1);
    await addShipment(b.account.id, 3);
    await addRequests(t.services.db, a.account.id, 3);
    await expectTotals(a, { shipments: 2, containers: 3, tracking_requests: 3 });
    await expectTotals(b, { shipments: 1, containers: 3, tracking_requests: 0 });

    // One statement inserting rows of both accounts (as a bulk loader does): counted per account.
    t.clock.advance(1000);
    await t.services.db.query(
      `INSERT INTO tracking_requests (id, account_id, request_type, request_number, status, created_at, updated_at)
       SELECT gen_random_uuid(), CASE WHEN g % 3 = 0 THEN $1::uuid ELSE $2::uuid END, 'container', 'MSCU' || lpad(g::text, 7, '0'),
         'pending', $3, $3
       FROM generate_series(1, 9) g`,
      [a.account.id, b.account.id, t.clock.now()],
    );
    await expectTotals(a, { shipments: 2, containers: 3, tracking_requests: 6 });
    await expectTotals(b, { shipments: 1, containers: 3, tracking_requests: 6 });

    // A shipment's deletion takes its containers with it (ON DELETE CASCADE); requests pointing at it stay.
    await t.services.db.query('UPDATE tracking_requests SET shipment_id = $2 WHERE account_id = $1', [a.account.id, first.id]);
    await t.services.db.query('DELETE FROM shipments WHERE id = $1', [first.id]);
    await expectTotals(a, { shipments: 1, containers: 1, tracking_requests: 6 });
    await t.services.db.query('DELETE FROM containers WHERE account_id = $1', [b.account.id]);
    await t.services.db.query("DELETE FROM tracking_requests WHERE account_id = $1 AND request_type = 'container'", [b.account.id]);
    await expectTotals(b, { shipments: 1, containers: 0, tracking_requests: 0 });
  });

  it('leaves nothing behind when the account is deleted, and the other accounts as they were', async () => {
    const a = await t.account();
    const b = await t.account();
    await addShipment(a.account.id, 2);
    await addRequests(t.services.db, a.account.id, 2);
    await addShipment(b.account.id, 1);
    await t.services.db.query('DELETE FROM accounts WHERE id = $1', [a.account.id]);
    const left = await t.services.db.query('SELECT * FROM account_row_counts WHERE account_id = $1', [a.account.id]);
    expect(left).toEqual([]);
    await expectTotals(b, { shipments: 1, containers: 1, tracking_requests: 0 });
  });

  it('counts nothing that was rolled back', async () => {
    const a = await t.account();
    await addShipment(a.account.id, 1);
    await expect(
      t.services.db.transaction(async (tx) => {
        await addRequests(tx, a.account.id, 2);
        await tx.query('DELETE FROM shipments WHERE account_id = $1', [a.account.id]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await expectTotals(a, { shipments: 1, containers: 1, tracking_requests: 0 });
  });

  it('moves a row between counts if its account ever changes', async () => {
    const a = await t.account();
    const b = await t.account();
    const [request] = await addRequests(t.services.db, a.account.id, 1);
    await t.services.db.query('UPDATE tracking_requests SET account_id = $2 WHERE id = $1', [request, b.account.id]);
    await expectTotals(a, { shipments: 0, containers: 0, tracking_requests: 0 });
    await expectTotals(b, { shipments: 0, containers: 0, tracking_requests: 1 });
  });

  it.skipIf(!onServer())('adds up what several sessions wrote at once, each in its own slot (server only)', async () => {
    const a = await t.account();
    const pools = [1, 2, 3].map(() => new PgDb(t.database.url!, { max: 2 }));
    try {
      // Four transactions per pool, all open at once: none waits on another's counter row.
      await Promise.all(pools.flatMap((pool) => [1, 2, 3, 4].map(() => pool.transaction((tx) => addRequests(tx, a.account.id, 3)))));
    } finally {
      await Promise.all(pools.map((p) => p.close()));
    }
    await expectTotals(a, { shipments: 0, containers: 0, tracking_requests: 36 });
    const [slots] = await t.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM account_row_counts WHERE account_id = $1', [
      a.account.id,
    ]);
    expect(slots!.n).toBeGreaterThan(1);
  });

  it('backfills the rows that were there before the migration', async () => {
    const a = await t.account();
    const b = await t.account();
    await addShipment(a.account.id, 3);
    await addShipment(a.account.id, 1);
    await addRequests(t.services.db, b.account.id, 4);
    await rerunCounterMigrations();
    await expectTotals(a, { shipments: 2, containers: 4, tracking_requests: 0 });
    await expectTotals(b, { shipments: 0, containers: 0, tracking_requests: 4 });
    // And the triggers are back.
    await addShipment(b.account.id, 2);
    await expectTotals(b, { shipments: 1, containers: 2, tracking_requests: 4 });
  });
});

describe('where the total comes from', () => {
  it('unfiltered: the kept count (a count set by hand shows); filtered: COUNT(*)', async () => {
    const a = await t.account();
    await addShipment(a.account.id, 1);
    // Into one of the account's slots: its rows may have been counted in several (one per session that wrote them).
    await t.services.db.query(
      `UPDATE account_row_counts SET shipments = shipments + 40
       WHERE account_id = $1 AND slot = (SELECT min(slot) FROM account_row_counts WHERE account_id = $1)`,
      [a.account.id],
    );
    expect((await get(a.auth, '/v2/shipments')).meta).toMatchObject({ size: 1, total: 41 });
    expect((await get(a.auth, '/v2/shipments?filter[q]=MAEU')).meta).toMatchObject({ size: 1, total: 1 });
  });
});

describe('pages and filtered totals', () => {
  it('pages newest first through every list, deep pages included, with the last page link from the total', async () => {
    const a = await t.account();
    const other = await t.account();
    for (let i = 0; i < 12; i++) await addShipment(a.account.id, 1);
    await addShipment(other.account.id, 1);
    await addRequests(t.services.db, a.account.id, 12);
    for (const table of TABLES) {
      const [row] = await t.services.db.query<{ ids: string[] }>(
        `SELECT array_agg(id ORDER BY created_at DESC, id DESC) AS ids FROM ${table} WHERE account_id = $1`,
        [a.account.id],
      );
      const all = row!.ids;
      expect(all).toHaveLength(12);
      const seen: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const doc = await get(a.auth, `${LISTS[table]}?page[number]=${page}&page[size]=5`);
        expect(doc.meta.total, table).toBe(12);
        expect(doc.links.last, table).toContain('page[number]=3');
        seen.push(...doc.data.map((d) => d.id));
      }
      expect(seen, table).toEqual(all);
      const beyond = await get(a.auth, `${LISTS[table]}?page[number]=4&page[size]=5`);
      expect(beyond.data).toEqual([]);
      expect(beyond.meta.total).toBe(12);
    }
  });

  it('counts filtered lists with COUNT(*): a short first page, a full page, a page past the end', async () => {
    const a = await t.account();
    for (let i = 0; i < 7; i++) await addShipment(a.account.id, 1);
    const requests = await addRequests(t.services.db, a.account.id, 7);
    await t.services.db.query(`UPDATE tracking_requests SET status = 'failed' WHERE id = ANY($1::uuid[])`, [requests.slice(0, 5)]);
    const lists = [
      { url: '/v2/shipments?filter[q]=MAEU', total: 7 },
      { url: '/v2/containers?filter[number]=NOPE0000000', total: 0 },
      { url: '/v2/tracking_requests?filter[status]=failed', total: 5 },
    ];
    for (const { url, total } of lists) {
      for (const [query, size] of [
        ['page[size]=30', Math.min(total, 30)],
        ['page[size]=2', Math.min(total, 2)],
        ['page[size]=2&page[number]=9', 0],
      ] as const) {
        const doc = await get(a.auth, `${url}&${query}`);
        expect(doc.meta, `${url}&${query}`).toMatchObject({ size, total });
      }
    }
  });
});

describe('a truncated table', () => {
  it('counts zero for every account', async () => {
    const own = await testApp();
    try {
      const a = await own.account();
      await seedShipment(own, a.account.id, { bl: 'MAEU999', containers: [{ number: 'MSCU1234565' }] });
      await own.services.db.exec('TRUNCATE shipments CASCADE');
      const [row] = await own.services.db.query<{ s: number; c: number; r: number }>(
        `SELECT sum(shipments)::int AS s, sum(containers)::int AS c, sum(tracking_requests)::int AS r FROM account_row_counts`,
      );
      expect(row).toEqual({ s: 0, c: 0, r: 0 });
    } finally {
      await own.close();
    }
  });
});

describe('meta.total of /v2/webhook_notifications', () => {
  async function addWebhook(account: { id: string; features: readonly string[] }, events: string[]) {
    return t.services.webhooks.create(account, { url: 'https://receiver.example/hooks', events });
  }

  /** Account events in one statement, as a refresh writes them; each makes a notification per subscribed webhook. */
  async function addEvents(q: Queryable, accountId: string, events: string[]) {
    t.clock.advance(1000);
    const rows = events.map((event) => ({
      id: newId(),
      account_id: accountId,
      event,
      tracking_request_id: null,
      shipment_id: null,
      container_id: null,
      transport_event_id: null,
      estimated_event_id: null,
      payload: {},
      occurred_at: t.clock.now(),
    }));
    await insertAccountEvents(q, rows, t.clock.now());
  }

  async function expectNotifications(who: { account: { id: string }; auth: Auth }, expected: number) {
    const [row] = await t.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_notifications WHERE account_id = $1', [
      who.account.id,
    ]);
    expect(row!.n).toBe(expected);
    expect((await get(who.auth, '/v2/webhook_notifications?page[size]=2')).meta.total).toBe(expected);
  }

  it('follows the outbox inserts, webhook deletions (cascade), rollbacks, the backfill; filtered lists count', async () => {
    const a = await t.account();
    const b = await t.account();
    await expectNotifications(a, 0);
    const all = await addWebhook(a.account, ['tracking_request.failed', 'tracking_request.succeeded']);
    const arrivals = await addWebhook(a.account, ['tracking_request.failed']);
    await addWebhook(b.account, ['tracking_request.succeeded']);

    await addEvents(t.services.db, a.account.id, ['tracking_request.failed', 'tracking_request.succeeded', 'tracking_request.failed']);
    await addEvents(t.services.db, b.account.id, ['tracking_request.succeeded', 'tracking_request.failed']);
    await expectNotifications(a, 5);
    await expectNotifications(b, 1);

    // Filtered: counted (a full first page of 2 cannot tell where the list ends).
    const byWebhook = await get(a.auth, `/v2/webhook_notifications?filter[webhook_id]=${all.id}&page[size]=2`);
    expect(byWebhook.meta).toMatchObject({ size: 2, total: 3 });
    const byEvent = await get(a.auth, '/v2/webhook_notifications?filter[event]=tracking_request.failed&page[size]=2');
    expect(byEvent.meta).toMatchObject({ size: 2, total: 4 });

    await expect(
      t.services.db.transaction(async (tx) => {
        await addEvents(tx, a.account.id, ['tracking_request.failed']);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await expectNotifications(a, 5);

    // A deleted webhook takes its notifications with it (ON DELETE CASCADE).
    await t.services.db.query('DELETE FROM webhooks WHERE id = $1', [arrivals.id]);
    await expectNotifications(a, 3);

    await rerunCounterMigrations();
    await expectNotifications(a, 3);
    await expectNotifications(b, 1);
    await addEvents(t.services.db, a.account.id, ['tracking_request.succeeded']);
    await expectNotifications(a, 4);
  });

  it('pages newest first through the notifications, deep pages included', async () => {
    const a = await t.account();
    await addWebhook(a.account, ['tracking_request.failed']);
    for (let i = 0; i < 4; i++) await addEvents(t.services.db, a.account.id, Array(3).fill('tracking_request.failed'));
    const [row] = await t.services.db.query<{ ids: string[] }>(
      'SELECT array_agg(id ORDER BY created_at DESC, id DESC) AS ids FROM webhook_notifications WHERE account_id = $1',
      [a.account.id],
    );
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const doc = await get(a.auth, `/v2/webhook_notifications?page[number]=${page}&page[size]=5`);
      expect(doc.meta.total).toBe(12);
      seen.push(...doc.data.map((d) => d.id));
    }
    expect(seen).toEqual(row!.ids);
  });
});
