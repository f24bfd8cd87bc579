// The commands a new user runs, end to end, on a PGlite data directory.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, tidemark } from '../kit/cli.js';
import { onServer } from '../kit/databases.js';

const dir = mkdtempSync(join(tmpdir(), 'tidemark-e2e-'));
const dataDir = join(dir, 'data');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const get = (url: string | null, token?: string) => fetch(url!, token ? { headers: { authorization: `Token ${token}` } } : {});

describe.skipIf(onServer())('tidemark on a PGlite data directory (the PostgreSQL run covers scale-out instead)', () => {
  it('first start prints a working key and admin token; CLI refuses a held data dir; restarts survive SIGTERM and SIGKILL', {
    timeout: 180_000,
  }, async () => {
    const server = await startServer(['--data-dir', dataDir, '--roles', 'api,worker']);
    try {
      expect(server.apiKey).toMatch(/^tm_/);
      expect(server.adminToken).toMatch(/^tma_/);
      expect(server.output()).toContain(`curl -H "Authorization: Token ${server.apiKey}"`);

      const list = await get(`${server.url}/v2/shipments`, server.apiKey!);
      expect(list.status).toBe(200);
      expect(await list.json()).toMatchObject({ data: [], meta: { total: 0 }, links: { self: `${server.url}/v2/shipments` } });
      const anonymous = await get(`${server.url}/v2/shipments`);
      expect(anonymous.status).toBe(401);
      expect(((await anonymous.json()) as { errors: { title: string }[] }).errors[0]!.title).toBe('Unauthorized');

      // The data dir is held: one-shot commands refuse instead of corrupting it…
      const refused = await tidemark(['keys', 'create', '--account', 'acme', '--data-dir', dataDir]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/in use by another Tidemark process/);
      // …and the same operation works through the running server's admin API.
      const viaAdmin = await fetch(`${server.url}/admin/accounts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'acme', plan: 'unlimited' }),
      });
      expect(viaAdmin.status).toBe(201);

      expect(await server.stop('SIGTERM')).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
    }
    expect(existsSync(join(dataDir, 'tidemark.lock'))).toBe(false);

    // Stopped: the CLI opens the data dir itself.
    const created = await tidemark(['keys', 'create', '--account', 'acme', '--name', 'ci', '--data-dir', dataDir]);
    expect(created.code, created.stderr).toBe(0);
    const key = created.stdout.trim().split('\n').at(-1)!;
    expect(key).toMatch(/^tm_/);
    const newAccount = await tidemark([
      'keys',
      'create',
      '--account',
      'initech',
      '--plan',
      'free',
      '--features',
      'routing,refresh',
      '--data-dir',
      dataDir,
    ]);
    expect(newAccount.stdout).toContain('Created account initech (plan free)');
    // The operator gives the free account an API trial, and ends it (docs/api.md "Plans and the API trial").
    const trial = await tidemark(['accounts', 'trial', 'start', 'initech', '--days', '3', '--data-dir', dataDir]);
    expect(trial.code, trial.stderr).toBe(0);
    const [, started, ends] =
      /^initech: plan free, API trial (\S+) → (\S+) \(API reads allowed until the trial ends\)$/.exec(trial.stdout.trim()) ?? [];
    expect(Date.parse(ends!) - Date.parse(started!)).toBe(3 * 86_400_000);
    const ended = await tidemark(['accounts', 'trial', 'end', 'initech', '--data-dir', dataDir]);
    expect(ended.stdout.trim()).toMatch(/^initech: plan free, API trial \S+ → \S+ \(API reads refused\)$/);
    const accountsListed = await tidemark(['accounts', 'list', '--data-dir', dataDir]);
    expect(accountsListed.stdout).toMatch(/^operator {2}plan unlimited .* first account$/m);
    expect(accountsListed.stdout).toMatch(/^initech {2}plan free .* api trial ends \S+$/m);
    // The first-account mark (never gated) moves to the account the operator names, and back.
    const moved = await tidemark(['accounts', 'update', 'initech', '--first-account', '--data-dir', dataDir]);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout.trim()).toBe('initech: plan free, features routing,refresh, first account');
    const markMoved = await tidemark(['accounts', 'list', '--data-dir', dataDir]);
    expect(markMoved.stdout).toMatch(/^initech {2}plan free .* first account$/m);
    expect(markMoved.stdout).toMatch(/^operator {2}plan unlimited .*\S(?<! first account)$/m);
    expect(markMoved.stdout.match(/ first account$/gm)).toHaveLength(1);
    const neverGated = await tidemark(['accounts', 'trial', 'start', 'initech', '--data-dir', dataDir]);
    expect(neverGated.code).toBe(2);
    expect(neverGated.stderr).toMatch(/the operator's first account is never gated/);
    const movedBack = await tidemark(['accounts', 'update', 'operator', '--first-account', '--data-dir', dataDir]);
    expect(movedBack.stdout.trim()).toMatch(/^operator: plan unlimited, .*, first account$/);
    const gatedAgain = await tidemark(['accounts', 'trial', 'extend', 'initech', '--days', '1', '--data-dir', dataDir]);
    expect(gatedAgain.code, gatedAgain.stderr).toBe(0);
    expect(gatedAgain.stdout.trim()).toMatch(/^initech: plan free, API trial \S+ → \S+ \(API reads allowed until the trial ends\)$/);
    const listed = await tidemark(['keys', 'list', '--account', 'acme', '--data-dir', dataDir]);
    expect(listed.stdout).toContain(`${key.slice(0, 7)}…${key.slice(-4)}`);
    expect(listed.stdout).not.toContain(key);
    const updated = await tidemark([
      'accounts',
      'update',
      'initech',
      '--plan',
      'unlimited',
      '--disable-features',
      'refresh',
      '--data-dir',
      dataDir,
    ]);
    expect(updated.stdout.trim()).toBe('initech: plan unlimited, features routing');
    const badFeature = await tidemark(['accounts', 'update', 'initech', '--features', 'teleport', '--data-dir', dataDir]);
    expect(badFeature.code).not.toBe(0);
    expect(badFeature.stderr).toMatch(/Unknown feature\(s\): teleport/);
    const noTrial = await tidemark(['accounts', 'trial', 'extend', 'initech', '--days', '7', '--data-dir', dataDir]);
    expect(noTrial.code).toBe(2);
    expect(noTrial.stderr).toMatch(/Cannot extend the API trial of initech: the account is on the unlimited plan/);
    const revokeId = listed.stdout.split(/\s+/)[0]!;

    // A server killed without cleanup leaves a stale lock that does not block the restart.
    const second = await startServer(['--data-dir', dataDir, '--roles', 'api']);
    expect(second.apiKey).toBeNull(); // not a first start
    expect((await get(`${second.url}/v2/shipments`, key)).status).toBe(200);
    await second.stop('SIGKILL');
    expect(existsSync(join(dataDir, 'tidemark.lock'))).toBe(true);

    const revoked = await tidemark(['keys', 'revoke', revokeId, '--data-dir', dataDir]);
    expect(revoked.code, revoked.stderr).toBe(0);
    const third = await startServer(['--data-dir', dataDir, '--roles', 'api']);
    try {
      expect((await get(`${third.url}/v2/shipments`, key)).status).toBe(401);
    } finally {
      expect(await third.stop('SIGTERM')).toBe(0);
    }
  });

  it('migrate says which migrations it applied, then that the database is up to date', async () => {
    const fresh = join(dir, 'migrate-only');
    const first = await tidemark(['migrate', '--data-dir', fresh]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^Applied migrations: 1, 2, 3, .*\n$/);
    const again = await tidemark(['migrate', '--data-dir', fresh]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('Database is up to date\n');
  });

  it('refuses invalid configuration naming the variable', async () => {
    const res = await tidemark(['migrate', '--data-dir', join(dir, 'other')], { TIDEMARK_DEFAULT_PLAN: 'gold', TIDEMARK_NOPE: '1' });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('TIDEMARK_DEFAULT_PLAN');
    expect(res.stderr).toContain('TIDEMARK_NOPE: unknown variable');
  });

  it('refuses to start with an endpoint for an unknown carrier', async () => {
    const res = await tidemark(['start', '--port', '0', '--data-dir', join(dir, 'never')], {
      TIDEMARK_CARRIER_ZZZZ_URL: 'https://dcsa.example',
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('TIDEMARK_CARRIER_ZZZZ_*: ZZZZ is not a known carrier SCAC');
    expect(existsSync(join(dir, 'never'))).toBe(false);
  });

  it('shows help for every command', async () => {
    for (const args of [
      ['--help'],
      ['start', '--help'],
      ['keys', 'create', '--help'],
      ['accounts', 'update', '--help'],
      ['migrate', '--help'],
    ]) {
      const res = await tidemark(args);
      expect(res.code, args.join(' ')).toBe(0);
      expect(res.stdout).toContain('Usage: tidemark');
    }
  });
});
