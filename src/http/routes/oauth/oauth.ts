// OAuth 2.1 for MCP clients: the protected resource metadata (RFC 9728) of /mcp, the authorization server's own
// endpoints (answered by oidc-provider through OAuthService: discovery, registration, authorize, token,
// revocation, JWKS), and the JSON the web app's consent page (/oauth/interaction/:uid) reads and posts.
import { addressKey } from '../../../lib/client-address.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { TidemarkError } from '../../../domain/errors.js';
import { OAUTH_LIMIT_PER_MINUTE } from '../../../services/oauth.js';
import { authenticateSession } from '../../auth.js';
import { type App, type HttpDeps, userOf } from '../../context.js';

const hide = { hide: true } as const;
const open = { auth: 'none' as const };
const uidParams = z.object({ uid: z.string().min(1).max(200) });
const anyBody = z.record(z.string(), z.unknown()).optional();
const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, OPTIONS', 'access-control-max-age': '86400' };

export default function oauthRoutes(app: App, deps: HttpDeps) {
  /** The authorization server's endpoints are open to anyone (registration too): limited per client address. */
  const takeAddressSlot = (req: FastifyRequest) => deps.rateLimits.takeKeyed(`oauth:ip:${addressKey(req.ip)}`, OAUTH_LIMIT_PER_MINUTE);
  const limitConsent = async (req: FastifyRequest) => {
    const decision = await takeAddressSlot(req);
    if (decision.allowed) return;
    const detail = 'Too many requests from this address; wait a minute and try again';
    throw new TidemarkError('rate_limited', detail, {
      retryAfterSeconds: decision.retryAfterSeconds,
      items: [{ title: 'Too Many Requests', detail }],
    });
  };

  for (const [path, resource] of [
    ['/.well-known/oauth-protected-resource', 'origin'],
    ['/.well-known/oauth-protected-resource/mcp', 'mcp'],
  ] as const) {
    app.get(path, { schema: hide, config: open }, async (_req, reply) =>
      reply.headers(CORS).send(deps.oauth.protectedResourceMetadata(resource)),
    );
    app.options(path, { schema: hide, config: open }, async (_req, reply) => reply.code(204).headers(CORS).send());
  }

  // The consent page's questions. The browser brings the library's interaction cookie (scoped to this path).
  app.get('/oauth/interaction/:uid/details', { schema: { ...hide, params: uidParams }, config: open }, async (req, reply) => {
    await limitConsent(req);
    const view = await deps.oauth.interaction(req.raw, reply.raw, req.params.uid);
    const signedIn = await authenticateSession(req, deps);
    return {
      ...view,
      account: signedIn && req.account ? { id: req.account.id, name: req.account.companyName } : null,
    };
  });

  app.post(
    '/oauth/interaction/:uid/confirm',
    { schema: { ...hide, params: uidParams, body: anyBody }, config: { auth: 'session' } },
    async (req, reply) => ({ redirect_to: await deps.oauth.confirm(req.raw, reply.raw, req.params.uid, userOf(req).id) }),
  );

  app.post('/oauth/interaction/:uid/abort', { schema: { ...hide, params: uidParams, body: anyBody }, config: open }, async (req, reply) => {
    await limitConsent(req);
    // A signed-in browser must show its CSRF token (authenticateSession checks it on writes); a signed-out one may decline.
    await authenticateSession(req, deps);
    return { redirect_to: await deps.oauth.abort(req.raw, reply.raw, req.params.uid) };
  });

  // Everything else under /oauth, and the discovery documents, is the library's: it reads the body itself.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    const forward = async (req: FastifyRequest, reply: FastifyReply) => {
      if (req.method !== 'OPTIONS') {
        const decision = await takeAddressSlot(req);
        if (!decision.allowed) {
          return reply
            .code(429)
            .header('retry-after', String(decision.retryAfterSeconds))
            .header('cache-control', 'no-store')
            .send({
              error: 'temporarily_unavailable',
              error_description: `Too many requests from this address; retry after ${decision.retryAfterSeconds} seconds`,
            });
        }
      }
      reply.hijack();
      await deps.oauth.handle(req.raw, reply.raw);
    };
    const methods = ['GET', 'POST', 'OPTIONS'];
    scope.route({ method: methods, url: '/oauth/*', schema: hide, config: open, handler: forward });
    scope.route({
      method: ['GET', 'OPTIONS'],
      url: '/.well-known/oauth-authorization-server',
      schema: hide,
      config: open,
      handler: forward,
    });
    scope.route({ method: ['GET', 'OPTIONS'], url: '/.well-known/openid-configuration', schema: hide, config: open, handler: forward });
  });
}
