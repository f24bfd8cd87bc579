// JSON:API paging as the reference API shapes it: `page[number]`/`page[size]` read from the query, page links
// built from the request URL (omitted, never null, when they do not apply) and the `pagination` meta.
import { badRequest } from '../domain/errors.js';

export interface Page {
  number: number;
  size: number;
  limit: number;
  offset: number;
}

export const MAX_PAGE_SIZE = 100;

function positiveInt(value: unknown, parameter: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value) || Number(value) < 1) {
    throw badRequest(`${parameter} must be a positive integer`, { parameter });
  }
  return Number(value);
}

/** `page[number]` (1-based) and `page[size]` (default per endpoint; sizes above 100 are cut to 100). */
export function parsePage(query: Record<string, unknown>, defaultSize: number): Page {
  const raw = query.page;
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
    throw badRequest('page must be given as page[number] and page[size]', { parameter: 'page' });
  }
  const p = (raw ?? {}) as Record<string, unknown>;
  for (const k of Object.keys(p)) {
    if (k !== 'number' && k !== 'size') throw badRequest(`page[${k}] is not a paging parameter`, { parameter: `page[${k}]` });
  }
  const number = positiveInt(p.number, 'page[number]') ?? 1;
  const size = Math.min(positiveInt(p.size, 'page[size]') ?? defaultSize, MAX_PAGE_SIZE);
  return { number, size, limit: size, offset: (number - 1) * size };
}

export interface PageLinks {
  self: string;
  current: string;
  first?: string;
  prev?: string;
  next?: string;
  last?: string;
}

/**
 * Page links: `self` is the request URL as sent; the others are canonical URLs that keep the other
 * query parameters and carry `page[number]`/`page[size]` with raw brackets.
 */
export function pageLinks(publicUrl: string, requestUrl: string, page: Page, total: number): PageLinks {
  const [path = '', search = ''] = requestUrl.split('?', 2);
  const others = search.split('&').filter((p) => p && !/^page(\[|%5B)/i.test(p));
  const url = (n: number) => `${publicUrl}${path}?${[...others, `page[number]=${n}`, `page[size]=${page.size}`].join('&')}`;
  const last = Math.max(1, Math.ceil(total / page.size));
  const links: PageLinks = { self: `${publicUrl}${requestUrl}`, current: url(page.number) };
  links.first = url(1);
  if (page.number > 1) links.prev = url(Math.min(page.number - 1, last));
  if (page.number < last) links.next = url(page.number + 1);
  links.last = url(last);
  return links;
}

/** `pagination` meta of tracking requests, parties and notifications. */
export function paginationMeta(page: Page, total: number) {
  const last = Math.max(1, Math.ceil(total / page.size));
  return {
    current: page.number,
    ...(page.number < last ? { next: page.number + 1 } : {}),
    last,
    records: total,
  };
}
