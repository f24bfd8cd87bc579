// Dynamic client registration's redirect URI policy (issue 25, item 8): https anywhere, plain http only on a
// loopback host, a private-use scheme for native apps whether or not they say `application_type: native`; what
// is refused is an RFC 7591 `invalid_redirect_uri`. The redirect URIs are those real MCP clients register.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../src/domain/clock.js';
import { type TestApp, testApp } from '../kit/app.js';

describe('OAuth dynamic client registration: redirect URIs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ clock: new FixedClock(new Date()) });
  });
  afterAll(async () => {
    await t?.close();
  });

  const register = (redirectUris: string[], extra: Record<string, unknown> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/register',
      payload: {
        client_name: 'Redirect URI check',
        redirect_uris: redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        ...extra,
      },
    });

  const ACCEPTED = [
    'http://127.0.0.1:3000/cb',
    'http://localhost/cb',
    'http://[::1]:53682/callback',
    'https://app.example.com/cb',
    'cursor://anysphere.cursor-retrieval/oauth/callback',
    'vscode://ms-vscode.mcp/callback',
  ];

  for (const declared of [{}, { application_type: 'native' }]) {
    const how = 'application_type' in declared ? 'with application_type native' : 'without application_type';
    it.each(ACCEPTED)(`accepts %s ${how}`, async (uri) => {
      const res = await register([uri], declared);
      expect(res.statusCode, res.body).toBe(201);
      const client = res.json();
      expect(client.redirect_uris).toEqual([uri]);
      // A private-use scheme is a native app's (RFC 8252 §7.1), whatever the client said.
      if (!/^https?:/.test(uri)) expect(client.application_type).toBe('native');
    });
  }

  it.each([
    ['http://evil.example.com/cb', {}],
    ['http://evil.example.com/cb', { application_type: 'native' }],
    ['http://10.0.0.7:8080/cb', {}],
    ['http://127.0.0.1.evil.example.com/cb', {}],
    ['http://localhost.evil.example.com/cb', {}],
  ] as const)('refuses %s (%j) with invalid_redirect_uri', async (uri, declared) => {
    const res = await register([uri], declared);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_redirect_uri', error_description: expect.stringContaining(uri) });
  });

  it('refuses a registration when any one of its redirect URIs is refused, and registers nothing', async () => {
    const count = async () =>
      Number((await t.services.db.query<{ n: string }>("SELECT count(*) AS n FROM oauth_records WHERE model = 'Client'"))[0]!.n);
    const before = await count();
    const res = await register(['http://127.0.0.1:3000/cb', 'http://evil.example.com/cb']);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe('invalid_redirect_uri');
    expect(await count()).toBe(before);
  });

  it('keeps the library refusing what no native app may use: javascript: and data: schemes, https on a loopback host for a native client', async () => {
    for (const uri of ['javascript://x/%0aalert(1)', 'data://text/html,x']) {
      const res = await register([uri]);
      expect(res.statusCode, `${uri}: ${res.body}`).toBe(400);
      expect(res.json().error).toBe('invalid_redirect_uri');
    }
    const mixed = await register(['cursor://anysphere.cursor-retrieval/oauth/callback', 'https://localhost/cb']);
    expect(mixed.statusCode, mixed.body).toBe(400);
    expect(mixed.json().error).toBe('invalid_redirect_uri');
  });
  // Text PostgreSQL cannot store is the client's mistake (RFC 7591 invalid_client_metadata), never a server_error.
  it.each([
    ['client_name', { client_name: 'Bad\u0000name' }],
    ['client_uri', { client_uri: 'https://app.example.com/\ud800' }],
  ] as const)('refuses a %s with text that cannot be stored', async (name, extra) => {
    const res = await register(['https://app.example.com/cb'], extra);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_client_metadata' });
    expect(res.json().error_description).toContain(name);
  });
});
