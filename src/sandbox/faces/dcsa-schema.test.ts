// The DCSA face against DCSA's own TNT 2.2 OpenAPI document (../shared/reference): every rendered event must be
// a valid 2.2 event, except where the face deliberately does what real carriers do (see README). ajv and yaml
// come with the OpenAPI validator the repo already uses for its own document.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { describeWithReference, reference } from '../../../test/kit/reference.js';
import { renderDcsaEvents } from './dcsa.js';
import { CARRIER_ANSWERS } from './examples.js';

const SPEC = reference('data/dcsa/tnt-2.2/TNT_v2.2.0-resolved.yaml');
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

function validator() {
  const spec = parseYaml(readFileSync(SPEC.path, 'utf8')) as { components: { schemas: Record<string, unknown> } };
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addFormat('date-time', RFC3339);
  ajv.addFormat('$date-time', RFC3339);
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  const event = {
    anyOf: [
      { $ref: '#/components/schemas/transportEvent' },
      { $ref: '#/components/schemas/shipmentEvent' },
      { $ref: '#/components/schemas/equipmentEvent' },
    ],
  };
  const events = ajv.compile({ type: 'array', items: event, components: spec.components });
  const error = ajv.compile({ $ref: '#/components/schemas/error', components: spec.components });
  return { events, error };
}

function render(answer: (typeof CARRIER_ANSWERS)[keyof typeof CARRIER_ANSWERS]) {
  return renderDcsaEvents(
    answer,
    { scac: 'TEST', numberType: 'bill_of_lading', number: 'TEST0412345' },
    {
      pageSelfUrl: 'http://sandbox.test/sandbox/carriers/TEST/v2/events?transportDocumentReference=TEST0412345',
      now: new Date('2026-03-01T12:00:00Z'),
    },
  );
}

describeWithReference(SPEC, 'DCSA face against the TNT 2.2 schema', () => {
  const { events, error } = validator();

  it.each(['transshipmentRail', 'awaitingManifest', 'notFound'] as const)('%s renders valid 2.2 events', (name) => {
    const face = render(CARRIER_ANSWERS[name]);
    expect(face.status).toBe(200);
    expect(events(face.body), JSON.stringify(events.errors?.slice(0, 3))).toBe(true);
  });

  it('renders date-only events as date-only carriers do: invalid only in eventDateTime’s format', () => {
    const face = render(CARRIER_ANSWERS.dateOnly);
    expect(events(face.body)).toBe(false);
    const failing = new Set((events.errors ?? []).filter((e) => e.keyword === 'format').map((e) => e.instancePath.replace(/^\/\d+/, '')));
    expect([...failing]).toEqual(['/eventDateTime']);
    // Once the dates are instants, the same events are valid.
    const asInstants = (face.body as { eventDateTime: string }[]).map((e) => ({
      ...e,
      eventDateTime: `${e.eventDateTime.slice(0, 10)}T00:00:00Z`,
    }));
    expect(events(asInstants), JSON.stringify(events.errors?.slice(0, 3))).toBe(true);
  });

  it('renders a cancelled booking with CANC, a code 2.2 does not list (DCSA reference codes and 3.0 do)', () => {
    const body = render(CARRIER_ANSWERS.cancelled).body as Record<string, unknown>[];
    expect(events(body)).toBe(false);
    expect(events([{ ...body[0], shipmentEventTypeCode: 'CONF' }])).toBe(true);
  });

  it.each(['invalidNumber', 'unavailable'] as const)('%s renders a valid DCSA error body', (name) => {
    const face = render(CARRIER_ANSWERS[name]);
    expect(error(face.body), JSON.stringify(error.errors?.slice(0, 3))).toBe(true);
  });
});
