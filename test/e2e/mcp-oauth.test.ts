// OAuth 2.1 for MCP clients, over HTTP inject with a cookie jar standing in for the browser: resource and
// authorization server metadata, the 401 challenge, dynamic client registration, PKCE (S256 only) and resource
// checks, the consent page's JSON (details, confirm, abort), tokens bound to /mcp, refresh rotation with reuse
// detection, revocation, a removed user's tokens, and the per-address limit. The same flow with a real MCP client
// and the consent page in Chromium is test/e2e/web/mcp-oauth.test.ts.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../src/domain/clock.js';
import { OAUTH_LIMIT_PER_MINUTE } from '../../src/services/oauth.js';
import { type TestApp, testApp } from '../kit/app.js';

const REDIRECT = 'http://127.0.0.1:53682/callback';
const PASSWORD = 'correct horse battery staple';

type Injected = Awaited<ReturnType<TestApp['app']['inject']>>;

/** A browser's cookie jar, enough for these flows: every cookie goes back on every request (paths ignored). */
class Jar {
  readonly #cookies = new Map<string, string>();
  take(res: Injected): Injected {
    for (const line of [res.headers['set-cookie'] ?? []].flat()) {
      const [pair] = String(line).split(';');
      const eq = pair!.indexOf('=');
      this.#cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return res;
  }
  get header(): string {
    return [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

describe('OAuth 2.1 for MCP clients', () => {
  let t: TestApp;
  const resource = () => `${t.services.config.publicUrl}/mcp`;

  beforeAll(async () => {
    // oidc-provider keeps time by the system clock; the records' expiry follows the wall clock, so both run on now.
    // Every sign-up here comes from one address: more than the default 5 an hour.
    t = await testApp({ clock: new FixedClock(new Date()), env: { TIDEMARK_SIGNUP_LIMIT_PER_ADDRESS: '100' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function signUp(email: string) {
    const jar = new Jar();
    const res = jar.take(
      await t.app.inject({ method: 'POST', url: '/auth/signup', payload: { email, password: PASSWORD, company_name: `Co ${email}` } }),
    );
    expect(res.statusCode).toBe(201);
    const body = res.json() as { csrf_token: string; user: { id: string }; account: { id: string } };
    return { jar, csrf: body.csrf_token, userId: body.user.id, accountId: body.account.id };
  }

  async function register(metadata: Record<string, unknown> = {}) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/register',
      payload: {
        client_name: 'Test MCP client',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        ...metadata,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { client_id: string; client_secret?: string };
  }

  function authorizeUrl(clientId: string, challenge: string, extra: Record<string, string> = {}) {
    const q = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: resource(),
      scope: 'mcp',
      state: 'st-1',
      ...extra,
    });
    return `/oauth/authorize?${q}`;
  }

  /** authorize → the consent page's details → confirm (signed in) → resume → the code at the redirect URI. */
  async function authorize(user: Awaited<ReturnType<typeof signUp>>, clientId: string, challenge: string) {
    const { jar } = user;
    const start = jar.take(await t.app.inject({ url: authorizeUrl(clientId, challenge), headers: { cookie: jar.header } }));
    expect(start.statusCode).toBe(303);
    const interaction = String(start.headers.location);
    expect(interaction).toMatch(/^\/oauth\/interaction\/[\w-]+$/);
    const details = await t.app.inject({ url: `${interaction}/details`, headers: { cookie: jar.header } });
    expect(details.statusCode, details.body).toBe(200);
    const confirm = jar.take(
      await t.app.inject({
        method: 'POST',
        url: `${interaction}/confirm`,
        headers: { cookie: jar.header, 'x-csrf-token': user.csrf },
        payload: {},
      }),
    );
    expect(confirm.statusCode, confirm.body).toBe(200);
    const resume = jar.take(await t.app.inject({ url: new URL(confirm.json().redirect_to).pathname, headers: { cookie: jar.header } }));
    expect(resume.statusCode).toBe(303);
    const back = new URL(String(resume.headers.location));
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('st-1');
    return { code: back.searchParams.get('code')!, details: details.json(), callback: back };
  }

  async function token(form: Record<string, string>) {
    return t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    });
  }

  /** A new user, a registered client, and the tokens of an authorization the user allowed. */
  async function authorized(email: string) {
    const user = await signUp(email);
    const { client_id } = await register();
    const { verifier, challenge } = pkce();
    const { code } = await authorize(user, client_id, challenge);
    const exchange = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id, code_verifier: verifier };
    const issued = await token(exchange);
    expect(issued.statusCode, issued.body).toBe(200);
    return { user, client_id, exchange, tokens: issued.json() as { access_token: string; refresh_token: string } };
  }

  const mcpList = (accessToken: string) =>
    t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        authorization: `Bearer ${accessToken}`,
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    });

  it('publishes resource and authorization server metadata, and challenges with it', async () => {
    const prm = await t.app.inject({ url: '/.well-known/oauth-protected-resource/mcp' });
    expect(prm.statusCode).toBe(200);
    expect(prm.json()).toMatchObject({
      resource: resource(),
      authorization_servers: [t.services.config.publicUrl],
      bearer_methods_supported: ['header'],
      scopes_supported: ['mcp'],
    });
    expect(prm.headers['access-control-allow-origin']).toBe('*');
    const root = await t.app.inject({ url: '/.well-known/oauth-protected-resource' });
    expect(root.json()).toMatchObject({ resource: t.services.config.publicUrl, authorization_servers: [t.services.config.publicUrl] });

    const challenge = await t.app.inject({ method: 'POST', url: '/mcp', payload: {} });
    expect(challenge.statusCode).toBe(401);
    expect(challenge.headers['www-authenticate']).toBe(
      `Bearer realm="mcp", resource_metadata="${t.services.config.publicUrl}/.well-known/oauth-protected-resource/mcp"`,
    );
    const bad = await t.app.inject({ method: 'POST', url: '/mcp', headers: { authorization: 'Bearer not-a-token' }, payload: {} });
    expect(bad.statusCode).toBe(401);
    expect(bad.headers['www-authenticate']).toMatch(/error="invalid_token".*resource_metadata="/);

    const as = await t.app.inject({ url: '/.well-known/oauth-authorization-server' });
    expect(as.statusCode).toBe(200);
    const meta = as.json();
    expect(meta.issuer).toBe(t.services.config.publicUrl);
    expect(meta.code_challenge_methods_supported).toEqual(['S256']);
    expect(meta.response_types_supported).toEqual(['code']);
    expect(meta.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    for (const endpoint of ['authorization_endpoint', 'token_endpoint', 'registration_endpoint', 'revocation_endpoint']) {
      expect(new URL(meta[endpoint]).pathname).toMatch(/^\/oauth\//);
    }
  });

  it('registers clients dynamically and refuses bad metadata with an OAuth error', async () => {
    const client = await register();
    expect(client.client_id).toMatch(/^[\w-]{20,}$/);
    expect(client.client_secret).toBeUndefined();
    const noRedirect = await t.app.inject({ method: 'POST', url: '/oauth/register', payload: { client_name: 'x' } });
    expect(noRedirect.statusCode).toBe(400);
    expect(noRedirect.json().error).toBe('invalid_redirect_uri');
    const implicit = await t.app.inject({
      method: 'POST',
      url: '/oauth/register',
      payload: { redirect_uris: [REDIRECT], response_types: ['token'] },
    });
    expect(implicit.statusCode).toBe(400);
    expect(implicit.json().error).toBe('invalid_client_metadata');
  });

  it('requires PKCE with S256 and a resource it protects', async () => {
    const { client_id } = await register();
    const refused = async (url: string) => {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(303);
      return new URL(String(res.headers.location));
    };
    const noPkce = await refused(authorizeUrl(client_id, 'x', { code_challenge: '' }).replace('code_challenge=&', ''));
    expect(noPkce.searchParams.get('error')).toBe('invalid_request');
    expect(noPkce.searchParams.get('error_description')).toMatch(/code_challenge/);
    const plain = await refused(authorizeUrl(client_id, 'a'.repeat(43), { code_challenge_method: 'plain' }));
    expect(plain.searchParams.get('error')).toBe('invalid_request');
    const elsewhere = await refused(authorizeUrl(client_id, pkce().challenge, { resource: 'https://elsewhere.example/api' }));
    expect(elsewhere.searchParams.get('error')).toBe('invalid_target');
    // An unknown client or redirect URI never redirects: the browser gets our error page.
    const unknown = await t.app.inject({ url: authorizeUrl('no-such-client', pkce().challenge) });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.headers['content-type']).toMatch(/text\/html/);
    expect(unknown.body).toContain('This sign-in request was refused');
  });

  it('authorizes with consent, issues a token bound to /mcp, rotates the refresh token and revokes the grant', async () => {
    const user = await signUp('oauth-owner@example.com');
    const { client_id } = await register();
    const { verifier, challenge } = pkce();
    const { code, details } = await authorize(user, client_id, challenge);
    expect(details).toMatchObject({
      prompt: 'login',
      client: { client_id, client_name: 'Test MCP client', redirect_host: '127.0.0.1:53682' },
      resource: resource(),
      scopes: ['mcp'],
      account: { id: user.accountId, name: 'Co oauth-owner@example.com' },
    });

    // The code needs the verifier, once.
    const wrong = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id,
      code_verifier: pkce().verifier,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('invalid_grant');
    // The same user and client again: the grant stands, so the code comes back without a second consent.
    const repeat = await t.app.inject({ url: authorizeUrl(client_id, challenge), headers: { cookie: user.jar.header } });
    expect(repeat.statusCode).toBe(303);
    const code2 = new URL(String(repeat.headers.location)).searchParams.get('code')!;
    expect(code2).toBeTruthy();
    const issued = await token({
      grant_type: 'authorization_code',
      code: code2,
      redirect_uri: REDIRECT,
      client_id,
      code_verifier: verifier,
    });
    expect(issued.statusCode, issued.body).toBe(200);
    const first = issued.json() as { access_token: string; refresh_token: string; expires_in: number; token_type: string; scope: string };
    expect(first.token_type).toBe('Bearer');
    expect(first.expires_in).toBe(3600);
    expect(first.scope).toBe('mcp');
    expect(first.refresh_token).toBeTruthy();

    // Stored as digests and sealed values only: the database alone holds no usable token.
    const rows = await t.services.db.query<{ dump: string }>('SELECT payload::text || id_sha256::text AS dump FROM oauth_records');
    expect(rows.length).toBeGreaterThan(0);
    for (const { dump } of rows) {
      expect(dump).not.toContain(first.access_token);
      expect(dump).not.toContain(first.refresh_token);
    }

    const listed = await mcpList(first.access_token);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().result.tools.map((x: { name: string }) => x.name)).toContain('get_container');
    // Bound to /mcp: the REST API does not take it.
    expect((await t.app.inject({ url: '/v2/shipments', headers: { authorization: `Bearer ${first.access_token}` } })).statusCode).toBe(401);

    // Refresh: a new pair; the old refresh token is spent.
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const second = refreshed.json() as { access_token: string; refresh_token: string };
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await mcpList(second.access_token)).statusCode).toBe(200);

    // Revoking the refresh token revokes the grant: every access token of it stops working.
    const revoked = await t.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: second.refresh_token, token_type_hint: 'refresh_token', client_id }).toString(),
    });
    expect(revoked.statusCode).toBe(200);
    for (const at of [first.access_token, second.access_token]) {
      const res = await mcpList(at);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    }
    expect((await token({ grant_type: 'refresh_token', refresh_token: second.refresh_token, client_id })).json().error).toBe(
      'invalid_grant',
    );
  });

  it('treats a spent code presented again as theft: the tokens it gave are revoked', async () => {
    const { exchange, tokens } = await authorized('oauth-code-replay@example.com');
    expect((await mcpList(tokens.access_token)).statusCode).toBe(200);
    expect((await token(exchange)).json().error).toBe('invalid_grant');
    expect((await mcpList(tokens.access_token)).statusCode).toBe(401);
  });

  it('treats a spent refresh token presented again as theft: the whole grant is revoked', async () => {
    const { client_id, tokens: first } = await authorized('oauth-reuse@example.com');
    const second = (await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id })).json();
    expect((await mcpList(second.access_token)).statusCode).toBe(200);
    const replay = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id });
    expect(replay.json().error).toBe('invalid_grant');
    expect((await mcpList(second.access_token)).statusCode).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: second.refresh_token, client_id })).json().error).toBe(
      'invalid_grant',
    );
  });

  it('answers access_denied when the user declines, and needs a session to allow', async () => {
    const user = await signUp('oauth-decline@example.com');
    const { client_id } = await register();
    const start = user.jar.take(
      await t.app.inject({ url: authorizeUrl(client_id, pkce().challenge), headers: { cookie: user.jar.header } }),
    );
    const interaction = String(start.headers.location);
    // Without the session cookie: 401; with it but without the CSRF header: 403.
    const interactionCookies = user.jar.header
      .split('; ')
      .filter((c) => !c.startsWith('tm_session'))
      .join('; ');
    expect(
      (await t.app.inject({ method: 'POST', url: `${interaction}/confirm`, headers: { cookie: interactionCookies }, payload: {} }))
        .statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: `${interaction}/confirm`, headers: { cookie: user.jar.header }, payload: {} })).statusCode,
    ).toBe(403);
    // Details of another uid than the cookie's: expired, as far as the page can tell.
    const other = await t.app.inject({ url: '/oauth/interaction/not-this-one/details', headers: { cookie: user.jar.header } });
    expect(other.statusCode).toBe(400);
    expect(other.json().errors[0].detail).toMatch(/expired or was already used/);

    const abort = user.jar.take(
      await t.app.inject({
        method: 'POST',
        url: `${interaction}/abort`,
        headers: { cookie: user.jar.header, 'x-csrf-token': user.csrf },
        payload: {},
      }),
    );
    expect(abort.statusCode, abort.body).toBe(200);
    const resume = await t.app.inject({ url: new URL(abort.json().redirect_to).pathname, headers: { cookie: user.jar.header } });
    const back = new URL(String(resume.headers.location));
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st-1');
  });

  it("stops a removed member's tokens", async () => {
    const owner = await signUp('oauth-team-owner@example.com');
    const invite = await t.app.inject({
      method: 'POST',
      url: '/auth/invites',
      headers: { cookie: owner.jar.header, 'x-csrf-token': owner.csrf },
      payload: { email: 'oauth-member@example.com', role: 'member' },
    });
    expect(invite.statusCode, invite.body).toBe(201);
    const linkToken = new URL(invite.json().url).pathname.split('/').pop()!;
    const member = { jar: new Jar(), csrf: '', userId: '', accountId: owner.accountId };
    const joined = member.jar.take(
      await t.app.inject({ method: 'POST', url: `/auth/tokens/${linkToken}`, payload: { password: PASSWORD } }),
    );
    expect(joined.statusCode, joined.body).toBe(200);
    member.csrf = joined.json().csrf_token;
    member.userId = joined.json().user.id;

    const { client_id } = await register();
    const { verifier, challenge } = pkce();
    const { code } = await authorize(member, client_id, challenge);
    const issued = (
      await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id, code_verifier: verifier })
    ).json();
    expect((await mcpList(issued.access_token)).statusCode).toBe(200);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/auth/members/${member.userId}`,
      headers: { cookie: owner.jar.header, 'x-csrf-token': owner.csrf },
    });
    expect(removed.statusCode).toBe(204);
    expect((await mcpList(issued.access_token)).statusCode).toBe(401);
  });

  it('prunes expired codes, tokens, sessions and interactions, keeping registered clients', async () => {
    await authorized('oauth-prune@example.com');
    const count = async (where: string) =>
      Number((await t.services.db.query<{ n: string }>(`SELECT count(*) AS n FROM oauth_records WHERE ${where}`))[0]!.n);
    expect(await count('expires_at IS NOT NULL')).toBeGreaterThan(0);
    const clients = await count("model = 'Client'");
    const start = t.clock.now();
    t.clock.advance(2 * 366 * 24 * 3600_000);
    try {
      expect(await t.services.oauth.prune()).toBeGreaterThan(0);
    } finally {
      t.clock.set(start);
    }
    expect(await count('expires_at IS NOT NULL')).toBe(0);
    expect(await count("model = 'Client'")).toBe(clients);
  });

  it('limits the authorization server per client address', async () => {
    const limited = await testApp({ clock: new FixedClock(new Date()) });
    try {
      const statuses: number[] = [];
      for (let i = 0; i <= OAUTH_LIMIT_PER_MINUTE; i++) {
        const res = await limited.app.inject({ method: 'POST', url: '/oauth/register', payload: { redirect_uris: [REDIRECT] } });
        statuses.push(res.statusCode);
        if (res.statusCode === 429) {
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
          expect(res.json().error).toBe('temporarily_unavailable');
        }
      }
      expect(statuses.slice(0, OAUTH_LIMIT_PER_MINUTE).every((s) => s === 201)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
