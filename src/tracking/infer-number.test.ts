import { describe, expect, it } from 'vitest';
import { makeContainerNumber } from '../domain/container-number.js';
import { decide, inferNumber, type CarrierLookup } from './infer-number.js';

const infer = (n: string) => inferNumber(n)!;
const top = (n: string) => infer(n).shippingLine.selected?.scac ?? null;

describe('unparseable text is no number (null → 422)', () => {
  it.each([[''], ['   '], ['---'], ['./-'], ['MAEU#240100001'], ['ÄÖÜ123'], ['A'.repeat(41)]])('%j', (n) => {
    expect(inferNumber(n)).toBeNull();
  });

  it('accepts 40 characters', () => {
    expect(inferNumber('A'.repeat(40))).not.toBeNull();
  });
});

describe('container shape (3 letters, U/J/Z, 7 digits, spaces and dashes ignored) → container', () => {
  it.each([
    ['MSKU9070323', 'MSKU9070323'],
    ['msku 907032-3', 'MSKU9070323'],
    ['CSQU3054383', 'CSQU3054383'],
    [makeContainerNumber('ABCJ', 1), makeContainerNumber('ABCJ', 1)],
    [makeContainerNumber('ABCZ', 2), makeContainerNumber('ABCZ', 2)],
  ])('%s', (n, parsed) => {
    expect(infer(n)).toMatchObject({
      numberType: 'container',
      validation: { isValid: true, type: 'container', checkDigitPassed: true, parsedNumber: parsed, reason: null },
    });
  });

  it.each([['MSKX9070323'], ['MSKU907032'], ['MSKU90703234']])('%s is not container-shaped', (n) => {
    expect(infer(n).numberType).not.toBe('container');
  });
});

describe('a failed check digit is still a container, invalid, with a reason', () => {
  it('MAEU1234568', () => {
    expect(infer('MAEU1234568')).toMatchObject({
      numberType: 'container',
      validation: {
        isValid: false,
        type: 'container',
        checkDigitPassed: false,
        parsedNumber: 'MAEU1234568',
        reason: expect.stringMatching(/check digit.*7/),
      },
    });
  });
});

describe('container owner code → its line, needs confirmation (owners lease boxes)', () => {
  it.each([
    ['MSKU9070323', 'MAEU', 'Maersk'],
    [makeContainerNumber('HLXU', 123456), 'HLCU', 'Hapag-Lloyd'],
    [makeContainerNumber('WHLU', 123456), 'WHLC', 'Wan Hai Lines'],
  ])('%s → %s', (n, scac, name) => {
    expect(infer(n).shippingLine).toEqual({
      decision: 'needs_confirmation',
      selected: { scac, name, confidence: 0.85 },
      candidates: [{ scac, name, confidence: 0.85 }],
    });
  });

  it('a leasing company or unknown owner gives no prediction', () => {
    expect(infer('TGHU8832880').shippingLine).toEqual({ decision: 'no_prediction', selected: null, candidates: [] });
  });

  it('a failed check digit keeps the owner as a weaker candidate, not proposed', () => {
    expect(infer('MAEU1234568').shippingLine).toEqual({
      decision: 'no_prediction',
      selected: null,
      candidates: [{ scac: 'MAEU', name: 'Maersk', confidence: 0.68 }],
    });
  });
});

describe('a carrier BL prefix → bill of lading, auto-selected', () => {
  it.each([
    ['MAEU240100001', 'MAEU'],
    ['MEDU240200002', 'MSCU'],
    ['KMTC241300013', 'KMTU'],
    ['CCMJ12345678', 'COSU'],
    ['medu 2402-00002', 'MSCU'],
    ['HLCU241500015', 'HLCU'],
  ])('%s → %s', (n, scac) => {
    const r = infer(n);
    expect(r.numberType).toBe('bill_of_lading');
    expect(r.validation).toMatchObject({ isValid: true, type: 'shipment', checkDigitPassed: null, reason: null });
    expect(r.shippingLine.decision).toBe('auto_select');
    expect(r.shippingLine.selected).toMatchObject({ scac, confidence: 0.97 });
    expect(r.shippingLine.candidates).toHaveLength(1);
  });

  it('keeps dashes in the parsed number, drops spaces, upper-cases', () => {
    expect(infer(' medu 2402-00002 ').validation.parsedNumber).toBe('MEDU2402-00002');
  });
});

describe('the reference test numbers → bill of lading of the TEST carrier', () => {
  it.each([['TEST-TR-SUCCEEDED'], ['test-tr-failed'], [' TEST-TR-SUCCEEDED ']])('%s', (n) => {
    expect(infer(n)).toMatchObject({
      numberType: 'bill_of_lading',
      validation: { isValid: true, parsedNumber: n.trim().toUpperCase() },
      shippingLine: {
        decision: 'auto_select',
        selected: { scac: 'TEST', name: 'Test carrier', confidence: 1 },
        candidates: [{ scac: 'TEST', name: 'Test carrier', confidence: 1 }],
      },
    });
  });

  it('whatever carriers the account sees', () => {
    expect(inferNumber('TEST-TR-SUCCEEDED', { isVisible: () => false })!.shippingLine.selected?.scac).toBe('TEST');
  });
});

describe('a bare number of 8 to 10 digits → booking, no carrier', () => {
  it.each([['12345678'], ['123456789'], ['1234567890'], ['1234-5678']])('%s', (n) => {
    expect(infer(n)).toMatchObject({
      numberType: 'booking',
      validation: { isValid: true, type: 'shipment', checkDigitPassed: null, reason: null },
      shippingLine: { decision: 'no_prediction', selected: null, candidates: [] },
    });
  });

  it.each([['1234567'], ['12345678901']])('%s (other lengths) is taken for a bill of lading', (n) => {
    expect(infer(n).numberType).toBe('bill_of_lading');
  });
});

describe('anything else → bill of lading without a carrier', () => {
  it.each([['XQZT241600016'], ['SHA1234567'], ['ABCDEF']])('%s', (n) => {
    expect(infer(n)).toMatchObject({
      numberType: 'bill_of_lading',
      validation: { isValid: true, type: 'shipment' },
      shippingLine: { decision: 'no_prediction', selected: null, candidates: [] },
    });
  });
});

describe('only carriers visible to the account are proposed', () => {
  const seaboardBox = makeContainerNumber('SMLU', 123456);

  it('Seaboard (SMLU) boxes name Seaboard when visible', () => {
    expect(top(seaboardBox)).toBe('SMLU');
  });

  it('and nothing when it is not', () => {
    const r = inferNumber(seaboardBox, { isVisible: (scac) => scac !== 'SMLU' })!;
    expect(r.numberType).toBe('container');
    expect(r.shippingLine).toEqual({ decision: 'no_prediction', selected: null, candidates: [] });
  });

  it('a hidden carrier BL prefix is no evidence', () => {
    expect(inferNumber('MAEU240100001', { isVisible: (scac) => scac !== 'MAEU' })!.shippingLine.candidates).toEqual([]);
  });
});

describe('several carriers on the same evidence share the confidence; the longest BL prefix comes first', () => {
  const carriers: CarrierLookup = {
    byBolPrefix: (p) =>
      ({ ABCD: [{ scac: 'LONG', name: 'Long prefix line' }], ABC: [{ scac: 'SHRT', name: 'Short prefix line' }] })[p] ?? [],
    byContainerPrefix: (p) =>
      p === 'ABCU'
        ? [
            { scac: 'ONE1', name: 'One' },
            { scac: 'TWO2', name: 'Two' },
          ]
        : [],
    maxBolPrefixLength: 4,
  };

  it('two BL prefixes match', () => {
    expect(inferNumber('ABCD12345', { carriers })!.shippingLine).toEqual({
      decision: 'no_prediction',
      selected: null,
      candidates: [
        { scac: 'LONG', name: 'Long prefix line', confidence: 0.49 },
        { scac: 'SHRT', name: 'Short prefix line', confidence: 0.49 },
      ],
    });
  });

  it('only the shorter matches: one carrier, auto-selected', () => {
    expect(inferNumber('ABCX12345', { carriers })!.shippingLine.selected).toEqual({
      scac: 'SHRT',
      name: 'Short prefix line',
      confidence: 0.97,
    });
  });

  it('an owner code two lines claim', () => {
    const r = inferNumber(makeContainerNumber('ABCU', 1), { carriers })!;
    expect(r.shippingLine.decision).toBe('no_prediction');
    expect(r.shippingLine.candidates.map((c) => c.confidence)).toEqual([0.43, 0.43]);
  });
});

describe('decision thresholds: auto_select ≥ 0.95, needs_confirmation 0.70–0.95, no_prediction below', () => {
  it.each([
    [1, 'auto_select'],
    [0.95, 'auto_select'],
    [0.9499, 'needs_confirmation'],
    [0.7, 'needs_confirmation'],
    [0.6999, 'no_prediction'],
    [0, 'no_prediction'],
    [undefined, 'no_prediction'],
  ] as const)('%s → %s', (c, decision) => {
    expect(decide(c)).toBe(decision);
  });
});
