// What the OAuth routes share: they are open to anyone (registration too), so each is limited per client address.
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { addressKey } from '../../../lib/client-address.js';
import { TidemarkError } from '../../../domain/errors.js';
import { OAUTH_LIMIT_PER_MINUTE } from '../../../services/oauth.js';
import type { HttpDeps } from '../../context.js';

export const hide = { hide: true } as const;
export const open = { auth: 'none' as const };
export const uidParams = z.object({ uid: z.string().min(1).max(200) });
export const anyBody = z.record(z.string(), z.unknown()).optional();

/** Takes one of the client address's requests of this minute. */
export const takeAddressSlot = (deps: HttpDeps, req: FastifyRequest) =>
  deps.rateLimits.takeKeyed(`oauth:ip:${addressKey(req.ip)}`, OAUTH_LIMIT_PER_MINUTE);

/** The consent page's requests over the address's limit: a 429 in the JSON:API errors form. */
export async function limitConsent(deps: HttpDeps, req: FastifyRequest): Promise<void> {
  const decision = await takeAddressSlot(deps, req);
  if (decision.allowed) return;
  const detail = 'Too many requests from this address; wait a minute and try again';
  throw new TidemarkError('rate_limited', detail, {
    retryAfterSeconds: decision.retryAfterSeconds,
    items: [{ title: 'Too Many Requests', detail }],
  });
}
