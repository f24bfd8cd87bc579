import type { FastifyReply, FastifyRequest } from 'fastify';

export const JSONAPI = 'application/vnd.api+json; charset=utf-8';

export function sendDocument(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).type(JSONAPI).send(body);
}

/** The absolute URL of this request as sent, for the document's `links.self`. */
export function selfUrl(publicUrl: string, req: FastifyRequest): string {
  return `${publicUrl}${req.url}`;
}
