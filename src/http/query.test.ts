import { describe, expect, it } from 'vitest';
import qs from 'qs';
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

  it('reads a query without brackets exactly as qs does (a random sweep of names, values, escapes and repeats)', () => {
    const pieces = [
      'a',
      'b',
      'include',
      'q',
      '=',
      '=',
      '&',
      '&',
      '+',
      '%2C',
      '%20',
      '%E2%82%AC',
      '%zz',
      '%',
      'x.y',
      '0',
      '1',
      '__proto__',
      'toString',
      'constructor',
      '',
    ];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let i = 0; i < 5000; i++) {
      const length = next() % 12;
      const query = Array.from({ length }, () => pieces[next() % pieces.length]).join('');
      expect(parseQuery(query), query).toStrictEqual(
        qs.parse(query, { depth: 4, arrayLimit: 100, parameterLimit: 200, allowPrototypes: false }),
      );
    }
    const many = Array.from({ length: 250 }, (_, i) => `p${i}=${i}`).join('&');
    expect(parseQuery(many)).toStrictEqual(qs.parse(many, { depth: 4, arrayLimit: 100, parameterLimit: 200, allowPrototypes: false }));
  });
});
