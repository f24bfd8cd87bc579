// Words for transport events and holds, and the milestones' order (lib/tracking.ts).
import { describe, expect, it } from 'vitest';
import { eventInfo, holdLabel, holdWord, listWords, milestonesOldestFirst, placeName, sourceLabel, type TransportEvent } from './tracking';

describe('eventInfo', () => {
  it.each([
    ['container.transport.vessel_arrived', { label: 'Vessel arrived', estimated: false, code: 'vessel_arrived' }],
    ['container.transport.estimated.vessel_arrived', { label: 'Vessel arrived (estimated)', estimated: true, code: 'vessel_arrived' }],
    ['container.transport.full_out', { label: 'Picked up (full out)', estimated: false, code: 'full_out' }],
    ['container.transport.some_new_event', { label: 'Some new event', estimated: false, code: 'some_new_event' }],
    ['container.pickup_lfd_terminal.changed', { label: 'Terminal’s last free day set', estimated: false, code: null }],
    ['container.updated', { label: 'Updated', estimated: false, code: null }],
  ])('%s', (name, info) => {
    expect(eventInfo(name)).toEqual(info);
  });
});

describe('hold words', () => {
  it.each([
    ['customs', 'customs', 'Customs'],
    ['VACIS', 'VACIS exam', 'VACIS exam'],
    ['USDA', 'USDA', 'USDA'],
    ['port_fee', 'port fee', 'Port fee'],
  ])('%s → %s / %s', (name, word, label) => {
    expect(holdWord(name)).toBe(word);
    expect(holdLabel(name)).toBe(label);
  });

  it.each([
    [[], ''],
    [['a'], 'a'],
    [['a', 'b'], 'a and b'],
    [['a', 'b', 'c'], 'a, b and c'],
  ])('listWords %j → %j', (items, words) => {
    expect(listWords(items)).toBe(words);
  });
});

describe('small words', () => {
  it.each([
    ['terminal', 'Terminal'],
    ['rail', 'Railroad'],
    ['user', 'You'],
    ['carrier_portal', 'Carrier portal'],
    [null, '—'],
  ])('sourceLabel %j → %s', (source, label) => {
    expect(sourceLabel(source)).toBe(label);
  });

  const la = {
    name: 'Los Angeles',
    code: 'USLAX',
    time_zone: 'America/Los_Angeles',
    latitude: null,
    longitude: null,
    country_code: 'US',
    state_abbr: 'CA',
  };
  it.each([
    [la, 'USLAX', null, 'Los Angeles (USLAX)'],
    [undefined, 'USLAX', 'Port of LA', 'Port of LA (USLAX)'],
    [undefined, 'USLAX', null, 'USLAX'],
    [undefined, null, null, 'Unknown place'],
  ])('placeName → %s', (place, locode, fallback, name) => {
    expect(placeName(place, locode, fallback)).toBe(name);
  });
});

describe('milestonesOldestFirst', () => {
  const ev = (id: string, timestamp: string | null): TransportEvent => ({
    id,
    type: 'transport_event',
    attributes: {
      event: 'container.transport.vessel_arrived',
      voyage_number: null,
      timestamp,
      timezone: null,
      location_locode: null,
      data_source: 'shipping_line',
      value: null,
      invalidated_at: null,
      created_at: '2026-03-01T00:00:00Z',
      observed_at: null,
    },
  });

  it('reverses the API’s newest-first order and keeps the ones without a time last, in their order', () => {
    // As the API lists them: newest first by timestamp, those without one last.
    const api = [
      ev('c', '2026-03-03T00:00:00Z'),
      ev('b', '2026-03-02T00:00:00Z'),
      ev('a', '2026-03-01T00:00:00Z'),
      ev('x', null),
      ev('y', null),
    ];
    expect(milestonesOldestFirst(api).map((e) => e.id)).toEqual(['a', 'b', 'c', 'x', 'y']);
    expect(api.map((e) => e.id)).toEqual(['c', 'b', 'a', 'x', 'y']);
  });
});
