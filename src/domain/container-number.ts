// ISO 6346 container numbers: owner code (3 letters), equipment category (U, J or Z), 6-digit serial
// and a check digit computed from the other ten characters.

const LETTER_VALUES: Record<string, number> = (() => {
  // A=10 … Z=38, skipping multiples of 11 (11, 22, 33), as the standard prescribes.
  const values: Record<string, number> = {};
  let v = 10;
  for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') {
    if (v % 11 === 0) v++;
    values[ch] = v++;
  }
  return values;
})();

export type ContainerNumberCheck =
  | { valid: true; normalized: string; owner: string; category: string; serial: string; checkDigit: number }
  | { valid: false; normalized: string; reason: 'format' | 'check_digit'; expectedCheckDigit?: number };

/** Uppercases and removes spaces, dashes and dots (`MSKU 123456-7` → `MSKU1234567`). */
export function normalizeContainerNumber(input: string): string {
  return input.toUpperCase().replace(/[\s.\-/]/g, '');
}

/** The check digit of the first ten characters (owner, category, serial). */
export function checkDigit(first10: string): number {
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const ch = first10[i]!;
    const value = /\d/.test(ch) ? Number(ch) : LETTER_VALUES[ch]!;
    sum += value * 2 ** i;
  }
  return (sum % 11) % 10;
}

export function checkContainerNumber(input: string): ContainerNumberCheck {
  const normalized = normalizeContainerNumber(input);
  const m = /^([A-Z]{3})([UJZ])(\d{6})(\d)$/.exec(normalized);
  if (!m) return { valid: false, normalized, reason: 'format' };
  const expected = checkDigit(normalized.slice(0, 10));
  if (expected !== Number(m[4])) return { valid: false, normalized, reason: 'check_digit', expectedCheckDigit: expected };
  return { valid: true, normalized, owner: m[1]!, category: m[2]!, serial: m[3]!, checkDigit: expected };
}

/** Builds a valid number from owner+category and serial (the sandbox uses this). */
export function makeContainerNumber(ownerAndCategory: string, serial: number): string {
  const first10 = `${ownerAndCategory.toUpperCase()}${String(serial).padStart(6, '0')}`;
  return `${first10}${checkDigit(first10)}`;
}
