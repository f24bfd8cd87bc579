// `initial_custom_fields` on POST /v2/tracking_requests (docs/custom-fields.md "Values staged with a tracking
// request") through the sandbox: checked at once (422 with pointers, nothing stored), applied by the engine's attempt
// to the shipment and the right containers of a multi-container bill of lading, in the attempt's transaction, once:
// neither a second run of the step nor the world walking on brings back a value the user changed or removed since.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '../../src/domain/account.js';
import { tellStory } from '../../src/sandbox/world/index.js';
import { engineContext } from '../../src/services/tracking-engine/context.js';
import { applyInitialCustomFields } from '../../src/services/tracking-engine/initial-custom-fields.js';
import { type TestApp, testApp } from '../kit/app.js';
import { GOLDEN_ANCHOR, GOLDEN_SEED } from '../kit/golden.js';
import { seedShipment } from '../kit/seed.js';
import { DAY, unlimited } from '../kit/sandbox-world.js';

let t: TestApp;
let account: Account;
let accountId: string;
let auth: { authorization: string };

/** The bill of lading tracked here and its boxes, as the world tells it first asked at the anchor. */
const BL = 'MAEU250000001';
const BOXES = tellStory({ seed: GOLDEN_SEED, scac: 'MAEU', numberType: 'bill_of_lading', number: BL, anchorAt: GOLDEN_ANCHOR }).containers;
const NOT_ON_IT = 'TGHU1234567';

const track = (number: string, initial: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/v2/tracking_requests',
    headers: auth,
    payload: {
      data: {
        type: 'tracking_request',
        attributes: { request_type: 'bill_of_lading', request_number: number, scac: 'MAEU', initial_custom_fields: initial },
      },
    },
  });

/** Every value on a record, by slug, as the API's custom_fields include shows it. */
async function valuesOn(path: 'shipments' | 'containers', id: string): Promise<Record<string, unknown>> {
  const res = await t.app.inject({ url: `/v2/${path}/${id}?include=custom_fields`, headers: auth });
  expect(res.statusCode, res.body).toBe(200);
  const doc = res.json();
  const ids = (doc.data.relationships.custom_fields.data as { id: string }[]).map((r) => r.id);
  const included = (doc.included as { id: string; type: string; attributes: { api_slug: string; value: unknown } }[]).filter(
    (r) => r.type === 'custom_field',
  );
  expect(included.map((r) => r.id).sort()).toEqual([...ids].sort());
  return Object.fromEntries(included.map((r) => [r.attributes.api_slug, r.attributes.value]));
}

async function requestRow(id: string) {
  const [row] = await t.services.db.query<{
    status: string;
    failed_reason: string | null;
    shipment_id: string | null;
    initial_custom_fields_applied_at: Date | null;
    initial_custom_fields_skipped: { entity: string; number: string | null; reason: string }[] | null;
  }>('SELECT * FROM tracking_requests WHERE id = $1', [id]);
  return row!;
}

/** The account's containers of a shipment, by number. */
async function boxesOf(shipmentId: string): Promise<Map<string, string>> {
  const rows = await t.services.db.query<{ id: string; number: string }>('SELECT id, number FROM containers WHERE shipment_id = $1', [
    shipmentId,
  ]);
  return new Map(rows.map((r) => [r.number, r.id]));
}

/** The engine's context for running the step alone (it asks no source). */
const stepContext = () =>
  engineContext({
    db: t.services.db,
    clocks: t.services.clocks,
    registry: () => {
      throw new Error('applying initial custom fields asks no source');
    },
    shippingLines: t.services.shippingLines,
    jobs: t.services.jobs,
    rateLimits: t.services.rateLimits,
  });

beforeAll(async () => {
  t = await testApp({ sandbox: true, queue: true, worldStart: GOLDEN_ANCHOR, listen: true });
  const a = await t.account();
  account = a.account;
  accountId = a.account.id;
  auth = a.auth;
  await unlimited(t, accountId);
  const cf = t.services.customFields;
  await cf.createDefinition(accountId, { entity_type: 'Shipment', api_slug: 'po', display_name: 'PO number', data_type: 'short_text' });
  const priority = await cf.createDefinition(accountId, {
    entity_type: 'Shipment',
    api_slug: 'priority',
    display_name: 'Priority',
    data_type: 'enum',
  });
  await cf.createOption(accountId, priority.id, { label: 'High', value: 'high' });
  await cf.createDefinition(accountId, { entity_type: 'Container', api_slug: 'note', display_name: 'Note', data_type: 'short_text' });
  await cf.createDefinition(accountId, { entity_type: 'Container', api_slug: 'sealed', display_name: 'Sealed', data_type: 'boolean' });
}, 60_000);
afterAll(() => t?.close());

describe('initial_custom_fields checked when the request is made', () => {
  it('answers 422 pointing at each staged value the definitions refuse, and stores nothing', async () => {
    const count = async () =>
      (await t.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM tracking_requests WHERE account_id = $1', [accountId]))[0]!
        .n;
    const before = await count();
    // What the request's schema refuses: a missing value (null stages none), a list that is not one.
    const shape = await track('MAEU250000002', { shipment: 'PO-1', containers: [{ api_slug: 'note' }] });
    expect(shape.statusCode, shape.body).toBe(422);
    const base = '/data/attributes/initial_custom_fields';
    const pointers = (body: string) => JSON.parse(body).errors.map((e: { source: { pointer: string } }) => e.source.pointer);
    expect(pointers(shape.body)).toEqual([`${base}/shipment`, `${base}/containers/0/value`]);
    // What the account's definitions refuse, each item pointed at.
    const res = await track('MAEU250000002', {
      shipment: [
        { api_slug: 'po', value: 'PO-1' },
        { api_slug: 'note', value: 'a Container field is not a Shipment one' },
        { api_slug: 'priority', value: 'urgent' },
      ],
      containers: [
        { api_slug: 'note', value: null },
        { api_slug: 'sealed', value: 'yes' },
        { api_slug: 'note', value: 'x', number: 'X'.repeat(21) },
      ],
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(pointers(res.body)).toEqual([
      `${base}/shipment/1/api_slug`,
      `${base}/shipment/2/value`,
      `${base}/containers/2/number`,
      `${base}/containers/1/value`,
    ]);
    expect(res.json().errors.map((e: { detail: string }) => e.detail)).toEqual([
      "Api slug 'note' names no Shipment custom field definition of this account",
      "Value of Priority (priority) 'urgent' is not one of its options",
      'Number is too long to be a container number (at most 20 characters)',
      'Value of Sealed (sealed) must be true or false',
    ]);
    expect(await count()).toBe(before);
  });

  it('refuses a field staged twice for the same target, and more than 50 values in a list', async () => {
    const base = '/data/attributes/initial_custom_fields';
    const twice = await track('MAEU250000003', {
      shipment: [
        { api_slug: 'po', value: 'PO-1' },
        { api_slug: 'po', value: 'PO-2' },
      ],
      containers: [
        { api_slug: 'note', value: 'all' },
        { api_slug: 'note', value: 'one', number: 'MSCU 123456-5' },
        { api_slug: 'note', value: 'one again', number: 'mscu1234565' },
        { api_slug: 'note', value: 'all again', number: null },
      ],
    });
    expect(twice.statusCode, twice.body).toBe(422);
    expect(twice.json().errors.map((e: { source: { pointer: string }; detail: string }) => [e.source.pointer, e.detail])).toEqual([
      [`${base}/shipment/1/api_slug`, "Api slug 'po' is staged more than once for the shipment"],
      [`${base}/containers/2/api_slug`, "Api slug 'note' is staged more than once for container MSCU1234565"],
      [`${base}/containers/3/api_slug`, "Api slug 'note' is staged more than once for every container"],
    ]);

    const many = await track('MAEU250000003', {
      containers: Array.from({ length: 51 }, (_, i) => ({ api_slug: 'note', value: `n${i}`, number: `MSCU${String(i).padStart(7, '0')}` })),
    });
    expect(many.statusCode, many.body).toBe(422);
    expect(many.json().errors).toMatchObject([
      { source: { pointer: `${base}/containers` }, detail: 'At most 50 values can be staged for the containers' },
    ]);
  });
});

describe('initial_custom_fields applied when the request resolves', () => {
  let requestId: string;
  let shipmentId: string;
  let boxes: Map<string, string>;

  beforeAll(async () => {
    expect(BOXES.length).toBeGreaterThanOrEqual(3);
    const res = await track(BL, {
      shipment: [
        { api_slug: 'po', value: 'PO-1' },
        { api_slug: 'priority', value: 'high' },
      ],
      containers: [
        { api_slug: 'note', value: 'every box' },
        // Typed the way people type them; a later value of the same field on the same box wins.
        { api_slug: 'note', value: 'the second box', number: `${BOXES[1]!.slice(0, 4).toLowerCase()} ${BOXES[1]!.slice(4)}` },
        { api_slug: 'sealed', value: true, number: BOXES[0] },
        { api_slug: 'sealed', value: false, number: '' },
        { api_slug: 'note', value: 'nowhere', number: NOT_ON_IT },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    requestId = res.json().data.id;
    await t.queue!.runOnce('tracking.attempt');
    const row = await requestRow(requestId);
    expect(row.status).toBe('created');
    shipmentId = row.shipment_id!;
    boxes = await boxesOf(shipmentId);
  }, 60_000);

  it('puts the shipment values on the shipment, and each container value on the containers it names', async () => {
    expect(await valuesOn('shipments', shipmentId)).toEqual({ po: 'PO-1', priority: 'high' });
    expect([...boxes.keys()].sort()).toEqual([...BOXES].sort());
    // `sealed: true` on the first box, then `false` on every box: the later wins everywhere.
    for (const [number, id] of boxes) {
      const note = number === BOXES[1] ? 'the second box' : 'every box';
      expect(await valuesOn('containers', id), number).toEqual({ note, sealed: false });
    }
  });

  it('records a container number the shipment does not have as skipped, and the request as applied', async () => {
    const row = await requestRow(requestId);
    expect(row.initial_custom_fields_applied_at).not.toBeNull();
    expect(row.initial_custom_fields_skipped).toEqual([
      { entity: 'container', index: 4, api_slug: 'note', number: NOT_ON_IT, reason: `Container ${NOT_ON_IT} is not on the shipment` },
    ]);
  });

  it('applies them once: a second run of the step, a duplicate request and the world walking on leave the user’s changes', async () => {
    const cf = t.services.customFields;
    await cf.set(accountId, { type: 'shipment', id: shipmentId }, 'po', 'PO-2');
    const third = boxes.get(BOXES[2]!)!;
    await cf.deleteOn(accountId, { type: 'container', id: third }, 'note');

    // The step run again for the same request (as a second worker whose lease lapsed would): nothing is taken.
    const ctx = stepContext();
    await t.services.db.transaction((tx) => applyInitialCustomFields(ctx, tx, { id: requestId, account_id: accountId }, shipmentId));

    // The same bill of lading again, with values of its own: the request fails as a duplicate and stages nothing.
    const dup = await track(BL, { shipment: [{ api_slug: 'po', value: 'PO-dup' }], containers: [{ api_slug: 'note', value: 'dup' }] });
    expect(dup.statusCode, dup.body).toBe(201);
    await t.queue!.runOnce('tracking.attempt');
    expect((await requestRow(dup.json().data.id)).failed_reason).toBe('duplicate');

    await t.services.sandbox!.advance(5 * DAY);

    expect(await valuesOn('shipments', shipmentId)).toEqual({ po: 'PO-2', priority: 'high' });
    expect(await valuesOn('containers', third)).toEqual({ sealed: false });
    expect(await valuesOn('containers', boxes.get(BOXES[1]!)!)).toEqual({ note: 'the second box', sealed: false });
  }, 120_000);
});

describe('initial_custom_fields and the transaction', () => {
  it('a transaction that does not commit applies nothing and leaves them to apply; once applied, never again', async () => {
    const seeded = await seedShipment(t, accountId, { bl: 'TXTEST0001', containers: [{ number: BOXES[0]! }] });
    const created = await t.services.trackingRequests.create(account, {
      requestType: 'bill_of_lading',
      requestNumber: 'TXTEST0001',
      scac: 'MAEU',
      autoDetect: false,
      refNumbers: [],
      shipmentTags: [],
      customerId: null,
      initialCustomFields: { shipment: [{ api_slug: 'po', value: 'PO-tx' }], containers: [{ api_slug: 'note', value: 'tx' }] },
    });
    const ctx = stepContext();
    const req = { id: created.id, account_id: accountId };
    const crash = new Error('the process died before the commit');
    await expect(
      t.services.db.transaction(async (tx) => {
        await applyInitialCustomFields(ctx, tx, req, seeded.id);
        throw crash;
      }),
    ).rejects.toBe(crash);
    expect(await valuesOn('shipments', seeded.id)).toEqual({});
    expect((await requestRow(created.id)).initial_custom_fields_applied_at).toBeNull();

    await t.services.db.transaction((tx) => applyInitialCustomFields(ctx, tx, req, seeded.id));
    expect(await valuesOn('shipments', seeded.id)).toEqual({ po: 'PO-tx' });
    expect(await valuesOn('containers', seeded.containerIds[0]!)).toEqual({ note: 'tx' });

    await t.services.customFields.set(accountId, { type: 'shipment', id: seeded.id }, 'po', 'PO-user');
    await t.services.db.transaction((tx) => applyInitialCustomFields(ctx, tx, req, seeded.id));
    expect(await valuesOn('shipments', seeded.id)).toEqual({ po: 'PO-user' });
  });
});
