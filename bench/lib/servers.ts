// Processes a benchmark measures: `tidemark start` with roles (from test/kit/cli.ts), and the bare baseline.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { createServer as createNetServer, type AddressInfo } from 'node:net';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = resolve(ROOT, 'src/main.ts');

/** A Tidemark process the bench started. */
/** TIDEMARK_SECRET_KEY of the benchmarks' processes and seeding on a server (32 bytes, base64). */
export const BENCH_SECRET_KEY = 'dGlkZW1hcmsgYmVuY2ggc2VjcmV0IGtleSAzMiBieXQ=';

export interface Tidemark {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** A free loopback port (the OS picks it; the socket is closed before the server takes it). */
async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

/**
 * `tidemark start --roles <roles>` (from source) on a PostgreSQL database or an embedded data directory, with
 * an HTTP role, resolved once /healthz answers. Logging is at `warn`: request logs would measure the log pipe.
 */
export async function startTidemark(
  where: { databaseUrl: string } | { dataDir: string },
  roles = 'api',
  env: Record<string, string> = {},
): Promise<Tidemark> {
  const port = await freePort();
  // TIDEMARK_BENCH_PROFILE=<dir>: each Tidemark process writes a CPU profile there when it stops.
  const profile = process.env.TIDEMARK_BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.TIDEMARK_BENCH_PROFILE}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', MAIN, 'start', '--roles', roles, '--port', String(port)], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      // A server requires TIDEMARK_SECRET_KEY (the key sealing secrets stays out of the database); `env` may set its own.
      ...('databaseUrl' in where
        ? { DATABASE_URL: where.databaseUrl, TIDEMARK_SECRET_KEY: BENCH_SECRET_KEY }
        : { TIDEMARK_DATA_DIR: where.dataDir }),
      TIDEMARK_LOG_LEVEL: 'warn',
      TIDEMARK_SANDBOX: 'off',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`tidemark exited with ${child.exitCode}: ${stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`tidemark did not answer /healthz in 120 s: ${stderr}`);
    }
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The bare node:http server answering each path with these bytes; resolves with its origin. */
export async function startBare(
  responses: Record<string, { body: string; type: string }>,
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const file = resolve(tmpdir(), `tidemark-bench-bare-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(responses));
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, 'bare-server.ts'), file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((done, fail) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /listening (\d+)/.exec(String(d));
      if (m) done(Number(m[1]));
    });
    child.on('exit', (code) => fail(new Error(`bare server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () =>
      new Promise((done) => {
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/** The document cache's hit and miss counts of a running Tidemark (its /metrics). */
export async function documentCacheCounts(origin: string): Promise<{ hits: number; misses: number }> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  return { hits: value('tidemark_document_cache_hits'), misses: value('tidemark_document_cache_misses') };
}

/** Share of the requests between two readings answered from kept documents. */
export function hitRatio(before: { hits: number; misses: number }, after: { hits: number; misses: number }): number {
  const hits = after.hits - before.hits;
  const total = hits + after.misses - before.misses;
  return total > 0 ? hits / total : 0;
}

/** Resident set size of a process, in MiB (Linux /proc). */
export function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

/** GETs each path once and keeps the exact bytes (and checks every answer is a 200). */
export async function fetchAll(
  origin: string,
  paths: string[],
  headers: Record<string, string>,
): Promise<Record<string, { body: string; type: string }>> {
  const out: Record<string, { body: string; type: string }> = {};
  for (const path of paths) {
    const res = await fetch(origin + path, { headers });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${body.slice(0, 300)}`);
    out[path] = { body, type: res.headers.get('content-type') ?? 'application/json' };
  }
  return out;
}
