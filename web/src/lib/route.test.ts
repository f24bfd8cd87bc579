// A shipment's route as stops and legs (lib/route.ts), from its attributes and a container's transport events.
import { describe, expect, it } from 'vitest';
import type { Resource } from './jsonapi';
import { buildRoute } from './route';
import type { ShipmentAttributes, TransportEvent } from './tracking';

const shipment = (over: Partial<ShipmentAttributes> = {}) =>
  ({
    port_of_lading_locode: 'CNSHA',
    port_of_lading_name: 'Shanghai',
    pol_timezone: 'Asia/Shanghai',
    port_of_discharge_locode: 'USLAX',
    port_of_discharge_name: 'Los Angeles',
    pod_timezone: 'America/Los_Angeles',
    destination_locode: null,
    destination_name: null,
    destination_timezone: null,
    pol_etd_at: null,
    pol_atd_at: '2026-03-01T00:00:00Z',
    pod_eta_at: '2026-03-20T00:00:00Z',
    pod_original_eta_at: '2026-03-18T00:00:00Z',
    pod_ata_at: null,
    destination_eta_at: null,
    destination_ata_at: null,
    pod_vessel_name: 'EVER ACE',
    pod_voyage_number: '0123E',
    ...over,
  }) as ShipmentAttributes;

let n = 0;
const ev = (event: string, locode: string, timestamp: string, over: Partial<TransportEvent['attributes']> = {}): TransportEvent => ({
  id: `e${++n}`,
  type: 'transport_event',
  attributes: {
    event: `container.transport.${event}` as TransportEvent['attributes']['event'],
    voyage_number: null,
    timestamp,
    timezone: null,
    location_locode: locode,
    data_source: 'shipping_line',
    value: null,
    invalidated_at: null,
    created_at: timestamp,
    observed_at: null,
    ...over,
  },
});

const places: Resource[] = [
  {
    id: '1',
    type: 'port',
    attributes: { name: 'Singapore', code: 'SGSIN', time_zone: 'Asia/Singapore', latitude: '1.26', longitude: '103.84' },
  },
  {
    id: '2',
    type: 'metro_area',
    attributes: { name: 'Chicago', code: 'USCHI', time_zone: 'America/Chicago', latitude: null, longitude: null },
  },
];

describe('buildRoute', () => {
  it('a direct sailing: two stops, one leg under way with the shipment’s vessel', () => {
    const route = buildRoute(shipment(), [ev('vessel_departed', 'CNSHA', '2026-03-01T00:00:00Z')], []);
    expect(route.stops.map((s) => [s.role, s.name])).toEqual([
      ['pol', 'Shanghai'],
      ['pod', 'Los Angeles'],
    ]);
    expect(route.stops[0]!.departure).toMatchObject({ label: 'Departed', actual: true });
    expect(route.stops[1]!.arrival).toMatchObject({ label: 'Arrival', actual: false, original: '2026-03-18T00:00:00Z' });
    expect(route.legs).toEqual([{ mode: 'vessel', done: false, underway: true, vessel: 'EVER ACE', voyage: '0123E' }]);
  });

  it('a transshipment and an inland rail move: the stops between in the order reached, rail legs, done legs', () => {
    const events = [
      // Any order, and an invalidated event is left out.
      ev('rail_departed', 'USLAX', '2026-03-22T00:00:00Z'),
      ev('transshipment_departed', 'SGSIN', '2026-03-09T00:00:00Z'),
      ev('transshipment_arrived', 'SGSIN', '2026-03-07T00:00:00Z'),
      ev('vessel_departed', 'CNSHA', '2026-03-01T00:00:00Z'),
      ev('transshipment_arrived', 'MYPKG', '2026-03-05T00:00:00Z', { invalidated_at: '2026-03-06T00:00:00Z' }),
      ev('estimated.vessel_arrived', 'USLAX', '2026-03-19T00:00:00Z'),
    ];
    const route = buildRoute(
      shipment({
        pod_ata_at: '2026-03-20T00:00:00Z',
        destination_locode: 'USCHI',
        destination_name: 'Chicago',
        destination_eta_at: '2026-03-26T00:00:00Z',
      }),
      events,
      places,
    );
    expect(route.stops.map((s) => [s.role, s.locode])).toEqual([
      ['pol', 'CNSHA'],
      ['transshipment', 'SGSIN'],
      ['pod', 'USLAX'],
      ['destination', 'USCHI'],
    ]);
    expect(route.stops[1]).toMatchObject({ name: 'Singapore', zone: 'Asia/Singapore', lat: 1.26, lon: 103.84 });
    expect(route.stops[2]!.departure).toMatchObject({ label: 'Left by rail', actual: true });
    expect(route.legs.map((l) => [l.mode, l.done, l.underway])).toEqual([
      ['vessel', true, false],
      ['vessel', true, false],
      ['rail', false, true],
    ]);
  });

  it('a box picked up at the POD: the full out is its departure', () => {
    const route = buildRoute(shipment({ pod_ata_at: '2026-03-20T00:00:00Z' }), [ev('full_out', 'USLAX', '2026-03-23T00:00:00Z')], []);
    expect(route.stops[1]!.departure).toMatchObject({ label: 'Picked up', at: '2026-03-23T00:00:00Z' });
  });
});
