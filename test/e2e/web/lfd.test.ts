// The last free day in a real browser: the board, the shipment's containers and the container page count days to
// the binding last free day (the earliest that applies where the box is picked up), name whose date it is, show
// the others' dates beside it and stop counting after pickup. The KKFU1025779 story: the terminal's last free day
// is 9 Dec and the line's 14 Dec; on 9 Dec the board said "5 days left" (from the line's date, `pickup_lfd`).
// Skipped without Chromium or the web build, as the other browser tests (test/kit/browser.ts).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FixedClock } from '../../../src/domain/clock.js';
import { makeContainerNumber } from '../../../src/domain/container-number.js';
import type { ContainerSnapshot } from '../../../src/tracking/snapshot.js';
import { testApp, type TestApp } from '../../kit/app.js';
import { browserOrSkip, checkPage, settled, useBrowser, webAppBuilt } from '../../kit/browser.js';
import { seedShipment } from '../../kit/seed.js';

const gate = browserOrSkip(webAppBuilt);

const LA = 'America/Los_Angeles';
/** 10:00 on 9 Dec in Los Angeles: the world time of the whole test (the sandbox clock stands still). */
const WORLD = '2026-12-09T18:00:00Z';
/** Local midnight in Los Angeles of a December day. */
const dec = (day: number) => `2026-12-${String(day).padStart(2, '0')}T08:00:00Z`;
const WAITING = makeContainerNumber('KKFU', 102577); // KKFU1025779
const PICKED = makeContainerNumber('KKFU', 102578);

/** At the POD terminal in Los Angeles: the terminal's last free day 9 Dec binds; the line's 14 Dec is `pickup_lfd`. */
const lfds = {
  pod_timezone: LA,
  pickup_lfd_line: dec(14),
  pickup_lfd_terminal: dec(9),
  ssl_lfd: dec(14),
  pickup_lfd: dec(14),
  pickup_lfd_binding: dec(9),
  pickup_lfd_binding_party: 'terminal',
  pickup_lfd_binding_timezone: LA,
  pod_arrived_at: '2026-12-03T14:00:00Z',
  pod_discharged_at: '2026-12-04T02:00:00Z',
} satisfies Partial<ContainerSnapshot>;

describe.skipIf(gate.skip)('the last free day in the web app (real browser)', () => {
  const browser = useBrowser();
  let t: TestApp;
  let baseURL: string;

  beforeAll(async () => {
    // The wall clock at the browser's time (session cookies); the world clock on 9 Dec.
    t = await testApp({ sandbox: true, clock: new FixedClock(new Date()), worldStart: WORLD, listen: true });
    baseURL = t.url!;
  });
  afterAll(async () => {
    await t?.close();
  });

  test('board, shipment and container pages count to the terminal’s date, not the line’s, and not after pickup', async () => {
    const page = await browser.newPage({ baseURL });
    await page.goto('/signup');
    await settled(page, 'Create an account');
    await page.getByLabel('Company name').fill('Free Time Drayage');
    await page.getByLabel('E-mail').fill('desk@freetime.example');
    await page.getByLabel('Password').fill('a long and memorable passphrase');
    await page.getByRole('button', { name: 'Create account' }).click();
    await settled(page, 'Shipments');
    const session = (await page.evaluate(`fetch('/auth/session').then((r) => r.json())`)) as { account: { id: string } };
    const shipment = await seedShipment(t, session.account.id, {
      bl: 'KKFULFD0001',
      pol: 'CNSHA',
      pod: 'USLAX',
      podTimezone: LA,
      ata: '2026-12-03T14:00:00Z',
      containers: [
        {
          number: WAITING,
          snapshot: { ...lfds, current_status: 'available', available_for_pickup: true, availability_known: true, ready_for_pickup: true },
        },
        // Picked up on 7 Dec (local): two days before the terminal's last free day; no days are counted any more.
        { number: PICKED, snapshot: { ...lfds, current_status: 'picked_up', pod_full_out_at: '2026-12-07T19:00:00Z' } },
      ],
    });
    const [waitingId, pickedId] = shipment.containerIds;

    // The board: the terminal's free time ends today; the line's date is beside it, never counted as "5 days left".
    await page.goto('/board');
    await settled(page, 'Board');
    const row = page.locator('table tbody tr', { hasText: WAITING });
    await row.waitFor();
    const rowText = await row.innerText();
    expect(rowText).toContain('Terminal’s last free day: today');
    expect(rowText).toContain('LFD today');
    expect(rowText).toMatch(/Also: Shipping line: .*14/);
    expect(rowText).not.toMatch(/days left/);
    // The picked-up box needs nothing at the terminal: it is not on the board.
    expect(await page.locator('table tbody tr', { hasText: PICKED }).count()).toBe(0);
    await checkPage(page, 'lfd-board');

    // The shipment's containers: the same words, and the picked-up one says how the pickup fell against the date.
    await page.goto(`/shipments/${shipment.id}`);
    await settled(page, /Shipment/);
    const waitingRow = page.locator('table tbody tr', { hasText: WAITING });
    await waitingRow.waitFor();
    expect(await waitingRow.innerText()).toContain('Terminal’s last free day: today');
    const pickedRow = await page.locator('table tbody tr', { hasText: PICKED }).innerText();
    expect(pickedRow).toContain('Picked up 2 days before the terminal’s last free day');
    expect(pickedRow).not.toMatch(/days left|passed|today/);

    // The container page: the headline names the terminal, the verdict says today, the table marks what binds.
    await page.goto(`/containers/${waitingId}`);
    await settled(page, new RegExp(WAITING));
    const headline = page.locator('.lfd-headline');
    await headline.waitFor();
    expect(await headline.innerText()).toMatch(/^Terminal’s last free day: today\s+Dec 9, 2026/);
    expect(await headline.innerText()).toMatch(/Also: Shipping line: Dec 14, 2026/);
    expect(await page.getByRole('status').first().innerText()).toContain('Today is the terminal’s last free day.');
    const bySource = page.getByRole('region', { name: 'Last free day' }).locator('table tbody tr');
    expect(await bySource.filter({ hasText: 'Terminal' }).innerText()).toMatch(/Binds[\s\S]*today/);
    expect(await bySource.filter({ hasText: 'Shipping line' }).innerText()).toMatch(/Later/);
    await checkPage(page, 'lfd-container-waiting');

    await page.goto(`/containers/${pickedId}`);
    await settled(page, new RegExp(PICKED));
    await page.locator('.lfd-headline').waitFor();
    expect(await page.locator('.lfd-headline').innerText()).toMatch(/^Picked up 2 days before the terminal’s last free day/);
    expect(await page.getByRole('status').first().innerText()).not.toMatch(/last free day/);
  }, 120_000);
});
