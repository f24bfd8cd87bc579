// GET /.well-known/oauth-protected-resource[/mcp]: the protected resource metadata (RFC 9728) of /mcp, with CORS.
import type { App, HttpDeps } from '../../context.js';
import { hide, open } from './limits.js';

const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, OPTIONS', 'access-control-max-age': '86400' };

export default function protectedResourceMetadata(app: App, deps: HttpDeps) {
  for (const [path, resource] of [
    ['/.well-known/oauth-protected-resource', 'origin'],
    ['/.well-known/oauth-protected-resource/mcp', 'mcp'],
  ] as const) {
    app.get(path, { schema: hide, config: open }, async (_req, reply) =>
      reply.headers(CORS).send(deps.oauth.protectedResourceMetadata(resource)),
    );
    app.options(path, { schema: hide, config: open }, async (_req, reply) => reply.code(204).headers(CORS).send());
  }
}
