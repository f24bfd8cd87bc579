// Issue 8's OAuth acceptance flow, end to end: the official MCP SDK client (its OAuth client code, nothing of
// ours) connects to /mcp on a loopback port, gets the 401, discovers the protected resource metadata and the
// authorization server from the challenge, registers itself, and sends the browser to authorize with PKCE. Real
// Chromium signs in on the web app's sign-in page and allows on the consent page; the code comes back to the
// client's redirect URI, the client exchanges it, calls a tool, refreshes (rotating the refresh token), revokes,
// and is refused with 401 afterwards. Skipped (with the reason) without Chromium or the web build; failed instead
// under TIDEMARK_REQUIRE_BROWSER=1 (test/kit/browser.ts).
import { auth, type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FixedClock } from '../../../src/domain/clock.js';
import { type TestApp, testApp } from '../../kit/app.js';
import { browserOrSkip, settled, useBrowser, webAppBuilt } from '../../kit/browser.js';

const gate = browserOrSkip(webAppBuilt);

// Nothing listens there: the browser's request to it is caught, as a desktop client's loopback listener would.
const REDIRECT = 'http://127.0.0.1:47321/oauth/callback';
const EMAIL = 'assistant-user@harbor.example';
const PASSWORD = 'a long and memorable passphrase';

/** What an MCP client keeps between runs, in memory. */
class MemoryClientProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier: string | undefined;
  authorizationUrl: URL | undefined;

  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Harbor Assistant',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'client') this.client = undefined;
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }
}

describe.skipIf(gate.skip)('an MCP client signs in with OAuth (real browser)', () => {
  const browser = useBrowser();
  let t: TestApp;
  let baseURL: string;

  beforeAll(async () => {
    // oidc-provider keeps time by the system clock; the wall clock starts at now to match.
    t = await testApp({ clock: new FixedClock(new Date()), listen: true });
    baseURL = t.url!;
    const signup = await fetch(`${baseURL}/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD, company_name: 'Harbor Freight Co' }),
    });
    expect(signup.status).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
  });

  test('discovery from a 401 → registration → authorize with PKCE in the browser → token → tool call → refresh → revoke → 401', async () => {
    const mcpUrl = new URL(`${baseURL}/mcp`);
    const provider = new MemoryClientProvider();
    const seen: string[] = [];
    const recordingFetch: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      seen.push(`${init?.method ?? 'GET'} ${url.pathname}`);
      return fetch(input, init);
    };
    const connect = async () => {
      const client = new Client({ name: 'harbor-assistant', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider, fetch: recordingFetch }));
      return client;
    };

    // 1. No token: 401, then the SDK's discovery and dynamic registration, and a redirect to authorize.
    await expect(connect()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(seen).toEqual(
      expect.arrayContaining([
        'POST /mcp',
        'GET /.well-known/oauth-protected-resource/mcp',
        'GET /.well-known/oauth-authorization-server',
        'POST /oauth/register',
      ]),
    );
    expect(seen.indexOf('POST /mcp')).toBeLessThan(seen.indexOf('GET /.well-known/oauth-protected-resource/mcp'));
    expect(provider.client?.client_id).toBeTruthy();
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.pathname).toBe('/oauth/authorize');
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(mcpUrl.href);

    // 2. The browser: sign in (the consent page sends signed-out users there and back), then allow.
    const page = await browser.newPage({ baseURL });
    await page.route(`${REDIRECT}**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Done</title>' }));
    await page.goto(authorizationUrl.href);
    await page.waitForURL(/\/signin\?next=/);
    await settled(page, 'Sign in');
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/oauth\/interaction\//);
    await settled(page, 'Connect an MCP client');
    await expect(page.getByText('Harbor Assistant').first().isVisible()).resolves.toBe(true);
    const callback = page.waitForRequest((r) => r.url().startsWith(REDIRECT));
    await page.getByRole('button', { name: 'Allow' }).click();
    const returned = new URL((await callback).url());
    const code = returned.searchParams.get('code');
    expect(code).toBeTruthy();
    expect(returned.searchParams.get('iss')).toBe(baseURL);

    // 3. Token (with the PKCE verifier), then a tool call with it.
    await new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider, fetch: recordingFetch }).finishAuth(code!);
    const first = provider.saved!;
    expect(first.access_token).toBeTruthy();
    expect(first.refresh_token).toBeTruthy();
    const client = await connect();
    const lines = await client.callTool({ name: 'get_supported_shipping_lines', arguments: { search: 'maersk' } });
    expect(lines.isError).toBeFalsy();
    expect((lines.structuredContent as { total_lines: number }).total_lines).toBeGreaterThan(0);
    await client.close();

    // 4. Refresh: the SDK trades the refresh token for a new pair; the new access token works.
    expect(await auth(provider, { serverUrl: mcpUrl, fetchFn: recordingFetch })).toBe('AUTHORIZED');
    const second = provider.saved!;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const refreshed = await connect();
    expect((await refreshed.listTools()).tools.length).toBeGreaterThanOrEqual(10);
    await refreshed.close();

    // 5. Revoke (RFC 7009), then the same access token is refused with the invalid_token challenge.
    const revoke = await fetch(`${baseURL}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: second.refresh_token!, token_type_hint: 'refresh_token', client_id: provider.client!.client_id }),
    });
    expect(revoke.status).toBe(200);
    const refused = await fetch(mcpUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${second.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(refused.headers.get('www-authenticate')).toContain(`resource_metadata="${baseURL}/.well-known/oauth-protected-resource/mcp"`);
    // The SDK client, too: its refresh token is refused (invalid_grant), it drops its tokens and goes back to authorize.
    provider.authorizationUrl = undefined;
    await expect(connect()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl).toBeDefined();
  });
});
