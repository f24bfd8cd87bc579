// Browser tests: playwright-core driving the machine's own Chromium (Debian's `chromium` package; never a
// browser Playwright downloads). A test file asks `browserOrSkip()` first; when Chromium (or another
// prerequisite such as the built web app) is missing, the file's suite is skipped with a printed reason, or,
// under TIDEMARK_REQUIRE_BROWSER=1 (which .ci/run sets), the file fails. Then `useBrowser()` inside the suite
// gives one browser for the file, a fresh context per page, page-error collection that fails the test,
// screenshots under test-artifacts/screenshots/ and an axe-core check.
//
//   const gate = browserOrSkip(webAppBuilt);
//   describe.skipIf(gate.skip)('the web app', () => {
//     const browser = useBrowser();
//     test('…', async () => {
//       const page = await browser.newPage({ baseURL });
//       …
//       expect(await axe(page), formatViolations(…)).toEqual([]);
//     });
//   });
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type * as Axe from 'axe-core';
import { type Browser, type BrowserContextOptions, type Page, chromium } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** The Chromium binary: TIDEMARK_CHROMIUM, else Debian's /usr/bin/chromium. */
export const CHROMIUM_PATH = process.env.TIDEMARK_CHROMIUM || '/usr/bin/chromium';

/** TIDEMARK_REQUIRE_BROWSER=1: a missing browser (or web build) fails the browser tests instead of skipping them. */
export const REQUIRE_BROWSER = process.env.TIDEMARK_REQUIRE_BROWSER === '1';

/** Where screenshots are written (gitignored). */
export const SCREENSHOT_DIR = join(ROOT, 'test-artifacts', 'screenshots');

/** The built web app the server reads (scripts/build-web.mjs writes it; `npm run build` runs that). */
export const WEB_BUILD_DIR = join(ROOT, 'dist', 'web');

/** Flags for the Debian build in a container: no sandbox, GPU, background traffic or first-run UI. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** The viewport of `newPage()`: a common laptop screen. */
export const DESKTOP = { width: 1280, height: 800 } as const;
/** The viewport of `phone()`: a small Android phone. */
export const PHONE = { width: 360, height: 740 } as const;

/** A prerequisite check: null when met, else the reason it is not (said in the skip or failure message). */
export type Prerequisite = () => string | null;

/** Chromium is installed and executable. */
export const chromiumInstalled: Prerequisite = () =>
  existsSync(CHROMIUM_PATH)
    ? null
    : `Chromium not found at ${CHROMIUM_PATH} (install it with \`apt-get install -y chromium\`, or point TIDEMARK_CHROMIUM at a Chromium binary)`;

/** The web app is built into dist/web. */
export const webAppBuilt: Prerequisite = () =>
  existsSync(join(WEB_BUILD_DIR, 'index.html'))
    ? null
    : `the web app is not built: ${WEB_BUILD_DIR}/index.html is missing (run \`npm run build\`)`;

export interface BrowserGate {
  /** True when the suite must be skipped (never true under TIDEMARK_REQUIRE_BROWSER=1: that throws instead). */
  skip: boolean;
  /** Why it is skipped; null when it runs. */
  reason: string | null;
}

/**
 * Checks Chromium and the given further prerequisites, at the test file's top level. All met: `{ skip: false }`.
 * One missing: with TIDEMARK_REQUIRE_BROWSER=1 it throws (the file fails with the reason); otherwise it prints the
 * reason with console.warn and returns `{ skip: true }` for `describe.skipIf(gate.skip)`.
 */
export function browserOrSkip(...prerequisites: Prerequisite[]): BrowserGate {
  const reasons = [chromiumInstalled, ...prerequisites].map((check) => check()).filter((r): r is string => r !== null);
  if (reasons.length === 0) return { skip: false, reason: null };
  const reason = reasons.join('; ');
  if (REQUIRE_BROWSER) {
    throw new Error(`Browser tests cannot run, and TIDEMARK_REQUIRE_BROWSER=1 requires them: ${reason}`);
  }
  console.warn(`[browser tests skipped] ${reason}. Set TIDEMARK_REQUIRE_BROWSER=1 to make this a failure.`);
  return { skip: true, reason };
}

/** Launches Chromium headless with CHROMIUM_ARGS (prefer `useBrowser()` in a test file). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS, timeout: 30_000 });
}

/** A problem the page reported: an uncaught exception, a console.error or a refused resource (CSP). */
export interface PageProblem {
  kind: 'pageerror' | 'console';
  text: string;
  url: string;
}

/**
 * Console errors that are not problems by default: Chromium logs every 401 response as "Failed to load
 * resource", and the app asks /auth/session (401 when signed out) on every load.
 */
export const EXPECTED_CONSOLE_ERRORS: RegExp[] = [/Failed to load resource: the server responded with a status of 401\b/];

const problemsOf = new WeakMap<Page, PageProblem[]>();

/** The problems `page` reported so far (pages made by `newPage()` only). */
export function pageProblems(page: Page): PageProblem[] {
  return problemsOf.get(page) ?? [];
}

export interface NewPageOptions extends BrowserContextOptions {
  /** Console errors matching one of these are not problems (added to EXPECTED_CONSOLE_ERRORS). */
  allowConsoleErrors?: RegExp[];
}

export interface BrowserHandle {
  /** The file's browser (launched in beforeAll). */
  readonly browser: Browser;
  /**
   * A page in a context of its own (own cookies), at the DESKTOP viewport unless `viewport` is given, with its
   * problems collected: a test fails in afterEach when one of its pages reported any. Pass `baseURL` to use
   * relative paths in `page.goto`.
   */
  newPage(options?: NewPageOptions): Promise<Page>;
}

/**
 * One Chromium for the test file (call it inside the `describe`): launched in beforeAll, closed in afterAll.
 * After each test, the pages it opened are checked for problems (the test fails listing them) and closed.
 */
export function useBrowser(): BrowserHandle {
  let browser: Browser | null = null;
  let opened: Page[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);

  afterEach(async () => {
    const pages = opened;
    opened = [];
    const problems = pages.flatMap((p) => pageProblems(p));
    await Promise.all(
      pages.map((p) =>
        p
          .context()
          .close()
          .catch(() => undefined),
      ),
    );
    if (problems.length > 0) {
      throw new Error(
        `The page reported ${problems.length} problem(s):\n${problems.map((p) => `  [${p.kind}] ${p.text} (at ${p.url})`).join('\n')}`,
      );
    }
  });

  afterAll(async () => {
    await browser?.close();
    browser = null;
  });

  return {
    get browser() {
      if (!browser) throw new Error('useBrowser(): the browser is not launched (call it inside describe, use it inside tests)');
      return browser;
    },
    async newPage(options = {}) {
      const { allowConsoleErrors = [], ...contextOptions } = options;
      const allowed = [...EXPECTED_CONSOLE_ERRORS, ...allowConsoleErrors];
      const context = await this.browser.newContext({ viewport: { ...DESKTOP }, locale: 'en-US', ...contextOptions });
      const page = await context.newPage();
      const problems: PageProblem[] = [];
      problemsOf.set(page, problems);
      page.on('pageerror', (err) => problems.push({ kind: 'pageerror', text: err.stack ?? String(err), url: page.url() }));
      page.on('console', (msg) => {
        if (msg.type() !== 'error') return;
        const text = msg.text();
        if (allowed.some((re) => re.test(text))) return;
        problems.push({ kind: 'console', text, url: msg.location().url || page.url() });
      });
      opened.push(page);
      return page;
    },
  };
}

/** Switches the page to the PHONE viewport (360×740). */
export async function phone(page: Page): Promise<void> {
  await page.setViewportSize({ ...PHONE });
}

/** Switches the page back to the DESKTOP viewport. */
export async function desktop(page: Page): Promise<void> {
  await page.setViewportSize({ ...DESKTOP });
}

/**
 * Saves a full-page PNG as test-artifacts/screenshots/<name>.png (the folder is created; the name is reduced to
 * letters, digits, dots, dashes and underscores) and returns its path.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = join(SCREENSHOT_DIR, `${name.replace(/[^A-Za-z0-9._-]+/g, '-')}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  return file;
}

/** The impacts `axe()` reports. */
export const SERIOUS_IMPACTS: Axe.ImpactValue[] = ['serious', 'critical'];

let axeSource: string | null = null;

/**
 * Runs axe-core (its source from node_modules, evaluated through the DevTools protocol, so the app's
 * Content-Security-Policy neither blocks it nor has to be loosened) on the page as it is now, and returns the
 * violations of serious or critical impact. `options` go to `axe.run` (e.g. `{ rules: { … } }`).
 */
export async function axe(page: Page, options: Axe.RunOptions = {}): Promise<Axe.Result[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (!loaded) await page.evaluate(axeSource);
  const violations = await page.evaluate(
    async ({ options }) => {
      const axe = (globalThis as unknown as { axe: typeof Axe }).axe;
      const results = await axe.run({ ...options, resultTypes: ['violations'] });
      return results.violations;
    },
    { options: options as Record<string, unknown> },
  );
  return violations.filter((v) => v.impact != null && SERIOUS_IMPACTS.includes(v.impact));
}

/** A readable list of violations for an assertion message. */
export function formatViolations(violations: Axe.Result[]): string {
  return violations
    .map((v) => {
      const nodes = v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`).join('\n');
      return `  ${v.impact} ${v.id}: ${v.help} (${v.helpUrl})\n${nodes}`;
    })
    .join('\n');
}

/** Waits for the page's heading and for every loading indicator to go. */
export async function settled(page: Page, heading: string | RegExp, timeoutMs = 15_000): Promise<void> {
  await page.getByRole('heading', { level: 1, name: heading }).waitFor({ state: 'visible', timeout: timeoutMs });
  await expect.poll(() => page.locator('.loading').count(), { timeout: timeoutMs }).toBe(0);
}

/**
 * At desktop then phone width: no serious or critical axe violation, nothing wider than the screen, and a
 * screenshot each (<name>-desktop.png, <name>-phone.png). Leaves the page at desktop width.
 */
export async function checkPage(page: Page, name: string): Promise<void> {
  for (const width of ['desktop', 'phone'] as const) {
    if (width === 'phone') await phone(page);
    await screenshot(page, `${name}-${width}`);
    const violations = await axe(page);
    expect(violations, `${name} at ${width} width has serious axe violations:\n${formatViolations(violations)}`).toEqual([]);
    if (width === 'phone') {
      const scrollWidth = await page.evaluate('document.documentElement.scrollWidth');
      expect(scrollWidth, `${name} scrolls sideways at ${PHONE.width}px`).toBeLessThanOrEqual(PHONE.width);
    }
  }
  await desktop(page);
}
