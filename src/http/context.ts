// What the HTTP layer is given by the composition root, and what it attaches to each request.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Account, Feature, RateBucket } from '../domain/account.js';
import type { DocumentCache } from '../services/document-cache.js';
import type { OAuthService } from '../services/oauth.js';
import type { SandboxService } from '../services/sandbox.js';
import type { TrackingEngine } from '../services/tracking-engine.js';
import type { UserRow, UserService } from '../services/users.js';
import type { Db } from '../storage/db.js';
import type { FrontEndServices } from '../services/front-ends.js';
import type { Metrics } from './metrics.js';

/** The front ends' services (services/front-ends.ts) and what only the HTTP layer needs. */
export interface HttpDeps extends FrontEndServices {
  db: Db;
  /** People, sessions and one-time links of the web app. */
  users: UserService;
  /** The OAuth 2.1 authorization server of MCP clients, and the check of its access tokens. */
  oauth: OAuthService;
  /**
   * A new MCP server whose tools act for the account (one per request: the endpoint is stateless). Made by the
   * composition root: http and mcp are front ends side by side (both render with render/), neither imports the other.
   */
  mcpServer(account: Account, request?: McpRequest): McpServer;
  /** Stop, resume and on-demand refresh; the engine's attempts and refreshes run in workers. */
  trackingEngine: TrackingEngine;
  /** Rendered container and shipment documents kept in this process (started with the API role). */
  documents: DocumentCache;
  metrics: Metrics;
  /** The simulated world; null when the sandbox is off (its endpoints then do not exist). */
  sandbox: SandboxService | null;
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** The HTTP request an MCP server answers: its id goes in tool errors, its logger records what failed inside a tool. */
export interface McpRequest {
  id: string;
  log: FastifyBaseLogger;
}

/**
 * How a route is protected: an account's API key (or the web app's session), the admin token, or nothing;
 * `admin_or_feature` takes the admin token or the key of an account with the route's `feature`; `session`
 * takes only the web app's session (the team and sign-out routes).
 */
export type AuthMode = 'account' | 'admin' | 'admin_or_feature' | 'session' | 'none';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
    rateBucket?: RateBucket;
    /** A feature the account must have; without it the route answers 403 "… not enabled …". */
    feature?: Feature;
    /** The body speaks another protocol (MCP's JSON-RPC) that refuses unstorable text itself (http/text-guard.ts). */
    ownTextCheck?: boolean;
  }
  interface FastifyInstance {
    routeTable: { method: string; url: string; documented: boolean }[];
  }
  interface FastifyRequest {
    account: Account | null;
    apiKeyId: string | null;
    /** The signed-in user when the request came with the web app's session cookie. */
    user: UserRow | null;
    csrfToken: string | null;
  }
}

/** The signed-in user; routes with `auth: 'session'` always have one. */
export function userOf(req: { user: UserRow | null }): UserRow {
  if (!req.user) throw new Error('route without session authentication asked for the user');
  return req.user;
}

/** The caller's account; routes with `auth: 'account'` always have one. */
export function accountOf(req: { account: Account | null }): Account {
  if (!req.account) throw new Error('route without account authentication asked for the account');
  return req.account;
}
