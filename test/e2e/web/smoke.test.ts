// The web app in a real browser (issue 7): the built app (dist/web) served by the real HTTP app on a loopback
// port, with the sandbox on. Sign-in and sign-up render with labelled fields; signing up lands on the
// shipments page; signing out ends the session and signing in brings the user back where they were going;
// every page that needs no data has no serious axe-core violation and no horizontal scrolling at desktop and
// phone widths, and leaves a screenshot in test-artifacts/screenshots/web-<page>-<width>.png.
// Skipped (with the reason printed) without Chromium or without the web build, failed instead under
// TIDEMARK_REQUIRE_BROWSER=1: see test/kit/browser.ts.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FixedClock } from '../../../src/domain/clock.js';
import { testApp, type TestApp } from '../../kit/app.js';
import { axe, browserOrSkip, checkPage, formatViolations, phone, screenshot, settled, useBrowser, webAppBuilt } from '../../kit/browser.js';

const gate = browserOrSkip(webAppBuilt);

const COMPANY = 'Harbor Freight Forwarding';
const EMAIL = 'dispatch@harbor.example';
const PASSWORD = 'correct horse battery staple';

describe.skipIf(gate.skip)('web app smoke (real browser)', () => {
  const browser = useBrowser();
  let t: TestApp;
  let baseURL: string;
  /** The signed-in session (cookies) after sign-up, for the tests that need a signed-in page. */
  let signedIn: Awaited<ReturnType<BrowserContext['storageState']>> | null = null;

  beforeAll(async () => {
    // The server's clock at the browser's time, so "joined just now" reads as it would in real use.
    t = await testApp({ sandbox: true, clock: new FixedClock(new Date()), listen: true });
    baseURL = t.url!;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Opens `path` and waits for the page's heading and for every loading indicator to go. */
  async function open(page: Page, path: string, heading: string | RegExp): Promise<void> {
    await page.goto(path);
    await settled(page, heading, 10_000);
  }

  test('the sign-in and sign-up pages render with labelled fields', async () => {
    const page = await browser.newPage({ baseURL });

    // Signed out, the root and the app's pages lead to sign-in.
    await open(page, '/', 'Sign in');
    expect(new URL(page.url()).pathname).toBe('/signin');
    expect(await page.title()).toBe('Sign in · Tidemark');
    await expect.poll(() => page.getByLabel('E-mail').getAttribute('type')).toBe('email');
    expect(await page.getByLabel('Password').getAttribute('type')).toBe('password');
    expect(await page.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true);
    // Submitting empty says what is missing, next to each field.
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Enter your e-mail address.').waitFor();
    expect(await page.getByLabel('E-mail').getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('link', { name: 'Create an account' }).waitFor();
    await page.reload();
    await settled(page, 'Sign in', 10_000);
    await page.getByRole('link', { name: 'Create an account' }).waitFor();
    await checkPage(page, 'web-signin');

    await page.getByRole('link', { name: 'Create an account' }).click();
    await settled(page, 'Create an account', 10_000);
    expect(new URL(page.url()).pathname).toBe('/signup');
    for (const label of ['Company name', 'E-mail', 'Password']) expect(await page.getByLabel(label).isVisible(), label).toBe(true);
    await checkPage(page, 'web-signup');
  });

  test('signing up lands on the shipments page', async () => {
    const page = await browser.newPage({ baseURL });
    await open(page, '/signup', 'Create an account');
    await page.getByLabel('Company name').fill(COMPANY);
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await settled(page, 'Shipments', 10_000);
    expect(new URL(page.url()).pathname).toBe('/shipments');
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
    expect(await page.getByText(COMPANY).first().isVisible()).toBe(true);
    // A free account (TIDEMARK_DEFAULT_PLAN): its plan beside it, and on the Developers page what its API keys need
    // to read tracking data (docs/api.md "Plans and the API trial"); the web app itself is never gated.
    expect(await page.locator('.account').getByText('Free plan').isVisible()).toBe(true);
    await open(page, '/developers', 'Developers');
    const access = page.getByRole('region', { name: 'Plan and API access' });
    await access.getByText('Needs an API trial', { exact: true }).waitFor();
    expect(await access.textContent()).toMatch(
      /Free \(up to 10 active containers\).*No trial.*ask the operator of this Tidemark to start one/,
    );

    // The session is an http-only cookie.
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'tm_session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
    signedIn = await page.context().storageState();
  });

  test.each([
    ['shipments', '/shipments', 'Shipments'],
    ['board', '/board', 'Board'],
    ['developers', '/developers', 'Developers'],
    ['team', '/team', 'Team'],
  ])('the %s page has no serious accessibility violations at desktop and phone widths', async (name, path, heading) => {
    expect(signedIn, 'needs the sign-up test to have run').not.toBeNull();
    const page = await browser.newPage({ baseURL, storageState: signedIn! });
    await open(page, path, heading);
    expect(new URL(page.url()).pathname).toBe(path);
    await checkPage(page, `web-${name}`);
  });

  test('at phone width the navigation is behind a menu button that opens, closes on Escape and returns focus', async () => {
    expect(signedIn, 'needs the sign-up test to have run').not.toBeNull();
    const page = await browser.newPage({ baseURL, storageState: signedIn! });
    await phone(page);
    await open(page, '/shipments', 'Shipments');
    const menu = page.getByRole('button', { name: 'Menu' });
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.isVisible()).toBe(false);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await menu.click();
    await nav.waitFor({ state: 'visible' });
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await screenshot(page, 'web-menu-phone');
    const violations = await axe(page);
    expect(violations, `the open menu has serious axe violations:\n${formatViolations(violations)}`).toEqual([]);
    await page.keyboard.press('Escape');
    await nav.waitFor({ state: 'hidden' });
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Menu');
    // Following a link closes it.
    await menu.click();
    await nav.getByRole('link', { name: 'Board' }).click();
    await settled(page, 'Board', 10_000);
    expect(await nav.isVisible()).toBe(false);
  });

  test('signing out ends the session; signing in returns to the page asked for', async () => {
    expect(signedIn, 'needs the sign-up test to have run').not.toBeNull();
    const page = await browser.newPage({ baseURL, storageState: signedIn! });
    await open(page, '/board', 'Board');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await settled(page, 'Sign in', 10_000);
    expect(new URL(page.url()).pathname).toBe('/signin');
    expect((await page.context().cookies()).some((c) => c.name === 'tm_session')).toBe(false);

    // The old cookie is dead on the server too.
    const again = await browser.newPage({ baseURL, storageState: signedIn! });
    await open(again, '/developers', 'Sign in');
    const asked = new URL(again.url());
    expect(asked.pathname).toBe('/signin');
    expect(asked.searchParams.get('next')).toBe('/developers');

    // A wrong password is refused in words; the right one goes on to the page asked for.
    await again.getByLabel('E-mail').fill(EMAIL);
    await again.getByLabel('Password').fill('not the password at all');
    await again.getByRole('button', { name: 'Sign in' }).click();
    await again.getByText('The e-mail address or the password is not right.').waitFor();
    await again.getByLabel('Password').fill(PASSWORD);
    await again.getByRole('button', { name: 'Sign in' }).click();
    await settled(again, 'Developers', 10_000);
    expect(new URL(again.url()).pathname).toBe('/developers');
  });
});
