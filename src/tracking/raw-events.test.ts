import { describe, expect, it } from 'vitest';
import { rawEvents, type StoredObservation } from './raw-events.js';
import { BOX, BOX2, LA_APMT, ms, SHANGHAI } from './test-builders.js';

const at = new Date('2026-03-01T08:00:00.250Z');
const obs = (id: string, sourceId: string, milestones: StoredObservation['milestones']): StoredObservation => ({
  id,
  sourceId,
  firstFetchedAt: at,
  milestones,
});

describe('raw events: what each source said about the container, in time order', () => {
  const carrier = obs('o1', 'dcsa:MSCU', [
    ms('vessel_loaded', '2026-02-20T10:00:00Z', { place: SHANGHAI }),
    ms('vessel_departed', '2026-02-21T02:00:00Z', { place: SHANGHAI, container: null }),
    ms('vessel_arrived', '2026-03-16T06:00:00-07:00', { place: LA_APMT, classifier: 'estimated', container: null }),
    ms('vessel_loaded', '2026-02-20T11:00:00Z', { place: SHANGHAI, container: BOX2 }),
  ]);
  const terminal = obs('o2', 'terminal:sandbox', [ms('vessel_discharged', '2026-03-17', { place: LA_APMT })]);
  const list = rawEvents(BOX, [terminal, carrier]);

  it('keeps the container’s own facts and the shipment-level ones, never another container’s', () => {
    expect(list.map((r) => r.event)).toEqual(['vessel_loaded', 'vessel_departed', 'vessel_arrived', 'vessel_discharged']);
    expect(list.map((r) => r.index)).toEqual([0, 1, 2, 3]);
  });

  it('says who said it and in which words', () => {
    expect(list[0]).toMatchObject({ data_source: 'shipping_line', data_provider_code: 'MSCU', original_event: 'vessel_loaded' });
    expect(list[3]).toMatchObject({ data_source: 'terminal', data_provider_code: null });
    expect(list[0]!.created_at).toBe('2026-03-01T08:00:00Z');
  });

  it('marks estimates and keeps actual and estimated times apart', () => {
    expect(list[2]).toMatchObject({
      estimated: true,
      actual_at: null,
      estimated_at: '2026-03-16T13:00:00Z',
      timestamp: '2026-03-16T13:00:00Z',
    });
    expect(list[0]).toMatchObject({ estimated: false, actual_at: '2026-02-20T10:00:00Z', estimated_at: null });
  });

  it('reads a date-only fact as local midnight at the place, and gives the date as actual_on', () => {
    expect(list[3]).toMatchObject({ actual_on: '2026-03-17', timestamp: '2026-03-17T07:00:00Z', timezone: 'America/Los_Angeles' });
  });

  it('names the place and vessel', () => {
    expect(list[2]).toMatchObject({ location_locode: 'USLAX', location_type: 'port', vessel_imo: '9839272', voyage_number: '601E' });
  });

  it('gives no event name to milestones the reference lists without one', () => {
    expect(rawEvents(BOX, [obs('o3', 'dcsa:MSCU', [ms('not_available', '2026-03-18T00:00:00Z')])])[0]!.event).toBeNull();
  });
});
