// The route plan as a pure function of the shipment and the container's raw events.
import { describe, expect, it } from 'vitest';
import { planRoute, type RouteEvent, type RouteShipment } from './container-route.js';

const SHIPMENT: RouteShipment = {
  port_of_lading_locode: 'IDJKT',
  port_of_lading_name: 'Jakarta',
  pol_etd_at: null,
  pol_atd_at: null,
  pol_timezone: 'Asia/Jakarta',
  port_of_discharge_locode: 'USLGB',
  port_of_discharge_name: 'Long Beach',
  pod_eta_at: new Date('2026-03-15T20:00:00Z'),
  pod_ata_at: null,
  pod_timezone: 'America/Los_Angeles',
  pod_vessel_name: 'APL HOUSTON',
  pod_vessel_imo: '9251975',
  pod_voyage_number: '883E',
};

const FEEDER = { vessel_name: 'KOTA FEEDER', vessel_imo: '9127186', voyage_number: '2854N' };
const MOTHER = { vessel_name: 'APL HOUSTON', vessel_imo: '9251975', voyage_number: '883E' };

function ev(event: string, locode: string, timestamp: string, estimated: boolean, vessel: typeof FEEDER | null = null): RouteEvent {
  return {
    event,
    estimated,
    timestamp,
    location_locode: locode,
    location_name: null,
    timezone: null,
    vessel_name: vessel?.vessel_name ?? null,
    vessel_imo: vessel?.vessel_imo ?? null,
    voyage_number: vessel?.voyage_number ?? null,
  };
}

/** A feeder from Jakarta to Singapore, then the mother vessel to Long Beach; `sailed` says how far it got. */
function voyage(sailed: 'booked' | 'feeder' | 'at_hub' | 'ocean' | 'arrived'): RouteEvent[] {
  const order = ['booked', 'feeder', 'at_hub', 'ocean', 'arrived'];
  const past = (stage: string) => order.indexOf(sailed) >= order.indexOf(stage);
  return [
    ev('empty_out', 'IDJKT', '2026-02-09T01:01:00Z', false),
    ev('vessel_loaded', 'IDJKT', '2026-02-16T12:56:00Z', !past('feeder'), FEEDER),
    ev('vessel_departed', 'IDJKT', '2026-02-16T16:30:00Z', !past('feeder'), FEEDER),
    ev('feeder_arrived', 'SGSIN', '2026-02-18T04:48:00Z', !past('at_hub'), FEEDER),
    ev('feeder_discharged', 'SGSIN', '2026-02-18T08:48:00Z', !past('at_hub'), FEEDER),
    ev('transshipment_loaded', 'SGSIN', '2026-02-19T16:04:00Z', !past('ocean'), MOTHER),
    ev('transshipment_departed', 'SGSIN', '2026-02-20T01:30:00Z', !past('ocean'), MOTHER),
    ev('vessel_arrived', 'USLGB', '2026-03-15T15:30:00Z', !past('arrived'), MOTHER),
    ev('vessel_discharged', 'USLGB', '2026-03-16T02:00:00Z', !past('arrived'), MOTHER),
  ];
}

const summary = (s: RouteShipment, events: RouteEvent[]) => {
  const plan = planRoute(s, events);
  return {
    stops: plan.stops.map((x) => `${x.sequence} ${x.label} ${x.locode}`),
    legs: plan.legs.map((l) => `${l.sequence} ${l.from.locode}→${l.to.locode} ${l.status} ${l.vessel?.imo ?? '-'}`),
    current: plan.current?.sequence ?? null,
  };
};

describe('planRoute', () => {
  it.each([
    {
      name: 'before departure: every leg planned',
      sailed: 'booked' as const,
      legs: ['1 IDJKT→SGSIN planned 9127186', '2 SGSIN→USLGB planned 9251975'],
      current: null,
    },
    {
      name: 'on the feeder',
      sailed: 'feeder' as const,
      legs: ['1 IDJKT→SGSIN sailing 9127186', '2 SGSIN→USLGB planned 9251975'],
      current: 1,
    },
    {
      name: 'at the hub between vessels',
      sailed: 'at_hub' as const,
      legs: ['1 IDJKT→SGSIN arrived 9127186', '2 SGSIN→USLGB planned 9251975'],
      current: null,
    },
    {
      name: 'on the mother vessel',
      sailed: 'ocean' as const,
      legs: ['1 IDJKT→SGSIN arrived 9127186', '2 SGSIN→USLGB sailing 9251975'],
      current: 2,
    },
    {
      name: 'arrived at the POD',
      sailed: 'arrived' as const,
      legs: ['1 IDJKT→SGSIN arrived 9127186', '2 SGSIN→USLGB arrived 9251975'],
      current: null,
    },
  ])('$name', ({ sailed, legs, current }) => {
    expect(summary(SHIPMENT, voyage(sailed))).toEqual({ stops: ['1 POL IDJKT', '2 TS1 SGSIN', '3 POD USLGB'], legs, current });
  });

  it('takes the times of each port from its events, and the shipment’s at the POL and POD', () => {
    const plan = planRoute({ ...SHIPMENT, pol_atd_at: new Date('2026-02-16T16:31:00Z') }, voyage('ocean'));
    const [pol, ts, pod] = plan.stops;
    expect(pol).toMatchObject({
      role: 'port_of_lading',
      name: 'Jakarta',
      timezone: 'Asia/Jakarta',
      outbound_atd_at: new Date('2026-02-16T16:31:00Z'),
      inbound_eta_at: null,
      inbound_ata_at: null,
    });
    expect(pol!.port?.locode).toBe('IDJKT');
    expect(ts).toMatchObject({
      role: 'transshipment',
      name: 'Singapore',
      timezone: 'Asia/Singapore',
      inbound_eta_at: null,
      inbound_ata_at: new Date('2026-02-18T04:48:00Z'),
      outbound_etd_at: null,
      outbound_atd_at: new Date('2026-02-20T01:30:00Z'),
    });
    // The shipment's ETA (the engine's merged value) wins over the event's.
    expect(pod).toMatchObject({ role: 'port_of_discharge', inbound_eta_at: new Date('2026-03-15T20:00:00Z'), inbound_ata_at: null });
    expect(plan.legs[1]!.vessel).toEqual({ imo: '9251975', name: 'APL HOUSTON', voyage_number: '883E' });
  });

  it('knows a leg arrived from an actual time further on, even without its own arrival', () => {
    const events = voyage('ocean').filter((e) => e.event !== 'feeder_arrived');
    expect(summary(SHIPMENT, events).legs[0]).toBe('1 IDJKT→SGSIN arrived 9127186');
  });

  it('is a direct voyage on the shipment alone: the POD vessel on the one leg', () => {
    expect(summary({ ...SHIPMENT, pol_atd_at: new Date('2026-02-20T00:00:00Z') }, [])).toEqual({
      stops: ['1 POL IDJKT', '2 POD USLGB'],
      legs: ['1 IDJKT→USLGB sailing 9251975'],
      current: 1,
    });
  });

  it('keeps a port missing from the port table, without a position, and numbers several transshipments', () => {
    const events = [
      ev('transshipment_arrived', 'XXHUB', '2026-02-18T00:00:00Z', false, FEEDER),
      ev('transshipment_departed', 'XXHUB', '2026-02-19T00:00:00Z', false, MOTHER),
      ev('transshipment_arrived', 'KRPUS', '2026-02-25T00:00:00Z', true, MOTHER),
    ];
    const plan = planRoute(SHIPMENT, events);
    expect(plan.stops.map((s) => [s.label, s.locode, s.port?.locode ?? null])).toEqual([
      ['POL', 'IDJKT', 'IDJKT'],
      ['TS1', 'XXHUB', null],
      ['TS2', 'KRPUS', 'KRPUS'],
      ['POD', 'USLGB', 'USLGB'],
    ]);
    expect(plan.stops[2]).toMatchObject({ inbound_eta_at: new Date('2026-02-25T00:00:00Z'), inbound_ata_at: null });
  });

  it('has no ports before the carrier names any', () => {
    const none = { ...SHIPMENT, port_of_lading_locode: null, port_of_discharge_locode: null };
    expect(planRoute(none, [])).toEqual({ stops: [], legs: [], current: null });
  });
});
