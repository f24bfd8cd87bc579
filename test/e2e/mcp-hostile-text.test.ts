// The MCP tools' text inputs, through an in-process client: text PostgreSQL cannot store (NUL, unpaired surrogates)
// is a tool error naming the argument, before any tool runs; hostile text never makes a tool answer with database
// error text; and a tool that fails inside (the database gone) says so without the internal error's text.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '../../src/domain/account.js';
import { makeContainerNumber } from '../../src/domain/container-number.js';
import { TidemarkError } from '../../src/domain/errors.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { failureOf } from '../../src/mcp/results.js';
import { type TestApp, testApp } from '../kit/app.js';
import { onServer } from '../kit/databases.js';
import { seedShipment } from '../kit/seed.js';

const RUNS = Number(process.env.TIDEMARK_FUZZ_RUNS ? Number(process.env.TIDEMARK_FUZZ_RUNS) / 5 : onServer() ? 150 : 400);
const SEED = Number(process.env.TIDEMARK_FUZZ_SEED ?? 25);
const DATABASE_TEXT =
  /syntax error|invalid byte sequence|violates .* constraint|relation "|column "|duplicate key|pglite|postgres|sqlstate|closed|pool/i;

let t: TestApp;
let account: Account;
let containerId: string;
const logged: { msg: string; tool?: string; err?: { message?: string } }[] = [];
const log = pino({ level: 'error' }, { write: (line: string) => void logged.push(JSON.parse(line)) });

async function client(app: TestApp, who: Account, requestId = 'req-test-1'): Promise<Client> {
  const server = createMcpServer({ deps: app.services, account: who, request: { id: requestId, log } });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const c = new Client({ name: 'hostile-text', version: '1.0.0' });
  await c.connect(b);
  return c;
}

const call = async (c: Client, name: string, args: Record<string, unknown>) =>
  (await c.callTool({ name, arguments: args })) as CallToolResult;
const textOf = (r: CallToolResult) => r.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');

beforeAll(async () => {
  t = await testApp();
  ({ account } = await t.account({ name: 'mcp-hostile', features: ['routing'] }));
  const seeded = await seedShipment(t, account.id, { bl: 'MAEUMCP00001', containers: [{ number: makeContainerNumber('MSCU', 880001) }] });
  containerId = seeded.containerIds[0]!;
});
afterAll(() => t.close());

describe('text that cannot be stored, in any tool argument', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['search_container', { query: 'MAEU\u0000' }, 'query'],
    ['search_container', { query: 'MAEU\ud800' }, 'query'],
    ['track_container', { number: 'MSCU8800010\u0000' }, 'number'],
    ['track_container', { number: 'MAEUMCP00002', scac: 'MA\u0000EU' }, 'scac'],
    ['track_container', { number: 'MAEUMCP00002', refNumbers: ['ok', 'PO\udc00'] }, 'refNumbers[1]'],
    ['get_supported_shipping_lines', { search: '\u0000' }, 'search'],
    ['list_shipments', { number: 'MAEU\u0000' }, 'number'],
    ['list_containers', { status: '\u0000' }, 'status'],
    ['get_container', { id: `${'0'.repeat(8)}-0000-0000-0000-00000000000\u0000` }, 'id'],
  ];
  it.each(cases)('%s %j is a tool error naming %s', async (tool, args, name) => {
    const c = await client(t, account);
    const before = await t.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM tracking_requests');
    const result = await call(c, tool, args);
    expect(result.isError).toBe(true);
    const text = textOf(result);
    // An argument the tool's schema refuses anyway (a malformed id) may be refused by the SDK's validation first.
    if (!/Input validation error/.test(text)) {
      expect(text).toContain(`${name} contains`);
      expect(text).toMatch(/cannot be stored/);
    }
    expect(text).not.toMatch(DATABASE_TEXT);
    expect(await t.services.db.query('SELECT count(*)::int AS n FROM tracking_requests')).toEqual(before);
    await c.close();
  });
});

describe('fuzz: hostile text in every string argument of every tool', () => {
  it(
    `never answers database error text, and refuses what cannot be stored (${RUNS} calls, seed ${SEED})`,
    async () => {
      const c = await client(t, account);
      const tools = (await c.listTools()).tools;
      expect(tools.length).toBeGreaterThanOrEqual(10);
      const hostile = fc.oneof(
        fc.constantFrom(
          '\u0000',
          'a\u0000b',
          '\ud800',
          'x\udfffy',
          "' OR 1=1 --",
          '%',
          '😀',
          '',
          ' ',
          containerId,
          'MAEUMCP00001',
          'A'.repeat(300),
        ),
        fc.string({ unit: 'binary', maxLength: 20 }),
        fc.string({ maxLength: 20 }),
      );
      const argsFor = (tool: Tool) => {
        const props = (tool.inputSchema.properties ?? {}) as Record<string, { type?: string; items?: { type?: string } }>;
        const entries = Object.entries(props).map(([name, p]) => {
          const value: fc.Arbitrary<unknown> =
            p.type === 'array'
              ? fc.array(hostile, { maxLength: 3 })
              : p.type === 'string' || p.type === undefined
                ? hostile
                : fc.oneof(fc.integer({ min: -1, max: 200 }), hostile);
          return [name, value] as const;
        });
        return fc.record(Object.fromEntries(entries), { requiredKeys: [] });
      };
      const call$ = fc.constantFrom(...tools).chain((tool) => argsFor(tool).map((args) => ({ tool: tool.name, args })));
      await fc.assert(
        fc.asyncProperty(call$, async ({ tool, args }) => {
          t.clock.advance(2000);
          const result = await call(c, tool, args as Record<string, unknown>);
          const text = textOf(result);
          expect(text, `${tool} ${JSON.stringify(args)}`).not.toMatch(/Error: |at .*\.ts:\d+|PGlite|DatabaseError/);
          if (result.isError) expect(text, `${tool} ${JSON.stringify(args)}`).not.toMatch(DATABASE_TEXT);
          // JSON.stringify escapes NUL and unpaired surrogates only (a pair is written as it is).
          const unstorable = /\\u0000|\\ud[89a-f][0-9a-f]{2}/.test(JSON.stringify(args));
          if (unstorable) expect(result.isError, `${tool} ${JSON.stringify(args)}: ${text}`).toBe(true);
        }),
        { seed: SEED, numRuns: RUNS },
      );
      await c.close();
    },
    Math.max(120_000, RUNS * 100),
  );
});

describe('a tool that fails inside', () => {
  it('answers without the internal error text, and logs it with the request id', async () => {
    const broken = await testApp();
    try {
      const { account: who } = await broken.account({ name: 'mcp-broken' });
      const c = await client(broken, who, 'req-broken-7');
      // The database goes away under the running server.
      await broken.database.db.close();
      logged.length = 0;
      const result = await call(c, 'search_container', { query: 'MAEU' });
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).toMatch(/^search_container failed inside Tidemark \(request id req-broken-7\)|^Tidemark cannot answer right now/);
      expect(text).not.toMatch(DATABASE_TEXT);
      const entry = logged.find((l) => l.tool === 'search_container');
      if (!/cannot answer right now/.test(text)) {
        expect(text).toContain('request id req-broken-7');
        expect(entry?.msg).toBe('MCP tool failed');
        expect(entry?.err?.message).toBeTruthy();
        expect(text).not.toContain(entry!.err!.message!);
      }
      await c.close();
    } finally {
      await broken.close().catch(() => undefined);
    }
  });

  it('failureOf: client-facing TidemarkErrors keep their words; anything else says only that it failed', () => {
    const request = { id: 'req-9', log };
    logged.length = 0;
    const pgError = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
    const internal = textOf(failureOf(pgError, 'search_container', { request }));
    expect(internal).toBe(
      'search_container failed inside Tidemark (request id req-9); the error is logged for the operator. Try again later.',
    );
    expect(logged[0]).toMatchObject({ msg: 'MCP tool failed', tool: 'search_container', err: { message: pgError.message } });
    expect(textOf(failureOf(new TidemarkError('internal', 'pool exhausted'), 'get_container', { request }))).not.toContain('pool');
    expect(textOf(failureOf(new TidemarkError('conflict', 'Already stopped'), 'get_container', { request }))).toBe('Already stopped');
    expect(
      textOf(failureOf(new TidemarkError('unavailable', 'db down: ECONNRESET', { retryAfterSeconds: 5 }), 'get_container', { request })),
    ).toBe('Tidemark cannot answer right now — wait 5 s and call get_container again.');
  });
});
