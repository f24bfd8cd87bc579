import type { FastifyReply, FastifyRequest } from 'fastify';
import { changeTag, type DocumentCache } from '../services/document-cache.js';
import { type IncludeTree, type ResourceKind, resolveIncluded } from '../render/jsonapi.js';
import { type Page, pageLinks } from './jsonapi.js';

export const JSONAPI = 'application/vnd.api+json; charset=utf-8';

export function sendDocument(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).type(JSONAPI).send(body);
}

/**
 * A single resource's document (200), from the process's document cache when this account asked for this URL
 * before and nothing it was built from has changed since (services/document-cache.ts). `build` reads and renders
 * it, naming the change tags of what it read besides the account.
 */
export async function sendCachedDocument(
  reply: FastifyReply,
  req: FastifyRequest,
  cache: DocumentCache,
  accountId: string,
  build: () => Promise<{ document: unknown; tags: string[] }>,
): Promise<FastifyReply> {
  const key = `${accountId} ${req.url}`;
  const kept = cache.get(key);
  if (kept) return reply.code(200).type(JSONAPI).send(kept);
  const epoch = cache.epoch();
  const { document, tags } = await build();
  const body = Buffer.from(JSON.stringify(document));
  cache.set(key, body, [changeTag.account(accountId), ...tags], epoch);
  return reply.code(200).type(JSONAPI).send(body);
}

/** The absolute URL of this request as sent, for the document's `links.self`. */
export function selfUrl(publicUrl: string, req: FastifyRequest): string {
  return `${publicUrl}${req.url}`;
}

/**
 * A JSON:API list document: the page's records, their includes resolved for the whole page, page links and
 * meta (`{size, total}` unless the route's reference shape says otherwise).
 */
export async function sendList<T>(
  reply: FastifyReply,
  req: FastifyRequest,
  publicUrl: string,
  list: { kind: ResourceKind<T>; items: T[]; total: number; page: Page; include: IncludeTree; meta?: Record<string, unknown> },
): Promise<FastifyReply> {
  const { kind, items, total, page, include } = list;
  return sendDocument(reply, 200, {
    data: items.map(kind.render),
    included: await resolveIncluded(kind, items, include),
    links: pageLinks(publicUrl, req.url, page, total),
    meta: list.meta ?? { size: items.length, total },
  });
}
