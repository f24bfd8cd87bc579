// Runs the real `tidemark` command (from source, through tsx) in child processes.
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

/** The tests' TIDEMARK_SECRET_KEY for processes on a server (the same as test apps'). */
export const TEST_SECRET_KEY = 'dGlkZW1hcmsgdGVzdCBzZWNyZXQga2V5IDMyIGJ5dGU=';

const MAIN = resolve(import.meta.dirname, '../../src/main.ts');
const ROOT = resolve(import.meta.dirname, '../..');

/** A clean environment: no TIDEMARK_* or DATABASE_URL of the developer's leaks into the child. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const k of ['PATH', 'HOME', 'TMPDIR', 'LANG']) if (process.env[k]) base[k] = process.env[k];
  // A server requires TIDEMARK_SECRET_KEY: processes on one get the tests' key unless the test says otherwise.
  const key = env.DATABASE_URL && !('TIDEMARK_SECRET_KEY' in env) ? { TIDEMARK_SECRET_KEY: TEST_SECRET_KEY } : {};
  return { ...base, TIDEMARK_LOG_LEVEL: 'info', ...key, ...env };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function tidemark(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runProcess(['--import', 'tsx', MAIN, ...args], { cwd: ROOT, env: childEnv(env) });
}

/** Runs `node <args>` (or `command <args>`) to its end, collecting its output; the exit code is returned, never thrown. */
export function runProcess(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; command?: string }): Promise<CliResult> {
  return new Promise((done, fail) => {
    const child = spawn(options.command ?? process.execPath, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

export interface Server {
  child: ChildProcess;
  /** Null for a process without the api role. */
  url: string | null;
  apiKey: string | null;
  adminToken: string | null;
  output(): string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `tidemark start` on a free port and resolves once it listens (and printed its first-start lines). */
export function startServer(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<Server> {
  return new Promise((ready, fail) => {
    // TIDEMARK_BENCH_PROFILE=<dir> (benchmarks start workers through here): the process writes a CPU profile there.
    const dir = process.env.TIDEMARK_BENCH_PROFILE;
    const profile = dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
    const child = spawn(process.execPath, [...profile, '--import', 'tsx', MAIN, 'start', '--port', '0', ...args], {
      cwd: ROOT,
      env: childEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`server did not start in ${timeoutMs} ms:\n${out}\n${err}`));
    }, timeoutMs);
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.includes('"msg":"tidemark started"'));
      if (!line) return;
      const started = JSON.parse(line) as { address: string | null };
      clearTimeout(timer);
      ready({
        child,
        url: started.address,
        apiKey: /^API key: (\S+)$/m.exec(out)?.[1] ?? null,
        adminToken: /^Admin token: (\S+)$/m.exec(out)?.[1] ?? null,
        output: () => out + err,
        async stop(signal = 'SIGTERM') {
          child.kill(signal);
          return exited;
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`server exited with ${code} before it started:\n${out}\n${err}`));
    });
  });
}

/** One call to a started server's API: JSON in and out (an empty answer reads as `{}`). */
export async function callServer(server: Server, headers: Record<string, string>, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}
