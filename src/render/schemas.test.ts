// The resource schemas against the renderers: sample records of every kind, rendered and parsed strictly, so that
// an attribute a renderer emits and its schema lacks (or a type, null or enum value it does not allow) fails here.
// test/e2e/jsonapi-shape.test.ts does the same on every document of a walked sandbox world.
import { describe, expect, it } from 'vitest';
import { EVENT_NAMES } from '../domain/event-catalogue.js';
import { CARRIERS, PORTS, RAIL_HUBS, TERMINALS } from '../sources/reference/index.js';
import type { z } from 'zod';
import { rawEventKindOf } from './container.js';
import type { ResourceObject } from './jsonapi.js';
import type { ResourceLoaders } from './loaders.js';
import { partyKind } from './party.js';
import { partyRoleKind } from './party-role.js';
import { placeKinds, ReferencePlaces } from './places.js';
import {
  boardContainerResource,
  errorDocument,
  listDocument,
  notificationDocument,
  RESOURCE_SCHEMAS,
  type ResourceType,
  resourceDocument,
  shipmentResource,
} from './schemas.js';
import { searchResultKind } from './search-result.js';
import { shippingLineKind } from './shipping-line.js';
import { vesselKind } from './vessel.js';
import { webhookKind } from './webhook.js';
import { exampleNotification, webhookNotificationLogKind } from './webhook-notification.js';

/** Problems of a resource object against its type's schema, as `path: message` lines. */
function problems(r: ResourceObject | unknown): string[] {
  const type = (r as { type: string }).type as ResourceType;
  const schema = RESOURCE_SCHEMAS[type] as z.ZodType | undefined;
  if (!schema) return [`no schema for type ${type}`];
  const result = schema.safeParse(r);
  return result.success ? [] : result.error.issues.map((i) => `${type} ${i.path.join('.')}: ${i.message}`);
}

const at = new Date('2026-03-01T10:20:30.456Z');
const NO_LOADERS = {} as ResourceLoaders;

describe('resource schemas', () => {
  it.each(EVENT_NAMES)('the sample notification of %s parses: the document and each resource', async (event) => {
    const doc = await exampleNotification(event, 'https://tidemark.example.com');
    const parsed = notificationDocument.safeParse(doc);
    expect(parsed.success ? [] : parsed.error.issues.slice(0, 10), 'the delivery document').toEqual([]);
    for (const r of [doc.data, ...(doc.included ?? [])]) expect(problems(r)).toEqual([]);
  });

  it('covers the sample documents of every resource the samples hold', async () => {
    const types = new Set<string>();
    for (const event of EVENT_NAMES) {
      const doc = await exampleNotification(event, 'https://x');
      for (const r of [doc.data, ...(doc.included ?? [])]) types.add(r.type);
    }
    expect([...types].sort()).toEqual(
      expect.arrayContaining(['container', 'shipment', 'transport_event', 'tracking_request', 'port', 'terminal', 'vessel', 'document']),
    );
  });

  it('parses every reference place, carrier, and records of the kinds the samples lack', () => {
    const places = placeKinds(new ReferencePlaces(() => ({ pickup_lfd: true, pickup_lfd_notes: 'partial' })));
    const rendered: ResourceObject[] = [
      ...PORTS.slice(0, 50).map((p) => places.port.render(new ReferencePlaces().portsByIds([p.id])[0]!)),
      ...TERMINALS.map((t) => places.terminal.render(new ReferencePlaces().terminalsByIds([t.id])[0]!)),
      ...RAIL_HUBS.map((h) => places.metroArea.render(new ReferencePlaces().metroAreasByIds([h.id])[0]!)),
      places.railTerminal.render({ id: '0190c5a0-0000-7000-8000-000000000001', code: 'BNSF-LPC', name: null, firmsCode: null }),
      ...CARRIERS.map((c) => shippingLineKind.render({ ...c, source: null })),
      shippingLineKind.render({
        ...CARRIERS[0]!,
        source: { providedData: { ssl_lfd: true, seal_number: false }, trackingUrl: `https://x/\${BLNUM}`, contactUrl: 'https://x' },
      }),
      partyKind.render({ id: '0190c5a0-0000-7000-8000-000000000002', accountId: 'a', companyName: 'Acme', createdAt: at, updatedAt: at }),
      partyRoleKind(NO_LOADERS.parties).render({
        id: '0190c5a0-0000-7000-8000-000000000003',
        account_id: 'a',
        party_id: '0190c5a0-0000-7000-8000-000000000002',
        role: 'consignee',
        shipment_id: null,
        container_id: '0190c5a0-0000-7000-8000-000000000004',
        created_at: at,
        updated_at: at,
      } as never),
      searchResultKind.render({
        id: '0190c5a0-0000-7000-8000-000000000005',
        entity_type: 'cargo',
        number: 'MSCU1234566',
        shipment_id: null,
        scac: null,
        port_of_lading_name: null,
        port_of_discharge_name: null,
        containers_count: null,
        tracking_stopped: false,
        tracking_stopped_reason: null,
        status: 'on_ship',
        failed_reason: null,
        ref_numbers: [],
        created_at: at,
        updated_at: at,
        exact: true,
      }),
      vesselKind.render({
        id: '0190c5a0-0000-7000-8000-000000000006',
        imo: '9301809',
        name: null,
        mmsi: null,
        latitude: 1.5,
        longitude: 103.2,
        speed_knots: null,
        heading_degrees: 90,
        position_at: at,
        positions: [{ at, latitude: 1, longitude: 2, heading_degrees: null, estimated: true }],
      }),
      webhookKind(NO_LOADERS).render({
        id: '0190c5a0-0000-7000-8000-000000000007',
        url: 'https://example.com/hook',
        active: false,
        events: ['container.created'],
        headers: [{ name: 'x-a', value: 'b' }],
        secret: 's',
        created_at: at,
        updated_at: at,
        deactivated_at: at,
        deactivated_reason: 'failing for 5 days',
      } as never),
      webhookNotificationLogKind({} as never).render({
        id: '0190c5a0-0000-7000-8000-000000000008',
        notification_id: '0190c5a0-0000-7000-8000-000000000009',
        attempt: 1,
        started_at: at,
        duration_ms: 12,
        status_code: null,
        error: 'connection refused',
        response_body: null,
      } as never),
      rawEventKindOf(NO_LOADERS).render({
        key: 'k1',
        containerId: '0190c5a0-0000-7000-8000-00000000000a',
        event: null,
        original_event: 'Gate in full',
        timestamp: '2026-02-01T00:00:00Z',
        estimated: false,
        actual_at: '2026-02-01T00:00:00Z',
        estimated_at: null,
        actual_on: '2026-02-01',
        estimated_on: null,
        timezone: null,
        created_at: '2026-02-02T00:00:00Z',
        location_name: 'Shanghai',
        location_locode: 'CNSHA',
        location_type: 'port',
        terminal: null,
        vessel_name: null,
        vessel_imo: null,
        voyage_number: null,
        index: 0,
        data_source: 'shipping_line',
        data_provider_code: 'MAEU',
      }),
    ];
    expect(rendered.flatMap(problems)).toEqual([]);
  });

  it("the board's container: the container with meta.attention", async () => {
    const doc = await exampleNotification('container.created', 'https://x');
    const container = doc.included!.find((r) => r.type === 'container')!;
    const attention = { holds: ['customs'], available: false, lfd_days_left: -2, lfd: 'passed', demurrage_accruing: true };
    expect(boardContainerResource.safeParse({ ...container, meta: { attention } }).error?.issues ?? []).toEqual([]);
    expect(boardContainerResource.safeParse({ ...container, meta: { attention: { ...attention, needs_action: true } } }).success).toBe(
      false,
    );
  });

  it('refuses an attribute the schema does not know (strict), a null where it says never, an unknown enum value', () => {
    const party = partyKind.render({ id: 'p', accountId: 'a', companyName: 'Acme', createdAt: at, updatedAt: at });
    expect(problems({ ...party, attributes: { ...party.attributes, extra: 1 } })).not.toEqual([]);
    expect(problems({ ...party, attributes: { ...party.attributes, company_name: null } })).not.toEqual([]);
    expect(problems({ ...party, attributes: { ...party.attributes, created_at: '2026-03-01T10:20:30.456Z' } })).not.toEqual([]);
    expect(problems({ ...party, relationships: { user: { data: null } } })).not.toEqual([]);
  });

  it('documents: a single, a list with page links, and the error document', () => {
    const shipmentDoc = resourceDocument(shipmentResource);
    expect(shipmentDoc.safeParse({ data: null }).success).toBe(false);
    const list = listDocument(RESOURCE_SCHEMAS.party);
    const party = partyKind.render({ id: 'p', accountId: 'a', companyName: 'Acme', createdAt: at, updatedAt: at });
    expect(
      list.safeParse({
        data: [party],
        links: { self: 'http://x/v2/parties', current: 'http://x/v2/parties?page[number]=1' },
        meta: { size: 1, total: 1 },
      }).success,
    ).toBe(true);
    expect(list.safeParse({ data: [party], links: { self: 'http://x', next: null } }).success, 'a null link').toBe(false);
    expect(errorDocument.safeParse({ errors: [{ status: '404', title: 'Not Found', meta: { request_id: 'r' } }] }).success).toBe(true);
    expect(errorDocument.safeParse({ errors: [{ status: 404, title: 'Not Found' }] }).success, 'a numeric status').toBe(false);
  });
});
