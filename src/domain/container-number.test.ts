import { describe, expect, it } from 'vitest';
import { checkContainerNumber, checkDigit, makeContainerNumber, normalizeContainerNumber } from './container-number.js';

describe('ISO 6346 container numbers', () => {
  // CSQU3054383 is the example in the standard (check digit 3); the others differ from valid numbers
  // only in the check digit.
  it.each([
    ['CSQU3054383', true],
    ['MSKU9070323', true],
    ['TGHU8832880', true],
    ['MAEU1234567', true],
    ['MAEU1234568', false],
    ['CSQU3054384', false],
  ])('%s valid: %s', (n, valid) => {
    expect(checkContainerNumber(n).valid).toBe(valid);
  });

  it('computes the check digit (with letter values skipping multiples of 11)', () => {
    expect(checkDigit('CSQU305438')).toBe(3);
    // A remainder of 10 becomes check digit 0.
    expect(checkContainerNumber(makeContainerNumber('MSKU', 907032)).valid).toBe(true);
  });

  it.each([
    ['csqu 305438-3', 'CSQU3054383'],
    ['CSQU.305438.3', 'CSQU3054383'],
  ])('normalizes %s', (input, out) => {
    expect(normalizeContainerNumber(input)).toBe(out);
    expect(checkContainerNumber(input).valid).toBe(true);
  });

  it.each([['CSQ3054383'], ['CSQX3054383'], ['CSQU30543'], ['1234567890A'], ['']])('rejects the format of %s', (n) => {
    expect(checkContainerNumber(n)).toMatchObject({ valid: false, reason: 'format' });
  });

  it('says which check digit was expected', () => {
    expect(checkContainerNumber('CSQU3054384')).toMatchObject({ valid: false, reason: 'check_digit', expectedCheckDigit: 3 });
  });

  it('makes valid numbers for every serial', () => {
    for (let serial = 0; serial < 2000; serial += 7) expect(checkContainerNumber(makeContainerNumber('TCLU', serial)).valid).toBe(true);
  });
});
