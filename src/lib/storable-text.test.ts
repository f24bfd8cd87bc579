import { describe, expect, it } from 'vitest';
import { describeUnstorable, findUnstorable, toParameter, toPointer, unstorableIn } from './storable-text.js';

describe('unstorableIn', () => {
  it.each([
    ['', null],
    ['plain text', null],
    ['emoji 😀 and 𝄞 (surrogate pairs)', null],
    ['\ufffd replacement character', null],
    ['a\u0000b', 'nul'],
    ['\u0000', 'nul'],
    ['\ud800', 'surrogate'],
    ['x\udc00', 'surrogate'],
    ['\udc00\ud800', 'surrogate'],
    ['😀\ud83d', 'surrogate'],
    ['\ud83d😀', 'surrogate'],
  ] as const)('%j → %s', (text, what) => {
    expect(unstorableIn(text)).toBe(what);
  });
});

describe('findUnstorable', () => {
  it('finds values and member names, in document order, with their paths', () => {
    const found = findUnstorable({
      data: { attributes: { ok: 'fine', name: 'a\u0000', tags: ['x', '\ud800'], 'bad\u0000key': 1 } },
      extra: [{ deep: [['\u0000']] }],
    });
    expect(found).toEqual([
      { path: ['data', 'attributes', 'name'], inName: false, what: 'nul' },
      { path: ['data', 'attributes', 'tags', 1], inName: false, what: 'surrogate' },
      { path: ['data', 'attributes', 'bad\u0000key'], inName: true, what: 'nul' },
      { path: ['extra', 0, 'deep', 0, 0], inName: false, what: 'nul' },
    ]);
  });

  it('a bare string is found at the root; numbers, booleans, null and buffers are skipped', () => {
    expect(findUnstorable('\u0000')).toEqual([{ path: [], inName: false, what: 'nul' }]);
    expect(findUnstorable([1, true, null, Buffer.from([0]), { a: 2 }])).toEqual([]);
    expect(findUnstorable(undefined)).toEqual([]);
  });

  it('stops at the limit', () => {
    expect(
      findUnstorable(
        Array.from({ length: 50 }, () => '\u0000'),
        3,
      ),
    ).toHaveLength(3);
  });

  it('walks 100,000 levels of nesting without a stack overflow', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const [found] = findUnstorable(deep);
    expect(found?.path).toHaveLength(100_000);
  });
});

describe('pointers, parameters and details', () => {
  it('RFC 6901 pointers', () => {
    expect(toPointer(['data', 'attributes', 'ref_numbers', 1])).toBe('/data/attributes/ref_numbers/1');
    expect(toPointer(['a/b', 'c~d'])).toBe('/a~1b/c~0d');
    expect(toPointer([])).toBe('');
  });

  it('query parameter names: brackets for nesting, a repeated parameter without its index', () => {
    expect(toParameter(['filter', 'number'])).toBe('filter[number]');
    expect(toParameter(['q', 1])).toBe('q');
    expect(toParameter(['filter', 'created_at', 'start'])).toBe('filter[created_at][start]');
  });

  it('details say what and where', () => {
    expect(describeUnstorable('company_name', { inName: false, what: 'nul' })).toBe(
      'company_name contains a NUL character (U+0000), which cannot be stored; remove it and try again',
    );
    expect(describeUnstorable('a\u0000', { inName: true, what: 'nul' })).toMatch(/^The name "a\\u0000" contains/);
    expect(describeUnstorable('', { inName: false, what: 'surrogate' })).toMatch(/^The value contains an unpaired UTF-16 surrogate/);
  });
});
