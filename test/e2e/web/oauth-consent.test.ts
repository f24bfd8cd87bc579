// The OAuth consent page (/oauth/interaction/:uid, docs/web.md) in a real browser, with the authorization
// server's interaction endpoints stubbed in the browser (page.route), so the page is checked against their
// contract on its own: a signed-out visitor signs up and comes back to the page; it names the client, the
// account and the host it returns to; Allow and Deny send `{}` with the CSRF header and then load `redirect_to`
// (on another origin); an expired request shows the server's words and no buttons; a website that is not
// http(s) is not a link; no serious axe violation at desktop and phone width (screenshots
// test-artifacts/screenshots/web-oauth-consent-<width>.png). The end-to-end flow with the real authorization
// server lives with the MCP tests. Last, "Use another account" signs out and comes back through sign-in.
import type { BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FixedClock } from '../../../src/domain/clock.js';
import { type TestApp, testApp } from '../../kit/app.js';
import { browserOrSkip, checkPage, settled, useBrowser, webAppBuilt } from '../../kit/browser.js';

const gate = browserOrSkip(webAppBuilt);

const COMPANY = 'Quayside Imports';
const EMAIL = 'ops@quayside.example';
const PASSWORD = 'a passphrase long enough';
const CALLBACK = 'http://127.0.0.1:1/callback';
const EXPIRED = 'This sign-in request has expired or was already used. Start again from your MCP client.';
/** Chromium logs each stubbed 400 as a console error. */
const allowConsoleErrors = [/status of 400\b/];

interface Stub {
  details?: { status: number; body: unknown };
  answer?: { status: number; body: unknown };
}

const details = (uid: string, client: Record<string, unknown> = {}) => ({
  uid,
  prompt: 'consent',
  client: {
    client_id: 'c-7f3a',
    client_name: 'Harbor Assistant',
    client_uri: 'https://assistant.example/about',
    logo_uri: 'https://assistant.example/logo.png',
    redirect_host: '127.0.0.1:1',
    ...client,
  },
  resource: 'http://127.0.0.1/mcp',
  scopes: ['mcp'],
  account: { id: 'a-1', name: COMPANY },
});

describe.skipIf(gate.skip)('the OAuth consent page (real browser)', () => {
  const browser = useBrowser();
  let t: TestApp;
  let baseURL: string;
  let signedIn: Awaited<ReturnType<BrowserContext['storageState']>>;

  beforeAll(async () => {
    t = await testApp({ clock: new FixedClock(new Date()), listen: true });
    baseURL = t.url!;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Stubs the interaction endpoints of `uid` and the client's callback; answers the POSTs the page made. */
  async function stub(page: Page, uid: string, s: Stub): Promise<Request[]> {
    const posts: Request[] = [];
    await page.route(`**/oauth/interaction/${uid}/details`, (route) =>
      route.fulfill({ status: s.details?.status ?? 200, json: s.details?.body ?? details(uid) }),
    );
    await page.route(new RegExp(`/oauth/interaction/${uid}/(confirm|abort)$`), (route) => {
      posts.push(route.request());
      return route.fulfill({ status: s.answer?.status ?? 200, json: s.answer?.body ?? { redirect_to: `${CALLBACK}?code=abc` } });
    });
    await page.route(`${CALLBACK}**`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Connected</title><p>Connected</p>' }),
    );
    return posts;
  }

  test('a signed-out visitor signs up, comes back, sees who asks for what, and Allow returns to the client', async () => {
    const page = await browser.newPage({ baseURL });
    const posts = await stub(page, 'uid-allow', {});
    await page.goto('/oauth/interaction/uid-allow');
    await settled(page, 'Sign in');
    const signin = new URL(page.url());
    expect(signin.pathname).toBe('/signin');
    expect(signin.searchParams.get('next')).toBe('/oauth/interaction/uid-allow');

    await page.getByRole('link', { name: 'Create an account' }).click();
    await settled(page, 'Create an account');
    await page.getByLabel('Company name').fill(COMPANY);
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await settled(page, 'Connect an MCP client');
    expect(new URL(page.url()).pathname).toBe('/oauth/interaction/uid-allow');
    signedIn = await page.context().storageState();

    const card = page.getByTestId('oauth-consent');
    await expect.poll(() => card.getByText('asks to use the Tidemark account').textContent()).toContain('Harbor Assistant');
    expect(await card.textContent()).toContain('will return you to 127.0.0.1:1');
    expect(await card.getByText(COMPANY).first().isVisible()).toBe(true);
    expect(await card.getByRole('link', { name: /assistant\.example/ }).getAttribute('href')).toBe('https://assistant.example/about');
    expect(await card.getByRole('heading', { name: 'It will be able to' }).isVisible()).toBe(true);
    expect(await card.getByRole('heading', { name: 'It will not be able to' }).isVisible()).toBe(true);
    expect(await page.locator('img').count()).toBe(0);
    await checkPage(page, 'web-oauth-consent');

    const session = (await page.evaluate(`fetch('/auth/session').then((r) => r.json())`)) as { csrf_token: string };
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${CALLBACK}?code=abc`);
    expect(posts).toHaveLength(1);
    const confirm = posts[0]!;
    expect(new URL(confirm.url()).pathname).toBe('/oauth/interaction/uid-allow/confirm');
    expect(confirm.method()).toBe('POST');
    expect(confirm.postDataJSON()).toEqual({});
    expect(confirm.headers()['x-csrf-token']).toBe(session.csrf_token);
  });

  test('Deny posts to abort and returns to the client', async () => {
    const page = await browser.newPage({ baseURL, storageState: signedIn });
    const posts = await stub(page, 'uid-deny', { answer: { status: 200, body: { redirect_to: `${CALLBACK}?error=access_denied` } } });
    await page.goto('/oauth/interaction/uid-deny');
    await settled(page, 'Connect an MCP client');
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL(`${CALLBACK}?error=access_denied`);
    expect(posts.map((p) => new URL(p.url()).pathname)).toEqual(['/oauth/interaction/uid-deny/abort']);
    expect(posts[0]!.postDataJSON()).toEqual({});
  });

  test('an expired request shows the server’s words and no buttons, on load and on answering', async () => {
    const expired = { status: 400, body: { errors: [{ status: '400', title: 'Bad Request', detail: EXPIRED }] } };
    const page = await browser.newPage({ baseURL, storageState: signedIn, allowConsoleErrors });
    await stub(page, 'uid-old', { details: expired });
    await page.goto('/oauth/interaction/uid-old');
    await settled(page, 'Connect an MCP client');
    await page.getByTestId('oauth-gone').getByText(EXPIRED).waitFor();
    expect(await page.getByRole('button', { name: 'Allow' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Deny' }).count()).toBe(0);

    const late = await browser.newPage({ baseURL, storageState: signedIn, allowConsoleErrors });
    await stub(late, 'uid-late', { answer: expired });
    await late.goto('/oauth/interaction/uid-late');
    await settled(late, 'Connect an MCP client');
    await late.getByRole('button', { name: 'Allow' }).click();
    await late.getByTestId('oauth-gone').getByText(EXPIRED).waitFor();
    expect(await late.getByRole('button', { name: 'Allow' }).count()).toBe(0);
  });

  test('without a name the client id is shown; a website that is not http(s) is plain text', async () => {
    const page = await browser.newPage({ baseURL, storageState: signedIn });
    await stub(page, 'uid-bare', {
      details: { status: 200, body: details('uid-bare', { client_name: null, client_uri: 'javascript:alert(1)', logo_uri: null }) },
    });
    await page.goto('/oauth/interaction/uid-bare');
    await settled(page, 'Connect an MCP client');
    const card = page.getByTestId('oauth-consent');
    await expect.poll(() => card.getByText('asks to use the Tidemark account').textContent()).toContain('c-7f3a');
    expect(await card.getByText('javascript:alert(1)').isVisible()).toBe(true);
    expect(await card.locator('a[href^="javascript"]').count()).toBe(0);
  });

  // Last: it ends the shared session.
  test('“Use another account” signs out and comes back through sign-in', async () => {
    const page = await browser.newPage({ baseURL, storageState: signedIn });
    await stub(page, 'uid-switch', {});
    await page.goto('/oauth/interaction/uid-switch');
    await settled(page, 'Connect an MCP client');
    await page.getByRole('button', { name: 'Use another account' }).click();
    await settled(page, 'Sign in');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/oauth/interaction/uid-switch');
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await settled(page, 'Connect an MCP client');
    await page.getByRole('button', { name: 'Allow' }).waitFor();
  });
});
