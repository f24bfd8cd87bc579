import { validate, version } from 'uuid';
import { describe, expect, it } from 'vitest';
import { isUuid, newId, referenceId } from './ids.js';

describe('newId', () => {
  it('makes valid UUIDv7s, all different, that sort in the order they were made', () => {
    // Far more than one pool of random bytes and many ids per millisecond.
    const ids = Array.from({ length: 20_000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(validate(id)).toBe(true);
      expect(version(id)).toBe(7);
    }
    expect([...ids].sort()).toEqual(ids);
  });

  it('carries the time it was made in its first 48 bits', () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    const msecs = Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);
    // The counter may carry into the next millisecond when more than 2^31 ids share one: never here.
    expect(msecs).toBeGreaterThanOrEqual(before);
    expect(msecs).toBeLessThanOrEqual(after);
  });

  it('does not repeat its random part across ids', () => {
    const tails = new Set(Array.from({ length: 5_000 }, () => newId().slice(-12)));
    expect(tails.size).toBe(5_000);
  });
});

describe('referenceId', () => {
  it('is the same UUIDv5 for the same natural key, whatever its case', () => {
    expect(referenceId('port', 'uslax')).toBe(referenceId('port', 'USLAX'));
    expect(referenceId('port', 'USLAX')).not.toBe(referenceId('terminal', 'USLAX'));
    expect(version(referenceId('port', 'USLAX'))).toBe(5);
    expect(isUuid(referenceId('port', 'USLAX'))).toBe(true);
  });
});
