// The authorization server's own endpoints, answered by oidc-provider through OAuthService: discovery,
// registration, authorize, token, revocation, JWKS (everything under /oauth but the consent page's JSON).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, HttpDeps } from '../../context.js';
import { hide, open, takeAddressSlot } from './limits.js';

export default function authorizationServer(app: App, deps: HttpDeps) {
  // Everything else under /oauth, and the discovery documents, is the library's: it reads the body itself.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    const forward = async (req: FastifyRequest, reply: FastifyReply) => {
      if (req.method !== 'OPTIONS') {
        const decision = await takeAddressSlot(deps, req);
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
