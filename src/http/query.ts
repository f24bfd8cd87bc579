// Query strings as JSON:API clients send them: brackets raw (`page[number]=2`) or percent-encoded
// (`page%5Bnumber%5D=2`), nested (`filter[created_at][start]`), arrays (`port_of_lading[]=USLAX`), and
// comma lists raw or as `%2C` (kept as one string; the handler splits them).
import qs from 'qs';
import { badRequest } from '../domain/errors.js';

const QS_OPTIONS = { depth: 4, arrayLimit: 100, parameterLimit: 200, allowPrototypes: false };
const BRACKETS = /[[\]]|%5[bd]/i;
const has = (o: object, key: string) => Object.hasOwn(o, key);

export function parseQuery(query: string): Record<string, unknown> {
  return (BRACKETS.test(query) ? null : plainPairs(query)) ?? qs.parse(query, QS_OPTIONS);
}

/**
 * What qs makes of a query without brackets and without a repeated name (most requests: `include=…`), without
 * qs's general machinery, which showed in the profile of every request; null for anything else (qs reads it).
 * The same reading: at most 200 parameters, `+` is a space, a malformed escape is kept as written, no name given
 * twice, nameless pairs and names of Object.prototype's properties dropped.
 */
function plainPairs(query: string): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  for (const part of query.split('&', QS_OPTIONS.parameterLimit)) {
    const eq = part.indexOf('=');
    const key = decode(eq === -1 ? part : part.slice(0, eq));
    if (!key || has(Object.prototype, key)) continue;
    if (has(out, key)) return null;
    out[key] = eq === -1 ? '' : decode(part.slice(eq + 1));
  }
  return out;
}

function decode(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** The `filter` parameters of a query (`{}` when none); a bare `filter=x` is a 400. */
export function filtersOf(query: Record<string, unknown>): Record<string, unknown> {
  const raw = query.filter ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw badRequest('filter must be given as filter[name]=value', { parameter: 'filter' });
  }
  return raw as Record<string, unknown>;
}

/**
 * A query parameter that takes one value: trimmed, undefined when absent or blank; given twice or with
 * brackets under it, a 400 naming it.
 */
export function singleValue(value: unknown, parameter: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest(`${parameter} must be a single value`, { parameter });
  return value.trim() || undefined;
}
