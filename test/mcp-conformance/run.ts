// Runs the MCP conformance suite (@modelcontextprotocol/conformance, from node_modules) against a Tidemark /mcp
// with an API key, checked against expected-failures.yml. The CLI cannot send headers, so it talks to a loopback
// proxy that adds `Authorization: Token <key>` (auth-proxy.ts). By hand, with a server running:
//
//   MCP_API_KEY=tm_… node --import tsx test/mcp-conformance/run.ts http://127.0.0.1:8080/mcp [conformance options]
//
// Options after the URL go to `conformance server` (e.g. `--scenario tools-list`, `--verbose`, `-o results`);
// the default is `--suite all`. The exit code is the CLI's: 0 when only the expected failures failed.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startAuthProxy } from './auth-proxy.js';

const ROOT = resolve(import.meta.dirname, '../..');
export const CONFORMANCE_BIN = resolve(ROOT, 'node_modules/.bin/conformance');
export const EXPECTED_FAILURES = resolve(import.meta.dirname, 'expected-failures.yml');
const NODE20_PRELOAD = resolve(import.meta.dirname, 'node20.mjs');

export interface ConformanceRun {
  code: number | null;
  /** stdout and stderr, interleaved as printed, colour codes included. */
  output: string;
}

/** Runs `conformance server --url <proxy for url> --expected-failures expected-failures.yml …args`. */
export async function runConformance(url: string, apiKey: string, args: string[] = ['--suite', 'all']): Promise<ConformanceRun> {
  const proxy = await startAuthProxy(url, `Token ${apiKey}`);
  try {
    return await new Promise<ConformanceRun>((done, fail) => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          pathToFileURL(NODE20_PRELOAD).href,
          CONFORMANCE_BIN,
          'server',
          '--url',
          proxy.url,
          '--expected-failures',
          EXPECTED_FAILURES,
          ...args,
        ],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      child.on('error', fail);
      child.on('close', (code) => done({ code, output }));
    });
  } finally {
    await proxy.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [url, ...args] = process.argv.slice(2);
  const key = process.env.MCP_API_KEY;
  if (!url || !key) {
    console.error('usage: MCP_API_KEY=<api key> node --import tsx test/mcp-conformance/run.ts <url of /mcp> [conformance server options]');
    process.exit(2);
  }
  const run = await runConformance(url, key, args.length > 0 ? args : undefined);
  process.stdout.write(run.output);
  process.exit(run.code ?? 1);
}
