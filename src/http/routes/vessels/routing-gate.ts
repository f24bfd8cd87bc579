// The `routing` feature gate of the vessel routes (positions, future positions), answered in the reference's
// vessel variant of the routing 403: the usual body plus an empty `source`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { TidemarkError } from '../../../domain/errors.js';
import { requireFeature } from '../../auth.js';
import { accountOf } from '../../context.js';
import { errorBody } from '../../errors.js';
import { JSONAPI } from '../../reply.js';

/** Sends the 403 and returns the reply when the account lacks `routing`; null when it may go on. */
export function refuseWithoutRouting(req: FastifyRequest, reply: FastifyReply): FastifyReply | null {
  try {
    requireFeature(accountOf(req), 'routing');
    return null;
  } catch (err) {
    if (!(err instanceof TidemarkError)) throw err;
    const body = errorBody(403, err.items, String(req.id));
    for (const e of body.errors) e.source = {};
    return reply.code(403).type(JSONAPI).send(body);
  }
}
