// What the read routes of every resource share, so that each route file says only what is its own (its path,
// schemas, service call and defaults): one resource (`GET /x/:id`) and one page of a list (`GET /x`).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type IncludeTree, parseInclude, type ResourceKind, resolveIncluded } from '../../render/jsonapi.js';
import { type Page, pageLinks, parsePage } from '../jsonapi.js';
import { selfUrl, sendDocument, sendList } from '../reply.js';

export interface One<T> {
  kind: ResourceKind<T>;
  /** The `include` asked for (or the route's default); null when the route takes none: then no `included`. */
  include: string | undefined | null;
  /** Reads the record; an unknown id (malformed, another account's) is the service's 404. */
  load: () => T | Promise<T>;
  /** The document's `meta`, when the resource has one. */
  meta?: (record: T) => Record<string, unknown>;
}

/**
 * `GET /x/:id`: the include is checked first (a 400 before any read), then the record is read and sent (200) with
 * its includes and `links.self`.
 */
export async function sendOne<T>(reply: FastifyReply, req: FastifyRequest, publicUrl: string, one: One<T>): Promise<FastifyReply> {
  const include = one.include === null ? null : parseInclude(one.include, one.kind);
  const record = await one.load();
  return sendDocument(reply, 200, {
    data: one.kind.render(record),
    ...(include ? { included: await resolveIncluded(one.kind, [record], include) } : {}),
    links: { self: selfUrl(publicUrl, req) },
    ...(one.meta ? { meta: one.meta(record) } : {}),
  });
}

export interface List<T> {
  kind: ResourceKind<T>;
  /** The request's `include` and `page[…]`, as the list's querystring schema delivers them. */
  query: { include?: unknown; page?: unknown };
  /** The include when the request names none; null when the route takes none: then no `included`. */
  defaultInclude?: string | null;
  /** `page[size]` when the request gives none. */
  pageSize: number;
  /** Reads one page (and anything the page's records need before they are rendered, given the include asked for). */
  load: (page: Page, include: IncludeTree | null) => Promise<{ items: T[]; total: number }>;
  /** The document's `meta`; `{size, total}` unless the list's reference shape says otherwise. */
  meta?: (page: Page, items: T[], total: number) => Record<string, unknown>;
}

/** `GET /x`: include and paging are checked first (400s), then one page is read and sent as the list document. */
export async function sendPage<T>(reply: FastifyReply, req: FastifyRequest, publicUrl: string, list: List<T>): Promise<FastifyReply> {
  const { kind, query } = list;
  const include = list.defaultInclude === null ? null : parseInclude(query.include ?? list.defaultInclude, kind);
  const page = parsePage(query, list.pageSize);
  const { items, total } = await list.load(page, include);
  const meta = list.meta?.(page, items, total);
  if (include) return sendList(reply, req, publicUrl, { kind, items, total, page, include, ...(meta ? { meta } : {}) });
  return sendDocument(reply, 200, {
    data: items.map(kind.render),
    links: pageLinks(publicUrl, req.url, page, total),
    meta: meta ?? { size: items.length, total },
  });
}
