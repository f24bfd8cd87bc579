// Custom fields in a real browser, against the real HTTP app on a loopback port. The definitions and the shipments'
// values are made through the API (with the signed-up user's session); the values of a container are set in its page:
// a text refused by the API (over 1,000 characters) shows the API's sentence beside the field, the fixed one is
// saved and shown, an enum shows its option's label, Escape cancels, and the keyboard alone clears a value. The
// shipment page without shipment definitions says where to make them. The shipments list filters by a custom field
// (cf.<slug> in the page URL, filter[custom_fields][<slug>] to the API) and shows one as a column (cf_column,
// include=custom_fields), both kept across a reload. One world for the file; both tests sign in with the same session.
// Skipped without Chromium or the web build, as the other browser tests (test/kit/browser.ts).
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FixedClock } from '../../../src/domain/clock.js';
import { makeContainerNumber } from '../../../src/domain/container-number.js';
import { type TestApp, testApp } from '../../kit/app.js';
import { browserOrSkip, checkPage, screenshot, settled, useBrowser, webAppBuilt } from '../../kit/browser.js';
import { seedShipment } from '../../kit/seed.js';

const gate = browserOrSkip(webAppBuilt);

const BOX = makeContainerNumber('CFLU', 100_001);
const FIRST_BL = 'CFLUBL000001';
const SECOND_BL = 'CFLUBL000002';

describe.skipIf(gate.skip)('custom fields in the web app (real browser)', () => {
  const browser = useBrowser();
  let t: TestApp;
  let baseURL: string;
  let cookie: { name: string; value: string };
  let auth: Record<string, string>;
  let shipments: { id: string; containerIds: string[] }[];

  /** A /v2 call with the account's session; fails the test unless it answers `status`. */
  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, status: number, payload?: unknown) => {
    const res = await t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
    return res.body ? res.json() : undefined;
  };
  /** A definition; a second apart from the one before, so the list's order (by creation) is theirs. */
  const define = (entity_type: string, api_slug: string, display_name: string, data_type: string) => {
    t.clock.advance(1000);
    return call('POST', '/v2/custom_field_definitions', 201, {
      data: { type: 'custom_field_definition', attributes: { entity_type, api_slug, display_name, data_type } },
    });
  };
  const valuesOf = async (path: string) =>
    Object.fromEntries(
      ((await call('GET', `${path}/custom_fields`, 200)) as { data: { attributes: { api_slug: string; value: unknown } }[] }).data.map(
        (f) => [f.attributes.api_slug, f.attributes.value],
      ),
    );
  /** A page signed in to the account; `allowConsoleErrors` as browser.newPage takes it (the 422 the test asks for). */
  const signedIn = async (allowConsoleErrors: RegExp[] = []): Promise<Page> => {
    const host = new URL(baseURL).hostname;
    return browser.newPage({
      baseURL,
      allowConsoleErrors,
      storageState: {
        cookies: [{ ...cookie, domain: host, path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' }],
        origins: [],
      },
    });
  };
  const isFocused = (control: Locator) => control.evaluate((el) => el === el.ownerDocument.activeElement);

  beforeAll(async () => {
    t = await testApp({ clock: new FixedClock(new Date()), listen: true });
    baseURL = t.url!;
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: { email: 'desk@fields.example', password: 'a long and memorable passphrase', company_name: 'Field Freight' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const set = [res.headers['set-cookie']].flat().find((c) => typeof c === 'string' && c.startsWith('tm_session='))!;
    const [name, value] = set.split(';')[0]!.split('=') as [string, string];
    cookie = { name, value };
    const accountId = res.json().account.id as string;
    // The API with the session, as the web app calls it (a free account's keys may need an API trial).
    auth = { cookie: `${name}=${value}`, 'x-csrf-token': res.json().csrf_token as string };
    shipments = [
      await seedShipment(t, accountId, { bl: FIRST_BL, pol: 'CNSHA', pod: 'USLAX', containers: [{ number: BOX }] }),
      await seedShipment(t, accountId, { bl: SECOND_BL, pol: 'CNNGB', pod: 'USLGB' }),
    ];
  });
  afterAll(async () => {
    await t?.close();
  });

  test('a container’s values: set, refused with the API’s sentence, fixed, shown, cancelled, cleared by keyboard', async () => {
    await define('Container', 'po_number', 'PO number', 'short_text');
    const kind = await define('Container', 'cargo_kind', 'Cargo kind', 'enum');
    for (const [value, label, position] of [
      ['dry', 'Dry', 1],
      ['reefer', 'Reefer', 2],
    ] as const) {
      await call('POST', `/v2/custom_field_definitions/${kind.data.id}/options`, 201, {
        data: { type: 'custom_field_option', attributes: { value, label, position } },
      });
    }
    await define('Container', 'inspected', 'Inspected', 'boolean');
    const containerId = shipments[0]!.containerIds[0]!;
    const containerPath = `/v2/containers/${containerId}`;
    // What the API says of a text over 1,000 characters: the page must show that sentence beside the field.
    const tooLong = 'x'.repeat(1001);
    const refused = await t.app.inject({
      method: 'POST',
      url: `${containerPath}/custom_fields`,
      headers: auth,
      payload: { data: { type: 'custom_field', attributes: { api_slug: 'po_number', value: tooLong } } },
    });
    expect(refused.statusCode, refused.body).toBe(422);
    const detail = (refused.json().errors[0].detail as string).trim().replace(/\.$/, '');
    expect(detail.length).toBeGreaterThan(5);

    const page = await signedIn([/the server responded with a status of 422\b/]);
    await page.goto(`/containers/${containerId}`);
    await settled(page, `Container ${BOX}`);
    const section = page.getByRole('region', { name: 'Custom fields' });
    const row = (slug: string) => section.locator(`[data-slug="${slug}"]`);
    await row('po_number').waitFor();
    expect(await section.locator('dt').allInnerTexts()).toEqual(['PO number', 'Cargo kind', 'Inspected']);
    expect(await row('po_number').innerText()).toContain('Not set');

    // A text the API refuses: its sentence beside the field, the control marked invalid and focused.
    await section.getByRole('button', { name: 'Set PO number' }).click();
    const po = section.getByRole('textbox', { name: 'PO number', exact: true });
    expect(await isFocused(po)).toBe(true);
    await po.fill(tooLong);
    await section.getByRole('button', { name: 'Save PO number' }).click();
    const error = row('po_number').locator('.field-error');
    await error.waitFor();
    expect((await error.innerText()).toLowerCase()).toContain(detail.toLowerCase().slice(1));
    expect(await po.getAttribute('aria-invalid')).toBe('true');
    expect(await po.getAttribute('aria-describedby')).toContain(await error.getAttribute('id'));
    expect(await valuesOf(containerPath)).toEqual({});
    await screenshot(page, 'custom-fields-container-refused');

    // Fixed: saved, shown, and stored.
    await po.fill('PO-7781');
    await section.getByRole('button', { name: 'Save PO number' }).click();
    await row('po_number').getByText('PO number saved.').waitFor();
    expect(await row('po_number').locator('dd').innerText()).toContain('PO-7781');
    expect(await isFocused(section.getByRole('button', { name: 'Edit PO number' }))).toBe(true);

    // An enum is chosen by its label and shown as the option's label (the display value).
    await section.getByRole('button', { name: 'Set Cargo kind' }).click();
    await section.getByRole('combobox', { name: 'Cargo kind', exact: true }).selectOption({ label: 'Reefer' });
    await section.getByRole('button', { name: 'Save Cargo kind' }).click();
    await row('cargo_kind').getByText('Cargo kind saved.').waitFor();
    expect(await row('cargo_kind').locator('dd').innerText()).toContain('Reefer');
    expect(await valuesOf(containerPath)).toEqual({ po_number: 'PO-7781', cargo_kind: 'reefer' });

    // Escape leaves the editor without saving, focus back on its button.
    await section.getByRole('button', { name: 'Set Inspected' }).click();
    await section.getByRole('combobox', { name: 'Inspected', exact: true }).selectOption({ label: 'Yes' });
    await page.keyboard.press('Escape');
    const setInspected = section.getByRole('button', { name: 'Set Inspected' });
    await setInspected.waitFor();
    expect(await isFocused(setInspected)).toBe(true);
    expect(await row('inspected').locator('dd').innerText()).toContain('Not set');

    // Survives a reload (it came from the API); then the keyboard alone clears the PO number.
    await page.reload();
    await settled(page, `Container ${BOX}`);
    await row('po_number').getByText('PO-7781').waitFor();
    expect(await row('cargo_kind').locator('dd').innerText()).toContain('Reefer');
    await checkPage(page, 'custom-fields-container');
    await section.getByRole('button', { name: 'Edit PO number' }).focus();
    await page.keyboard.press('Enter');
    expect(await isFocused(section.getByRole('textbox', { name: 'PO number', exact: true }))).toBe(true);
    await page.keyboard.press('Tab'); // Save
    await page.keyboard.press('Tab'); // Clear
    expect(await isFocused(section.getByRole('button', { name: 'Clear PO number' }))).toBe(true);
    await page.keyboard.press('Enter');
    await row('po_number').getByText('PO number cleared.').waitFor();
    expect(await row('po_number').locator('dd').innerText()).toContain('Not set');
    expect(await valuesOf(containerPath)).toEqual({ cargo_kind: 'reefer' });

    // No shipment definitions yet: the shipment page says where to make them.
    await page.goto(`/shipments/${shipments[0]!.id}`);
    await settled(page, `Shipment ${FIRST_BL}`);
    const hint = page.getByRole('region', { name: 'Custom fields' });
    await hint.getByText('No custom fields are defined for shipments yet.').waitFor();
    expect(await hint.innerText()).toContain('POST /v2/custom_field_definitions');
  }, 120_000);

  test('the shipments list: filter by a custom field and show one as a column, both kept in the URL', async () => {
    await define('Shipment', 'customer_po', 'Customer PO', 'short_text');
    await define('Shipment', 'urgent', 'Urgent', 'boolean');
    const first = shipments[0]!;
    const second = shipments[1]!;
    for (const [s, po, urgent] of [
      [first, 'PO-1', false],
      [second, 'PO-2', true],
    ] as const) {
      const path = `/v2/shipments/${s.id}/custom_fields`;
      await call('POST', path, 201, { data: { type: 'custom_field', attributes: { api_slug: 'customer_po', value: po } } });
      await call('POST', path, 201, { data: { type: 'custom_field', attributes: { api_slug: 'urgent', value: urgent } } });
    }

    const page = await signedIn();
    await page.goto('/shipments');
    await settled(page, 'Shipments');
    const table = page.getByRole('table');
    const listed = () => table.locator('tbody th[scope="row"]').allInnerTexts();
    await expect.poll(listed).toEqual(expect.arrayContaining([FIRST_BL, SECOND_BL]));

    // The column: chosen from the account's shipment fields, filled from include=custom_fields.
    await page.getByLabel('Custom field column').selectOption({ label: 'Customer PO' });
    await table.getByRole('columnheader', { name: /Customer PO/ }).waitFor();
    await expect.poll(() => table.getByRole('row', { name: new RegExp(SECOND_BL) }).innerText()).toContain('PO-2');
    expect(await table.getByRole('row', { name: new RegExp(FIRST_BL) }).innerText()).toContain('PO-1');
    expect(new URL(page.url()).searchParams.get('cf_column')).toBe('customer_po');

    // The filter: a definition, then a value with the control of its type (Yes/No for a boolean).
    await page.getByRole('button', { name: /^Filters/ }).click();
    await page.getByLabel('Custom field', { exact: true }).selectOption({ label: 'Urgent' });
    await page.getByLabel('Urgent is').selectOption({ label: 'Yes' });
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(listed).toEqual([SECOND_BL]);
    const url = new URL(page.url());
    expect(url.searchParams.get('cf.urgent')).toBe('true');
    expect(url.searchParams.get('cf_column')).toBe('customer_po');

    // Both kept across a reload (the URL), the form showing the filter.
    await page.reload();
    await settled(page, 'Shipments');
    await expect.poll(listed).toEqual([SECOND_BL]);
    expect(await table.getByRole('row', { name: new RegExp(SECOND_BL) }).innerText()).toContain('PO-2');
    expect(await page.getByLabel('Urgent is').inputValue()).toBe('true');
    await checkPage(page, 'custom-fields-shipments');

    // A text filter; then Clear all lists both again, the column still there.
    await page.getByLabel('Custom field', { exact: true }).selectOption({ label: 'Customer PO' });
    await page.getByLabel('Customer PO is').fill('PO-1');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(listed).toEqual([FIRST_BL]);
    expect(new URL(page.url()).searchParams.get('cf.customer_po')).toBe('PO-1');
    expect(new URL(page.url()).searchParams.has('cf.urgent')).toBe(false);
    await page.getByRole('button', { name: 'Clear all' }).click();
    await expect.poll(async () => (await listed()).sort()).toEqual([FIRST_BL, SECOND_BL]);
    await table.getByRole('columnheader', { name: /Customer PO/ }).waitFor();

    // The shipment page shows its own values.
    await page.goto(`/shipments/${second.id}`);
    await settled(page, `Shipment ${SECOND_BL}`);
    const fields = page.getByRole('region', { name: 'Custom fields' });
    await fields.locator('[data-slug="customer_po"]').getByText('PO-2').waitFor();
    expect(await fields.locator('[data-slug="urgent"] dd').innerText()).toContain('Yes');
  }, 120_000);
});
