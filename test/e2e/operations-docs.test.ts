// Every command of docs/operations.md, run as written: the ```sh blocks line by line and the commands quoted in its
// prose, through bash, against a real `tidemark start` (curl) or the CLI (the server stopped, as PGlite needs).
// Each command is listed below with when it runs; one that cannot run in CI says why. A command added to the page
// without a line here fails the first test, and a line here whose command left the page fails it too.
import { readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runProcess, type Server, startServer, TEST_SECRET_KEY } from '../kit/cli.js';
import { freshDatabase, onServer, type TestDatabase } from '../kit/databases.js';

const ROOT = resolve(import.meta.dirname, '../..');
const PAGE = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');

type Db = 'both' | 'pglite' | 'server';
type Entry =
  /** Run while `tidemark start` serves (curl to the admin API…), checked by `expect` on its output. */
  | { phase: 'running'; db?: Db; expect: RegExp }
  /** Run with the server stopped (the CLI opens the data directory or the database), in page order, one shell. */
  | { phase: 'stopped'; db?: Db; expect: RegExp }
  /** `tidemark start` itself: the server every curl command talks to. */
  | { phase: 'start' }
  /** A command quoted in prose that the page's blocks spell out in full: these lines run it. */
  | { runBy: string[] }
  | { notRunnable: string };

const COMMANDS: Record<string, Entry> = {
  'tidemark start': { phase: 'start' },
  'npm start': {
    notRunnable:
      'runs `tidemark start` on ./data of the working copy (package.json), which the tests must not touch; `tidemark start` itself runs here on a temporary data directory',
  },
  'openssl rand -base64 32': { phase: 'stopped', expect: /^[A-Za-z0-9+/]{43}=$/m },
  // Deploying with containers: CI has no container engine and cannot pull a base image. test/deploy/static.test.ts
  // checks the Dockerfile and compose.yaml statically; test/e2e/topology.test.ts runs compose.yaml's services as processes.
  'docker build -t tidemark:local .': { notRunnable: 'needs a container engine and the base image, which CI has neither of' },
  'docker run -d -p 8080:8080 -v tidemark-data:/data tidemark:local    # a one-container trial on PGlite, all roles': {
    notRunnable: 'needs a container engine; `tidemark start` itself runs here',
  },
  "docker run --rm tidemark:local secret-key new                       # any command: the image's entrypoint is `tidemark`": {
    notRunnable: 'needs a container engine; `tidemark secret-key new` itself runs here',
  },
  'cp deploy/env.example .env        # fill in every value; .env is git-ignored': {
    notRunnable:
      "writes the operator's .env into the working copy; test/deploy/static.test.ts checks that deploy/env.example lists every variable compose.yaml requires",
  },
  'docker compose up -d --build': {
    notRunnable: 'needs a container engine; test/e2e/topology.test.ts runs the same services as processes',
  },
  "docker compose logs api-1 api-2 | grep 'API key:'   # the first start's key, printed once by one of them": {
    notRunnable: 'needs a container engine; test/e2e/topology.test.ts checks that exactly one API process prints the key',
  },
  'npm ci': { notRunnable: "a step of the image's build stage (Dockerfile); CI's own install runs it" },
  'npm prune --omit=dev': { notRunnable: "a step of the image's build stage (Dockerfile), which CI does not build" },
  'node deploy/healthcheck.mjs': {
    notRunnable: "the image's health check, reading the container's PORT; test/e2e/topology.test.ts runs it against an API process",
  },
  'tidemark migrate': { phase: 'stopped', expect: /Database is up to date/ },
  // The first-account mark (never gated by the API trial): the operator's account holds it from the first start.
  'tidemark accounts list': { phase: 'stopped', expect: /^operator\b.*first account$/m },
  'tidemark accounts update NAME --first-account': {
    notRunnable: 'NAME stands for an account of yours; test/e2e/cli.test.ts moves the mark with this command and checks accounts list',
  },
  // Moving from PGlite to PostgreSQL: a PGlite data directory and a server at once, which neither pass here has.
  'tidemark db copy': {
    notRunnable: 'needs a data directory and a PostgreSQL server; test/e2e/db-copy.test.ts runs it on the PostgreSQL pass',
  },
  'createdb -h db.internal -U postgres tidemark': {
    notRunnable:
      "names the operator's server; test/e2e/db-copy.test.ts creates its target the same way (CREATE DATABASE) on the PostgreSQL pass",
  },
  'tidemark db copy --data-dir ./data --to postgres://postgres@db.internal:5432/tidemark': {
    notRunnable:
      "names the operator's server; test/e2e/db-copy.test.ts runs the copy from a data directory to the PostgreSQL pass's server",
  },
  'tidemark secret-key export --data-dir ./data': {
    runBy: [
      "tidemark secret-key export     # prints the key sealed values open with (the database's from an earlier version, else the key file)",
    ],
  },

  'tidemark rederive': { phase: 'stopped', expect: /nothing to do|Re-derived/ },
  'tidemark secret-key new        # prints a new random key (32 bytes, base64); touches nothing': {
    phase: 'stopped',
    expect: /^[A-Za-z0-9+/]{43}=$/m,
  },
  'tidemark secret-key new': { phase: 'stopped', expect: /^[A-Za-z0-9+/]{43}=$/m },
  "tidemark secret-key export     # prints the key sealed values open with (the database's from an earlier version, else the key file)": {
    // On a server the key is TIDEMARK_SECRET_KEY and the database holds none unless an earlier version put it there
    // (src/services/keyring.test.ts covers that upgrade); there the command says there is nothing to export.
    phase: 'stopped',
    db: 'pglite',
    expect: /^[A-Za-z0-9+/]{43}=$/m,
  },
  'NEW_KEY=$(tidemark secret-key new)': { phase: 'stopped', expect: /^$/ },
  'tidemark secret-key reseal': {
    runBy: [
      'TIDEMARK_SECRET_KEY=$NEW_KEY tidemark secret-key reseal   # PGlite with the key file: the file then holds NEW_KEY',
      'TIDEMARK_OLD_SECRET_KEY=$TIDEMARK_SECRET_KEY TIDEMARK_SECRET_KEY=$NEW_KEY tidemark secret-key reseal   # with TIDEMARK_SECRET_KEY set',
    ],
  },
  'TIDEMARK_SECRET_KEY=$NEW_KEY tidemark secret-key reseal   # PGlite with the key file: the file then holds NEW_KEY': {
    phase: 'stopped',
    db: 'pglite',
    expect: /Re-sealed [1-9]\d* secrets? with the new key/,
  },
  'TIDEMARK_OLD_SECRET_KEY=$TIDEMARK_SECRET_KEY TIDEMARK_SECRET_KEY=$NEW_KEY tidemark secret-key reseal   # with TIDEMARK_SECRET_KEY set': {
    phase: 'stopped',
    db: 'server',
    expect: /Re-sealed [1-9]\d* secrets? with the new key/,
  },
  'tidemark admin-token new                               # a new admin token; the stored one stops working': {
    phase: 'stopped',
    expect: /^Admin token: tma_\S+$/m,
  },
  "tidemark owner-link new                                # a new owner setup link for the operator's account (7 days, once)": {
    phase: 'stopped',
    expect: /^Owner setup \(operator\): http\S+\/setup\/\S+$/m,
  },
  'tidemark keys create --account operator --name recovered   # a new API key': { phase: 'stopped', expect: /^tm_\S+$/m },
  'curl -H "Authorization: Bearer $ADMIN" -H \'Content-Type: application/json\' -d \'{"name":"acme","plan":"unlimited"}\' http://127.0.0.1:8080/admin/accounts':
    { phase: 'running', expect: /"name":"acme".*"plan":"unlimited"/ },
  'curl -X POST -H "Authorization: Bearer $ADMIN" http://127.0.0.1:8080/admin/accounts/acme/keys': {
    phase: 'running',
    expect: /"key":"tm_/,
  },
};

/** The page's commands: each line of its ```sh blocks (continuations joined), then commands quoted in its prose. */
function documentedCommands(page: string): string[] {
  const out: string[] = [];
  for (const block of page.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const joined = block[1]!.replace(/\\\n\s*/g, '');
    for (const line of joined.split('\n')) {
      const command = line.trim();
      if (command && !command.startsWith('#')) out.push(command);
    }
  }
  const prose = page.replace(/```[\s\S]*?```/g, '');
  for (const span of prose.matchAll(/`((?:tidemark|curl|npm|npx|openssl|node) [^`]*)`/g)) out.push(span[1]!);
  return [...new Set(out)];
}

/** Runs a bash script to its end; the exit code is returned, never thrown. */
const bash = (script: string, cwd: string, env: NodeJS.ProcessEnv) => runProcess(['-c', script], { cwd, env, command: 'bash' });

const mode: Db = onServer() ? 'server' : 'pglite';
const runsHere = (e: Entry) => 'phase' in e && ('db' in e ? (e.db ?? 'both') : 'both') !== (mode === 'server' ? 'pglite' : 'server');

describe('docs/operations.md', () => {
  const commands = documentedCommands(PAGE);

  it('lists every command of the page here, each run below or said not to be runnable in CI and why', () => {
    expect(commands.filter((c) => !(c in COMMANDS))).toEqual([]);
    expect(Object.keys(COMMANDS).filter((c) => !commands.includes(c))).toEqual([]);
    for (const [command, entry] of Object.entries(COMMANDS)) {
      if ('runBy' in entry) for (const by of entry.runBy) expect(COMMANDS[by], `${command} is run by ${by}`).toHaveProperty('phase');
    }
  });

  let dir: string | null = null;
  let database: TestDatabase | null = null;
  let server: Server | null = null;
  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) await server.stop('SIGKILL');
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs every command as written, and what they did holds after a restart', { timeout: 500_000 }, async () => {
    dir = mkdtempSync(join(tmpdir(), 'tidemark-operations-'));
    let env: Record<string, string>;
    if (mode === 'server') {
      database = await freshDatabase();
      env = { DATABASE_URL: database.url!, TIDEMARK_SECRET_KEY: TEST_SECRET_KEY };
      // A server without TIDEMARK_SECRET_KEY refuses to start, saying how to get one.
      const refused = await runProcess(['--import', 'tsx', join(ROOT, 'src/main.ts'), 'start', '--port', '0'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: database.url! },
      });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/TIDEMARK_SECRET_KEY: is required with DATABASE_URL.*`tidemark secret-key new`/);
    } else {
      env = { TIDEMARK_DATA_DIR: join(dir, 'data') };
    }
    const shell = (script: string, extra: Record<string, string> = {}) =>
      bash(script, ROOT, { PATH: process.env.PATH, HOME: process.env.HOME, TIDEMARK_LOG_LEVEL: 'warn', ...env, ...extra });
    // bash runs `tidemark` from source; curl fails on an HTTP error (the 422 of a documented example was a bug).
    const prelude = [
      `tidemark() { node --import tsx ${join(ROOT, 'src/main.ts')} "$@"; }`,
      'curl() { command curl --fail-with-body -sS "$@"; echo; }',
    ].join('\n');
    const run = (phase: 'running' | 'stopped') =>
      commands.filter((c) => {
        const e = COMMANDS[c]!;
        return 'phase' in e && e.phase === phase && runsHere(e);
      });

    // `tidemark start`: the first start prints the admin token and an API key.
    server = await startServer([], env, 180_000);
    const admin = server.adminToken!;
    const apiKey = server.apiKey!;
    expect(admin).toMatch(/^tma_/);
    // A webhook whose signing secret the re-seal below must carry over.
    const created = await fetch(`${server.url}/v2/webhooks`, {
      method: 'POST',
      headers: { authorization: `Token ${apiKey}`, 'content-type': 'application/vnd.api+json' },
      body: JSON.stringify({
        data: { type: 'webhook', attributes: { url: 'https://93.184.216.34/hooks', events: ['container.updated'] } },
      }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const hook = ((await created.json()) as { data: { id: string; attributes: { secret: string } } }).data;

    for (const command of run('running')) {
      const result = await shell(`${prelude}\n${command.replaceAll('http://127.0.0.1:8080', server.url!)}`, { ADMIN: admin });
      expect(result.code, `${command}\n${result.stdout}${result.stderr}`).toBe(0);
      expect(result.stdout, command).toMatch((COMMANDS[command] as { expect: RegExp }).expect);
    }
    await server.stop();

    // The CLI's commands, in page order, in one shell (a variable set by one is used by the next).
    const stopped = run('stopped');
    const script = [prelude, ...stopped.flatMap((c, i) => [`echo "@@@ ${i}"`, c, `echo "@@@ rc=$?"`]), 'echo "@@@ NEW_KEY=$NEW_KEY"'].join(
      '\n',
    );
    const result = await shell(script);
    const sections = result.stdout.split(/^@@@ \d+$/m).slice(1);
    expect(sections, result.stderr).toHaveLength(stopped.length);
    const outputs = new Map<string, string>();
    stopped.forEach((command, i) => {
      const [output, rc] = sections[i]!.split(/^@@@ rc=/m) as [string, string];
      expect(rc.trim().split('\n')[0], `${command}\n${output}\n${result.stderr}`).toBe('0');
      expect(output.trim(), command).toMatch((COMMANDS[command] as { expect: RegExp }).expect);
      outputs.set(command, output);
    });
    const newKey = /^@@@ NEW_KEY=(\S+)$/m.exec(result.stdout)?.[1];
    expect(newKey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const find = (prefix: string) => [...outputs].find(([c]) => c.startsWith(prefix))![1];

    // Started again (with the new key on a server; on PGlite the key file holds it): the recovered admin token, the
    // new key and the owner link work, and the webhook's secret opens with the re-sealed value.
    server = await startServer([], mode === 'server' ? { ...env, TIDEMARK_SECRET_KEY: newKey! } : env, 180_000);
    const newAdmin = /^Admin token: (\S+)$/m.exec(find('tidemark admin-token new'))![1];
    expect((await fetch(`${server.url}/admin/accounts`, { headers: { authorization: `Bearer ${newAdmin}` } })).status).toBe(200);
    expect((await fetch(`${server.url}/admin/accounts`, { headers: { authorization: `Bearer ${admin}` } })).status).toBe(401);
    const recoveredKey = /^(tm_\S+)$/m.exec(find('tidemark keys create'))![1];
    const read = await fetch(`${server.url}/v2/webhooks/${hook.id}`, { headers: { authorization: `Token ${recoveredKey}` } });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { data: { attributes: { secret: string } } }).data.attributes.secret).toBe(hook.attributes.secret);
    const setupToken = /\/setup\/(\S+)$/m.exec(find('tidemark owner-link new'))![1];
    expect(await (await fetch(`${server.url}/auth/tokens/${setupToken}`)).json()).toMatchObject({ kind: 'owner_setup' });
    await server.stop();
  });
});
