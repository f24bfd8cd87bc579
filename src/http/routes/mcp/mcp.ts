// POST /mcp (and /mcp/): the MCP Streamable HTTP endpoint, stateless: each request is authenticated with an
// API key (as /v2), counted in the account's default rate bucket, and answered by a new MCP server and
// transport. GET → 405; OPTIONS → CORS preflight. Host and Origin are checked against the allow-lists
// (TIDEMARK_MCP_ALLOWED_HOSTS / _ORIGINS; loopback is always allowed) against DNS rebinding.
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../../../domain/account.js';
import { credentialOf } from '../../auth.js';
import type { App, HttpDeps } from '../../context.js';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'Content-Type, Authorization, Accept, MCP-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
  'access-control-expose-headers': 'Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate, Retry-After, X-Request-Id',
  'access-control-max-age': '86400',
};

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function hostnameOf(host: string): string {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return '';
  }
}

/** Why the request's Host or Origin is refused, or null when both are allowed. */
export function refusal(
  headers: { host?: string | undefined; origin?: string | undefined },
  mcp: { allowedHosts: string[]; allowedOrigins: string[] },
): string | null {
  const host = (headers.host ?? '').toLowerCase();
  const hosts = mcp.allowedHosts.map((h) => h.toLowerCase());
  if (!host || !(hosts.includes(host) || hosts.includes(hostnameOf(host)) || LOOPBACK.has(hostnameOf(host)))) {
    return `Invalid Host header: ${headers.host ?? '(none)'}`;
  }
  const origin = headers.origin;
  if (origin === undefined) return null;
  let parsed: URL | null = null;
  try {
    parsed = new URL(origin);
  } catch {
    parsed = null;
  }
  const origins = mcp.allowedOrigins.map((o) => o.toLowerCase().replace(/\/+$/, ''));
  if (parsed && (origins.includes(parsed.origin.toLowerCase()) || LOOPBACK.has(parsed.hostname))) return null;
  return `Invalid Origin header: ${origin}`;
}

function sendJson(reply: FastifyReply, status: number, body: unknown, headers: Record<string, string> = {}) {
  return reply
    .code(status)
    .headers({ ...CORS, ...headers })
    .type('application/json')
    .send(body);
}

/** SSE framing when the client lists text/event-stream before application/json; JSON otherwise. */
function wantsSse(accept: string | undefined): boolean {
  const a = (accept ?? '').toLowerCase();
  const sse = a.indexOf('text/event-stream');
  const json = a.indexOf('application/json');
  return sse !== -1 && (json === -1 || sse < json);
}

export default function mcpRoutes(app: App, deps: HttpDeps) {
  // JSON-RPC bodies: tool arguments with unstorable text are refused by the MCP server as tool errors.
  const config = { auth: 'none' as const, ownTextCheck: true };
  const schema = { hide: true };

  /** An API key (as on /v2), else an OAuth access token issued for this endpoint. */
  async function callerOf(token: string): Promise<Account | null> {
    const found = await deps.accounts.authenticate(deps.db, token);
    if (found) return found.account;
    return (await deps.oauth.authenticate(token))?.account ?? null;
  }

  async function handle(req: FastifyRequest, reply: FastifyReply) {
    const refused = refusal(req.headers, deps.config.mcp);
    if (refused) return sendJson(reply, 403, { error: 'Forbidden', message: refused });
    const token = credentialOf(req);
    const account = token ? await callerOf(token) : null;
    if (!account) {
      // The challenge names our resource metadata, from which an OAuth client finds the authorization server.
      const metadata = `resource_metadata="${deps.oauth.resourceMetadataUrl}"`;
      return sendJson(
        reply,
        401,
        {
          error: 'Unauthorized',
          message: token
            ? 'Invalid API key or access token.'
            : 'Missing valid Authorization header. Send `Authorization: Token <api key>`, or `Bearer <access token>` from OAuth.',
        },
        {
          'www-authenticate': token
            ? `Bearer realm="mcp", error="invalid_token", error_description="The access token is invalid or expired", ${metadata}`
            : `Bearer realm="mcp", ${metadata}`,
        },
      );
    }
    const decision = await deps.rateLimits.take(account, 'default');
    if (!decision.allowed) {
      return sendJson(
        reply,
        429,
        { error: 'Too Many Requests', message: 'You have exceeded the API rate limit. Please reduce your request rate.' },
        { 'retry-after': String(decision.retryAfterSeconds) },
      );
    }

    reply.hijack();
    const res = reply.raw;
    for (const [k, v] of Object.entries(CORS)) res.setHeader(k, v);
    res.setHeader('x-request-id', String(req.id));
    const server = deps.mcpServer(account, { id: String(req.id), log: req.log });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !wantsSse(req.headers.accept),
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req.raw, res, req.body);
    } catch (err) {
      req.log.error({ err }, 'MCP request failed');
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null }));
      }
    }
  }

  // The router ignores trailing slashes: `/mcp/` is served by these routes too.
  app.post('/mcp', { config, schema }, handle);
  const notAllowed = async (_req: FastifyRequest, reply: FastifyReply) =>
    sendJson(reply, 405, { error: 'Method not allowed', message: 'Only POST requests are accepted' }, { allow: 'POST, OPTIONS' });
  app.get('/mcp', { config, schema }, notAllowed);
  app.delete('/mcp', { config, schema }, notAllowed);
  app.options('/mcp', { config, schema }, async (_req, reply) => reply.code(204).headers(CORS).send());
}
