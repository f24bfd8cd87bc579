// What a client is told when a request does not match a route's schema: one sentence per problem, naming the
// attribute or parameter as the client wrote it (`ref_numbers`, `page[size]`, `headers[0]`), in the reference
// API's words where it has some ("can't be blank"), instead of the schema library's own (`Invalid input: …`).

/** What the HTTP layer knows of a schema issue (fastify-type-provider-zod passes zod's issue as `params`). */
export interface SchemaIssue {
  /** zod's issue code (`invalid_type`, `too_small` …). */
  code?: string;
  /** The issue's own message: kept when a route wrote it (a refinement), else replaced. */
  message?: string;
  params?: Record<string, unknown>;
}

export interface Sentence {
  detail: string;
  /** The reference's error code where it has one (`blank`). */
  code?: string;
}

/** zod's wording, never shown as it is: anything else in a message was written by a route and is kept. */
const LIBRARY_WORDING =
  /^(Invalid input|Invalid option|Invalid string|Invalid (ISO |)[A-Za-z]+( address)?$|Too small|Too big|Unrecognized key)/;

const KINDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
  date: 'a date',
};

const FORMATS: Record<string, string> = {
  email: 'an e-mail address',
  url: 'a URL',
  uuid: 'an id (a UUID)',
  guid: 'an id (a UUID)',
  datetime: 'an ISO 8601 date-time with a zone, e.g. 2026-03-01T14:30:00Z',
  date: 'a date as YYYY-MM-DD',
  time: 'a time of day as HH:MM:SS',
};

/** The kind of value a client sent, as zod's message names it (`received number`). */
function received(message: string | undefined): string | undefined {
  const kind = /received (\w+)/.exec(message ?? '')?.[1];
  if (kind === 'undefined') return undefined;
  return kind === 'NaN' ? 'not a number' : (KINDS[kind ?? ''] ?? kind);
}

const list = (values: unknown[]) => values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');

/** The sentence for one issue about `name` (the attribute or parameter as the client wrote it). */
export function sentence(name: string, issue: SchemaIssue): Sentence {
  const p = issue.params ?? {};
  const message = issue.message;
  if (message && !LIBRARY_WORDING.test(message)) return { detail: /^[a-z]/.test(message) ? `${name} ${message}` : message };
  switch (issue.code) {
    case 'invalid_type': {
      const expected = KINDS[String(p.expected)] ?? String(p.expected ?? 'a value');
      const got = received(message);
      if (got === undefined) return { detail: `${name} can't be blank`, code: 'blank' };
      return { detail: `${name} must be ${expected}, not ${got}` };
    }
    case 'invalid_value': {
      const values = Array.isArray(p.values) ? p.values : [];
      return { detail: values.length === 1 ? `${name} must be ${list(values)}` : `${name} must be one of ${list(values)}` };
    }
    case 'invalid_format': {
      const format = String(p.format ?? '');
      const what = FORMATS[format];
      if (what) return { detail: `${name} must be ${what}` };
      if (format === 'starts_with' || format === 'ends_with' || format === 'includes')
        return { detail: `${name} is not in the form it takes` };
      return { detail: `${name} must match ${String(p.pattern ?? 'the form it takes')}` };
    }
    case 'too_small':
      return bound(name, p, 'least');
    case 'too_big':
      return bound(name, p, 'most');
    case 'invalid_union':
      return unionSentence(name, p);
    case 'not_multiple_of':
      return { detail: `${name} must be a multiple of ${String(p.divisor)}` };
    default:
      return { detail: `${name} is invalid` };
  }
}

/** An issue inside one form of a union (zod's `invalid_union` carries one list per form in `errors`). */
export interface BranchIssue {
  code?: string;
  path?: (string | number)[];
  expected?: unknown;
  message?: string;
  [k: string]: unknown;
}

/** A union's forms, each with its issues and, when the form refused the value for its kind alone, that issue. */
export function unionBranches(params: Record<string, unknown> | undefined): { issues: BranchIssue[]; wrongKind?: BranchIssue }[] {
  const errors = params?.errors;
  if (!Array.isArray(errors)) return [];
  return (errors as BranchIssue[][]).map((issues) => ({
    issues,
    wrongKind: issues.find((i) => i.code === 'invalid_type' && (i.path ?? []).length === 0),
  }));
}

/**
 * A value that is none of a union's forms. When each form refused it for its kind (text or a list …), say which
 * kinds it takes: `ref_numbers must be text or a list, not a number`.
 */
function unionSentence(name: string, p: Record<string, unknown>): Sentence {
  const kinds = unionBranches(p).map((b) => b.wrongKind);
  if (kinds.length === 0 || kinds.some((k) => k === undefined)) return { detail: `${name} is none of the forms it takes` };
  const got = received(kinds[0]!.message);
  if (got === undefined) return { detail: `${name} can't be blank`, code: 'blank' };
  const expected = [...new Set(kinds.map((k) => KINDS[String(k!.expected)] ?? String(k!.expected)))];
  return { detail: `${name} must be ${expected.join(' or ')}, not ${got}` };
}

function bound(name: string, p: Record<string, unknown>, side: 'least' | 'most'): Sentence {
  const limit = Number(side === 'least' ? p.minimum : p.maximum);
  const inclusive = p.inclusive !== false;
  if (p.origin === 'string') {
    if (side === 'least' && limit <= 1) return { detail: `${name} can't be blank`, code: 'blank' };
    return { detail: `${name} must be at ${side} ${inclusive ? limit : limit + (side === 'least' ? 1 : -1)} characters long` };
  }
  if (p.origin === 'array' || p.origin === 'set') {
    if (side === 'least' && limit <= 1) return { detail: `${name} must list at least one item`, code: 'blank' };
    return { detail: `${name} must list at ${side} ${inclusive ? limit : limit + (side === 'least' ? 1 : -1)} items` };
  }
  if (inclusive) return { detail: `${name} must be at ${side} ${limit}` };
  return { detail: `${name} must be ${side === 'least' ? 'more' : 'less'} than ${limit}` };
}

/**
 * A path in a request body as the client wrote it: `/data/attributes/ref_numbers/2` → `ref_numbers[2]` (a JSON:API
 * document's members are named from its attributes or relationships), `/url` → `url`.
 */
export function nameOf(pointer: string): string {
  const parts = pointer.split('/').filter(Boolean);
  const rest =
    parts[0] === 'data' && (parts[1] === 'attributes' || parts[1] === 'relationships') && parts.length > 2 ? parts.slice(2) : parts;
  const [first, ...more] = rest;
  return (first ?? 'the request body') + more.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('');
}

/** A query parameter as the client wrote it: `/page/size` → `page[size]`. */
export function parameterOf(instancePath: string): string {
  const [first, ...rest] = instancePath.split('/').filter(Boolean);
  return (first ?? 'query') + rest.map((p) => `[${p}]`).join('');
}
