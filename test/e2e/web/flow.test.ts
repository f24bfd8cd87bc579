// Issue 7's browser acceptance flow, in a real Chromium against the built app (dist/web) served by the real
// HTTP app on a loopback port, with the sandbox world on and a job queue that the test drives: sign up (the
// account then gets `sandbox_control` and `routing`, so the sandbox panel and the vessel show), create an API
// key and see it once (then only masked), track the sandbox number MAEU240100001 with the form and watch it
// appear, open its shipment and container pages, edit the container's reference numbers, advance the world
// clock with the sandbox panel: six hours on, the vessel's AIS positions are in, so the container's map (from
// map_geojson, `routing`) draws the vessel, its track and the predicted leg to the POD (across the Pacific, over
// the antimeridian) and lists them in words, and the shipment page shows Tidemark's predicted arrival; then on
// until new milestones show, open the board, follow each of the five deep-link cases
// of /shipments/find, and sign out → the deep link goes through sign-in and back. Each main page (shipments,
// shipment, container with its map, board, developers) has no serious axe-core violation at desktop and phone width,
// nothing wider than a phone's screen, and leaves screenshots test-artifacts/screenshots/flow-<page>-<width>.png.
// Skipped (with the reason printed) without Chromium or the web build; failed instead under
// TIDEMARK_REQUIRE_BROWSER=1 (test/kit/browser.ts).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FixedClock } from '../../../src/domain/clock.js';
import { type TestApp, testApp } from '../../kit/app.js';
import { browserOrSkip, checkPage, screenshot, settled, useBrowser, webAppBuilt } from '../../kit/browser.js';

const gate = browserOrSkip(webAppBuilt);

const COMPANY = 'Bayside Logistics';
const EMAIL = 'ops@bayside.example';
const PASSWORD = 'a long and memorable passphrase';
const BL = 'MAEU240100001';
const REF = 'PO-7781';
/** Where the world clock starts (domain time); the wall clock is the real one. */
const WORLD_START = '2026-11-28T00:00:00Z';

describe.skipIf(gate.skip)('the web app flow (real browser)', () => {
  const browser = useBrowser();
  let t: TestApp;
  let baseURL: string;

  beforeAll(async () => {
    // The wall clock at the browser's time ("created just now", session cookies); the world clock at a fixed date,
    // so that the story the test plays is the same whatever day it runs. At this one the succeeded number's vessel
    // used to lie at Busan at first sight (no speed under way, so no predicted arrival): the story now puts it
    // under way on any day (src/services/sandbox-prediction.test.ts sweeps the days).
    t = await testApp({ sandbox: true, queue: true, clock: new FixedClock(new Date()), worldStart: WORLD_START, listen: true });
    baseURL = t.url!;
  });
  afterAll(async () => {
    await t?.close();
  });

  const path = (page: Page) => new URL(page.url());

  test('from sign-up to tracking, the sandbox clock, the board and every deep link', async () => {
    const page = await browser.newPage({ baseURL });

    // Sign up: lands on the shipments list, empty, with the tracking form open.
    await page.goto('/signup');
    await settled(page, 'Create an account');
    await page.getByLabel('Company name').fill(COMPANY);
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await settled(page, 'Shipments');
    await page.getByText('No shipments yet.').waitFor();

    // The account may drive the sandbox clock and see vessel positions. The wall clock stands still in this
    // test, so the session's rate window never rolls over: give it room.
    const session = (await page.evaluate(`fetch('/auth/session').then((r) => r.json())`)) as { account: { id: string } };
    await t.services.accounts.update(t.database.db, session.account.id, {
      enable: ['sandbox_control', 'routing'],
      rateLimits: { session: 100_000 },
    });
    await page.reload();
    await settled(page, 'Shipments');
    const panel = page.getByRole('region', { name: 'Sandbox world' });
    await panel.waitFor();
    const worldBefore = await panel.locator('[data-testid="world-time"]').getAttribute('datetime');

    // An API key: shown in full once, then only masked.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Developers' }).click();
    await settled(page, 'Developers');
    await page.getByLabel("New key's name").fill('ERP integration');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.locator('.copy-value');
    await shown.waitFor();
    const key = (await shown.textContent())!.trim();
    expect(key.length).toBeGreaterThan(20);
    const row = page.getByRole('row', { name: /ERP integration/ });
    await row.waitFor();
    expect(await row.textContent()).not.toContain(key);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await shown.waitFor({ state: 'detached' });
    await page.reload();
    await settled(page, 'Developers');
    await page.getByRole('row', { name: /ERP integration/ }).waitFor();
    expect(await page.content()).not.toContain(key);
    await checkPage(page, 'flow-developers');

    // Track the sandbox number with the form; the request's status shows, and the list fills once it is created.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Shipments' }).click();
    await settled(page, 'Shipments');
    const form = page.locator('#track-panel');
    await form.getByLabel('Number').fill(BL);
    await form.getByLabel('Type').selectOption('bill_of_lading');
    await expect.poll(() => form.getByLabel('Carrier').locator('option[value="MAEU"]').count()).toBe(1);
    await form.getByLabel('Carrier').selectOption('MAEU');
    await form.getByRole('button', { name: 'Track' }).click();
    await page.locator('.request-status[data-status="pending"]').waitFor();
    // The worker asks the (simulated) carrier while the page keeps polling the request.
    expect(await t.queue!.runOnce('tracking.attempt')).toEqual({ completed: 1, failed: 0 });
    await page.locator('.request-status[data-status="created"]').waitFor({ timeout: 15_000 });
    const inList = page.getByRole('table').getByRole('link', { name: BL });
    await inList.waitFor({ timeout: 15_000 });
    await checkPage(page, 'flow-shipments');

    // The shipment page: route timeline, map (its land drawn from the bundled shapes), containers, ETA history.
    await inList.click();
    await settled(page, `Shipment ${BL}`);
    const shipmentPath = path(page).pathname;
    expect(await page.locator('.route-timeline > li').count()).toBeGreaterThanOrEqual(2);
    await page.locator('.map-land').waitFor({ state: 'attached' });
    expect((await page.locator('.map-land').getAttribute('d'))!.length).toBeGreaterThan(1000);
    expect(await page.locator('.map-stop').count()).toBeGreaterThanOrEqual(2);
    // With `routing`, the map is the container's map_geojson: its ports by label, the leg ahead estimated. No AIS
    // position has been gathered yet, so no vessel, track or prediction.
    const map = page.getByTestId('route-map');
    await expect
      .poll(() => map.getByTestId('map-port').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-label'))))
      .toEqual(['POL', 'POD']);
    expect(await map.getByTestId('map-planned').count()).toBe(1);
    expect(await map.getByTestId('map-vessel').count()).toBe(0);
    expect(await page.getByText('Predicted arrival (Tidemark)').count()).toBe(0);
    await page.getByRole('heading', { name: 'ETA history' }).waitFor();
    await checkPage(page, 'flow-shipment');

    // Its container.
    const containerLink = page.locator('section[aria-labelledby="containers-title"] a.strong-link').first();
    const containerNumber = (await containerLink.textContent())!.trim();
    expect(containerNumber).toMatch(/^[A-Z]{4}\d{7}$/);
    await containerLink.click();
    await settled(page, `Container ${containerNumber}`);
    const containerId = path(page).pathname.split('/').pop()!;
    await page.locator('.verdict').waitFor();
    const actual = page.locator('.milestones .milestone.is-actual');
    await actual.first().waitFor();
    const before = await actual.count();
    expect(await page.locator('.milestones .milestone.is-estimated').count()).toBeGreaterThanOrEqual(1);

    // Reference numbers are the account's own: edit them.
    await page.getByRole('button', { name: 'Edit reference numbers' }).click();
    await page.getByRole('textbox', { name: 'Reference numbers' }).fill(`${REF}\nJOB 42`);
    await page.getByRole('button', { name: 'Save reference numbers' }).click();
    await page.getByText('Reference numbers saved.').waitFor();
    await page.locator('.chip', { hasText: REF }).waitFor();
    await checkPage(page, 'flow-container');

    // Six world hours on, the AIS sweep has the vessel's positions: the container's map draws the vessel (turned to
    // its heading), the track it sailed (solid) and the predicted route on to the POD (dashed), and says so in words.
    await page.getByRole('button', { name: '+6 h' }).click();
    await page.getByText(/Advanced 6 hours/).waitFor({ timeout: 30_000 });
    const mapSection = page.getByRole('region', { name: 'Route map' });
    const containerMap = mapSection.getByTestId('route-map');
    const vesselMark = containerMap.getByTestId('map-vessel');
    await vesselMark.waitFor({ timeout: 15_000 });
    expect(await vesselMark.locator('path.map-vessel').getAttribute('transform')).toMatch(/^rotate\(\d+(\.\d+)?\)$/);
    for (const kind of ['map-track', 'map-predicted']) {
      const line = containerMap.getByTestId(kind);
      expect(await line.count(), kind).toBe(1);
      // One continuous line across the antimeridian (Ningbo → Los Angeles): a single move-to, no jump.
      const d = (await line.getAttribute('d'))!;
      expect(d.match(/M/g), `${kind}: ${d.slice(0, 80)}`).toHaveLength(1);
    }
    expect(await containerMap.getByTestId('map-planned').count()).toBe(0);
    // Solid track, dashed prediction (not only a colour apart).
    type Styled = { getComputedStyle(el: unknown): { strokeDasharray: string } };
    const dashes = (el: unknown) => (globalThis as unknown as Styled).getComputedStyle(el).strokeDasharray;
    expect(await containerMap.locator('.map-predicted').evaluate(dashes)).not.toBe('none');
    expect(await containerMap.locator('.map-track').evaluate(dashes)).toBe('none');
    const legend = mapSection.getByTestId('map-legend');
    expect(await legend.getByTestId('map-legend-port').allInnerTexts()).toEqual([
      expect.stringMatching(/^POL Ningbo-Zhoushan, China: departed .+ Asia\/Shanghai$/),
      expect.stringMatching(/^POD Los Angeles, United States: estimated arrival .+ America\/Los_Angeles$/),
    ]);
    expect(await legend.getByTestId('map-legend-vessel').innerText()).toMatch(
      /^Vessel [A-Z ]+ \(voyage \w+\) at \d+\.\d° [NS], \d+\.\d° [EW], heading \d+°, [\d.]+ kn, reported .+ UTC$/,
    );
    expect(await legend.getByTestId('map-legend-track').innerText()).toMatch(
      /^Sailed \(solid line\): the vessel’s recorded track from Ningbo-Zhoushan \(POL\)/,
    );
    expect(await legend.getByTestId('map-legend-predicted').innerText()).toMatch(
      /^Predicted \(dashed line\): the sea route from the vessel to Los Angeles \(POD\), arriving .+ America\/Los_Angeles by Tidemark’s estimate$/,
    );
    expect(await containerMap.locator('desc').textContent()).toMatch(/at \d+\.\d° N, .*recorded track.*predicted route on to Los Angeles/);
    await page.getByTestId('predicted-eta').waitFor();
    await checkPage(page, 'flow-container-map');

    // The shipment page: Tidemark's predicted arrival in the POD's zone, and the same map. The sandbox vessel keeps
    // its schedule, so the API gives no reason sentence (the prediction is within 12 h of the carrier's ETA): one is
    // added to the page's answer here to see it shown.
    const REASON =
      'The vessel is 4,210 nm by sea from Los Angeles at a recent 12.0 kn: at that pace it arrives 1.2 days after the carrier’s ETA.';
    await page.route(
      (url) => url.pathname === `/v2${shipmentPath}` && url.searchParams.has('include'),
      async (route) => {
        const response = await route.fetch();
        const json = await response.json();
        json.data.attributes.predicted_pod_eta_reason = REASON;
        await route.fulfill({ response, json });
      },
    );
    await page
      .locator('.breadcrumbs')
      .getByRole('link', { name: `Shipment ${BL}` })
      .click();
    await settled(page, `Shipment ${BL}`);
    const predictedFact = page.locator('.fact', { has: page.getByText('Predicted arrival (Tidemark)', { exact: true }) });
    expect(await predictedFact.locator('dd').innerText()).toMatch(/^Predicted\s+.+ America\/Los_Angeles\s+The vessel is 4,210 nm/);
    expect(await predictedFact.getByTestId('predicted-eta-reason').innerText()).toBe(REASON);
    const shipmentDoc = (await page.evaluate(`fetch('/v2${shipmentPath}').then((r) => r.json())`)) as {
      data: { attributes: { predicted_pod_eta_at: string | null } };
    };
    const predictedAt = shipmentDoc.data.attributes.predicted_pod_eta_at;
    expect(predictedAt).not.toBeNull();
    expect(await predictedFact.locator('time').getAttribute('datetime')).toBe(new Date(predictedAt!).toISOString());
    await page.getByTestId('route-map').getByTestId('map-vessel').waitFor();
    expect(await page.getByTestId('route-map').getByTestId('map-predicted').count()).toBe(1);
    await screenshot(page, 'flow-shipment-predicted-desktop');
    await page.unrouteAll();
    await page.goBack();
    await settled(page, `Container ${containerNumber}`);

    // Advance the world with the sandbox panel: the vessel arrives and new milestones appear on the page.
    await page.getByRole('button', { name: '+1 week' }).click();
    await page.getByText(/Advanced 1 week/).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: '+3 days' }).click();
    await page.getByText(/Advanced 3 days/).waitFor({ timeout: 30_000 });
    await expect.poll(() => actual.count(), { timeout: 15_000 }).toBeGreaterThan(before);
    // Awaited, not read once: the page may still show the first advance's milestones when the count above grows.
    const arrived = page.locator('.milestones .milestone[data-event="container.transport.vessel_arrived"].is-actual');
    await expect.poll(() => arrived.count(), { timeout: 15_000 }).toBe(1);
    const worldAfter = await page.locator('[data-testid="world-time"]').getAttribute('datetime');
    expect(Date.parse(worldAfter!) - Date.parse(worldBefore!)).toBeGreaterThanOrEqual(10 * 86_400_000 - 60_000);
    await screenshot(page, 'flow-container-after-advance-desktop');

    // The board.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Board' }).click();
    await settled(page, 'Board');
    await page.getByRole('list', { name: 'Containers needing action, by kind' }).waitFor();
    await checkPage(page, 'flow-board');

    // The five deep-link cases of /shipments/find.
    const spaced = `${containerNumber.slice(0, 4).toLowerCase()} ${containerNumber.slice(4, 10)}-${containerNumber.slice(10)}`;
    // (1) an exact container number, typed in lower case with a space and a dash → the shipment, that container selected.
    await page.goto(`/shipments/find?q=${encodeURIComponent(spaced)}`);
    await settled(page, `Shipment ${BL}`);
    expect(path(page).pathname).toBe(shipmentPath);
    expect(path(page).searchParams.get('container')).toBe(containerId);
    await page.getByRole('heading', { level: 2, name: `Container ${containerNumber}` }).waitFor();
    expect(await page.locator('tr.row-selected').textContent()).toContain(containerNumber);
    // (2) an exact bill of lading → the shipment page.
    await page.goto(`/shipments/find?q=${BL.toLowerCase()}`);
    await settled(page, `Shipment ${BL}`);
    expect(path(page).pathname).toBe(shipmentPath);
    expect(path(page).searchParams.get('container')).toBeNull();
    // (3) a reference number → the shipment, with the container that carries it selected.
    await page.goto(`/shipments/find?q=${encodeURIComponent(REF.toLowerCase())}`);
    await settled(page, `Shipment ${BL}`);
    expect(path(page).pathname).toBe(shipmentPath);
    expect(path(page).searchParams.get('container')).toBe(containerId);
    // (4) part of the container number → the first partial container match.
    await page.goto(`/shipments/find?q=${containerNumber.slice(0, 8)}`);
    await settled(page, `Shipment ${BL}`);
    expect(path(page).searchParams.get('container')).toBe(containerId);
    // (5) no match → the shipments list with the query filled in.
    await page.goto('/shipments/find?q=ZZZU0000000');
    await settled(page, 'Shipments');
    expect(path(page).pathname).toBe('/shipments');
    expect(path(page).searchParams.get('q')).toBe('ZZZU0000000');
    expect(await page.getByLabel('Search shipments').inputValue()).toBe('ZZZU0000000');
    await page.getByText('No shipment matches “ZZZU0000000”').waitFor();
    // Back works through the filtered list.
    await page.goBack();
    await settled(page, `Shipment ${BL}`);

    // Signed out, the deep link goes through sign-in and on to where it points.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await settled(page, 'Sign in');
    await page.goto(`/shipments/find?q=${BL}`);
    await settled(page, 'Sign in');
    expect(path(page).searchParams.get('next')).toBe(`/shipments/find?q=${BL}`);
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await settled(page, `Shipment ${BL}`);
    expect(path(page).pathname).toBe(shipmentPath);
  }, 120_000);

  test('bulk tracking from a CSV file, then pages with rail, transshipment, holds, fees and a busy board', async () => {
    // The row with an unknown carrier is refused (422), which Chromium logs.
    const page = await browser.newPage({ baseURL, allowConsoleErrors: [/status of 422 \(Unprocessable Entity\)/] });
    await page.goto('/signup');
    await settled(page, 'Create an account');
    await page.getByLabel('Company name').fill('Inland Movers');
    await page.getByLabel('E-mail').fill('desk@inland.example');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await settled(page, 'Shipments');
    const session = (await page.evaluate(`fetch('/auth/session').then((r) => r.json())`)) as { account: { id: string } };
    await t.services.accounts.update(t.database.db, session.account.id, { enable: ['routing'], rateLimits: { session: 100_000 } });

    // The CSV: a header, the request types as people write them, a blank type (guessed) and a blank carrier
    // (detected), a type that is none (skipped, never sent) and a carrier that does not exist (the API's error).
    await page.getByRole('button', { name: 'Upload CSV' }).click();
    const csv = [
      'number,type,scac',
      'HLCU240400004,bill_of_lading,HLCU',
      'ONEY240500005,BL,ONEY',
      'CMDU240300003,,CMDU',
      '"COSU240600006",bill_of_lading,',
      'MAEU240100001,parcel,MAEU',
      'MSCU240100001,bill_of_lading,ZZZZ',
    ].join('\r\n');
    await page
      .getByLabel('CSV file', { exact: true })
      .setInputFiles({ name: 'numbers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Track 5 numbers' }).click();
    await page.getByText('Done: 5 sent.').waitFor({ timeout: 20_000 });
    const results = page.locator('#bulk-panel tbody tr');
    expect(await results.count()).toBe(6);
    const text = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => results.nth(i).innerText()));
    for (const i of [0, 1, 2, 3]) expect(text[i]).toMatch(/Created request [0-9a-f-]{36} \(pending\)/);
    expect(text[4]).toMatch(/Skipped.*Unknown type “parcel”/s);
    expect(text[5]).toMatch(/Error/);
    expect(text[5]).not.toMatch(/Created request/);
    await screenshot(page, 'flow-bulk-upload-desktop');

    expect(await t.queue!.runOnce('tracking.attempt')).toEqual({ completed: 4, failed: 0 });
    // Two world weeks on: discharged, held, available, on rail, demurrage.
    await t.services.sandbox!.advance(14 * 86_400_000);

    await page.goto('/board');
    await settled(page, 'Board');
    const rows = page.locator('table tbody tr');
    await rows.first().waitFor();
    expect(await rows.first().locator('a').first().getAttribute('href')).toMatch(/^\/containers\//);
    // Sorting by a header orders the rows (and says so to assistive technology).
    await page.getByRole('button', { name: /Last free day/ }).click();
    expect(await page.locator('th[aria-sort]').getAttribute('aria-sort')).toBe('ascending');
    await checkPage(page, 'flow-board-busy');
    // A count narrows the board to its kind on the server (filter[needs]); the URL keeps the choice.
    const kinds = page.getByRole('list', { name: 'Containers needing action, by kind' }).getByRole('button');
    let chosen = -1;
    for (let i = 0; i < (await kinds.count()) && chosen < 0; i++) {
      if (Number(await kinds.nth(i).locator('.count-number').textContent()) > 0) chosen = i;
    }
    expect(chosen, 'some kind of action on the busy board').toBeGreaterThanOrEqual(0);
    const kind = kinds.nth(chosen);
    const count = Number(await kind.locator('.count-number').textContent());
    await kind.click();
    await expect.poll(() => new URL(page.url()).searchParams.get('needs')).toMatch(/^[a-z_]+$/);
    expect(await kind.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => rows.count()).toBe(Math.min(count, 100));
    await page.goBack();
    await expect.poll(() => new URL(page.url()).searchParams.get('needs')).toBeNull();

    // Filters live in the URL: applying one narrows the list, Back widens it again.
    await page.goto('/shipments');
    await settled(page, 'Shipments');
    const listRows = page.locator('table tbody tr');
    expect(await listRows.count()).toBe(4);
    await page.getByRole('button', { name: 'Filters' }).click();
    await page.getByLabel('Carrier').selectOption('HLCU');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => listRows.count()).toBe(1);
    expect(path(page).searchParams.get('carrier')).toBe('HLCU');
    await checkPage(page, 'flow-shipments-filtered');
    await page.goBack();
    await expect.poll(() => listRows.count()).toBe(4);
    expect(await page.getByLabel('Carrier').inputValue()).toBe('');

    await page.goto('/shipments?q=HLCU240400004');
    await settled(page, 'Shipments');
    await page.getByRole('table').getByRole('link', { name: 'HLCU240400004' }).click();
    await settled(page, 'Shipment HLCU240400004');
    await page.locator('.route-timeline').getByText('Inland destination').waitFor();
    await page.locator('.map-land').waitFor({ state: 'attached' });
    await checkPage(page, 'flow-shipment-rail');
    await page.locator('section[aria-labelledby="containers-title"] a.strong-link').first().click();
    await settled(page, /^Container /);
    await page.getByRole('heading', { name: 'Rail leg' }).waitFor();
    await screenshot(page, 'flow-container-rail-desktop');

    await page.goto('/shipments?q=CMDU240300003');
    await settled(page, 'Shipments');
    await page.getByRole('table').getByRole('link', { name: 'CMDU240300003' }).click();
    await settled(page, 'Shipment CMDU240300003');
    await page.locator('.route-timeline').getByText('Transshipment').first().waitFor();
    await screenshot(page, 'flow-shipment-transshipment-desktop');

    await page.goto('/shipments?q=COSU240600006');
    await settled(page, 'Shipments');
    await page.getByRole('table').getByRole('link', { name: 'COSU240600006' }).click();
    await settled(page, 'Shipment COSU240600006');
    await page.locator('section[aria-labelledby="containers-title"] a.strong-link').first().click();
    await settled(page, /^Container /);
    await checkPage(page, 'flow-container-fees');
  }, 120_000);
});
