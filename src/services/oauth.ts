// The OAuth 2.1 authorization server for MCP clients, built on oidc-provider (a certified implementation):
// discovery (RFC 8414), dynamic client registration (RFC 7591), authorization code with PKCE (S256 only),
// resource indicators (RFC 8707: every access token is bound to the MCP endpoint), refresh tokens rotated on
// each use, and revocation (RFC 7009: revoking one token revokes its whole grant). Its records live in
// PostgreSQL (one table) with token ids stored as digests, so any number of API processes share them.
// Sign-in and consent are the web app's page at /oauth/interaction/:uid; this service answers its questions.
import { createHash, generateKeyPairSync, hkdfSync } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider, {
  type Adapter,
  type AdapterPayload,
  type Configuration,
  errors,
  type Interaction,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import type { Logger } from 'pino';
import type { Account } from '../domain/account.js';
import type { Clock } from '../domain/clock.js';
import { badRequest } from '../domain/errors.js';
import { seal, unseal } from '../lib/sealed.js';
import { sha256 } from '../lib/secrets.js';
import { describeUnstorable, findUnstorable, toPointer, unstorableIn } from '../lib/storable-text.js';
import type { Db } from '../storage/db.js';
import * as repo from '../storage/repositories/oauth.js';
import { settingOrInsert } from '../storage/repositories/settings.js';
import type { SecretKeyring } from './keyring.js';
import type { UserService } from './users.js';

/** How long an access token lives; clients refresh (the refresh token is replaced on every use). */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
/** The scope MCP clients are granted on the MCP resource (listed in the protected resource metadata). */
export const MCP_SCOPE = 'mcp';
/** Per client address and minute, on the authorization server's endpoints (registration is open to anyone). */
export const OAUTH_LIMIT_PER_MINUTE = 60;

const SIGNING_KEY_SETTING = 'oauth_signing_jwk';
/** The scopes this authorization server knows; `mcp` is also the MCP resource's (clients register with it). */
const SCOPES = new Set(['openid', 'offline_access', MCP_SCOPE]);

/** The authorization server's endpoints, all under /oauth (the web app owns /auth). */
const ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  introspection: '/oauth/introspect',
  userinfo: '/oauth/userinfo',
  end_session: '/oauth/session/end',
  code_verification: '/oauth/device',
  device_authorization: '/oauth/device/auth',
  pushed_authorization_request: '/oauth/par',
  backchannel_authentication: '/oauth/backchannel',
  challenge: '/oauth/challenge',
  credential: '/oauth/credential',
} as const;

/** What the consent page shows. */
export interface InteractionView {
  uid: string;
  prompt: string;
  client: { client_id: string; client_name: string | null; client_uri: string | null; logo_uri: string | null; redirect_host: string };
  resource: string;
  scopes: string[];
}

/** Who an MCP request with an OAuth access token acts for. */
export interface OAuthCaller {
  account: Account;
  userId: string;
  clientId: string;
}

export interface OAuthServiceOptions {
  db: Db;
  wall: Clock;
  keyring: SecretKeyring;
  users: UserService;
  /** The public URL: the issuer, and the base of the MCP resource. */
  publicUrl: string;
  logger: Logger;
}

const expired = () => badRequest('This sign-in request has expired or was already used. Start again from your MCP client.');

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export class OAuthService {
  #built: { issuer: string; provider: Promise<Provider> } | null = null;
  /** The library's request handler, made once per provider (it composes the middleware stack). */
  readonly #callbacks = new WeakMap<Provider, ReturnType<Provider['callback']>>();

  constructor(private readonly o: OAuthServiceOptions) {}

  /** The MCP endpoint as a resource (RFC 8707): the audience of every access token. */
  get mcpResource(): string {
    return `${trimSlash(this.o.publicUrl)}/mcp`;
  }

  /** Where the MCP endpoint's protected resource metadata is (RFC 9728: the well-known path plus the resource's path). */
  get resourceMetadataUrl(): string {
    return `${this.issuer}/.well-known/oauth-protected-resource/mcp`;
  }

  get issuer(): string {
    return trimSlash(this.o.publicUrl);
  }

  /** Resource indicators a client may ask for: the MCP endpoint (with or without a trailing slash) or the origin. */
  #isOurResource(indicator: string): boolean {
    const r = trimSlash(indicator);
    return r === this.mcpResource || r === this.issuer;
  }

  /** Answers an authorization server request (/oauth/*, /.well-known/oauth-authorization-server). */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const provider = await this.#provider();
    let callback = this.#callbacks.get(provider);
    if (!callback) {
      callback = provider.callback();
      this.#callbacks.set(provider, callback);
    }
    await callback(req, res);
  }

  /** The pending authorization behind the browser's interaction cookie, checked against the page's uid. */
  async interaction(req: IncomingMessage, res: ServerResponse, uid: string): Promise<InteractionView> {
    return (await this.#interaction(req, res, uid)).view;
  }

  /** The signed-in user allows the client: grants the MCP resource and returns where the browser goes next. */
  async confirm(req: IncomingMessage, res: ServerResponse, uid: string, userId: string): Promise<string> {
    const provider = await this.#provider();
    const { details, view } = await this.#interaction(req, res, uid);
    const found = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
    const grant = found && found.accountId === userId ? found : new provider.Grant({ accountId: userId, clientId: view.client.client_id });
    const known = view.scopes.filter((s) => SCOPES.has(s));
    if (known.length) grant.addOIDCScope(known.join(' '));
    // What the consent prompt found missing (claims, other scopes), so that no second prompt follows.
    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope?.length) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims?.length) grant.addOIDCClaims(missing.missingOIDCClaims);
    grant.addResourceScope(view.resource, MCP_SCOPE);
    const grantId = await grant.save();
    return provider.interactionResult(req, res, { login: { accountId: userId }, consent: { grantId } }, { mergeWithLastSubmission: false });
  }

  /** The user declines: the client receives `access_denied`. */
  async abort(req: IncomingMessage, res: ServerResponse, uid: string): Promise<string> {
    const provider = await this.#provider();
    await this.#interaction(req, res, uid);
    return provider.interactionResult(
      req,
      res,
      { error: 'access_denied', error_description: 'The user did not allow access' },
      { mergeWithLastSubmission: false },
    );
  }

  /** The caller behind an access token issued for the MCP resource; null when unknown, expired, revoked or for another resource. */
  async authenticate(token: string): Promise<OAuthCaller | null> {
    const provider = await this.#provider();
    const accessToken = await provider.AccessToken.find(token);
    if (!accessToken?.accountId || !accessToken.clientId) return null;
    const audiences = [accessToken.aud ?? []].flat();
    if (!audiences.some((a) => this.#isOurResource(a))) return null;
    const member = await this.o.users.member(accessToken.accountId);
    return member ? { account: member.account, userId: member.user.id, clientId: accessToken.clientId } : null;
  }

  /** RFC 9728 metadata for the MCP endpoint (or, at the bare well-known path, for the origin). */
  protectedResourceMetadata(resource: 'mcp' | 'origin') {
    return {
      resource: resource === 'mcp' ? this.mcpResource : this.issuer,
      authorization_servers: [this.issuer],
      bearer_methods_supported: ['header'],
      scopes_supported: [MCP_SCOPE],
      resource_name: 'Tidemark MCP server',
    };
  }

  /** Deletes expired codes, tokens, sessions and interactions; returns how many. */
  prune(): Promise<number> {
    return repo.pruneOAuthRecords(this.o.db, this.o.wall.now());
  }

  async #interaction(req: IncomingMessage, res: ServerResponse, uid: string): Promise<{ details: Interaction; view: InteractionView }> {
    const provider = await this.#provider();
    let details: Interaction;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      throw expired();
    }
    if (details.uid !== uid) throw expired();
    const clientId = String(details.params.client_id ?? '');
    const client = clientId ? await provider.Client.find(clientId) : undefined;
    if (!client) throw expired();
    const redirectUri = String(details.params.redirect_uri ?? client.redirectUris?.[0] ?? '');
    const requested = typeof details.params.resource === 'string' ? details.params.resource : this.mcpResource;
    const view: InteractionView = {
      uid,
      prompt: details.prompt.name,
      client: {
        client_id: client.clientId,
        client_name: client.clientName ?? null,
        client_uri: client.clientUri ?? null,
        logo_uri: client.logoUri ?? null,
        redirect_host: URL.parse(redirectUri)?.host ?? redirectUri,
      },
      resource: this.#isOurResource(requested) ? this.mcpResource : requested,
      scopes: String(details.params.scope ?? '')
        .split(' ')
        .filter(Boolean),
    };
    return { details, view };
  }

  #provider(): Promise<Provider> {
    const issuer = this.issuer;
    if (this.#built?.issuer !== issuer) {
      const provider = this.#build(issuer);
      provider.catch(() => {
        if (this.#built?.provider === provider) this.#built = null;
      });
      this.#built = { issuer, provider };
    }
    return this.#built.provider;
  }

  async #build(issuer: string): Promise<Provider> {
    const key = await this.o.keyring.key();
    const store = new RecordStore(this.o.db, this.o.wall, key);
    const sealedJwk = await settingOrInsert(this.o.db, SIGNING_KEY_SETTING, seal(key, JSON.stringify(newSigningKey())), this.o.wall.now());
    const signingKey = JSON.parse(unseal(key, sealedJwk)) as Record<string, unknown>;
    const cookieKey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'tidemark oauth cookies', 32)).toString('base64url');
    const resourceServer = {
      scope: MCP_SCOPE,
      audience: this.mcpResource,
      accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
      accessTokenFormat: 'opaque' as const,
    };
    const configuration: Configuration = {
      adapter: (model: string) => new RecordAdapter(model, store),
      clients: [],
      findAccount: async (_ctx, sub) => {
        const member = await this.o.users.member(sub);
        return member ? { accountId: sub, claims: () => ({ sub }) } : undefined;
      },
      scopes: [...SCOPES],
      responseTypes: ['code'],
      pkce: { required: () => true },
      routes: ROUTES,
      interactions: { url: (_ctx: KoaContextWithOIDC, interaction: Interaction) => `/oauth/interaction/${interaction.uid}` },
      cookies: { keys: [cookieKey] },
      jwks: { keys: [signingKey] },
      features: {
        devInteractions: { enabled: false },
        registration: { enabled: true, initialAccessToken: false },
        // A client revokes only its own tokens (the library's default too, said explicitly).
        revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
        rpInitiatedLogout: { enabled: false },
        userinfo: { enabled: false },
        resourceIndicators: {
          enabled: true,
          // A client that names no resource gets the MCP endpoint: the only resource this server protects.
          defaultResource: () => this.mcpResource,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, indicator) => {
            if (!this.#isOurResource(indicator)) throw new errors.InvalidTarget(`unknown resource ${indicator}; use ${this.mcpResource}`);
            return resourceServer;
          },
        },
      },
      // oidc-provider checks redirect URIs by application type, and a `web` client (the default) may register plain http
      // on any host, where an authorization code would cross the network in the clear. Listing the standard
      // `redirect_uris` here runs our policy on every registration (and on every stored client as it is loaded),
      // before the library's own checks, which still apply.
      extraClientMetadata: {
        properties: ['redirect_uris'],
        validator: (_ctx, key, value, metadata) => {
          if (key !== 'redirect_uris') return;
          // Every registration names redirect URIs, so the whole document is looked at here, once: text PostgreSQL
          // cannot store (a NUL in `client_name`…) is the client's mistake, not a failed write and a server_error.
          const [found] = findUnstorable(metadata, 1);
          if (found) throw new errors.InvalidClientMetadata(describeUnstorable(toPointer(found.path).slice(1), found));
          checkRedirectUris(value, metadata);
        },
      },
      // Browser-based MCP clients call the token endpoint cross-origin: allowed from their own redirect origin.
      clientBasedCORS: (_ctx, origin, client) => client.redirectUris?.some((uri) => URL.parse(uri)?.origin === origin) ?? false,
      // Clients registering without saying how to sign ID tokens get the algorithm of our key.
      clientDefaults: {
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        id_token_signed_response_alg: 'ES256',
      },
      renderError: (ctx, out) => {
        ctx.type = 'html';
        ctx.body = errorPage(out);
      },
      issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
      rotateRefreshToken: true,
      expiresWithSession: () => false,
      ttl: {
        AuthorizationCode: 60,
        Interaction: 600,
        Session: 14 * 24 * 3600,
        Grant: 365 * 24 * 3600,
        IdToken: 3600,
        AccessToken: ACCESS_TOKEN_TTL_SECONDS,
        RefreshToken: REFRESH_TOKEN_TTL_SECONDS,
      },
    };
    const provider = new Provider(issuer, configuration);
    // Behind an https public URL a TLS-terminating proxy is in front: trust its X-Forwarded-Proto for cookies.
    provider.proxy = issuer.startsWith('https:');
    provider.on('server_error', (_ctx, err) => this.o.logger.error({ err }, 'OAuth server error'));
    return provider;
  }
}

/** The loopback hosts on which a redirect URI may use plain http (RFC 8252 §7.3, OpenID Connect Registration §2). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Tidemark's redirect URI policy: https anywhere; http only on a loopback host (a native app's listener on this
 * machine: Claude Code, VS Code, the MCP Inspector); any other scheme is a native app's private-use scheme (RFC
 * 8252 §7.1: `cursor://…`, `vscode://…`), and a client registering one is a native client whether it says
 * `application_type: native` or not (Cursor does not), so it is made one: the library's native rules then refuse
 * `javascript:`, `data:` and the like, and an https URI on a loopback host. Anything that is not a list of
 * strings is left to the library, which refuses it. The InvalidClientMetadata thrown here reaches the client as
 * `invalid_redirect_uri` (RFC 7591 §3.2.2): the library names the error by the property it was checking.
 */
function checkRedirectUris(value: unknown, metadata: Record<string, unknown>): void {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return;
  let custom = false;
  for (const uri of value as string[]) {
    const parsed = URL.parse(uri);
    if (!parsed) continue;
    if (parsed.protocol === 'http:') {
      if (!LOOPBACK_HOSTS.has(parsed.hostname)) {
        throw new errors.InvalidClientMetadata(
          `redirect_uris must use https; http is allowed only on a loopback host (127.0.0.1, [::1], localhost): ${uri}`,
        );
      }
    } else if (parsed.protocol !== 'https:') custom = true;
  }
  if (custom) metadata.application_type = 'native';
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const html = (text: unknown) => String(text).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/** The page a browser sees when an authorization request cannot go back to its client (bad client or redirect URI). */
function errorPage(out: { error?: unknown; error_description?: unknown }): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in request refused · Tidemark</title></head>
<body><main><h1>This sign-in request was refused</h1>
<p>${html(out.error_description ?? 'The request is not valid.')} (<code>${html(out.error ?? 'invalid_request')}</code>)</p>
<p>Start again from your MCP client. If it keeps happening, the client may be misconfigured.</p></main></body></html>`;
}

function newSigningKey(): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' }) as Record<string, unknown>;
  const kid = createHash('sha256')
    .update(JSON.stringify([jwk.crv, jwk.x, jwk.y]))
    .digest('base64url')
    .slice(0, 16);
  return { ...jwk, kid, alg: 'ES256', use: 'sig' };
}

/**
 * The records behind oidc-provider's adapter. Ids are stored as SHA-256 digests; the payload's own copy of
 * the id (`jti`: a token, a session cookie) and client secrets are sealed, so the table alone grants nothing.
 */
class RecordStore {
  constructor(
    private readonly db: Db,
    private readonly wall: Clock,
    private readonly key: Buffer,
  ) {}

  async put(model: string, id: string, payload: AdapterPayload, expiresIn: number | undefined): Promise<void> {
    const { jti, client_secret, ...rest } = payload;
    const stored: Record<string, unknown> = { ...rest };
    if (typeof jti === 'string') stored.jti_sealed = seal(this.key, jti);
    if (typeof client_secret === 'string') stored.client_secret_sealed = seal(this.key, client_secret);
    const now = this.wall.now();
    await repo.upsertOAuthRecord(this.db, {
      model,
      idSha256: sha256(id),
      payload: stored,
      grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
      uid: typeof payload.uid === 'string' ? payload.uid : null,
      userCode: typeof payload.userCode === 'string' ? payload.userCode : null,
      expiresAt: expiresIn ? new Date(now.getTime() + expiresIn * 1000) : null,
    });
  }

  async get(model: string, id: string): Promise<AdapterPayload | undefined> {
    return this.#open(await repo.findOAuthRecord(this.db, model, sha256(id), this.wall.now()));
  }

  async getBy(model: string, column: 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
    // A value from a URL that no record can hold is no record's (and never reaches the database).
    if (unstorableIn(value)) return undefined;
    return this.#open(await repo.findOAuthRecordBy(this.db, model, column, value, this.wall.now()));
  }

  consume(model: string, id: string): Promise<void> {
    return repo.consumeOAuthRecord(this.db, model, sha256(id), this.wall.now());
  }

  destroy(model: string, id: string): Promise<void> {
    return repo.deleteOAuthRecord(this.db, model, sha256(id));
  }

  revokeGrant(grantId: string): Promise<void> {
    return repo.deleteOAuthGrant(this.db, grantId);
  }

  #open(row: repo.OAuthRecord | undefined): AdapterPayload | undefined {
    if (!row) return undefined;
    const { jti_sealed, client_secret_sealed, ...rest } = row.payload;
    const payload: AdapterPayload = { ...rest };
    if (typeof jti_sealed === 'string') payload.jti = unseal(this.key, jti_sealed);
    if (typeof client_secret_sealed === 'string') payload.client_secret = unseal(this.key, client_secret_sealed);
    if (row.consumed_at) payload.consumed = Math.floor(row.consumed_at.getTime() / 1000);
    return payload;
  }
}

/** oidc-provider's adapter contract, one instance per model name. */
class RecordAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly store: RecordStore,
  ) {}

  upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
    return this.store.put(this.model, id, payload, expiresIn);
  }
  find(id: string) {
    return this.store.get(this.model, id);
  }
  findByUid(uid: string) {
    return this.store.getBy(this.model, 'uid', uid);
  }
  findByUserCode(userCode: string) {
    return this.store.getBy(this.model, 'user_code', userCode);
  }
  consume(id: string) {
    return this.store.consume(this.model, id);
  }
  destroy(id: string) {
    return this.store.destroy(this.model, id);
  }
  revokeByGrantId(grantId: string) {
    return this.store.revokeGrant(grantId);
  }
}
