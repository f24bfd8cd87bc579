// The board judges containers in the database, on the pickup facts kept with each (migrations 0019-0022), and the web app
// and the API show the attention tracking/attention.ts judges from the snapshot. These tests hold the two together
// over many containers and times (zones a day apart, a daylight-saving change, unknown zones, rail moves, off-dock
// yards), hold the board's status list to its index, and hold an upgrade (migration 0020's backfill of the facts of
// its time, then the re-derivation under the current rules) to pickupFacts.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../storage/migrate.js';
import { BOARD_STATUSES } from '../storage/repositories/containers.js';
import { attentionOf, BOARD_KINDS, isKind, pickupFacts } from '../tracking/attention.js';
import { type ContainerSnapshot, deriveContainer, emptyContainer } from '../tracking/snapshot.js';
import { type TestApp, testApp } from '../../test/kit/app.js';
import { seedShipment } from '../../test/kit/seed.js';
import { seededRandom } from '../../test/kit/random.js';
import { Rederivation } from './rederive.js';

const ZONES = ['America/Los_Angeles', 'America/Chicago', 'America/New_York', 'Asia/Tokyo', 'Pacific/Kiritimati', null, 'Mars/Olympus'];
/**
 * Where the generated boxes are: each a status the engine derives from the facts set for it (`loaded`, a drayage
 * state nothing derives, is set over a box that was available), and, for rail moves, at the inland ramp or not.
 */
const STATUSES = [
  'available',
  'not_available',
  'grounded',
  'off_dock',
  'on_rail',
  'awaiting_inland_transfer',
  'loaded',
  'picked_up',
  'new',
  'on_ship',
] as const;
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

/**
 * Containers with every combination the board judges, at random: each a box's facts (position, the terminal's and
 * the ramp's word on availability, holds, fees, the line's, terminal's and railroad's last free days in the POD's and
 * the inland zone) derived by the engine's rules (deriveContainer), so that availability, the binding last free day
 * and its calendar are the ones a stored container has.
 */
function snapshots(n: number): ((number: string) => ContainerSnapshot)[] {
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
    rand() < 0.3 ? null : new Date(Date.parse('2026-03-09T00:00:00Z') + Math.round((rand() - 0.5) * 12 * 86_400_000)).toISOString();
  const at = (day: string) => `2026-03-${day}T12:00:00.000Z`;
  return Array.from({ length: n }, () => {
    const status = pick(rand, STATUSES);
    const atRamp = ['available', 'not_available', 'grounded'].includes(status) && rand() < 0.3;
    const railMove =
      atRamp ||
      status === 'on_rail' ||
      status === 'awaiting_inland_transfer' ||
      (['picked_up', 'new', 'on_ship'].includes(status) && rand() < 0.3);
    const facts: Partial<ContainerSnapshot> = {
      rail_move: railMove,
      pod_timezone: pick(rand, ZONES),
      final_destination_timezone: pick(rand, ZONES),
      holds_at_pod_terminal: holds(),
      ind_facility_holds: holds(),
      pickup_lfd_line: lfd(),
      pickup_lfd_terminal: lfd(),
      pickup_lfd_rail: railMove ? lfd() : null,
      fees_at_pod_terminal: pick(rand, [
        null,
        [],
        [{ type: 'demurrage' as const, amount: 150, currency_code: 'USD' }],
        [{ type: 'demurrage' as const, amount: 0, currency_code: 'USD' }],
        [{ type: 'total' as const, amount: 300, currency_code: 'USD' }],
      ]),
      // A terminal's or ramp's word counts only where the box is; elsewhere it is said and ignored.
      pod_terminal_available_for_pickup: pick(rand, [true, false, null]),
      ind_facility_available_for_pickup: railMove ? pick(rand, [false, null]) : null,
    };
    if (status !== 'new') facts.pol_vessel_departed_at = at('01');
    if (!['new', 'on_ship'].includes(status)) facts.pod_discharged_at = at('02');
    const availability = { available: true, not_available: false, grounded: null } as Record<string, boolean | null>;
    if (atRamp) {
      Object.assign(facts, { pod_rail_departed_at: at('03'), ind_rail_unloaded_at: at('04') });
      facts.ind_facility_available_for_pickup = availability[status]!;
    } else if (status in availability) facts.pod_terminal_available_for_pickup = availability[status]!;
    if (status === 'off_dock') facts.pod_terminal_off_dock = true;
    if (status === 'on_rail') facts.pod_rail_departed_at = at('03');
    if (status === 'loaded') facts.pod_terminal_available_for_pickup = true;
    if (status === 'picked_up') facts[railMove ? 'final_destination_full_out_at' : 'pod_full_out_at'] = at('05');
    return (number: string) => {
      const snapshot = deriveContainer({ ...emptyContainer(number), ...facts }, null);
      if (status === 'loaded') return { ...snapshot, current_status: 'loaded' };
      // The generator says what it means: the engine puts the box where it was meant to be.
      if (snapshot.current_status !== status) throw new Error(`${number}: meant ${status}, derived ${snapshot.current_status}`);
      return snapshot;
    };
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
    const containers = all.slice(s * 4, s * 4 + 4).map((make, i) => make(`MSKU${String(s * 10 + i).padStart(7, '0')}`));
    const { containerIds } = await seedShipment(t, accountId, {
      bl: `MAEU${700000 + s}`,
      stopped,
      containers: containers.map((snapshot) => ({ number: snapshot.number, snapshot })),
    });
    containerIds.forEach((id, i) => {
      seeded.push({ id, snapshot: containers[i]!, created: s, stopped });
    });
  }
  // Edge cases of stored data, set by hand: a zone in lower case (Intl takes it), last free days no calendar can hold.
  const edges: Partial<ContainerSnapshot>[] = [
    {
      current_status: 'available',
      pod_timezone: 'america/chicago',
      pickup_lfd_binding: '2026-03-09T05:00:00Z',
      pickup_lfd_binding_timezone: 'america/chicago',
    },
    {
      current_status: 'available',
      available_for_pickup: true,
      pod_timezone: 'Asia/Tokyo',
      pickup_lfd_binding: '+010000-01-01T00:00:00.000Z',
      pickup_lfd_binding_timezone: 'Asia/Tokyo',
    },
    {
      current_status: 'grounded',
      pod_timezone: 'America/New_York',
      pickup_lfd_binding: '0000-06-01T00:00:00.000Z',
      pickup_lfd_binding_timezone: 'America/New_York',
    },
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
  await seedShipment(t, other.account.id, { bl: 'MAEU1', containers: [{ number: 'MSKU9070323', snapshot: all[0]!('MSKU9070323') }] });
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

  it("keeps the board's status list and its index's predicate the same", async () => {
    const statuses = (sql: string) => [...sql.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]).sort();
    // The newest migration that makes the index, and the index the database has.
    const files = readdirSync(MIGRATIONS_DIR)
      .filter((f) => f.endsWith('.sql'))
      .sort();
    const making = files
      .map((f) => readFileSync(`${MIGRATIONS_DIR}/${f}`, 'utf8'))
      .filter((sql) => sql.includes('CREATE INDEX containers_board_facts_idx'));
    const predicate = making.at(-1)!.slice(making.at(-1)!.indexOf('CREATE INDEX containers_board_facts_idx'));
    const wanted = statuses(BOARD_STATUSES);
    expect(wanted).toEqual(['delivered', 'dropped', 'empty_returned', 'loaded', 'new', 'on_ship', 'picked_up']);
    expect(statuses(predicate.slice(predicate.indexOf('WHERE'), predicate.indexOf(';')))).toEqual(wanted);
    const [index] = await t.services.db.query<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE indexname = 'containers_board_facts_idx'",
    );
    expect(statuses(index!.indexdef.slice(index!.indexdef.indexOf('WHERE')))).toEqual(wanted);
  });

  it("an upgrade (migration 0020's backfill of the facts of its time, then the re-derivation) leaves the facts pickupFacts derives, and the board then agrees again", async () => {
    const backfill = readFileSync(`${MIGRATIONS_DIR}/0020_board_facts_backfill.sql`, 'utf8');
    expect(backfill).toContain('UPDATE containers');
    // A container marked delivered by hand before the facts were kept: the mark taken back after the upgrade must
    // bring it back to the board with its facts.
    const marked = seeded.find((c) => !c.stopped && c.snapshot.current_status === 'available' && c.snapshot.available_for_pickup === true)!;
    t.clock.set('2026-03-09T12:00:00Z');
    await t.services.containers.update(accountId, marked.id, { deliveredAt: new Date('2026-03-09T11:00:00Z') });
    await t.services.db.exec(
      'UPDATE containers SET pickup_zone = NULL, pickup_lfd_day = NULL, pickup_holds = 0, pickup_available = false, pickup_billed = false',
    );
    // 0020 fills the facts of the rules of its time (the line's last free day first), and none for off-dock boxes,
    // which were not on the board then: the re-derivation at the first start after the upgrade writes everyone's.
    await t.services.db.exec(backfill);
    await t.services.db.query('UPDATE derivation SET version = 0');
    const rederived = await new Rederivation({ db: t.services.db, wall: t.clock }).run();
    expect(rederived).toMatchObject({ ran: true, skipped: [] });
    await t.services.containers.update(accountId, marked.id, { deliveredAt: null });
    const rows = await t.services.db.query<{
      id: string;
      candidate: boolean;
      snapshot: ContainerSnapshot;
      zone: string | null;
      lfd_day: string | null;
      holds: number;
      available: boolean;
      billed: boolean;
    }>(
      `SELECT id, ${BOARD_STATUSES} AS candidate, snapshot, pickup_zone AS zone, to_char(pickup_lfd_day, 'YYYY-MM-DD') AS lfd_day,
         pickup_holds AS holds, pickup_available AS available, pickup_billed AS billed
       FROM containers c WHERE account_id = $1`,
      [accountId],
    );
    expect(rows.filter((r) => r.candidate).length).toBeGreaterThan(100);
    const byId = new Map(seeded.map((c) => [c.id, c]));
    let offDock = 0;
    for (const r of rows) {
      const { id, candidate: _, snapshot, ...facts } = r;
      expect(facts, id).toEqual(pickupFacts(snapshot));
      // The boxes were derived by these rules already (the generator's) and stay as they were; the edges set by
      // hand, and the drayage state no rule derives, are derived now.
      const c = byId.get(id)!;
      if (c.created < 60 && c.snapshot.current_status !== 'loaded') expect(snapshot, id).toEqual(c.snapshot);
      if (snapshot.current_status === 'off_dock') offDock++;
      c.snapshot = snapshot;
    }
    expect(offDock).toBeGreaterThan(5);
    await expectBoardAsJudged();
  });
});
