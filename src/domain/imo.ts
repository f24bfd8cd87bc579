// IMO ship identification numbers: seven digits, the last a check digit (the first six weighted 7 to 2, the last
// digit of the sum). Carriers, AIS static reports and the sandbox all name vessels by them.

export function imoCheckDigit(first6: string): number {
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(first6[i]) * (7 - i);
  return sum % 10;
}

/** A 7-digit IMO number from what a source gave (`IMO 9811000`, ` 9811000 `), or null when it is not one. */
export function normalizeImo(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const imo = raw
    .trim()
    .toUpperCase()
    .replace(/^IMO\s*/, '');
  return /^\d{7}$/.test(imo) ? imo : null;
}

/** Seven digits with a right check digit; AIS gives the number as an integer, carriers as text. */
export function isValidImo(imo: string | number): boolean {
  const text = typeof imo === 'number' ? (Number.isInteger(imo) ? String(imo) : '') : imo;
  return /^[1-9]\d{6}$/.test(text) && imoCheckDigit(text.slice(0, 6)) === Number(text[6]);
}
