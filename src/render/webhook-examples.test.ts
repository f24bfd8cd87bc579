import { beforeAll, describe, expect, it } from 'vitest';
import { exampleNotification } from './webhook-notification.js';
import { EVENT_CATALOGUE, EVENT_NAMES, type EventName } from '../domain/event-catalogue.js';
import { notificationExample } from './webhook-examples.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

interface Ref {
  id: string;
  type: string;
}
interface Resource {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, { data: Ref | Ref[] | null }>;
  links?: { self: string };
}
interface Doc {
  data: Resource;
  included?: Resource[];
  links: { self: string };
  meta: { sequence: number; occurred_at: string };
}

/** A JSON:API resource object as the reference API shapes them: every relationship a `{data}` of refs. */
function expectResource(r: Resource, where: string): void {
  expect(Object.keys(r).sort(), where).toEqual(
    r.links ? ['attributes', 'id', 'links', 'relationships', 'type'] : ['attributes', 'id', 'relationships', 'type'],
  );
  expect(r.id, where).toMatch(UUID);
  expect(r.type, where).toMatch(/^[a-z_]+$/);
  expect(typeof r.attributes, where).toBe('object');
  for (const [name, rel] of Object.entries(r.relationships)) {
    expect(Object.keys(rel), `${where}.${name}`).toEqual(['data']);
    for (const ref of [rel.data].flat()) {
      if (ref === null) continue;
      expect(Object.keys(ref).sort(), `${where}.${name}`).toEqual(['id', 'type']);
      expect(ref.id, `${where}.${name}`).toMatch(UUID);
    }
  }
  if (r.links) expect(r.links.self, where).toMatch(/^\/v2\//);
}

/** A location or a facility of the other kind stands for the catalogue's (a ramp's metro area for a port…). */
const family = (type: string) => (type === 'metro_area' ? 'port' : type === 'rail_terminal' ? 'terminal' : type);

/** The sample of `event`, rendered when asked for. */
const sample = async (event: EventName, publicUrl: string) => (await exampleNotification(event, publicUrl)) as unknown as Doc;

describe.each(EVENT_NAMES.map((e) => [e]))('the sample notification of %s', (event: EventName) => {
  const spec = EVENT_CATALOGUE[event];
  let doc: Doc;
  beforeAll(async () => {
    doc = await sample(event, 'https://tidemark.example.com');
  });

  it('is a JSON:API document: the notification, pending, with links.self and meta', () => {
    expect(Object.keys(doc)).toEqual(spec.included === 'none' ? ['data', 'links', 'meta'] : ['data', 'included', 'links', 'meta']);
    expectResource(doc.data, 'data');
    expect(doc.data).toMatchObject({
      type: 'webhook_notification',
      attributes: { id: doc.data.id, event, delivery_status: 'pending', created_at: expect.stringMatching(ISO) },
    });
    expect(doc.links).toEqual({ self: `https://tidemark.example.com/v2/webhook_notifications/${doc.data.id}` });
    expect(doc.meta).toEqual({ sequence: expect.any(Number), occurred_at: expect.stringMatching(ISO) });
    const names = Object.keys(doc.data.relationships);
    expect(names).toEqual(
      spec.referenceObject === 'document'
        ? ['webhook', 'document', 'webhook_notification_logs']
        : ['webhook', 'reference_object', 'webhook_notification_logs'],
    );
    expect(doc.data.relationships.webhook_notification_logs).toEqual({ data: [] });
  });

  it('points at its reference object and includes what the catalogue says, nothing twice, nothing dangling', () => {
    const reference = (doc.data.relationships.reference_object ?? doc.data.relationships.document)!.data as Ref;
    expect(reference.type).toBe(spec.referenceObject);
    if (spec.included === 'none') return;
    const included = doc.included!;
    for (const [i, r] of included.entries()) expectResource(r, `included[${i}] ${r.type}`);
    const keys = included.map((r) => `${r.type}:${r.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(included.map((r) => family(r.type)))).toEqual(new Set(spec.included.map(family)));
    const byKey = new Map(included.map((r) => [`${r.type}:${r.id}`, r]));
    const object = byKey.get(`${reference.type}:${reference.id}`);
    expect(object, 'the reference object is included').toBeDefined();
    // Whatever the reference object points at with a type the catalogue includes is there.
    const wanted = new Set(spec.included.map(family));
    for (const [name, rel] of Object.entries(object!.relationships)) {
      for (const ref of [rel.data].flat()) {
        if (ref && wanted.has(family(ref.type))) expect(byKey.has(`${ref.type}:${ref.id}`), `${reference.type}.${name}`).toBe(true);
      }
    }
  });

  it('is the same every time, under any base URL', async () => {
    const again = await sample(event, 'http://localhost:8080');
    expect({ ...again, links: doc.links }).toEqual(doc);
    expect(doc.data.id).toBe(notificationExample(event).notification.id);
    expect(doc.data.id.charAt(14)).toBe('5');
  });
});

describe('sample records', () => {
  it('name real reference places, a real vessel and valid container numbers', async () => {
    const vessel = await sample('container.transport.vessel_discharged', '');
    const types = Object.fromEntries(vessel.included!.map((r) => [r.type, r]));
    expect(types.port!.attributes).toMatchObject({ code: 'USLAX', name: 'Los Angeles' });
    expect(types.terminal!.attributes).toMatchObject({ firms_code: 'Y124' });
    expect(types.vessel!.attributes).toMatchObject({ name: 'EVER ACE', imo: '9893890' });
    expect(types.container!.attributes).toMatchObject({ number: 'EGHU9123457', equipment_length: 40, equipment_height: 'high_cube' });
    expect(types.shipment!.attributes).toMatchObject({ bill_of_lading_number: 'EGLV142300123456', shipping_line_scac: 'EGLV' });

    const rail = await sample('container.transport.rail_arrived', '');
    expect(rail.included!.map((r) => r.type).sort()).toEqual(['container', 'metro_area', 'rail_terminal', 'shipment', 'transport_event']);
  });

  it('carry the pickup change as the event value and time', async () => {
    const doc = await sample('container.pickup_lfd_terminal.changed', '');
    expect(doc.included).toHaveLength(1);
    expect(doc.included![0]!.attributes).toMatchObject({ value: '2026-03-03T08:00:00Z', timestamp: '2026-03-03T08:00:00Z' });
  });

  it('have no included key for the minimal events', async () => {
    for (const e of ['container.transport.available', 'container.transport.not_available', 'container.transport.delivered'] as const) {
      expect(await sample(e, '')).not.toHaveProperty('included');
    }
  });

  it('document events carry a version and a document, not a reference object', async () => {
    const doc = await sample('document.extracted', '');
    expect(doc.data.attributes.version).toBe('2026-03-10');
    expect(doc.included!.map((r) => r.type)).toEqual(['document', 'email_submission', 'document_representation']);
  });
});
