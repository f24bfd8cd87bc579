// Refuses text PostgreSQL cannot store (NUL, unpaired surrogates: lib/storable-text.ts) at the HTTP edge, in path
// parameters, query and body alike, before any route, service or query sees it: no database error reaches a client.
import type { FastifyRequest } from 'fastify';
import { TidemarkError, type ErrorItem } from '../domain/errors.js';
import { describeUnstorable, findUnstorable, toParameter, toPointer } from '../lib/storable-text.js';

const lastName = (path: (string | number)[]) => [...path].reverse().find((p): p is string => typeof p === 'string') ?? '';

/**
 * The preValidation hook: a path parameter no resource can have is a 404, a query parameter a 400 naming it, a body
 * member a 422 pointing at it. Routes whose body speaks another protocol (MCP's JSON-RPC) set `config.ownTextCheck`
 * and check their body themselves.
 */
export async function refuseUnstorableText(req: FastifyRequest): Promise<void> {
  if (findUnstorable(req.params, 1).length) {
    throw new TidemarkError('not_found', 'not found', { items: [{ title: 'Not Found' }] });
  }
  const inQuery = findUnstorable(req.query);
  if (inQuery.length) {
    const items: ErrorItem[] = inQuery.map((f) => {
      const parameter = toParameter(f.path);
      return { detail: describeUnstorable(f.inName ? lastName(f.path) : parameter, f), parameter };
    });
    throw new TidemarkError('bad_request', items.map((i) => i.detail).join('; '), { items });
  }
  if (req.routeOptions.config.ownTextCheck) return;
  const inBody = findUnstorable(req.body);
  if (inBody.length) {
    const items: ErrorItem[] = inBody.map((f) => ({ detail: describeUnstorable(lastName(f.path), f), pointer: toPointer(f.path) }));
    throw new TidemarkError('validation_failed', items.map((i) => i.detail).join('; '), { items });
  }
}
