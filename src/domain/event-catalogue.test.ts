import { describe, expect, it } from 'vitest';
import { EVENT_CATALOGUE, EVENT_NAMES, eventAvailable, eventCategories, eventFeature, isEventName } from './event-catalogue.js';

describe('the event catalogue', () => {
  it('has the 43 reference events, each once, each with an entry', () => {
    expect(EVENT_NAMES).toHaveLength(43);
    expect(new Set(EVENT_NAMES).size).toBe(43);
    expect(Object.keys(EVENT_CATALOGUE).sort()).toEqual([...EVENT_NAMES].sort());
    for (const name of EVENT_NAMES) {
      expect(EVENT_CATALOGUE[name].name).toBe(name);
      expect(EVENT_CATALOGUE[name].description.length, name).toBeGreaterThan(10);
    }
  });

  it('recognises event names exactly', () => {
    expect(isEventName('container.updated')).toBe(true);
    expect(isEventName('container.Updated')).toBe(false);
    expect(isEventName('document_representation.created')).toBe(false);
  });

  // api-wire-notes §5.4, row by row.
  it.each([
    ['tracking_request.succeeded', 'tracking_request', ['container', 'shipment', 'tracking_request']],
    ['tracking_request.failed', 'tracking_request', ['tracking_request']],
    ['tracking_request.awaiting_manifest', 'tracking_request', ['tracking_request']],
    ['tracking_request.tracking_stopped', 'tracking_request', ['shipment', 'tracking_request']],
    ['container.transport.empty_out', 'transport_event', ['shipment', 'container', 'metro_area', 'transport_event']],
    ['container.transport.full_in', 'transport_event', ['shipment', 'container', 'port', 'transport_event']],
    ['container.transport.empty_in', 'transport_event', ['shipment', 'container', 'port', 'transport_event']],
    ['container.transport.rail_loaded', 'transport_event', ['shipment', 'container', 'port', 'transport_event']],
    ['container.transport.rail_departed', 'transport_event', ['shipment', 'container', 'port', 'transport_event']],
    ['container.transport.vessel_loaded', 'transport_event', ['shipment', 'container', 'port', 'vessel', 'transport_event']],
    ['container.transport.vessel_departed', 'transport_event', ['shipment', 'container', 'port', 'vessel', 'transport_event']],
    ['container.transport.vessel_arrived', 'transport_event', ['shipment', 'container', 'port', 'vessel', 'transport_event']],
    ['container.transport.transshipment_loaded', 'transport_event', ['shipment', 'container', 'port', 'vessel', 'transport_event']],
    ['container.transport.feeder_departed', 'transport_event', ['shipment', 'container', 'port', 'vessel', 'transport_event']],
    ['container.transport.vessel_berthed', 'transport_event', ['shipment', 'container', 'port', 'terminal', 'vessel', 'transport_event']],
    [
      'container.transport.vessel_discharged',
      'transport_event',
      ['shipment', 'container', 'port', 'terminal', 'vessel', 'transport_event'],
    ],
    ['container.transport.full_out', 'transport_event', ['shipment', 'container', 'port', 'terminal', 'transport_event']],
    [
      'container.transport.arrived_at_inland_destination',
      'transport_event',
      ['shipment', 'container', 'port', 'terminal', 'transport_event'],
    ],
    ['container.pickup_lfd.changed', 'transport_event', ['shipment', 'container', 'port', 'terminal', 'transport_event']],
    ['container.transport.rail_arrived', 'transport_event', ['shipment', 'container', 'metro_area', 'rail_terminal', 'transport_event']],
    ['container.transport.rail_unloaded', 'transport_event', ['shipment', 'container', 'metro_area', 'rail_terminal', 'transport_event']],
    [
      'container.transport.estimated.arrived_at_inland_destination',
      'transport_event',
      ['shipment', 'container', 'port', 'terminal', 'transport_event'],
    ],
    ['container.transport.estimated.vessel_departed', 'transport_event', ['transport_event']],
    ['container.transport.estimated.vessel_arrived', 'transport_event', ['transport_event']],
    ['container.pickup_lfd_terminal.changed', 'transport_event', ['transport_event']],
    ['container.pickup_lfd_rail.changed', 'transport_event', ['transport_event']],
    ['container.pickup_appointment.changed', 'transport_event', ['transport_event']],
    ['container.transport.available', 'transport_event', 'none'],
    ['container.transport.not_available', 'transport_event', 'none'],
    ['container.transport.delivered', 'transport_event', 'none'],
    ['shipment.estimated.arrival', 'estimated_event', ['shipment', 'port', 'estimated_event']],
    ['container.created', 'container_created_event', ['shipment', 'container', 'container_created_event']],
    ['container.updated', 'container_updated_event', ['shipment', 'port', 'terminal', 'container', 'container_updated_event']],
    [
      'container.pod_terminal_changed',
      'container_pod_terminal_changed_event',
      ['shipment', 'container', 'terminal', 'container_pod_terminal_changed_event'],
    ],
    ['document.extracted', 'document', ['document', 'email_submission', 'document_representation']],
    ['document.extraction_failed', 'document', ['document', 'email_submission', 'document_representation']],
  ] as const)('%s: reference object %s, included %j', (name, referenceObject, included) => {
    expect(EVENT_CATALOGUE[name].referenceObject).toBe(referenceObject);
    expect(EVENT_CATALOGUE[name].included).toEqual(included);
  });

  it('the reference object is among the included types whenever there is an included key', () => {
    for (const name of EVENT_NAMES) {
      const { included, referenceObject } = EVENT_CATALOGUE[name];
      if (included !== 'none' && referenceObject !== 'document') expect(included, name).toContain(referenceObject);
    }
  });

  it.each([
    ['tracking_request.failed', 'tracking-request-events'],
    ['container.transport.vessel_arrived', 'container-transport-events'],
    ['container.transport.delivered', 'container-transport-events'],
    ['container.updated', 'container-events'],
    ['container.pickup_lfd_rail.changed', 'container-events'],
    ['shipment.estimated.arrival', 'shipment-events'],
    ['document.extracted', 'document-events'],
  ] as const)('%s is in %s', (name, category) => {
    expect(EVENT_CATALOGUE[name].category).toBe(category);
  });

  it('only the rail LFD change needs a feature', () => {
    expect(EVENT_NAMES.filter((n) => eventFeature(n) !== null)).toEqual(['container.pickup_lfd_rail.changed']);
    expect(eventFeature('container.pickup_lfd_rail.changed')).toBe('rail_lfd');
    expect(eventAvailable('container.pickup_lfd_rail.changed', [])).toBe(false);
    expect(eventAvailable('container.pickup_lfd_rail.changed', ['rail_lfd'])).toBe(true);
    expect(eventAvailable('container.updated', [])).toBe(true);
  });
});

describe('eventCategories', () => {
  it('groups every event under one category, in schema order, the rail LFD event only with rail_lfd', () => {
    const all = eventCategories(['rail_lfd']);
    expect(all.map((c) => c.id)).toEqual([
      'tracking-request-events',
      'container-transport-events',
      'container-events',
      'shipment-events',
      'document-events',
    ]);
    const names = all.flatMap((c) => c.events.map((e) => e.name));
    expect(names.sort()).toEqual([...EVENT_NAMES].sort());
    expect(all[0]).toEqual({
      id: 'tracking-request-events',
      name: 'Tracking Request Events',
      events: [
        { name: 'tracking_request.succeeded', description: expect.any(String) },
        { name: 'tracking_request.failed', description: expect.any(String) },
        { name: 'tracking_request.awaiting_manifest', description: expect.any(String) },
        { name: 'tracking_request.tracking_stopped', description: expect.any(String) },
      ],
    });
    for (const c of all) {
      const order = c.events.map((e) => EVENT_NAMES.indexOf(e.name));
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }

    const plain = eventCategories([]);
    const plainNames = plain.flatMap((c) => c.events.map((e) => e.name));
    expect(plainNames).toHaveLength(42);
    expect(plainNames).not.toContain('container.pickup_lfd_rail.changed');
  });
});
