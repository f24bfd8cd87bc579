// The web app's e-mail confirmation of sign-ups (SMTP configured), in a real browser: sign up → "check your
// inbox"; sign in → told to confirm, with a way to have the link sent again; the mailed link's page confirms on a
// click; then sign in. The pages have no serious axe violation at desktop and phone widths.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FixedClock } from '../../../src/domain/clock.js';
import { testApp, type TestApp } from '../../kit/app.js';
import { mailCatcher, type MailCatcher } from '../../kit/mail.js';
import { browserOrSkip, checkPage, settled, useBrowser, webAppBuilt } from '../../kit/browser.js';

const gate = browserOrSkip(webAppBuilt);

const EMAIL = 'new.user@harbor.example';
const PASSWORD = 'correct horse battery staple';

describe.skipIf(gate.skip)('confirming the e-mail address of a sign-up (real browser)', () => {
  const browser = useBrowser();
  let smtp: MailCatcher;
  let t: TestApp;
  let baseURL: string;

  beforeAll(async () => {
    smtp = await mailCatcher();
    t = await testApp({ clock: new FixedClock(new Date()), env: { TIDEMARK_SMTP_URL: smtp.url }, listen: true });
    baseURL = t.url!;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const lastLink = () => {
    const m = /\/verify\/[\w.-]+/.exec(smtp.received.at(-1)?.body ?? '');
    if (!m) throw new Error('no confirmation link was mailed');
    return m[0];
  };

  // Four pages, three password hashes and two axe runs: on a loaded machine this takes well over the default 30 s.
  test('sign up, get told to confirm, ask again, confirm by the link, sign in', { timeout: 120_000 }, async () => {
    const page = await browser.newPage({ baseURL });
    await page.goto('/signup');
    await settled(page, 'Create an account');
    await page.getByLabel('Company name').fill('Harbor Freight');
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    await page.getByText(EMAIL).first().waitFor();
    expect(smtp.received).toHaveLength(1);
    await checkPage(page, 'web-signup-check-inbox');

    // Signing in before confirming says what to do, and offers a new link.
    // The 403 of a sign-in before confirming (and later the 404 of a used link) is the expected answer.
    const signin = await browser.newPage({ baseURL, allowConsoleErrors: [/status of 403\b/] });
    await signin.goto('/signin');
    await settled(signin, 'Sign in');
    await signin.getByLabel('E-mail').fill(EMAIL);
    await signin.getByLabel('Password').fill(PASSWORD);
    await signin.getByRole('button', { name: 'Sign in' }).click();
    await signin.getByText(/Confirm your e-mail address first/).waitFor();
    await signin.getByRole('button', { name: 'Send a new link' }).click();
    await signin.getByText(/a new link is on its way/).waitFor();
    expect(smtp.received).toHaveLength(2);

    // The link's page confirms on a click only.
    await signin.goto(lastLink());
    await settled(signin, 'Confirm your e-mail address');
    await checkPage(signin, 'web-verify');
    await signin.getByRole('button', { name: 'Confirm my e-mail address' }).click();
    await settled(signin, 'E-mail address confirmed');
    await signin.getByRole('link', { name: 'Sign in' }).first().click();
    await settled(signin, 'Sign in');
    await signin.getByLabel('E-mail').fill(EMAIL);
    await signin.getByLabel('Password').fill(PASSWORD);
    await signin.getByRole('button', { name: 'Sign in' }).click();
    await settled(signin, 'Shipments');

    // Used once: the same link now says it does not work, and offers a new one.
    const again = await browser.newPage({ baseURL, allowConsoleErrors: [/status of 404\b/] });
    await again.goto(lastLink());
    await again.getByRole('button', { name: 'Confirm my e-mail address' }).click();
    await settled(again, 'This link does not work');
    await again.getByRole('button', { name: 'Send a new link' }).waitFor();
  });
});
