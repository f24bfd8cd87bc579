import { describe, expect, it } from 'vitest';
import type { TidemarkError } from '../domain/errors.js';
import { pageLinks, paginationMeta, parsePage } from './jsonapi.js';

function badPage(fn: () => unknown): TidemarkError {
  try {
    fn();
  } catch (err) {
    return err as TidemarkError;
  }
  throw new Error('expected an error');
}

describe('paging', () => {
  it.each([
    [{}, 30, { number: 1, size: 30, offset: 0 }],
    [{ page: { number: '3', size: '10' } }, 30, { number: 3, size: 10, offset: 20 }],
    [{ page: { size: '500' } }, 25, { number: 1, size: 100, offset: 0 }],
  ])('%o with default %i → %o', (query, def, expected) => {
    expect(parsePage(query, def)).toMatchObject(expected);
  });

  it.each([
    [{ page: { number: '0' } }, 'page[number]'],
    [{ page: { size: 'ten' } }, 'page[size]'],
    [{ page: { number: '-1' } }, 'page[number]'],
    [{ page: 'x' }, 'page'],
    [{ page: { offset: '3' } }, 'page[offset]'],
  ])('rejects %o naming %s', (query, parameter) => {
    const err = badPage(() => parsePage(query, 30));
    expect(err.code).toBe('bad_request');
    expect(err.items[0]?.parameter).toBe(parameter);
  });

  it('links keep other parameters, use raw brackets and omit what does not apply', () => {
    const page = parsePage({ page: { number: '2', size: '1' } }, 30);
    const links = pageLinks('https://h', '/v2/shipments?include=containers&page%5Bnumber%5D=2&page%5Bsize%5D=1', page, 3);
    expect(links).toEqual({
      self: 'https://h/v2/shipments?include=containers&page%5Bnumber%5D=2&page%5Bsize%5D=1',
      current: 'https://h/v2/shipments?include=containers&page[number]=2&page[size]=1',
      first: 'https://h/v2/shipments?include=containers&page[number]=1&page[size]=1',
      prev: 'https://h/v2/shipments?include=containers&page[number]=1&page[size]=1',
      next: 'https://h/v2/shipments?include=containers&page[number]=3&page[size]=1',
      last: 'https://h/v2/shipments?include=containers&page[number]=3&page[size]=1',
    });
    const first = pageLinks('https://h', '/v2/shipments', parsePage({}, 30), 0);
    expect(first).not.toHaveProperty('prev');
    expect(first).not.toHaveProperty('next');
    expect(Object.values(first).every((v) => typeof v === 'string')).toBe(true);
  });

  it('pagination meta carries page numbers and the record count', () => {
    expect(paginationMeta(parsePage({ page: { size: '10' } }, 25), 25)).toEqual({ current: 1, next: 2, last: 3, records: 25 });
    expect(paginationMeta(parsePage({}, 25), 0)).toEqual({ current: 1, last: 1, records: 0 });
  });
});
