// The real service as users start it (one process, embedded PGlite, the sandbox on): a tracking request
// reaches `created` within seconds, and a SIGKILL right after requests were accepted loses none of them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Server, startServer } from '../kit/cli.js';
import { until } from '../kit/wait.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'tidemark-track-'));
  dirs.push(d);
  return d;
}

async function api(server: Server, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Token ${key}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return {
    status: res.status,
    body: (await res.json()) as { data: { id: string; attributes: Record<string, unknown> }; included?: unknown[] },
  };
}

const track = (server: Server, key: string, request_number: string, scac: string, request_type = 'bill_of_lading') =>
  api(server, key, 'POST', '/v2/tracking_requests', {
    data: { type: 'tracking_request', attributes: { request_type, request_number, scac } },
  });

async function waitForStatus(server: Server, key: string, id: string, done: (s: string) => boolean, timeoutMs: number) {
  const started = Date.now();
  let status = '';
  const res = await until(
    () => `request ${id} still ${status}`,
    timeoutMs,
    async () => {
      const res = await api(server, key, 'GET', `/v2/tracking_requests/${id}`);
      if (res.status !== 200) throw new Error(`GET ${id}: ${res.status} ${JSON.stringify(res.body)}`);
      status = res.body.data.attributes.status as string;
      return done(status) ? res : null;
    },
    250,
  );
  return { ...res, elapsedMs: Date.now() - started };
}

describe('tracking with the real service', () => {
  it('the succeeded example reaches created within 10 seconds, its shipment included', { timeout: 120_000 }, async () => {
    const server = await startServer(['--data-dir', dataDir()]);
    try {
      const key = server.apiKey!;
      const accepted = await track(server, key, 'MAEU240100001', 'MAEU');
      expect(accepted.status).toBe(201);
      expect(accepted.body.data.attributes.status).toBe('pending');
      const done = await waitForStatus(server, key, accepted.body.data.id, (s) => s !== 'pending', 10_000);
      expect(done.body.data.attributes.status).toBe('created');
      expect(done.elapsedMs).toBeLessThan(10_000);
      expect(done.body.included).toEqual([expect.objectContaining({ type: 'shipment' })]);
    } finally {
      await server.stop();
    }
  });

  it('a SIGKILL right after requests were accepted loses none of them', { timeout: 180_000 }, async () => {
    const dir = dataDir();
    const first = await startServer(['--data-dir', dir]);
    const key = first.apiKey!;
    const ids: string[] = [];
    for (const [number, scac, type] of [
      ['MEDU240200002', 'MSCU', 'bill_of_lading'],
      ['CMDU240300003', 'CMDU', 'bill_of_lading'],
      ['HLCU240400004', 'HLCU', 'bill_of_lading'],
      ['ZIMU241700017', 'ZIMU', 'bill_of_lading'],
    ] as const) {
      const res = await track(first, key, number, scac, type);
      expect(res.status).toBe(201);
      ids.push(res.body.data.id);
    }
    expect(await first.stop('SIGKILL')).toBeNull();

    const second = await startServer(['--data-dir', dir]);
    try {
      let statuses: Record<string, string> = {};
      await until(
        () => `every request created (now ${JSON.stringify(ids.map((id) => statuses[id]))})`,
        60_000,
        async () => {
          const res = await fetch(`${second.url}/v2/tracking_requests?page[size]=100`, { headers: { authorization: `Token ${key}` } });
          expect(res.status).toBe(200);
          const list = (await res.json()) as { data: { id: string; attributes: { status: string } }[] };
          statuses = Object.fromEntries(list.data.map((d) => [d.id, d.attributes.status]));
          return ids.every((id) => statuses[id] === 'created');
        },
        1000,
      );
    } finally {
      await second.stop();
    }
  });
});
