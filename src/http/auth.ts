// Authentication and rate limiting, run for every route according to its `auth` config.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { hasFeature, type Account, type Feature, type RateBucket } from '../domain/account.js';
import { TidemarkError } from '../domain/errors.js';
import { verifyAdminToken } from '../services/setup.js';
import type { HttpDeps } from './context.js';

const UNAUTHORIZED = new TidemarkError('unauthorized', 'Invalid or missing API token.', {
  items: [{ title: 'Unauthorized', detail: 'Invalid or missing API token.' }],
});

/** `Token <key>` (the reference scheme) or `Bearer <key>`; anything else is no credential. */
export function credentialOf(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const m = /^(Token|Bearer)\s+(\S+)\s*$/i.exec(header);
  if (!m) return null;
  // Some clients send `Token token=<key>` (Rails style).
  return m[2]!.replace(/^token=/, '').replace(/^"(.*)"$/, '$1');
}

/** The web app's session cookie: http-only, same-site, Secure when the public URL is https. */
export const SESSION_COOKIE = 'tm_session';
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * An API key (`Authorization`), else the web app's session cookie. A session's writes must carry the
 * session's CSRF token in `X-CSRF-Token` (a cross-site form can send the cookie, never the header).
 */
export async function authenticateAccount(req: FastifyRequest, deps: HttpDeps): Promise<void> {
  const token = credentialOf(req);
  if (token) {
    const found = await deps.accounts.authenticate(deps.db, token);
    if (!found) throw UNAUTHORIZED;
    req.account = found.account;
    req.apiKeyId = found.keyId;
    return;
  }
  if (!(await authenticateSession(req, deps))) throw UNAUTHORIZED;
}

/** Signs the request in by its session cookie (checking CSRF on writes); false when there is no live session. */
export async function authenticateSession(req: FastifyRequest, deps: HttpDeps): Promise<boolean> {
  const session = await deps.users.session(req.cookies?.[SESSION_COOKIE]);
  if (!session) return false;
  if (!SAFE_METHODS.has(req.method)) {
    const presented = req.headers[CSRF_HEADER];
    if (typeof presented !== 'string' || !sameSecret(presented, session.csrfToken)) {
      const detail = 'Missing or wrong X-CSRF-Token header (the csrf_token of GET /auth/session)';
      throw new TidemarkError('forbidden', detail, { items: [{ title: 'Forbidden', detail }] });
    }
  }
  req.account = session.account;
  req.user = session.user;
  req.csrfToken = session.csrfToken;
  return true;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Whether the request carries the admin token. */
export async function isAdmin(req: FastifyRequest, deps: HttpDeps): Promise<boolean> {
  const token = credentialOf(req);
  return token !== null && (await verifyAdminToken(deps.db, token, deps.config.adminToken));
}

export async function authenticateAdmin(req: FastifyRequest, deps: HttpDeps): Promise<void> {
  if (!(await isAdmin(req, deps))) {
    throw new TidemarkError('unauthorized', 'Invalid or missing admin token.', {
      items: [{ title: 'Unauthorized', detail: 'Invalid or missing admin token.' }],
    });
  }
}

const DETAILS: Record<RateBucket, string> = {
  default: 'You have exceeded the API rate limit. Please reduce your request rate, or subscribe to webhooks instead of polling.',
  create_tracking_request: 'You have exceeded the create tracking requests limit. Please send fewer tracking requests per minute.',
  infer_number: 'Rate limit exceeded',
  refresh_container: 'You have exceeded the refresh limit. Please refresh fewer containers per minute, or rely on webhooks.',
  session: 'You have exceeded the rate limit for this session. Please slow down.',
  webhook_trigger: 'You have exceeded the webhook trigger limit. Please send fewer test notifications per minute.',
};

/** Counts the request against the account's bucket; throws 429 with Retry-After when it is over. */
export async function enforceRateLimit(req: FastifyRequest, deps: HttpDeps, bucket: RateBucket): Promise<void> {
  const account = req.account;
  if (!account) return;
  // The web app's requests count in a bucket of their own, so that a busy screen cannot starve API clients. Not
  // the trigger's: its budget bounds what Tidemark sends out to other hosts, whoever asks.
  if (req.user && bucket !== 'webhook_trigger') bucket = 'session';
  const decision = await deps.rateLimits.take(account, bucket);
  if (decision.allowed) return;
  const detail = DETAILS[bucket];
  throw new TidemarkError('rate_limited', detail, {
    retryAfterSeconds: decision.retryAfterSeconds,
    items: [bucket === 'infer_number' ? { detail } : { title: 'Too Many Requests', detail }],
  });
}

const FEATURE_NAMES: Record<Feature, string> = {
  routing: 'Routing data',
  rail_lfd: 'Rail last free day',
  refresh: 'Container refresh',
  widget: 'Tracking widget',
  extra_carriers: 'Extra carriers',
  sandbox_control: 'Sandbox control',
};

/** 403 for a feature the account lacks; the detail says "not enabled", which clients key on. */
export function requireFeature(account: Account | null, feature: Feature): void {
  if (account && hasFeature(account, feature)) return;
  const detail = `${FEATURE_NAMES[feature]} feature is not enabled for this account`;
  throw new TidemarkError('feature_not_enabled', detail, { items: [{ title: 'Forbidden', detail }] });
}
