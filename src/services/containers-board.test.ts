// The board judges containers in the database, on the pickup facts kept with each (migrations 0019-0021), and the web app
// and the API show the attention tracking/attention.ts judges from the snapshot. These tests hold the two together
// over many containers and times (zones a day apart, a daylight-saving change, unknown zones, rail moves), and hold
// the migration's backfill of existing rows to pickupFacts.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../storage/migrate.js';
import { attentionOf, BOARD_KINDS, isKind, pickupFacts } from '../tracking/attention.js';
import { type ContainerSnapshot, emptyContainer } from '../tracking/snapshot.js';
import { type TestApp, testApp } from '../../test/kit/app.js';
import { seedShipment } from '../../test/kit/seed.js';
import { seededRandom } from '../../test/kit/random.js';

const ZONES = ['America/Los_Angeles', 'America/Chicago', 'America/New_York', 'Asia/Tokyo', 'Pacific/Kiritimati', null, 'Mars/Olympus'];
const STATUSES = ['available', 'not_available', 'grounded', 'on_rail', 'awaiting_inland_transfer', 'loaded', 'picked_up', 'new', 'on_ship'];
/** World times: midnight edges in several zones, and both sides of the US clocks going forward (8 March 2026). */
const TIMES = [
  '2026-03-01T12:00:00Z',
  '2026-03-07T07:59:00Z',
  '2026-03-07T08:01:00Z',
  '2026-03-08T10:30:00Z',
  '2026-03-09T06:59:00Z',
  '2026-03-09T14:59:00Z',
  '2026-03-09T15:00:00Z',
  '2026-03-12T23:30:00Z',
];

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)]!;
}

/** Containers with every combination the board judges, at random. */
function snapshots(n: number): Partial<ContainerSnapshot>[] {
  const rand = seededRandom(20261125);
  const holds = () =>
    pick(rand, [
      null,
      [],
      [{ name: 'customs' as const, status: 'hold' as const, description: null }],
      [
        { name: 'freight' as const, status: 'pending' as const, description: null },
        { name: 'customs' as const, status: 'hold' as const, description: null },
        { name: 'other' as const, status: 'hold' as const, description: 'USDA' },
      ],
    ]);
  // Last free days as the sources give them: a local midnight or any instant, from days before to days after.
  const lfd = () =>
    rand() < 0.15 ? null : new Date(Date.parse('2026-03-09T00:00:00Z') + Math.round((rand() - 0.5) * 12 * 86_400_000)).toISOString();
  return Array.from({ length: n }, () => {
    const railMove = rand() < 0.3;
    const pickup = lfd();
    const railLfd = railMove && rand() < 0.6 ? pickup : lfd();
    return {
      current_status: pick(rand, STATUSES) as ContainerSnapshot['current_status'],
      available_for_pickup: pick(rand, [true, false, null]),
      pod_timezone: pick(rand, ZONES),
      final_destination_timezone: pick(rand, ZONES),
      holds_at_pod_terminal: holds(),
      ind_facility_holds: holds(),
      rail_move: railMove,
      pickup_lfd: pickup,
      pickup_lfd_rail: railLfd,
      fees_at_pod_terminal: pick(rand, [
        null,
        [],
        [{ type: 'demurrage' as const, amount: 150, currency_code: 'USD' }],
        [{ type: 'demurrage' as const, amount: 0, currency_code: 'USD' }],
        [{ type: 'total' as const, amount: 300, currency_code: 'USD' }],
      ]),
    } as Partial<ContainerSnapshot>;
  });
}

let t: TestApp;
let accountId: string;
/** Every container of the account: id, snapshot, its shipment's place in creation order, whether that is stopped. */
const seeded: { id: string; snapshot: ContainerSnapshot; created: number; stopped: boolean }[] = [];

beforeAll(async () => {
  t = await testApp();
  ({
    account: { id: accountId },
  } = await t.account());
  const other = await t.account();
  const all = snapshots(240);
  for (let s = 0; s < all.length / 4; s++) {
    const stopped = s % 9 === 4;
    const containers = all
      .slice(s * 4, s * 4 + 4)
      .map((snapshot, i) => ({ number: `MSKU${String(s * 10 + i).padStart(7, '0')}`, snapshot }));
    const { containerIds } = await seedShipment(t, accountId, { bl: `MAEU${700000 + s}`, stopped, containers });
    containerIds.forEach((id, i) => {
      seeded.push({ id, snapshot: { ...emptyContainer(containers[i]!.number), ...containers[i]!.snapshot }, created: s, stopped });
    });
  }
  // Edge cases of the sources' data: a zone in lower case (Intl takes it), last free days no calendar can hold.
  const edges: Partial<ContainerSnapshot>[] = [
    { current_status: 'available', pod_timezone: 'america/chicago', pickup_lfd: '2026-03-09T05:00:00Z' },
    { current_status: 'available', available_for_pickup: true, pod_timezone: 'Asia/Tokyo', pickup_lfd: '+010000-01-01T00:00:00.000Z' },
    { current_status: 'grounded', pod_timezone: 'America/New_York', pickup_lfd: '0000-06-01T00:00:00.000Z' },
  ];
  const edgeNumbers = edges.map((_, i) => `TGHU${String(i).padStart(7, '0')}`);
  const edgeShipment = await seedShipment(t, accountId, {
    bl: 'MAEU799999',
    containers: edges.map((snapshot, i) => ({ number: edgeNumbers[i]!, snapshot })),
  });
  edgeShipment.containerIds.forEach((id, i) => {
    seeded.push({ id, snapshot: { ...emptyContainer(edgeNumbers[i]!), ...edges[i]! }, created: all.length, stopped: false });
  });
  // Another account's containers never show.
  await seedShipment(t, other.account.id, { bl: 'MAEU1', containers: [{ number: 'MSKU9070323', snapshot: all[0] }] });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

/** The board as attentionOf judges it, the way it was judged before the facts were kept: the reference. */
function expected(now: Date) {
  const judged = seeded
    .filter((c) => !c.stopped && !['new', 'on_ship'].includes(c.snapshot.current_status))
    .map((c) => ({ ...c, attention: attentionOf(c.snapshot, now) }))
    .filter((c) => c.attention.needs_action)
    .sort(
      (a, b) =>
        (a.attention.lfd_days_left ?? Number.POSITIVE_INFINITY) - (b.attention.lfd_days_left ?? Number.POSITIVE_INFINITY) ||
        b.attention.holds.length - a.attention.holds.length ||
        // The newest first (a shipment's containers share its time: then by id, descending).
        b.created - a.created ||
        (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
    );
  const counts: Record<string, number> = { needs_action: judged.length };
  for (const kind of BOARD_KINDS) counts[kind] = judged.filter((c) => isKind(c.attention, kind)).length;
  return { judged, counts };
}

async function expectBoardAsJudged(): Promise<void> {
  for (const at of TIMES) {
    t.clock.set(at);
    const now = new Date(at);
    const want = expected(now);
    const got = await t.services.containers.board(accountId, { limit: 1000, offset: 0 });
    expect(got.counts, at).toEqual(want.counts);
    expect(
      got.items.map((c) => c.id),
      at,
    ).toEqual(want.judged.map((c) => c.id));
    expect(
      got.items.map((c) => c.attention),
      at,
    ).toEqual(want.judged.map((c) => c.attention));
    for (const kind of BOARD_KINDS) {
      const one = await t.services.containers.board(accountId, { limit: 1000, offset: 0 }, kind);
      expect(
        one.items.map((c) => c.id),
        `${at} ${kind}`,
      ).toEqual(want.judged.filter((c) => isKind(c.attention, kind)).map((c) => c.id));
      expect(one.total).toBe(want.counts[kind]);
    }
    // Pages are slices of the same order.
    const page = await t.services.containers.board(accountId, { limit: 7, offset: 7 });
    expect(page.items.map((c) => c.id)).toEqual(want.judged.slice(7, 14).map((c) => c.id));
  }
}

describe('the board judged in the database', () => {
  it('agrees with attentionOf for every container and kind, at days and edges across zones', async () => {
    // The data must exercise every kind at some time, or the comparison proves little.
    const seen = new Set<string>();
    for (const at of TIMES) for (const [kind, n] of Object.entries(expected(new Date(at)).counts)) if (n > 0) seen.add(kind);
    expect([...seen].sort()).toEqual([...BOARD_KINDS, 'needs_action'].sort());
    await expectBoardAsJudged();
  });

  it("migration 0020's backfill derives the facts pickupFacts does, and the board then agrees again", async () => {
    const backfill = readFileSync(`${MIGRATIONS_DIR}/0020_board_facts_backfill.sql`, 'utf8');
    expect(backfill).toContain('UPDATE containers');
    // A container marked delivered by hand before the facts were kept: the mark taken back after the migration must
    // bring it back to the board with its facts.
    const marked = seeded.find((c) => !c.stopped && c.snapshot.current_status === 'available' && c.snapshot.available_for_pickup === true)!;
    t.clock.set('2026-03-09T12:00:00Z');
    await t.services.containers.update(accountId, marked.id, { deliveredAt: new Date('2026-03-09T11:00:00Z') });
    await t.services.db.exec(
      'UPDATE containers SET pickup_zone = NULL, pickup_lfd_day = NULL, pickup_holds = 0, pickup_available = false, pickup_billed = false',
    );
    await t.services.db.exec(backfill);
    await t.services.containers.update(accountId, marked.id, { deliveredAt: null });
    const rows = await t.services.db.query<{
      id: string;
      zone: string | null;
      lfd_day: string | null;
      holds: number;
      available: boolean;
      billed: boolean;
    }>(
      `SELECT id, pickup_zone AS zone, to_char(pickup_lfd_day, 'YYYY-MM-DD') AS lfd_day, pickup_holds AS holds,
         pickup_available AS available, pickup_billed AS billed
       FROM containers WHERE account_id = $1 AND current_status NOT IN ('picked_up', 'delivered', 'empty_returned', 'off_dock', 'dropped', 'new', 'on_ship')`,
      [accountId],
    );
    expect(rows.length).toBeGreaterThan(100);
    const byId = new Map(seeded.map((c) => [c.id, c]));
    for (const r of rows) {
      const { id, ...facts } = r;
      expect(facts, id).toEqual(pickupFacts(byId.get(id)!.snapshot));
    }
    await expectBoardAsJudged();
  });
});
