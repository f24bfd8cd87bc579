// The real Caddy in front of the test's API processes (test/e2e/topology.test.ts): Debian's `caddy` package, run
// with a Caddyfile derived from deploy/Caddyfile itself, so that the proxy the smoke runs cannot drift from the one
// compose.yaml mounts. The derivation keeps the file's site block and every reverse_proxy option as written; it
// only swaps the upstreams (compose service names → the processes' loopback addresses) and puts a global options
// block of the test's in front: no admin endpoint, loopback only, certificates from Caddy's own local CA (never
// installed into the machine's trust store), no HTTP→HTTPS redirect listener on port 80. The site address stays
// `{$TIDEMARK_DOMAIN}`, which Caddy reads from its environment, as the compose proxy service does.
//
// Without `caddy` on the PATH the smoke is skipped with a printed reason; under TIDEMARK_REQUIRE_CADDY=1 (which
// .ci/run sets, after installing the package when it is missing) the file fails instead.
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { delimiter, join, resolve } from 'node:path';
import { runProcess } from '../kit/cli.js';
import { until } from '../kit/wait.js';
import { ROOT } from './compose.js';

export const CADDYFILE = resolve(ROOT, 'deploy/Caddyfile');

/** TIDEMARK_REQUIRE_CADDY=1: a missing `caddy` fails the smoke instead of skipping it. */
export const REQUIRE_CADDY = process.env.TIDEMARK_REQUIRE_CADDY === '1';

/** The `caddy` executable on the PATH, or null. */
export function caddyOnPath(): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, 'caddy');
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * Whether the proxy can run: `{ skip: false }` when `caddy` is on the PATH. Otherwise, under
 * TIDEMARK_REQUIRE_CADDY=1 it throws (the file fails with the reason); else it prints the reason and answers
 * `{ skip: true }` for `describe.skipIf`.
 */
export function caddyOrSkip(): { skip: boolean; reason: string | null } {
  if (caddyOnPath()) return { skip: false, reason: null };
  const reason = 'caddy is not on the PATH (install it with `sudo apt-get install -y caddy`)';
  if (REQUIRE_CADDY) throw new Error(`The TLS proxy smoke cannot run, and TIDEMARK_REQUIRE_CADDY=1 requires it: ${reason}`);
  console.warn(`[topology smoke skipped] ${reason}. Set TIDEMARK_REQUIRE_CADDY=1 to make this a failure.`);
  return { skip: true, reason };
}

/** What the test puts before deploy/Caddyfile's own blocks (it has no global options block of its own). */
const TEST_GLOBAL_OPTIONS = `{
	# The test's, not deploy/Caddyfile's: no admin endpoint; listeners on loopback only; certificates from Caddy's
	# local CA, which is not installed into the machine's trust store; no redirect listener on port 80.
	admin off
	default_bind 127.0.0.1
	local_certs
	skip_install_trust
	auto_https disable_redirects
}

`;

/**
 * deploy/Caddyfile as the test runs it: every upstream of its one `reverse_proxy` line, a compose service's
 * `name:port`, replaced by that service's address in `upstreams` (an upstream not in the map throws, as does a
 * file whose shape this derivation does not know: a global options block, no or several `reverse_proxy` lines).
 */
export function testCaddyfile(source: string, upstreams: Record<string, string>): string {
  const code = source.split('\n').filter((l) => !/^\s*(#|$)/.test(l));
  if (code[0]?.trim() === '{')
    throw new Error('deploy/Caddyfile has a global options block: merge it with the test’s (test/deploy/caddy.ts)');
  const lines = [...source.matchAll(/^(\s*reverse_proxy\s+)([^{\n]+?)(\s*\{)$/gm)];
  if (lines.length !== 1) throw new Error(`expected one \`reverse_proxy <upstreams> {\` line in deploy/Caddyfile, found ${lines.length}`);
  const [whole, head, list, tail] = lines[0]!;
  const swapped = list!.split(/\s+/).map((u) => {
    const to = upstreams[u];
    if (!to)
      throw new Error(`deploy/Caddyfile proxies to ${u}, which the test does not run (it runs ${Object.keys(upstreams).join(', ')})`);
    return to;
  });
  return TEST_GLOBAL_OPTIONS + source.replace(whole, `${head}${swapped.join(' ')}${tail}`);
}

/** `caddy adapt` on a Caddyfile: its JSON config, or a thrown error with Caddy's own message. */
export async function adaptCaddyfile(file: string, env: Record<string, string>): Promise<CaddyConfig> {
  const res = await runProcess(['adapt', '--config', file, '--adapter', 'caddyfile'], {
    command: caddyOnPath() ?? 'caddy',
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
  });
  if (res.code !== 0) throw new Error(`caddy adapt ${file} failed (exit ${res.code}):\n${res.stderr}${res.stdout}`);
  return JSON.parse(res.stdout) as CaddyConfig;
}

/** The parts of Caddy's JSON config the test reads. */
export interface CaddyConfig {
  admin?: { disabled?: boolean };
  apps: { http: { servers: Record<string, { listen: string[]; routes: unknown[] }> } };
}

/** Every `reverse_proxy` handler in an adapted config (however deep in subroutes). */
export function reverseProxies(config: CaddyConfig): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      if ((v as { handler?: string }).handler === 'reverse_proxy') found.push(v as Record<string, unknown>);
      Object.values(v).forEach(walk);
    }
  };
  walk(config.apps.http.servers);
  return found;
}

export interface Caddy {
  child: ChildProcess;
  /** https://<address>, the site address the proxy answers on. */
  url: string;
  /** Caddy's local CA root (PEM), read from its data directory: what the clients trust. */
  rootCertificate: string;
  output(): string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * `caddy run` on `caddyfile` with its data and config directories under `dir` and TIDEMARK_DOMAIN = `address`
 * (host:port); resolves once the proxy answers `GET <probePath>` with 200 over HTTPS, trusting only its local root.
 */
export async function startCaddy(options: { caddyfile: string; address: string; dir: string; probePath: string }): Promise<Caddy> {
  const { caddyfile, address, dir } = options;
  mkdirSync(dir, { recursive: true });
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    XDG_DATA_HOME: join(dir, 'data'),
    XDG_CONFIG_HOME: join(dir, 'config'),
    TIDEMARK_DOMAIN: address,
  };
  const child = spawn(caddyOnPath() ?? 'caddy', ['run', '--config', caddyfile, '--adapter', 'caddyfile'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((r) =>
    child.on('exit', (code) => {
      exitCode = code;
      r(code);
    }),
  );
  const url = `https://${address}`;
  const root = join(env.XDG_DATA_HOME, 'caddy/pki/authorities/local/root.crt');
  try {
    const rootCertificate = await until(
      () => `Caddy's local root certificate at ${root} (Caddy's output so far:\n${out})`,
      20_000,
      () => {
        if (exitCode !== undefined) throw new Error(`caddy exited with ${exitCode}:\n${out}`);
        return existsSync(root) && readFileSync(root, 'utf8');
      },
      100,
    );
    const client = httpsClient(rootCertificate);
    await until(
      () => `GET ${url}${options.probePath} answering 200 through the proxy (Caddy's output:\n${out})`,
      20_000,
      async () => {
        if (exitCode !== undefined) throw new Error(`caddy exited with ${exitCode}:\n${out}`);
        return (await client.call(url, {}, 'GET', options.probePath).catch(() => null))?.status === 200;
      },
      100,
    );
    return {
      child,
      url,
      rootCertificate,
      output: () => out,
      async stop(signal = 'SIGTERM') {
        if (exitCode === undefined) child.kill(signal);
        return exited;
      },
    };
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/**
 * A client over HTTPS that trusts `ca` alone (without it, the default roots; verification is never turned off) and connects from `localAddress`
 * (a loopback address other than the proxy's, so that the client's address can be told from the proxy's).
 */
export function httpsClient(ca: string | undefined, localAddress = '127.0.0.1') {
  const agent = new Agent({ ca, localAddress, keepAlive: false });
  return {
    /** One JSON call: JSON in and out (an empty answer reads as `{}`). */
    call(base: string, headers: Record<string, string>, method: string, path: string, body?: unknown): Promise<Answer> {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      return new Promise((done, fail) => {
        const req = request(
          new URL(path, base),
          {
            method,
            agent,
            headers: { ...headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
            timeout: 15_000,
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (d) => (text += d));
            res.on('end', () => {
              try {
                done({ status: res.statusCode!, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
              } catch {
                done({ status: res.statusCode!, headers: res.headers, body: { text } });
              }
            });
            res.on('error', fail);
          },
        );
        req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 15 s`)));
        req.on('error', fail);
        req.end(payload);
      });
    },
  };
}

/** Writes `text` to `dir/name` and answers the path. */
export function writeFile(dir: string, name: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}
