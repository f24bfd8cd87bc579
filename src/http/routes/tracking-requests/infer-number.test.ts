import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../../test/kit/app.js';
import { makeContainerNumber } from '../../../domain/container-number.js';

let t: TestApp;
let auth: { authorization: string };
beforeAll(async () => {
  t = await testApp();
  ({ auth } = await t.account());
});
afterAll(() => t.close());

const URL = '/v2/tracking_requests/infer_number';
const json = { 'content-type': 'application/json' };
const infer = (payload: unknown, headers: Record<string, string> = auth) =>
  t.app.inject({ method: 'POST', url: URL, headers: { ...headers, ...json }, payload: JSON.stringify(payload) });

describe('POST /v2/tracking_requests/infer_number', () => {
  it('answers a container number with the plain-JSON infer result', async () => {
    const res = await infer({ number: 'msku 907032-3' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(body).toEqual({
      data: {
        id: expect.stringMatching(/^req_[0-9a-f-]{36}$/),
        type: 'infer_number_results',
        attributes: {
          number_type: 'container',
          validation: { is_valid: true, type: 'container', check_digit_passed: true, parsed_number: 'MSKU9070323', reason: null },
          shipping_line: {
            decision: 'needs_confirmation',
            selected: { scac: 'MAEU', name: 'Maersk', confidence: 0.85 },
            candidates: [{ scac: 'MAEU', name: 'Maersk', confidence: 0.85 }],
          },
        },
      },
    });
    expect(body).not.toHaveProperty('links');
  });

  it('answers a failed check digit with 200, is_valid false and a reason', async () => {
    const res = await infer({ number: 'MAEU1234568' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.attributes).toMatchObject({
      number_type: 'container',
      validation: { is_valid: false, check_digit_passed: false, reason: expect.stringContaining('check digit') },
      shipping_line: { decision: 'no_prediction', selected: null },
    });
  });

  it('auto-selects the carrier of a BL prefix', async () => {
    const attrs = (await infer({ number: 'MEDU240200002' })).json().data.attributes;
    expect(attrs.number_type).toBe('bill_of_lading');
    // validation.type in the reference's words: a bill of lading (or a booking) names a shipment.
    expect(attrs.validation).toMatchObject({ is_valid: true, type: 'shipment' });
    expect(attrs.validation.check_digit_passed).toBeNull();
    expect(attrs.shipping_line).toMatchObject({ decision: 'auto_select', selected: { scac: 'MSCU', confidence: 0.97 } });
  });

  it('calls a bare 9-digit number a booking, with no carrier', async () => {
    const attrs = (await infer({ number: '123456789' })).json().data.attributes;
    expect(attrs).toMatchObject({
      number_type: 'booking',
      validation: { is_valid: true, type: 'shipment' },
      shipping_line: { decision: 'no_prediction', selected: null, candidates: [] },
    });
  });

  it.each([['TEST-TR-SUCCEEDED'], ['TEST-TR-FAILED']])('infers the reference test number %s as a TEST bill of lading', async (number) => {
    const attrs = (await infer({ number })).json().data.attributes;
    expect(attrs).toMatchObject({
      number_type: 'bill_of_lading',
      validation: { is_valid: true, parsed_number: number },
      shipping_line: { decision: 'auto_select', selected: { scac: 'TEST', name: 'Test carrier', confidence: 1 } },
    });
  });

  it('proposes Seaboard (SMLU) only to accounts with extra_carriers', async () => {
    const number = makeContainerNumber('SMLU', 123456);
    const extra = await t.account({ features: ['extra_carriers'] });
    const plain = (await infer({ number })).json().data.attributes.shipping_line;
    const withExtra = (await infer({ number }, extra.auth)).json().data.attributes.shipping_line;
    expect(plain).toEqual({ decision: 'no_prediction', selected: null, candidates: [] });
    expect(withExtra.selected).toMatchObject({ scac: 'SMLU', name: 'Seaboard Marine' });
  });

  it('accepts application/vnd.api+json too', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: { ...auth, 'content-type': 'application/vnd.api+json; charset=utf-8' },
      payload: JSON.stringify({ number: 'HLCU240400004' }),
    });
    expect(res.statusCode).toBe(200);
  });

  it.each([
    ['a missing number', {}],
    ['a blank number', { number: '   ' }],
    ['a number that is not a string', { number: 1234567 }],
    ['a null number', { number: null }],
    ['a number without letters or digits', { number: '--//--' }],
    ['a number longer than 40 characters', { number: 'MAEU'.repeat(11) }],
    ['an array body', ['MAEU240100001']],
  ])('refuses %s with 422 and pointer /number', async (_case, payload) => {
    const res = await infer(payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([
      expect.objectContaining({ status: '422', detail: 'This reference number is not valid.', source: { pointer: '/number' } }),
    ]);
  });

  it('refuses no body at all with the same 422', async () => {
    const res = await t.app.inject({ method: 'POST', url: URL, headers: auth });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0].source).toEqual({ pointer: '/number' });
  });

  it('needs an account key', async () => {
    const res = await t.app.inject({ method: 'POST', url: URL, headers: json, payload: JSON.stringify({ number: 'MAEU240100001' }) });
    expect(res.statusCode).toBe(401);
  });

  it('has its own rate bucket, with the reference 429 body', async () => {
    const a = await t.account();
    await t.services.accounts.update(t.services.db, a.account.name, { rateLimits: { infer_number: 2, default: 100 } });
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await infer({ number: 'MAEU240100001' }, a.auth)).statusCode);
    expect(codes).toEqual([200, 200, 429]);
    const over = await infer({ number: 'MAEU240100001' }, a.auth);
    expect(over.headers['retry-after']).toBeDefined();
    expect(over.json().errors[0]).toMatchObject({ status: '429', detail: 'Rate limit exceeded' });
    // The default bucket is untouched.
    expect((await t.app.inject({ url: '/v2/shipping_lines', headers: a.auth })).statusCode).toBe(200);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/v2/openapi.json' })).json();
    const op = doc.paths['/v2/tracking_requests/infer_number'].post;
    expect(op.requestBody.content['application/json'].schema).toMatchObject({
      required: ['number'],
      properties: { number: { type: 'string' } },
    });
    expect(op.requestBody.content['application/json'].schema).not.toHaveProperty('default');
    expect(op.responses['200'].content['application/json'].schema.properties.data).toBeDefined();
  });
});
