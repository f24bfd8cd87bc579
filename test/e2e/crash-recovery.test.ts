// Crash windows of the real `tidemark` process, opened by TIDEMARK_TEST_CRASH_AT (the process SIGKILLs itself at an
// exact point, so no timing race): the first start killed right after its commit, then recovered with
// `tidemark admin-token new` and `tidemark owner-link new`; and a clock advance whose process dies mid-walk, after
// which the next advance is accepted at once and `reached_at` says how far the dead one got. PGlite and a server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Server, startServer, tidemark } from '../kit/cli.js';
import { freshDatabase, onServer, type TestDatabase } from '../kit/databases.js';
import { until } from '../kit/wait.js';

const dir = mkdtempSync(join(tmpdir(), 'tidemark-crash-'));
let database: TestDatabase | null = null;
const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) await s.stop('SIGKILL');
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** Where the processes keep their data: a data directory, or a fresh database on the server. */
async function where(): Promise<{ args: string[]; env: Record<string, string> }> {
  if (!onServer()) return { args: ['--data-dir', join(dir, 'data')], env: {} };
  database ??= await freshDatabase();
  return { args: [], env: { DATABASE_URL: database.url! } };
}

async function start(env: Record<string, string> = {}): Promise<Server> {
  const w = await where();
  const server = await startServer(w.args, { TIDEMARK_SANDBOX_SPEED: '0', ...w.env, ...env }, 180_000);
  servers.push(server);
  return server;
}

const json = (res: Response) => res.json() as Promise<Record<string, unknown>>;

describe('a crash right after the first start commits', () => {
  it('has printed the secrets already, and the operator recovers a new admin token and owner link with the CLI', {
    timeout: 400_000,
  }, async () => {
    const w = await where();
    const crashed = await tidemark(['start', '--port', '0', ...w.args], { ...w.env, TIDEMARK_TEST_CRASH_AT: 'first-start-commit' });
    expect(crashed.code, crashed.stderr).toBeNull(); // killed by its signal
    expect(crashed.stderr).toContain('TIDEMARK_TEST_CRASH_AT=first-start-commit');
    // Printed before the commit: the window in which a crash lost them is closed.
    const apiKey = /^API key: (\S+)$/m.exec(crashed.stdout)?.[1];
    const lostAdminToken = /^Admin token: (\S+)$/m.exec(crashed.stdout)?.[1];
    expect(apiKey).toMatch(/^tm_/);
    expect(lostAdminToken).toMatch(/^tma_/);

    // Say the output was lost anyway (a closed terminal): the operator issues new ones, server stopped.
    const token = await tidemark(['admin-token', 'new', ...w.args], w.env);
    expect(token.code, token.stderr).toBe(0);
    const adminToken = /^Admin token: (tma_\S+)$/m.exec(token.stdout)?.[1];
    expect(adminToken).toBeDefined();
    const link = await tidemark(['owner-link', 'new', ...w.args], w.env);
    expect(link.code, link.stderr).toBe(0);
    const setupToken = /^Owner setup \(operator\): http\S+\/setup\/(\S+)$/m.exec(link.stdout)?.[1];
    expect(setupToken).toBeDefined();

    // The next start is not a first start: it prints nothing, and the committed first start is whole.
    const server = await start();
    expect(server.apiKey).toBeNull();
    expect(server.adminToken).toBeNull();
    const admin = { authorization: `Bearer ${adminToken}` };
    const accounts = await fetch(`${server.url}/admin/accounts`, { headers: admin });
    expect(accounts.status).toBe(200);
    expect(((await json(accounts)).data as { name: string }[]).map((a) => a.name)).toEqual(['operator']);
    // The new token replaced the one the crash printed.
    expect((await fetch(`${server.url}/admin/accounts`, { headers: { authorization: `Bearer ${lostAdminToken}` } })).status).toBe(401);
    // The first key was committed with the account.
    expect((await fetch(`${server.url}/v2/shipments`, { headers: { authorization: `Token ${apiKey}` } })).status).toBe(200);
    // The owner link is accepted: it makes an owner of the operator's account and signs them in.
    const described = await fetch(`${server.url}/auth/tokens/${setupToken}`);
    expect(await json(described)).toMatchObject({ kind: 'owner_setup', account_name: 'Operator' });
    const used = await fetch(`${server.url}/auth/tokens/${setupToken}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@example.com', password: 'a long enough passphrase 42' }),
    });
    expect(used.status, await used.clone().text()).toBeLessThan(300);
    expect(used.headers.get('set-cookie')).toMatch(/tm_session=/);

    if (onServer()) {
      // On a server the commands work while processes run; the new token is taken at once.
      const again = await tidemark(['admin-token', 'new'], w.env);
      expect(again.code, again.stderr).toBe(0);
      const newer = /^Admin token: (\S+)$/m.exec(again.stdout)![1];
      expect((await fetch(`${server.url}/admin/accounts`, { headers: { authorization: `Bearer ${newer}` } })).status).toBe(200);
    } else {
      // On PGlite they refuse while the server holds the data directory, and say so.
      const refused = await tidemark(['admin-token', 'new', ...w.args], w.env);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toMatch(/data directory .* is in use by another Tidemark process/);
    }
    // With an owner now, another owner link needs --add-owner (an owner who forgot their password gets a reset).
    const owned = await tidemark(['owner-link', 'new', ...w.args], w.env);
    if (!onServer()) expect(owned.code).toBe(3);
    else {
      expect(owned.code).toBe(2);
      expect(owned.stderr).toMatch(/has an owner already.*--add-owner/);
    }
    await server.stop();
  });
});

describe('a process that dies in the middle of a clock advance', () => {
  it('leaves no lock behind: the next advance is accepted at once, and reached_at says how far the dead one got', {
    timeout: 400_000,
  }, async () => {
    const w = await where();
    // The admin token: a new one when the first start ran already (the test above), else the first start's.
    const issued = await tidemark(['admin-token', 'new', ...w.args], w.env);
    const dying = await start({ TIDEMARK_TEST_CRASH_AT: 'sandbox-advance-step' });
    const adminToken = dying.adminToken ?? /^Admin token: (\S+)$/m.exec(issued.stdout)?.[1];
    expect(adminToken, issued.stderr).toBeDefined();
    const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
    // On a server another process runs beside it all along; on PGlite the next process starts after it.
    const other = onServer() ? await start() : null;
    // Reading the clock takes an account key (the admin token moves it): one from the admin API, asked with no body.
    const keyRes = await fetch(`${dying.url}/admin/accounts/operator/keys`, {
      method: 'POST',
      headers: { authorization: admin.authorization },
    });
    expect(keyRes.status).toBe(201);
    const reader = { authorization: `Token ${((await json(keyRes)).data as { key: string }).key}` };
    const before = (await json(await fetch(`${dying.url}/sandbox/clock`, { headers: reader }))) as { world_time: string };
    const advance = fetch(`${dying.url}/sandbox/clock/advance`, { method: 'POST', headers: admin, body: JSON.stringify({ days: 2 }) });
    await expect(advance).rejects.toThrow(); // the connection dies with the process
    expect(await dying.stop()).toBeNull(); // already gone: killed by its own SIGKILL after the first step
    expect(dying.output()).toContain('TIDEMARK_TEST_CRASH_AT=sandbox-advance-step');

    const survivor = other ?? (await start());
    const read = async () => (await json(await fetch(`${survivor.url}/sandbox/clock`, { headers: reader }))) as Record<string, unknown>;
    // On a server the dead process's backend notices the closed socket and ends, releasing the lock, a few
    // milliseconds after the process is gone: asked in a loop, it must be free within 5 s (it was 15 minutes).
    const clock = await until(
      'the dead process’s advance no longer in progress',
      5000,
      async () => {
        const c = await read();
        return c.advancing ? null : c;
      },
      50,
    );
    const at = (hours: number) => `${new Date(Date.parse(before.world_time) + hours * 3600_000).toISOString().slice(0, 19)}Z`;
    expect(clock).toMatchObject({ advancing: false, target_at: at(48), reached_at: at(6) });

    const next = await fetch(`${survivor.url}/sandbox/clock/advance`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ hours: 1 }),
    });
    expect(next.status, await next.clone().text()).toBe(200);
    expect((await json(next)).world_time).toBe(at(7));
    const after = await json(await fetch(`${survivor.url}/sandbox/clock`, { headers: reader }));
    expect(after).toMatchObject({ world_time: at(7), advancing: false, target_at: null, reached_at: null });
    await survivor.stop();
  });
});
