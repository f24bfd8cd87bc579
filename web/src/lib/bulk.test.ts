// Bulk tracking from a CSV file (lib/bulk.ts): request types as people write them, the header found in any order,
// and each row's problem said before anything is sent.
import { describe, expect, it } from 'vitest';
import { MAX_ROWS, parseTrackingCsv, requestTypeOf, rowsOf } from './bulk';

describe('requestTypeOf', () => {
  it.each([
    ['BL', 'bill_of_lading'],
    [' bill of lading ', 'bill_of_lading'],
    ['bill-of-lading', 'bill_of_lading'],
    ['MBL', 'bill_of_lading'],
    ['Booking', 'booking_number'],
    ['booking_number', 'booking_number'],
    ['container number', 'container'],
    ['CNTR', 'container'],
    ['', ''],
    ['pallet', null],
  ])('%j → %j', (text, type) => {
    expect(requestTypeOf(text)).toBe(type);
  });
});

describe('rowsOf', () => {
  it('reads rows without a header in the order number, type, scac, and skips blank lines', () => {
    const { rows, errors } = rowsOf([
      ['MAEU123456789', 'bl', 'maeu'],
      ['', ' '],
      ['MSKU9070323', '', ''],
    ]);
    expect(errors).toEqual([]);
    expect(rows).toEqual([
      { line: 1, number: 'MAEU123456789', type: 'bill_of_lading', scac: 'MAEU', typeText: 'bl', problem: null },
      { line: 3, number: 'MSKU9070323', type: '', scac: '', typeText: '', problem: null },
    ]);
  });

  it('finds a header in any order and with any spelling of its names', () => {
    const { rows } = rowsOf([
      ['Carrier', 'Request Type', 'Request-Number'],
      ['ONEY', 'booking', 'ONEYTYOB1234'],
    ]);
    expect(rows).toEqual([{ line: 2, number: 'ONEYTYOB1234', type: 'booking_number', scac: 'ONEY', typeText: 'booking', problem: null }]);
  });

  it.each([
    ['no number', ['', 'bl', 'MAEU'], 'No number in this row.'],
    ['an unknown type', ['X1', 'pallet', ''], 'Unknown type “pallet”: use bill_of_lading, booking_number or container.'],
    ['a SCAC that is none', ['X1', '', 'MAEU1'], '“MAEU1” is not a SCAC (two to four letters).'],
  ])('says what is wrong with a row: %s', (_name, cells, problem) => {
    expect(rowsOf([cells]).rows[0]!.problem).toBe(problem);
  });

  it.each([
    ['an empty file', [], 'The file has no rows.'],
    ['blank lines only', [[''], [' ', '']], 'The file has no rows.'],
    ['a header alone', [['number', 'type', 'scac']], 'The file has a header but no rows.'],
  ])('%s', (_name, cells, error) => {
    expect(rowsOf(cells as string[][])).toEqual({ rows: [], errors: [error] });
  });

  it(`keeps at most ${MAX_ROWS} rows and says so`, () => {
    const cells = Array.from({ length: MAX_ROWS + 2 }, (_, i) => [`N${i}`]);
    const { rows, errors } = rowsOf(cells);
    expect(rows).toHaveLength(MAX_ROWS);
    expect(errors).toEqual([`The file has ${MAX_ROWS + 2} rows; send at most ${MAX_ROWS} at a time.`]);
  });
});

describe('parseTrackingCsv', () => {
  it.each([
    ['commas, a byte-order mark and quotes', '\uFEFFnumber,type,scac\n"MAEU123456789",bl,MAEU\n'],
    ['semicolons', 'number;type;scac\nMAEU123456789;bl;MAEU\n'],
    ['tabs', 'number\ttype\tscac\nMAEU123456789\tbl\tMAEU\n'],
  ])('%s', async (_name, text) => {
    const { rows, errors } = await parseTrackingCsv(text);
    expect(errors).toEqual([]);
    expect(rows.map((r) => [r.number, r.type, r.scac])).toEqual([['MAEU123456789', 'bill_of_lading', 'MAEU']]);
  });
});
