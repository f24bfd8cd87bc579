// The full walk (issue 24, "Golden timelines and the full walk"): every named sandbox scenario tracked through the
// HTTP API by one account (every feature, so every event), its world clock pinned to the golden anchor and advanced
// in 12-hour steps through POST /sandbox/clock/advance to the end of the journeys, every webhook notification
// captured by a receiver on loopback and compared, per scenario, with its golden list (test/golden/walk/*.txt).
//
// What is compared: per scenario, the request's events, the shipment's and each container's, each in the order the
// engine recorded them (the account event sequence). The walk is deterministic: one process, a fixed wall clock, the
// world clock moved only by the advances, and each advance stopping at every due time on the way, so every refresh
// happens at the same world time on every run; the sequence per container is therefore stable, and kept (a multiset
// would hide an event announced out of order). Containers are listed by number.
//
// PGlite only: on CI's PostgreSQL pass (TEST_DATABASE_URL set) it is skipped, so it runs once per CI run.
// TIDEMARK_UPDATE_GOLDEN=1 rewrites the lists.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURES, type Feature } from '../../src/domain/account.js';
import { localDate } from '../../src/domain/lfd.js';
import { EVENT_NAMES } from '../../src/domain/event-catalogue.js';
import { type TestApp, testApp } from '../kit/app.js';
import { GOLDEN_ANCHOR, GOLDEN_DIR, HAND_MARK_SCENARIO, HORIZON_MS, readGolden, UPDATE_GOLDEN, writeGolden } from '../kit/golden.js';
import { type Receiver, startReceiver } from '../kit/receiver.js';
import { type Example, unlimited } from '../kit/sandbox-world.js';

const ADMIN = 'admin-token-for-the-sandbox-walk';
/** The stories whose empty return nobody reports: tracking stops by itself instead (`no_updates_at_line`, `past_arrival_window`). */
const NO_EMPTY_RETURN = new Set(['line_silent', 'never_returned']);
const admin = { authorization: `Bearer ${ADMIN}` };
const WALK_DIR = resolve(GOLDEN_DIR, 'walk');
const HOW = 'run `TIDEMARK_UPDATE_GOLDEN=1 npx vitest run test/e2e/sandbox-walk.test.ts` and review the diff';

interface Walked {
  accountId: string;
  examples: Example[];
  /** Per scenario, the golden list's text. */
  lists: Map<string, string>;
  notifications: number;
  advances: number;
  seconds: number;
  /** The hand-marked container's status after the mark, as the API shows it. */
  markedStatus: string | null;
  /** Scenarios whose tracking request the API refused, with its answer. */
  refused: string[];
}

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('the full walk of the named sandbox scenarios', () => {
  let t: TestApp;
  let receiver: Receiver;
  let walked: Walked;

  beforeAll(async () => {
    const started = Date.now();
    receiver = await startReceiver();
    t = await testApp({
      sandbox: true,
      queue: true,
      worldStart: GOLDEN_ANCHOR,
      env: { TIDEMARK_ADMIN_TOKEN: ADMIN, TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: '1' },
      // The adapters reach the faces over loopback HTTP.
      listen: true,
    });
    const { account, auth } = await t.account({ plan: 'unlimited', features: [...FEATURES] as Feature[] });
    await unlimited(t, account.id);

    const hook = await t.app.inject({
      method: 'POST',
      url: '/v2/webhooks',
      headers: auth,
      payload: { data: { type: 'webhook', attributes: { url: receiver.url, events: [...EVENT_NAMES] } } },
    });
    expect(hook.statusCode, hook.body).toBe(201);

    const res = await t.app.inject({ method: 'GET', url: '/sandbox/examples', headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    const examples = res.json().data as Example[];
    const requestOf = new Map<string, string>();
    const refused: string[] = [];
    for (const e of examples) {
      const created = await t.app.inject({
        method: 'POST',
        url: '/v2/tracking_requests',
        headers: auth,
        payload: {
          data: {
            type: 'tracking_request',
            attributes: {
              request_type: e.request_type,
              request_number: e.request_number,
              ...(e.scac ? { scac: e.scac } : { auto_detect_vocc_scac: true }),
            },
          },
        },
      });
      // A refused request is reported by its own test below; the walk goes on with the others.
      if (created.statusCode === 201) requestOf.set(created.json().data.id, e.scenario);
      else refused.push(`${e.scenario}: ${created.statusCode} ${created.body}`);
    }
    // First attempts at the anchor: every story is first asked about at the golden timelines' instant.
    await t.queue!.runOnce('tracking.attempt');
    await deliverAll(t);

    const handRequest = [...requestOf].find(([, s]) => s === HAND_MARK_SCENARIO)?.[0];
    let handContainer: string | null = null;
    let markedStatus: string | null = null;
    let advances = 0;
    const end = GOLDEN_ANCHOR.getTime() + HORIZON_MS;
    for (let world = GOLDEN_ANCHOR.getTime(); world < end; world += 12 * 3_600_000) {
      // The end of every journey: each request failed or stopped (one query; the API's list would include shipments).
      const [open] = await t.database.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM tracking_requests WHERE status NOT IN ('failed', 'tracking_stopped')`,
      );
      if (open!.n === 0) break;

      const step = await t.app.inject({ method: 'POST', url: '/sandbox/clock/advance', headers: admin, payload: { hours: 12 } });
      expect(step.statusCode, step.body).toBe(200);
      advances++;
      if (process.env.TIDEMARK_WALK_PROGRESS === '1') {
        const body = step.json() as { world_time: string; refreshed: number };
        console.log(`[sandbox walk] ${body.world_time} refreshed ${body.refreshed} at ${Math.round((Date.now() - started) / 1000)} s`);
      }
      await deliverAll(t);

      // The hand mark, as the golden timeline applies it: the first container (by number) of the scenario, marked
      // delivered at the world time of the first step it is seen picked up.
      if (handRequest && markedStatus === null) {
        handContainer ??= await firstContainer(t, handRequest);
        if (handContainer) {
          const c = await t.app.inject({ method: 'GET', url: `/v2/containers/${handContainer}`, headers: auth });
          if (c.json().data.attributes.current_status === 'picked_up') {
            const now = (await t.app.inject({ method: 'GET', url: '/sandbox/clock', headers: auth })).json().world_time as string;
            const marked = await t.app.inject({
              method: 'PATCH',
              url: `/v2/containers/${handContainer}`,
              headers: auth,
              payload: { data: { type: 'container', attributes: { delivered_at: now } } },
            });
            expect(marked.statusCode, marked.body).toBe(200);
            markedStatus = marked.json().data.attributes.current_status;
            await deliverAll(t);
          }
        }
      }
    }

    walked = {
      accountId: account.id,
      examples,
      lists: await goldenLists(t, account.id, receiver, requestOf),
      notifications: receiver.received.length,
      advances,
      seconds: Math.round((Date.now() - started) / 1000),
      markedStatus,
      refused,
    };
    console.log(
      `[sandbox walk] ${examples.length} scenarios, ${advances} advances of 12 h (${(advances / 2).toFixed(1)} world days), ` +
        `${walked.notifications} notifications, ${walked.seconds} s`,
    );
  }, 540_000);

  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('accepts every named scenario’s tracking request', () => {
    expect(walked.refused, 'tracking requests the API refused').toEqual([]);
  });

  it('ends every journey within the horizon: every request failed or stopped', async () => {
    expect(walked.advances * 12 * 3_600_000).toBeLessThan(HORIZON_MS + 1);
    const rows = await t.database.db.query<{ status: string; request_number: string }>(
      `SELECT status, request_number FROM tracking_requests WHERE status NOT IN ('failed', 'tracking_stopped')`,
    );
    expect(rows, 'requests still tracked at the horizon').toEqual([]);
  });

  it('marks the hand-marked container delivered through the API', () => {
    expect(walked.markedStatus, `${HAND_MARK_SCENARIO}: the first container was never seen picked_up`).toBe('delivered');
  });

  it('announces every actual change once per container, in the order it happened, and every returned box ends returned', async () => {
    const rows = await t.database.db.query<{
      container_id: string;
      event: string;
      payload: { transport_event?: { key: string; timestamp: string | null; milestone: string | null; timezone?: string | null } };
    }>(
      `SELECT container_id, event, payload FROM account_events
        WHERE account_id = $1 AND event LIKE 'container.transport.%' AND event NOT LIKE '%.estimated.%' ORDER BY seq`,
      [walked.accountId],
    );
    expect(rows.length).toBeGreaterThan(walked.examples.length * 5);
    const byContainer = new Map<string, { key: string; at: number; day: string | null; dateOnly: boolean; milestone: string | null }[]>();
    for (const r of rows) {
      const e = r.payload.transport_event!;
      const at = Date.parse(e.timestamp ?? '');
      const zone = e.timezone ?? null;
      const day = Number.isNaN(at) ? null : localDate(at, zone);
      // Carriers that give dates only: stored as local midnight, it says "some time that day".
      const dateOnly = !Number.isNaN(at) && localDate(at - 1, zone) !== day;
      byContainer.set(r.container_id, [
        ...(byContainer.get(r.container_id) ?? []),
        { key: e.key, at, day, dateOnly, milestone: e.milestone },
      ]);
    }
    for (const [container, list] of byContainer) {
      expect(new Set(list.map((x) => x.key)).size, container).toBe(list.length);
      // Milestones in the order they happened. Derived availability events carry the time Tidemark noticed (a
      // terminal that gives no out-gate says "not available" before the line reports the full out). A date-only time
      // may be any time of its day: it is in order if its day is not before the previous event's.
      const dated = list.filter((x) => x.milestone !== null && !Number.isNaN(x.at));
      const story = JSON.stringify(dated.map((x) => [x.milestone, new Date(x.at).toISOString()]));
      for (let i = 1; i < dated.length; i++) {
        const [a, b] = [dated[i - 1]!, dated[i]!];
        const inOrder = b.at >= a.at || ((a.dateOnly || b.dateOnly) && b.day !== null && a.day !== null && b.day >= a.day);
        expect(inOrder, `${container}: ${story}`).toBe(true);
      }
    }
    // Every container got as far as its empty return, but in the stories whose return nobody reports.
    const [{ n }] = (await t.database.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM containers c JOIN shipments s ON s.id = c.shipment_id
        WHERE c.account_id = $1 AND c.snapshot->>'empty_terminated_at' IS NULL AND NOT (s.request_number = ANY($2))`,
      [walked.accountId, walked.examples.filter((e) => NO_EMPTY_RETURN.has(e.scenario)).map((e) => e.request_number)],
    )) as [{ n: number }];
    expect(n).toBe(0);
  });

  it('sends exactly the golden notifications, scenario by scenario', () => {
    mkdirSync(WALK_DIR, { recursive: true });
    const failures: string[] = [];
    const tracked = new Set(walked.lists.keys());
    for (const e of walked.examples.filter((x) => tracked.has(x.scenario))) {
      const path = resolve(WALK_DIR, `${e.scenario}.txt`);
      const text = walked.lists.get(e.scenario)!;
      if (UPDATE_GOLDEN) writeGolden(path, text);
      const golden = readGolden(path);
      if (golden !== text) failures.push(e.scenario);
      expect.soft(text, `${e.scenario}: ${golden === null ? 'no golden list' : 'the notifications changed'}: ${HOW}`).toBe(golden);
    }
    const names = new Set(walked.examples.map((e) => e.scenario));
    const stray = readdirSync(WALK_DIR).filter((f) => f.endsWith('.txt') && !names.has(f.slice(0, -4)));
    if (UPDATE_GOLDEN) for (const f of stray) rmSync(resolve(WALK_DIR, f));
    else expect(stray, `golden lists of no named scenario: ${HOW}`).toEqual([]);
  });
});

/** Runs delivery rounds until nothing is due at the test's wall time. */
async function deliverAll(t: TestApp): Promise<void> {
  while ((await t.services.webhookDelivery.deliverDue()) > 0) {}
}

/** The id of the first container (by number) of a request's shipment, once it has one. */
async function firstContainer(t: TestApp, requestId: string): Promise<string | null> {
  const [row] = await t.database.db.query<{ id: string }>(
    `SELECT c.id FROM containers c JOIN tracking_requests r ON r.shipment_id = c.shipment_id WHERE r.id = $1 ORDER BY c.number LIMIT 1`,
    [requestId],
  );
  return row?.id ?? null;
}

/**
 * Every notification the receiver got, attributed to its scenario through its account event (request, shipment,
 * container), as one text per scenario: the request's events, the shipment's, then each container's, in order.
 */
async function goldenLists(
  t: TestApp,
  accountId: string,
  receiver: Receiver,
  requestOf: Map<string, string>,
): Promise<Map<string, string>> {
  const rows = await t.database.db.query<{
    id: string;
    event: string;
    request: string | null;
    shipment: string | null;
    container: string | null;
  }>(
    `SELECT n.id, n.event, COALESCE(e.tracking_request_id, r.id) AS request, e.shipment_id AS shipment, c.number AS container
       FROM webhook_notifications n
       JOIN account_events e ON e.id = n.account_event_id
       LEFT JOIN containers c ON c.id = e.container_id
       LEFT JOIN tracking_requests r ON r.shipment_id = e.shipment_id AND e.tracking_request_id IS NULL
      WHERE n.account_id = $1
      ORDER BY e.seq`,
    [accountId],
  );
  const received = new Set(receiver.received.map((r) => r.json.data.id));
  const byScenario = new Map<string, Map<string, string[]>>();
  const unattributed: string[] = [];
  for (const row of rows) {
    // Only what the receiver really got counts; a notification never delivered is a failure of the walk.
    expect(received.has(row.id), `notification ${row.id} (${row.event}) was never received`).toBe(true);
    const scenario = row.request ? requestOf.get(row.request) : undefined;
    if (!scenario) {
      unattributed.push(row.event);
      continue;
    }
    const key = row.container ?? (row.event.startsWith('tracking_request.') ? 'request' : 'shipment');
    const lists = byScenario.get(scenario) ?? new Map<string, string[]>();
    lists.set(key, [...(lists.get(key) ?? []), row.event]);
    byScenario.set(scenario, lists);
  }
  expect(unattributed, 'notifications of no scenario').toEqual([]);
  expect(received.size, 'every notification received is one of the account’s').toBe(rows.length);
  const out = new Map<string, string>();
  for (const scenario of requestOf.values()) {
    const lists = byScenario.get(scenario) ?? new Map<string, string[]>();
    const keys = [...lists.keys()].filter((k) => k !== 'request' && k !== 'shipment').sort();
    const lines = [
      `# ${scenario}: the webhook notifications of the full walk (test/e2e/sandbox-walk.test.ts), in the order recorded,`,
      `# by request, shipment and container; world clock from ${GOLDEN_ANCHOR.toISOString()}, advanced 12 hours at a time`,
      ...['request', 'shipment', ...keys].flatMap((k) => (lists.get(k) ?? []).map((event) => `${k} ${event}`)),
    ];
    out.set(scenario, `${lines.join('\n')}\n`);
  }
  return out;
}
