// The `default_format` of a custom-field definition (docs/custom-fields.md): strftime syntax for date and datetime
// fields (formatted and parsed by d3-time-format, in UTC), and a printf-like `%.2f` / `%,.2f` for numbers. Pure.
import { utcFormat, utcParse } from 'd3-time-format';

/** The strftime directives a date or datetime format may use (d3-time-format's names), each with its meaning. */
export const TIME_DIRECTIVES: Record<string, string> = {
  a: 'abbreviated weekday (Mon)',
  A: 'weekday (Monday)',
  b: 'abbreviated month (Mar)',
  B: 'month (March)',
  d: 'day of the month, 01–31',
  e: 'day of the month, space-padded',
  j: 'day of the year, 001–366',
  m: 'month, 01–12',
  y: 'year without century, 00–99',
  Y: 'year with century',
  H: 'hour, 00–23',
  I: 'hour, 01–12',
  M: 'minute, 00–59',
  S: 'second, 00–59',
  p: 'AM or PM',
  Z: 'time zone offset (+0000: always UTC here)',
};

/** Formats are short: a label's worth of text. */
export const MAX_FORMAT_LENGTH = 100;
/** The most decimals a number field holds (scale 6), so the most a number format may show. */
export const MAX_DECIMALS = 6;

const TIME_TOKEN = /%([-_0]?)(.)/g;

/** Why a strftime format cannot be used, or null when it can. */
export function timeFormatProblem(format: string): string | null {
  if (format.length === 0 || format.length > MAX_FORMAT_LENGTH) return `must be 1 to ${MAX_FORMAT_LENGTH} characters`;
  let directives = 0;
  for (const m of format.matchAll(TIME_TOKEN)) {
    const letter = m[2]!;
    if (letter === '%') continue;
    if (!Object.hasOwn(TIME_DIRECTIVES, letter)) {
      return `has %${letter}, which is not a directive Tidemark formats (use ${Object.keys(TIME_DIRECTIVES)
        .map((d) => `%${d}`)
        .join(' ')} or %%)`;
    }
    directives++;
  }
  if (/%$/.test(format.replace(/%%/g, ''))) return 'ends with a lone %';
  if (directives === 0) return 'has no directive (such as %Y, %m or %d)';
  return null;
}

/** An instant (ms since the epoch) in a strftime format, in UTC. The format must have passed `timeFormatProblem`. */
export function formatTime(format: string, ms: number): string {
  return utcFormat(format)(new Date(ms));
}

/** Numbers' runs without leading zeros, lowercase, spaces collapsed: `05 Mar 2026` and `5 mar 2026` read alike. */
const loose = (text: string) =>
  text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\d+/g, (d) => String(Number(d)));

/**
 * The calendar day (`YYYY-MM-DD`) that `text` names in a strftime `format`, or null. A day that does not exist
 * (`31/04/2026`) is null: d3 would roll it over to the next month, so the parse must read back as the text did.
 */
export function parseDateWith(format: string, text: string): string | null {
  if (timeFormatProblem(format) !== null) return null;
  const parsed = utcParse(format)(text.trim());
  if (!parsed || Number.isNaN(parsed.getTime())) return null;
  if (loose(utcFormat(format)(parsed)) !== loose(text)) return null;
  const year = parsed.getUTCFullYear();
  if (year < 1 || year > 9999) return null;
  return parsed.toISOString().slice(0, 10);
}

// ---------- numbers ----------

/** `<text>%[,][.N](f|d)<text>`: one directive, `%%` a literal percent sign in the text around it. */
const NUMBER_FORMAT = /^((?:[^%]|%%)*)%(,?)(?:\.(\d))?([fd])((?:[^%]|%%)*)$/;

interface NumberFormat {
  prefix: string;
  grouping: boolean;
  decimals: number;
  suffix: string;
}

function readNumberFormat(format: string): NumberFormat | string {
  if (format.length === 0 || format.length > MAX_FORMAT_LENGTH) return `must be 1 to ${MAX_FORMAT_LENGTH} characters`;
  const m = NUMBER_FORMAT.exec(format);
  if (!m) return 'must hold one directive such as %.2f, %,.2f or %d (a literal percent sign is %%)';
  const [, prefix = '', grouping, precision, conversion, suffix = ''] = m;
  if (conversion === 'd' && precision !== undefined) return 'has decimals on %d (use %.Nf for decimals)';
  const decimals = precision === undefined ? (conversion === 'd' ? 0 : MAX_DECIMALS) : Number(precision);
  if (decimals > MAX_DECIMALS) return `shows at most ${MAX_DECIMALS} decimals`;
  return { prefix: prefix.replace(/%%/g, '%'), grouping: grouping === ',', decimals, suffix: suffix.replace(/%%/g, '%') };
}

/** Why a number format cannot be used, or null when it can. */
export function numberFormatProblem(format: string): string | null {
  const read = readNumberFormat(format);
  return typeof read === 'string' ? read : null;
}

/**
 * A number in a printf-like format: `%.2f` → `1234.50`, `%,.2f` → `1,234.50`, `%d` → `1235` (rounded),
 * `$%,.0f` → `$1,235`; `%f` shows 6 decimals, as printf does. The format must have passed `numberFormatProblem`.
 */
export function formatNumber(format: string, value: number): string {
  const f = readNumberFormat(format);
  if (typeof f === 'string') return String(value);
  let fixed = value.toFixed(f.decimals);
  if (/^-0(\.0*)?$/.test(fixed)) fixed = fixed.slice(1);
  if (f.grouping) {
    const [whole = '', fraction] = fixed.split('.');
    const sign = whole.startsWith('-') ? '-' : '';
    const digits = sign ? whole.slice(1) : whole;
    fixed = `${sign}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction === undefined ? '' : `.${fraction}`}`;
  }
  return `${f.prefix}${fixed}${f.suffix}`;
}
