import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../../test/kit/app.js';
import { onServer } from '../../../../test/kit/databases.js';
import { checkResponse } from '../../../../test/kit/openapi.js';
import { FixedClock } from '../../../domain/clock.js';
import { SandboxService } from '../../../services/sandbox.js';
import { SandboxWorldClock } from '../../../services/world-clock.js';
import { PgDb } from '../../../storage/pg.js';
import { advanceMs } from './advance-clock.js';

describe('sandbox clock endpoints', () => {
  let t: TestApp;
  let reader: { authorization: string };
  let controller: { authorization: string };
  const admin = { authorization: 'Bearer admin-secret-for-sandbox-clock-tests' };

  beforeAll(async () => {
    t = await testApp({ sandbox: true, env: { TIDEMARK_ADMIN_TOKEN: 'admin-secret-for-sandbox-clock-tests' } });
    reader = (await t.account()).auth;
    controller = (await t.account({ features: ['sandbox_control'] })).auth;
  });
  afterAll(() => t.close());

  it('reads the world clock with any account key; it starts at the wall clock and stands still at speed 0', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sandbox/clock', headers: reader });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ world_time: '2026-03-01T12:00:00Z', speed: 0, advancing: false, target_at: null, reached_at: null });
    t.clock.advance(3600_000);
    expect((await t.app.inject({ method: 'GET', url: '/sandbox/clock', headers: reader })).json().world_time).toBe('2026-03-01T12:00:00Z');
    expect((await t.app.inject({ method: 'GET', url: '/sandbox/clock' })).statusCode).toBe(401);
  });

  it('advances with the admin token or the sandbox_control feature, never with a plain key', async () => {
    const denied = await t.app.inject({ method: 'POST', url: '/sandbox/clock/advance', headers: reader, payload: { hours: 1 } });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().errors[0].detail).toMatch(/not enabled/);
    const byFeature = await t.app.inject({ method: 'POST', url: '/sandbox/clock/advance', headers: controller, payload: { hours: 7 } });
    expect(byFeature.statusCode).toBe(200);
    expect(byFeature.json()).toEqual({ world_time: '2026-03-01T19:00:00Z', refreshed: 0 });
    const byAdmin = await t.app.inject({ method: 'POST', url: '/sandbox/clock/advance', headers: admin, payload: { days: 2 } });
    expect(byAdmin.json().world_time).toBe('2026-03-03T19:00:00Z');
    // Every process reads the same clock: a second app on the same database sees the advanced world.
    const other = await testApp({ database: t.database, sandbox: true });
    try {
      const res = await other.app.inject({ method: 'GET', url: '/sandbox/clock', headers: reader });
      expect(res.json().world_time).toBe('2026-03-03T19:00:00Z');
    } finally {
      await other.app.close();
    }
  });

  it('walks the world in steps of at most six hours, refreshing after each', async () => {
    const seen: string[] = [];
    t.services.sandbox!.onStep(async (world) => {
      seen.push(world.toISOString());
      return 2;
    });
    try {
      const start = new Date((await t.services.sandbox!.readClock()).worldTime);
      const res = await t.app.inject({ method: 'POST', url: '/sandbox/clock/advance', headers: admin, payload: { hours: 15 } });
      expect(res.json().refreshed).toBe(6);
      const hours = seen.map((s) => (Date.parse(s) - start.getTime()) / 3600_000);
      expect(hours).toEqual([6, 12, 15]);
    } finally {
      t.services.sandbox!.onStep(async () => 0);
    }
  });

  it.each([
    [{}, '/hours', /exactly one/],
    [{ hours: 1, days: 1 }, '/days', /exactly one/],
    [{ hours: 0 }, '/hours', /greater than 0/],
    [{ days: -2 }, '/days', /greater than 0/],
    [{ days: '3' }, '/days', /number/],
    [{ days: 401 }, '/days', /at most 400 days/],
    [{ hours: 400 * 24 + 1 }, '/hours', /at most 400 days/],
  ])('rejects %j with 422 at %s', async (payload, pointer, detail) => {
    const res = await t.app.inject({ method: 'POST', url: '/sandbox/clock/advance', headers: admin, payload });
    expect(res.statusCode).toBe(422);
    const error = res.json().errors[0];
    expect(error.source).toEqual({ pointer });
    expect(error.detail).toMatch(detail);
  });

  it('accepts the limits exactly', () => {
    expect(advanceMs({ days: 400 })).toBe(400 * 86_400_000);
    expect(advanceMs({ hours: 0.5 })).toBe(1_800_000);
  });

  it('answers 409 while another advance holds the lease', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let entered!: () => void;
    const inStep = new Promise<void>((r) => {
      entered = r;
    });
    t.services.sandbox!.onStep(async () => {
      entered();
      await gate;
      return 0;
    });
    try {
      const first = t.app.inject({ method: 'POST', url: '/sandbox/clock/advance', headers: admin, payload: { hours: 1 } });
      await inStep;
      const second = await t.app.inject({ method: 'POST', url: '/sandbox/clock/advance', headers: admin, payload: { hours: 1 } });
      expect(second.statusCode).toBe(409);
      release();
      expect((await first).statusCode).toBe(200);
    } finally {
      t.services.sandbox!.onStep(async () => 0);
    }
  });

  it('answers as /v2/openapi.json documents it, errors too (test/kit/openapi.ts)', async () => {
    const answer = async (method: 'GET' | 'POST', url: string, status: number, init: { headers?: object; payload?: unknown } = {}) => {
      const res = await t.app.inject({
        method,
        url,
        headers: { ...init.headers },
        ...(init.payload === undefined ? {} : { payload: init.payload as string }),
      });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
      const contentType = String(res.headers['content-type'] ?? '');
      const checked = await checkResponse(t.app, { method, url, status, contentType, body: res.body });
      expect(checked.kind, `${method} ${url} → ${status}`).toBe('valid');
    };
    await answer('GET', '/sandbox/clock', 200, { headers: reader });
    await answer('GET', '/sandbox/clock', 401);
    await answer('GET', '/sandbox/examples', 200, { headers: reader });
    await answer('GET', '/sandbox/examples', 401);
    await answer('POST', '/sandbox/clock/advance', 200, { headers: admin, payload: { hours: 1 } });
    await answer('POST', '/sandbox/clock/advance', 401, { payload: { hours: 1 } });
    await answer('POST', '/sandbox/clock/advance', 403, { headers: reader, payload: { hours: 1 } });
    await answer('POST', '/sandbox/clock/advance', 422, { headers: admin, payload: {} });
    await answer('POST', '/sandbox/clock/advance', 400, { headers: { ...admin, 'content-type': 'application/json' }, payload: '{' });
    await answer('POST', '/sandbox/clock/advance', 415, { headers: { ...admin, 'content-type': 'text/plain' }, payload: 'hours=1' });
  });
});

describe('an advance that stops short', () => {
  let t: TestApp;
  const admin = { authorization: 'Bearer admin-secret-for-sandbox-clock-tests' };
  let reader: { authorization: string };
  const clock = async () => (await t.app.inject({ method: 'GET', url: '/sandbox/clock', headers: reader })).json();

  beforeAll(async () => {
    t = await testApp({ sandbox: true, env: { TIDEMARK_ADMIN_TOKEN: 'admin-secret-for-sandbox-clock-tests' } });
    reader = (await t.account()).auth;
  });
  afterAll(() => t.close());

  it('says how far it got (reached_at, in the error and in GET /sandbox/clock), keeps no lock, and the next one clears it', async () => {
    let steps = 0;
    t.services.sandbox!.onStep(async () => {
      steps += 1;
      if (steps === 2) throw new Error('a refresh failed');
      return 1;
    });
    try {
      const failed = await t.app.inject({ method: 'POST', url: '/sandbox/clock/advance', headers: admin, payload: { hours: 15 } });
      expect(failed.statusCode).toBe(500);
      const [error] = failed.json().errors;
      // The first six-hour step was walked and refreshed; the second moved the world but its refresh failed.
      expect(error.meta).toMatchObject({ reached_at: '2026-03-01T18:00:00Z', target_at: '2026-03-02T03:00:00Z' });
      expect(error.detail).toMatch(/stopped at 2026-03-01T18:00:00Z, short of 2026-03-02T03:00:00Z/);
      expect(await clock()).toEqual({
        world_time: '2026-03-02T00:00:00Z',
        speed: 0,
        advancing: false,
        target_at: '2026-03-02T03:00:00Z',
        reached_at: '2026-03-01T18:00:00Z',
      });
    } finally {
      t.services.sandbox!.onStep(async () => 0);
    }
    const next = await t.app.inject({ method: 'POST', url: '/sandbox/clock/advance', headers: admin, payload: { hours: 1 } });
    expect(next.statusCode).toBe(200);
    expect(next.json().world_time).toBe('2026-03-02T01:00:00Z');
    expect(await clock()).toMatchObject({ advancing: false, target_at: null, reached_at: null });
  });

  it('shows an advance in progress', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let entered!: () => void;
    const inStep = new Promise<void>((r) => {
      entered = r;
    });
    t.services.sandbox!.onStep(async () => {
      entered();
      await gate;
      return 0;
    });
    try {
      const advance = t.app.inject({ method: 'POST', url: '/sandbox/clock/advance', headers: admin, payload: { hours: 2 } });
      await inStep;
      expect(await clock()).toMatchObject({ advancing: true, target_at: '2026-03-02T03:00:00Z', reached_at: '2026-03-02T01:00:00Z' });
      release();
      expect((await advance).statusCode).toBe(200);
    } finally {
      t.services.sandbox!.onStep(async () => 0);
    }
  });

  // A server: the lock is held by a connection of the advancing process. Its death (every connection of that
  // process terminated, as when it is killed) frees the lock at once; the dead walk's progress stays readable.
  it.skipIf(!onServer())('on a server, a holder whose connections die frees the lock at once', async () => {
    const holderDb = new PgDb(t.database.url!, { applicationName: 'tidemark dying advance holder' });
    try {
      const wall = new FixedClock(t.clock.now());
      const holder = new SandboxService(holderDb, 'tidemark', await SandboxWorldClock.open(holderDb, wall, 0), wall);
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      let entered!: () => void;
      const inSecondStep = new Promise<void>((r) => {
        entered = r;
      });
      let steps = 0;
      holder.onStep(async () => {
        steps += 1;
        if (steps === 2) {
          entered();
          await gate;
        }
        return 0;
      });
      const start = Date.parse((await clock()).world_time);
      const iso = (hours: number) => `${new Date(start + hours * 3600_000).toISOString().slice(0, 19)}Z`;
      const walking = holder.advance(24 * 3600_000);
      const outcome = walking.then(
        () => null,
        (err: unknown) => err,
      );
      await inSecondStep;
      // Another process meanwhile: refused while the holder lives, and it sees the walk.
      const refused = await t.app.inject({ method: 'POST', url: '/sandbox/clock/advance', headers: admin, payload: { hours: 1 } });
      expect(refused.statusCode).toBe(409);
      expect(await clock()).toMatchObject({ advancing: true, target_at: iso(24), reached_at: iso(6) });

      await t.database.db.query(
        // With a timeout, pg_terminate_backend waits until the backend is gone (and its locks with it).
        "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE application_name = 'tidemark dying advance holder' AND datname = current_database()",
      );
      expect(await clock()).toMatchObject({ advancing: false, target_at: iso(24), reached_at: iso(6) });
      const accepted = await t.app.inject({ method: 'POST', url: '/sandbox/clock/advance', headers: admin, payload: { hours: 1 } });
      expect(accepted.statusCode).toBe(200);

      // The holder, woken, finds its lock gone and stops without walking further, saying how far it got.
      release();
      const err = (await outcome) as { code?: string; items?: { meta?: Record<string, unknown> }[] };
      expect(err?.code).toBe('unavailable');
      expect(err.items?.[0]?.meta).toMatchObject({ reached_at: iso(6), target_at: iso(24) });
    } finally {
      await holderDb.close().catch(() => {});
    }
  });
});

describe('with the sandbox off', () => {
  it('has no sandbox endpoints', async () => {
    const t = await testApp();
    try {
      const { auth } = await t.account();
      expect((await t.app.inject({ method: 'GET', url: '/sandbox/clock', headers: auth })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: '/sandbox/examples', headers: auth })).statusCode).toBe(404);
      expect(
        (await t.app.inject({ method: 'GET', url: '/sandbox/carriers/MAEU/v2/events?equipmentReference=MSKU1234565' })).statusCode,
      ).toBe(404);
    } finally {
      await t.close();
    }
  });
});
