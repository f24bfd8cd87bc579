// Bulk tracking from a CSV file, read in the browser with papaparse (loaded only when a file is chosen):
// columns number, type, scac — with or without a header row, in that order without one. A blank type is
// guessed from the number (POST /v2/tracking_requests/infer_number), a blank scac is auto-detected.
import type { TrackingRequestAttributes } from './tracking';

export interface BulkRow {
  /** The line of the file (1-based), for the results table. */
  line: number;
  number: string;
  /** An API request type, or '' to guess it from the number. */
  type: TrackingRequestAttributes['request_type'] | '';
  scac: string;
  /** The type as written in the file. */
  typeText: string;
  /** Why the row cannot be sent as it is (an unknown type); it is reported, not sent. */
  problem: string | null;
}

const TYPE_WORDS: Record<string, BulkRow['type']> = {
  bill_of_lading: 'bill_of_lading',
  'bill of lading': 'bill_of_lading',
  bl: 'bill_of_lading',
  bol: 'bill_of_lading',
  mbl: 'bill_of_lading',
  booking_number: 'booking_number',
  'booking number': 'booking_number',
  booking: 'booking_number',
  bk: 'booking_number',
  container: 'container',
  container_number: 'container',
  'container number': 'container',
  cntr: 'container',
  '': '',
};

/** A request type as people write it (`BL`, `booking`, `container`), or null when it is none. */
export function requestTypeOf(text: string): BulkRow['type'] | null {
  const t = text.trim().toLowerCase().replace(/-/g, '_');
  return t in TYPE_WORDS ? TYPE_WORDS[t]! : (TYPE_WORDS[t.replace(/_/g, ' ')] ?? null);
}

/** At most this many rows per file (the tracking rate limit is 100 a minute). */
export const MAX_ROWS = 500;

/** Turns parsed cells into rows: finds the header (any order), skips blank lines, checks each type. */
export function rowsOf(cells: string[][]): { rows: BulkRow[]; errors: string[] } {
  const errors: string[] = [];
  const lines = cells.map((r, i) => ({ line: i + 1, cells: r.map((c) => (c ?? '').trim()) })).filter((r) => r.cells.some(Boolean));
  if (!lines.length) return { rows: [], errors: ['The file has no rows.'] };
  let col = { number: 0, type: 1, scac: 2 };
  const head = lines[0]!.cells.map((c) => c.toLowerCase().replace(/[\s-]+/g, '_'));
  if (head.includes('number') || head.includes('request_number')) {
    const at = (...names: string[]) => head.findIndex((h) => names.includes(h));
    col = { number: at('number', 'request_number'), type: at('type', 'request_type'), scac: at('scac', 'carrier') };
    lines.shift();
  }
  const rows = lines.map(({ line, cells: c }): BulkRow => {
    const number = c[col.number] ?? '';
    const typeText = col.type >= 0 ? (c[col.type] ?? '') : '';
    const type = requestTypeOf(typeText);
    const scac = (col.scac >= 0 ? (c[col.scac] ?? '') : '').toUpperCase();
    let problem: string | null = null;
    if (!number) problem = 'No number in this row.';
    else if (type === null) problem = `Unknown type “${typeText}”: use bill_of_lading, booking_number or container.`;
    else if (scac && !/^[A-Z]{2,4}$/.test(scac)) problem = `“${scac}” is not a SCAC (two to four letters).`;
    return { line, number, type: type ?? '', scac, typeText, problem };
  });
  if (rows.length > MAX_ROWS) {
    errors.push(`The file has ${rows.length} rows; send at most ${MAX_ROWS} at a time.`);
    return { rows: rows.slice(0, MAX_ROWS), errors };
  }
  if (!rows.length) errors.push('The file has a header but no rows.');
  return { rows, errors };
}

/** Parses the text of a CSV file (commas, semicolons or tabs; quoted fields) into rows. */
export async function parseTrackingCsv(text: string): Promise<{ rows: BulkRow[]; errors: string[] }> {
  const { default: Papa } = await import('papaparse');
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy', delimitersToGuess: [',', ';', '\t'] });
  const errors = parsed.errors.filter((e) => e.type !== 'Delimiter').map((e) => `Line ${(e.row ?? 0) + 1}: ${e.message}.`);
  const out = rowsOf(parsed.data);
  return { rows: out.rows, errors: [...errors, ...out.errors] };
}
