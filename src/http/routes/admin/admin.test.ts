import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../../test/kit/app.js';
import { checkResponse } from '../../../../test/kit/openapi.js';
import { resetAdminToken } from '../../../services/setup.js';

let t: TestApp;
let admin: { authorization: string };
beforeAll(async () => {
  t = await testApp();
  admin = { authorization: `Bearer ${await resetAdminToken(t.services.db, t.clock)}` };
});
afterAll(() => t.close());

describe('/admin', () => {
  it('refuses requests without the admin token, and API keys', async () => {
    const { auth } = await t.account();
    for (const headers of [{}, auth, { authorization: 'Bearer tma_wrong' }]) {
      const res = await t.app.inject({ url: '/admin/accounts', headers });
      expect(res.statusCode).toBe(401);
    }
  });

  it('creates accounts with the default plan, issues working keys, lists them masked and revokes them', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/admin/accounts', headers: admin, payload: { name: 'globex' } });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({ name: 'globex', plan: 'free', features: [] });

    const dup = await t.app.inject({ method: 'POST', url: '/admin/accounts', headers: admin, payload: { name: 'GLOBEX' } });
    expect(dup.statusCode).toBe(409);

    const issued = await t.app.inject({ method: 'POST', url: '/admin/accounts/globex/keys', headers: admin, payload: {} });
    expect(issued.statusCode).toBe(201);
    const { key, id, masked } = issued.json().data;
    expect(key).toMatch(/^tm_/);
    expect(masked).toBe(`${key.slice(0, 7)}…${key.slice(-4)}`);
    // A free account's key: tracking requests answer it (tracking data would need an API trial, below).
    expect((await t.app.inject({ url: '/v2/tracking_requests', headers: { authorization: `Token ${key}` } })).statusCode).toBe(200);

    const listed = await t.app.inject({ url: '/admin/accounts/globex/keys', headers: admin });
    expect(listed.json().data).toEqual([expect.objectContaining({ id, masked, revoked_at: null })]);
    expect(listed.body).not.toContain(key);

    const revoked = await t.app.inject({ method: 'DELETE', url: `/admin/keys/${id}`, headers: admin });
    expect(revoked.json().data.revoked_at).not.toBeNull();
    expect((await t.app.inject({ url: '/v2/tracking_requests', headers: { authorization: `Token ${key}` } })).statusCode).toBe(401);
  });

  it('changes plans, features and limits, validating them', async () => {
    await t.app.inject({ method: 'POST', url: '/admin/accounts', headers: admin, payload: { name: 'initech', features: ['routing'] } });
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/admin/accounts/initech',
      headers: admin,
      payload: { plan: 'unlimited', features: ['refresh'], disable_features: ['routing'], rate_limits: { default: 1000 } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ plan: 'unlimited', features: ['refresh'], rate_limits: { default: 1000 } });

    const bad = await t.app.inject({
      method: 'PATCH',
      url: '/admin/accounts/initech',
      headers: admin,
      payload: { plan: 'gold', features: ['teleport'] },
    });
    expect(bad.statusCode).toBe(422);
    expect(
      bad
        .json()
        .errors.map((e: { source: { pointer: string } }) => e.source.pointer)
        .sort(),
    ).toEqual(['/features/0', '/plan']);

    const missing = await t.app.inject({ method: 'PATCH', url: '/admin/accounts/nobody', headers: admin, payload: {} });
    expect(missing.statusCode).toBe(404);
  });

  it('issues a key for a POST with no body at all (the documented curl example), or an empty JSON object', async () => {
    await t.app.inject({ method: 'POST', url: '/admin/accounts', headers: admin, payload: { name: 'initech' } });
    const variants: { headers?: Record<string, string>; payload?: string | object }[] = [
      {},
      { headers: { 'content-type': 'application/json' }, payload: '' },
      { payload: {} },
    ];
    for (const extra of variants) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/admin/accounts/initech/keys',
        ...extra,
        headers: { ...admin, ...extra.headers },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toMatchObject({ name: null, key: expect.stringMatching(/^tm_/) });
    }
    const named = await t.app.inject({ method: 'POST', url: '/admin/accounts/initech/keys', headers: admin, payload: { name: 'ci' } });
    expect(named.json().data.name).toBe('ci');
    const bad = await t.app.inject({ method: 'POST', url: '/admin/accounts/initech/keys', headers: admin, payload: { name: 7 } });
    expect(bad.statusCode).toBe(422);
  });

  it('answers as /v2/openapi.json documents it, errors too (test/kit/openapi.ts)', async () => {
    const json = { 'content-type': 'application/json' };
    const answer = async (
      method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
      url: string,
      status: number,
      init: { headers?: object; payload?: unknown } = {},
    ) => {
      const res = await t.app.inject({
        method,
        url,
        headers: { ...admin, ...init.headers },
        ...(init.payload === undefined ? {} : { payload: init.payload as string }),
      });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
      const contentType = String(res.headers['content-type'] ?? '');
      const checked = await checkResponse(t.app, { method, url, status, contentType, body: res.body });
      expect(checked.kind, `${method} ${url} → ${status}`).toBe('valid');
      return res;
    };
    await answer('GET', '/admin/accounts', 200);
    await answer('GET', '/admin/accounts', 401, { headers: { authorization: 'Bearer tma_wrong' } });
    await answer('POST', '/admin/accounts', 201, { payload: { name: 'hooli', features: ['routing'] } });
    await answer('POST', '/admin/accounts', 409, { payload: { name: 'hooli' } });
    await answer('POST', '/admin/accounts', 422, { payload: { name: 'no spaces' } });
    await answer('POST', '/admin/accounts', 400, { headers: json, payload: '{' });
    await answer('POST', '/admin/accounts', 415, { headers: { 'content-type': 'text/plain' }, payload: 'hooli' });
    await answer('PATCH', '/admin/accounts/hooli', 200, { payload: { plan: 'unlimited', rate_limits: { default: 10 } } });
    await answer('PATCH', '/admin/accounts/nobody', 404, { payload: {} });
    const key = (await answer('POST', '/admin/accounts/hooli/keys', 201, { payload: { name: 'ci' } })).json().data;
    await answer('POST', '/admin/accounts/nobody/keys', 404);
    await answer('GET', '/admin/accounts/hooli/keys', 200);
    await answer('GET', '/admin/accounts/nobody/keys', 404);
    await answer('DELETE', `/admin/keys/${key.id}`, 200);
    await answer('DELETE', '/admin/keys/00000000-0000-4000-8000-000000000000', 404);
    await answer('POST', '/admin/password_resets', 404, { payload: { email: 'nobody@example.com' } });
    await answer('POST', '/admin/password_resets', 422, { payload: {} });
    await answer('POST', '/admin/accounts', 201, { payload: { name: 'trialco', plan: 'free' } });
    await answer('POST', '/admin/accounts/trialco/api_trial', 200);
    await answer('POST', '/admin/accounts/trialco/api_trial', 409);
    await answer('POST', '/admin/accounts/nobody/api_trial', 404);
    await answer('POST', '/admin/accounts/trialco/api_trial', 422, { payload: { days: 0 } });
    await answer('POST', '/admin/accounts/trialco/api_trial', 415, { headers: { 'content-type': 'text/plain' }, payload: '7' });
    await answer('PATCH', '/admin/accounts/trialco/api_trial', 200, { payload: { days: 3 } });
    await answer('PATCH', '/admin/accounts/trialco/api_trial', 422, { payload: {} });
    await answer('PATCH', '/admin/accounts/hooli/api_trial', 409, { payload: { days: 3 } });
    await answer('DELETE', '/admin/accounts/trialco/api_trial', 200);
    await answer('DELETE', '/admin/accounts/nobody/api_trial', 404);
    await answer('PATCH', '/admin/accounts/trialco', 422, { payload: { first_account: false } });
  });

  it('starts, extends and ends an API trial on the wall clock, which gates the account key’s reads of tracking data', async () => {
    await t.app.inject({ method: 'POST', url: '/admin/accounts', headers: admin, payload: { name: 'umbrella', plan: 'free' } });
    const { key } = (await t.app.inject({ method: 'POST', url: '/admin/accounts/umbrella/keys', headers: admin })).json().data;
    const reads = async () => (await t.app.inject({ url: '/v2/shipments', headers: { authorization: `Token ${key}` } })).statusCode;
    const trial = (method: 'POST' | 'PATCH' | 'DELETE', payload?: object) =>
      t.app.inject({ method, url: '/admin/accounts/umbrella/api_trial', headers: admin, ...(payload ? { payload } : {}) });
    expect(await reads()).toBe(403);

    const started = await trial('POST');
    expect(started.statusCode, started.body).toBe(200);
    const now = t.clock.now().getTime();
    expect(started.json().data).toMatchObject({
      plan: 'free',
      api_access: 'trial',
      first_account: false,
      api_trial: { started_at: new Date(now).toISOString(), ends_at: new Date(now + 7 * 86_400_000).toISOString() },
    });
    expect(await reads()).toBe(200);
    // Starting again while it runs is refused: the operator extends it instead.
    const again = await trial('POST', { days: 3 });
    expect(again.statusCode).toBe(409);
    expect(again.json().errors[0]).toMatchObject({
      code: 'api_trial_conflict',
      detail: expect.stringMatching(/runs until .*extend it instead/),
    });

    const extended = await trial('PATCH', { days: 2 });
    expect(extended.json().data.api_trial.ends_at).toBe(new Date(now + 9 * 86_400_000).toISOString());
    t.clock.advance(9 * 86_400_000 - 1000);
    expect(await reads()).toBe(200);
    t.clock.advance(1000);
    expect(await reads()).toBe(403);
    expect((await t.app.inject({ url: '/admin/accounts', headers: admin })).json().data).toContainEqual(
      expect.objectContaining({ name: 'umbrella', api_access: 'trial_required' }),
    );

    // An ended trial extended runs again from now; ended by the operator, reads stop at once.
    const reopened = await trial('PATCH', { days: 1 });
    expect(reopened.json().data.api_trial.ends_at).toBe(new Date(t.clock.now().getTime() + 86_400_000).toISOString());
    expect(await reads()).toBe(200);
    const ended = await trial('DELETE');
    expect(ended.json().data).toMatchObject({ api_access: 'trial_required', api_trial: { ends_at: t.clock.now().toISOString() } });
    expect(await reads()).toBe(403);

    // Accounts whose reads are never gated get no trial.
    await t.app.inject({ method: 'POST', url: '/admin/accounts', headers: admin, payload: { name: 'cyberdyne', plan: 'unlimited' } });
    const unlimited = await t.app.inject({ method: 'POST', url: '/admin/accounts/cyberdyne/api_trial', headers: admin });
    expect(unlimited.statusCode).toBe(409);
    expect(unlimited.json().errors[0].detail).toMatch(/unlimited plan, whose API reads are never gated/);
  });

  it('moves the first-account mark to the account the operator names; the previous holder is gated when free', async () => {
    // Two free accounts, the mark on the first (as migration 0031 marks the oldest account of an existing install).
    const db = t.database.db;
    await db.query('UPDATE accounts SET first_account = false WHERE first_account');
    const oldest = await t.services.accounts.create(db, { name: 'oldest-customer', plan: 'free', firstAccount: true });
    const operator = await t.services.accounts.create(db, { name: 'operator-own', plan: 'free' });
    const keyOf = async (id: string) => ({ authorization: `Token ${(await t.services.accounts.issueKey(db, id)).token}` });
    const oldestKey = await keyOf(oldest.id);
    const operatorKey = await keyOf(operator.id);
    const reads = async (headers: Record<string, string>) => (await t.app.inject({ url: '/v2/shipments', headers })).statusCode;
    expect([await reads(oldestKey), await reads(operatorKey)]).toEqual([200, 403]);

    const moved = await t.app.inject({
      method: 'PATCH',
      url: '/admin/accounts/operator-own',
      headers: admin,
      payload: { first_account: true },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({ name: 'operator-own', plan: 'free', first_account: true, api_access: 'enabled' });
    const checked = await checkResponse(t.app, {
      method: 'PATCH',
      url: '/admin/accounts/operator-own',
      status: 200,
      contentType: String(moved.headers['content-type']),
      body: moved.body,
    });
    expect(checked.kind).toBe('valid');
    // The keys' cached credentials are dropped: the previous holder is refused at once, the new one reads.
    expect([await reads(oldestKey), await reads(operatorKey)]).toEqual([403, 200]);
    const listed = (await t.app.inject({ url: '/admin/accounts', headers: admin })).json().data as {
      name: string;
      first_account: boolean;
      api_access: string;
    }[];
    expect(listed.filter((a) => a.first_account).map((a) => a.name)).toEqual(['operator-own']);
    expect(listed.find((a) => a.name === 'oldest-customer')).toMatchObject({ first_account: false, api_access: 'trial_required' });
    // The previous holder can have a trial now; the new one cannot (never gated).
    expect((await t.app.inject({ method: 'POST', url: '/admin/accounts/oldest-customer/api_trial', headers: admin })).statusCode).toBe(200);
    const refused = await t.app.inject({ method: 'POST', url: '/admin/accounts/operator-own/api_trial', headers: admin });
    expect(refused.statusCode).toBe(409);

    // Marking the holder again changes nothing; with other changes, both apply.
    const again = await t.app.inject({
      method: 'PATCH',
      url: '/admin/accounts/operator-own',
      headers: admin,
      payload: { first_account: true, plan: 'unlimited' },
    });
    expect(again.json().data).toMatchObject({ name: 'operator-own', plan: 'unlimited', first_account: true });
    const unmark = await t.app.inject({
      method: 'PATCH',
      url: '/admin/accounts/operator-own',
      headers: admin,
      payload: { first_account: false },
    });
    expect(unmark.statusCode).toBe(422);
  });
});
