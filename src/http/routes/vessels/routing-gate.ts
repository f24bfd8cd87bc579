// The `routing` feature gate of the vessel routes (positions, future positions), answered in the reference's
// vessel variant of the routing 403: the usual body plus an empty `source`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { TidemarkError } from '../../../domain/errors.js';
import { requireFeature } from '../../auth.js';
import { accountOf } from '../../context.js';
import { errorBody } from '../../errors.js';
import { JSONAPI } from '../../reply.js';
import { errorObject, markJsonApi } from '../../../render/schemas.js';
import { described } from '../../schemas.js';

/**
 * The 403 of these routes, for their `response` (`403: routingRefused`): the error document whose errors carry an
 * empty `source`, which the shared `Error` schema does not allow.
 */
export const routingRefused = described(
  markJsonApi(
    z.strictObject({ errors: z.array(errorObject.extend({ source: z.strictObject({}).meta({ description: 'Always empty' }) })) }),
  ),
  'Forbidden: the account lacks the `routing` feature (the reference’s vessel variant: each error has an empty `source`)',
);

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
