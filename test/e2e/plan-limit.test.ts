// Issue 24: "A free account's 11th container answers 422 `plan_limit_reached`", end to end through the sandbox: a
// free account tracks sandbox bills of lading through the HTTP API until it holds 10 containers; a request whose
// shipment would take it past 10 is accepted (the cap counts containers, which only the carrier knows) and then
// failed by the engine with `plan_limit_reached`; once it holds 10, the next request answers 422 at once. The
// walkthrough in docs/sandbox.md ("The free plan's limit") shows the same calls with curl.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tellStory } from '../../src/sandbox/world/index.js';
import { FREE_PLAN_CONTAINER_CAP } from '../../src/services/tracking-requests.js';
import { type TestApp, testApp } from '../kit/app.js';
import { GOLDEN_ANCHOR, GOLDEN_SEED } from '../kit/golden.js';

let t: TestApp;
let auth: { authorization: string };

/** How many containers the story of a Maersk bill of lading has, first asked at the anchor. */
const containersOf = (number: string) =>
  tellStory({ seed: GOLDEN_SEED, scac: 'MAEU', numberType: 'bill_of_lading', number, anchorAt: GOLDEN_ANCHOR }).containers.length;

/**
 * Ordinary Maersk bills of lading that fill the cap exactly (`fill`), and one that would overshoot it by the time
 * the account holds `fill` minus its last number (`overshoot`): the world is deterministic for a fixed seed and anchor.
 */
function chooseNumbers(): { fill: string[]; overshoot: string } {
  const candidates = Array.from({ length: 60 }, (_, i) => `MAEU25${String(i + 1).padStart(7, '0')}`).map((n) => ({
    n,
    k: containersOf(n),
  }));
  const fill: string[] = [];
  let held = 0;
  for (const { n, k } of candidates) {
    if (held + k <= FREE_PLAN_CONTAINER_CAP) {
      fill.push(n);
      held += k;
    }
    if (held === FREE_PLAN_CONTAINER_CAP) break;
  }
  if (held !== FREE_PLAN_CONTAINER_CAP) throw new Error(`no set of candidates fills ${FREE_PLAN_CONTAINER_CAP} containers`);
  const last = containersOf(fill.at(-1)!);
  const overshoot = candidates.find(({ n, k }) => !fill.includes(n) && k > last)?.n;
  if (!overshoot) throw new Error('no candidate overshoots the cap');
  return { fill, overshoot };
}

async function track(number: string) {
  return t.app.inject({
    method: 'POST',
    url: '/v2/tracking_requests',
    headers: auth,
    payload: { data: { type: 'tracking_request', attributes: { request_type: 'bill_of_lading', request_number: number, scac: 'MAEU' } } },
  });
}

async function request(id: string) {
  const res = await t.app.inject({ method: 'GET', url: `/v2/tracking_requests/${id}`, headers: auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.attributes as { status: string; failed_reason: string | null };
}

/** The containers of the account's shipments, as GET /v2/shipments lists them. */
async function containersHeld(): Promise<number> {
  const res = await t.app.inject({ method: 'GET', url: '/v2/shipments?page[size]=100', headers: auth });
  expect(res.statusCode, res.body).toBe(200);
  const shipments = res.json().data as { relationships: { containers: { data: unknown[] } } }[];
  return shipments.reduce((n, s) => n + s.relationships.containers.data.length, 0);
}

beforeAll(async () => {
  t = await testApp({ sandbox: true, queue: true, worldStart: GOLDEN_ANCHOR, listen: true });
  const free = await t.account({ plan: 'free' });
  auth = free.auth;
  // Reading its shipments through the API needs an API trial, which keeps the same cap (docs/api.md "Plans and the API trial").
  await t.services.apiTrial.change(t.database.db, t.services.accounts, free.account.name, { action: 'start', days: 7 });
});
afterAll(() => t?.close());

describe('the free plan through the sandbox', () => {
  it(`holds ${FREE_PLAN_CONTAINER_CAP} containers, fails a shipment that would pass them, and refuses the 11th with 422 plan_limit_reached`, async () => {
    const { fill, overshoot } = chooseNumbers();
    const last = fill.pop()!;
    for (const number of fill) {
      const res = await track(number);
      expect(res.statusCode, res.body).toBe(201);
      await t.queue!.runOnce('tracking.attempt');
      expect(await request(res.json().data.id), number).toMatchObject({ status: 'created', failed_reason: null });
    }
    const before = await containersHeld();
    expect(before).toBe(FREE_PLAN_CONTAINER_CAP - containersOf(last));

    // Under the cap when asked, over it once the carrier says how many containers the bill of lading has.
    const over = await track(overshoot);
    expect(over.statusCode, over.body).toBe(201);
    await t.queue!.runOnce('tracking.attempt');
    expect(await request(over.json().data.id)).toMatchObject({ status: 'failed', failed_reason: 'plan_limit_reached' });
    expect(await containersHeld()).toBe(before);

    const fits = await track(last);
    expect(fits.statusCode, fits.body).toBe(201);
    await t.queue!.runOnce('tracking.attempt');
    expect(await request(fits.json().data.id)).toMatchObject({ status: 'created' });
    expect(await containersHeld()).toBe(FREE_PLAN_CONTAINER_CAP);

    // The 11th container: refused at once, nothing stored.
    const refused = await track('MAEU259999999');
    expect(refused.statusCode, refused.body).toBe(422);
    const [error] = refused.json().errors;
    expect(error).toMatchObject({
      status: '422',
      code: 'plan_limit_reached',
      title: 'Plan limit reached',
      detail: expect.stringContaining(`at most ${FREE_PLAN_CONTAINER_CAP} active containers`),
      source: { pointer: '/data' },
    });
  });
});
