import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../../test/kit/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

describe('GET /v2/shipping_lines', () => {
  it('lists 36 lines, or 38 with extra_carriers, on one page; never the TEST SCAC', async () => {
    const plain = await t.account();
    const extra = await t.account({ features: ['extra_carriers'] });
    const a = (await t.app.inject({ url: '/v2/shipping_lines', headers: plain.auth })).json();
    const b = (await t.app.inject({ url: '/v2/shipping_lines', headers: extra.auth })).json();
    expect(a.data).toHaveLength(36);
    expect(b.data).toHaveLength(38);
    const scacs = (doc: { data: { attributes: { scac: string } }[] }) => doc.data.map((l) => l.attributes.scac);
    expect(scacs(a)).not.toContain('SMLU');
    expect(scacs(b)).toEqual(expect.arrayContaining(['SMLU', 'TRBR']));
    expect(scacs(b)).not.toContain('TEST');
    expect(Object.keys(a.links).sort()).toEqual(['current', 'last', 'self']);
  });

  it('renders the reference attributes', async () => {
    const { auth } = await t.account();
    const res = (await t.app.inject({ url: '/v2/shipping_lines?search=maersk', headers: auth })).json();
    const maersk = res.data.find((l: { attributes: { scac: string } }) => l.attributes.scac === 'MAEU');
    expect(maersk).toMatchObject({
      type: 'shipping_line',
      attributes: {
        name: expect.stringMatching(/Maersk/),
        bill_of_lading_tracking_support: true,
        booking_number_tracking_support: expect.any(Boolean),
        container_number_tracking_support: expect.any(Boolean),
        alternative_scacs: expect.any(Array),
      },
      relationships: {},
    });
  });

  it.each([
    ['msc', 'MSCU'],
    ['HLCU', 'HLCU'],
    ['  hapag ', 'HLCU'],
  ])('search %s finds %s', async (search, scac) => {
    const { auth } = await t.account();
    const res = (await t.app.inject({ url: `/v2/shipping_lines?search=${encodeURIComponent(search)}`, headers: auth })).json();
    expect(res.data.map((l: { attributes: { scac: string } }) => l.attributes.scac)).toContain(scac);
    expect(res.data.length).toBeLessThan(5);
  });

  it('pages when asked', async () => {
    const { auth } = await t.account();
    const res = (await t.app.inject({ url: '/v2/shipping_lines?page[size]=10&page[number]=4', headers: auth })).json();
    expect(res.data).toHaveLength(6);
    expect(res.links).not.toHaveProperty('next');
  });

  it('gets one line by id; extra carriers are 404 without the feature', async () => {
    const plain = await t.account();
    const extra = await t.account({ features: ['extra_carriers'] });
    const all = (await t.app.inject({ url: '/v2/shipping_lines', headers: extra.auth })).json();
    const smlu = all.data.find((l: { attributes: { scac: string } }) => l.attributes.scac === 'SMLU');
    const one = await t.app.inject({ url: `/v2/shipping_lines/${smlu.id}`, headers: extra.auth });
    expect(one.statusCode).toBe(200);
    expect(one.json().data.attributes.scac).toBe('SMLU');
    expect((await t.app.inject({ url: `/v2/shipping_lines/${smlu.id}`, headers: plain.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/v2/shipping_lines/nope', headers: plain.auth })).statusCode).toBe(404);
  });
});

describe('provided_data, tracking_url and contact_url', () => {
  it('describe what the simulated carrier provides while the sandbox serves it', async () => {
    const s = await testApp({ sandbox: true });
    try {
      const { auth } = await s.account();
      const res = (await s.app.inject({ url: '/v2/shipping_lines?search=GOSU', headers: auth })).json();
      const gold = res.data.find((l: { attributes: { scac: string } }) => l.attributes.scac === 'GOSU').attributes;
      // Gold Star Line's simulated profile gives neither seal numbers nor weights.
      expect(gold.provided_data).toMatchObject({ seal_number: false, weight_in_lbs: false, pod_discharged_at: true });
      expect(gold.tracking_url).toContain('$' + '{BLNUM}');
      expect(gold.contact_url).toMatch(/^https:\/\//);
    } finally {
      await s.close();
    }
  });

  it('are null for a carrier served by a configured real endpoint, and with the sandbox off', async () => {
    const s = await testApp({ sandbox: true, env: { TIDEMARK_CARRIER_GOSU_URL: 'https://dcsa.goldstar.example/tnt' } });
    try {
      const { auth } = await s.account();
      const lines = (await s.app.inject({ url: '/v2/shipping_lines', headers: auth })).json().data;
      const attrs = (scac: string) => lines.find((l: { attributes: { scac: string } }) => l.attributes.scac === scac).attributes;
      expect(attrs('GOSU')).toMatchObject({ provided_data: null, tracking_url: null, contact_url: null });
      expect(attrs('MAEU').provided_data).not.toBeNull();
    } finally {
      await s.close();
    }
    const { auth } = await t.account();
    const off = (await t.app.inject({ url: '/v2/shipping_lines?search=MAEU', headers: auth })).json().data[0].attributes;
    expect(off.provided_data).toBeNull();
  });
});
