import { describe, expect, it } from 'vitest';
import { parseQuery } from './query.js';

describe('parseQuery', () => {
  it.each([
    ['page[number]=2&page[size]=100', { page: { number: '2', size: '100' } }],
    ['page%5Bnumber%5D=1&page%5Bsize%5D=5', { page: { number: '1', size: '5' } }],
    ['filter[created_at][start]=2026-01-01T00:00:00Z', { filter: { created_at: { start: '2026-01-01T00:00:00Z' } } }],
    ['filter%5Bcreated_at%5D%5Bend%5D=x', { filter: { created_at: { end: 'x' } } }],
    ['include=shipment%2Cpod_terminal', { include: 'shipment,pod_terminal' }],
    ['include=shipment,pod_terminal', { include: 'shipment,pod_terminal' }],
    ['port_of_lading[]=USLAX&port_of_lading[]=USLGB', { port_of_lading: ['USLAX', 'USLGB'] }],
    ['show_positions[from_timestamp]=1', { show_positions: { from_timestamp: '1' } }],
    ['q=MAEU+123', { q: 'MAEU 123' }],
  ])('%s', (query, expected) => {
    expect(parseQuery(query)).toEqual(expected);
  });

  it('does not let a query set prototype properties', () => {
    const parsed = parseQuery('__proto__[admin]=1&constructor[prototype][x]=1');
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  });
});
