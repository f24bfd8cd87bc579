// Query strings as JSON:API clients send them: brackets raw (`page[number]=2`) or percent-encoded
// (`page%5Bnumber%5D=2`), nested (`filter[created_at][start]`), arrays (`port_of_lading[]=USLAX`), and
// comma lists raw or as `%2C` (kept as one string; the handler splits them).
import qs from 'qs';
import { badRequest } from '../domain/errors.js';

export function parseQuery(query: string): Record<string, unknown> {
  return qs.parse(query, { depth: 4, arrayLimit: 100, parameterLimit: 200, allowPrototypes: false });
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
