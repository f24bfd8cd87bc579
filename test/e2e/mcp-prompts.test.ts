// The MCP prompts and resources with the official SDK's client: listing, each prompt, carrier completion,
// the container resource (and tenant isolation), the milestone glossary.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeContainerNumber } from '../../src/domain/container-number.js';
import { PICKUP_CHANGE_EVENT_NAMES, TRANSPORT_EVENT_NAMES } from '../../src/domain/events.js';
import { RESOURCE_NOT_FOUND } from '../../src/mcp/resources/container.js';
import { testApp, type TestApp } from '../kit/app.js';
import { seedShipment } from '../kit/seed.js';

let t: TestApp;
let base: string;
let client: Client;
let containerId: string;
let foreignId: string;
const BOX = makeContainerNumber('MSCU', 400004);

beforeAll(async () => {
  t = await testApp({ queue: true });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const a = await t.account({ name: 'mcp-prompts-a' });
  const seeded = await seedShipment(t, a.account.id, {
    bl: 'MEDUPR0001',
    pol: 'CNSHA',
    pod: 'USLAX',
    eta: '2026-03-10T08:00:00Z',
    containers: [{ number: BOX, snapshot: { current_status: 'on_ship' } as never }],
  });
  containerId = seeded.containerIds[0]!;
  const o = await t.account({ name: 'mcp-prompts-other' });
  foreignId = (await seedShipment(t, o.account.id, { bl: 'SECRETPR1', containers: [{ number: makeContainerNumber('CMAU', 500005) }] }))
    .containerIds[0]!;
  client = new Client({ name: 'tidemark-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Token ${a.token}` } } }),
  );
});
afterAll(async () => {
  await client?.close();
  await t.close();
});

function text(message: { content: unknown }): string {
  const content = message.content as { type: string; text: string };
  expect(content.type).toBe('text');
  return content.text;
}

async function mcpError(p: Promise<unknown>): Promise<McpError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  return err as McpError;
}

describe('capabilities and lists', () => {
  it('announces prompts, resources and completions', () => {
    const caps = client.getServerCapabilities();
    expect(caps?.prompts).toBeDefined();
    expect(caps?.resources).toBeDefined();
    expect(caps?.completions).toBeDefined();
    expect(caps?.tools).toBeDefined();
  });

  it('lists the three prompts with their arguments', async () => {
    const { prompts } = await client.listPrompts();
    const byName = Object.fromEntries(prompts.map((p) => [p.name, p]));
    expect(Object.keys(byName).sort()).toEqual(['analyze-delays', 'check-demurrage', 'track-shipment']);
    expect(byName['track-shipment']!.arguments).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'container_number', required: true }),
        expect.objectContaining({ name: 'carrier', required: false }),
      ]),
    );
    expect(byName['check-demurrage']!.arguments).toEqual([expect.objectContaining({ name: 'container_id', required: true })]);
    expect(byName['analyze-delays']!.arguments).toEqual([expect.objectContaining({ name: 'container_id', required: true })]);
  });

  it('lists the glossary and the container template', async () => {
    const { resources } = await client.listResources();
    expect(resources).toEqual([expect.objectContaining({ uri: 'tidemark://docs/milestone-glossary', mimeType: 'text/markdown' })]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: 'tidemark://container/{id}', mimeType: 'application/json' }),
    ]);
  });
});

describe('prompts', () => {
  it('track-shipment names the tools and the number, and the carrier when given', async () => {
    const plain = await client.getPrompt({ name: 'track-shipment', arguments: { container_number: BOX } });
    expect(plain.messages).toHaveLength(1);
    const body = text(plain.messages[0]!);
    expect(body).toContain(BOX);
    for (const tool of ['search_container', 'track_container', 'get_container']) expect(body).toContain(tool);
    const withCarrier = await client.getPrompt({ name: 'track-shipment', arguments: { container_number: BOX, carrier: 'maeu' } });
    expect(text(withCarrier.messages[0]!)).toContain('scac "MAEU"');
  });

  it('check-demurrage points at holds, availability, last free days by source and fees without adding the total', async () => {
    const { messages } = await client.getPrompt({ name: 'check-demurrage', arguments: { container_id: containerId } });
    const body = text(messages[0]!);
    expect(body).toContain(containerId);
    for (const word of [
      'get_container',
      'holds_at_pod_terminal',
      'available_for_pickup',
      'pickup_lfd',
      'import_deadlines',
      'pickup_lfd_line',
      'pickup_lfd_terminal',
      'pickup_lfd_rail',
      'pickup_lfd_binding',
      'pickup_lfd_binding_party',
      'pickup_lfd_binding_timezone',
      'last_free_day',
      'fees_at_pod_terminal',
    ])
      expect(body).toContain(word);
    expect(body).toMatch(/never add it to the other/);
    // pickup_lfd as the reference defines it; the risk is judged by the binding date, days counted by Tidemark.
    expect(body).toContain(
      "the line's last free day if given, else the terminal's, else the rail's — the first available, not the earliest",
    );
    expect(body).toMatch(/never judge the risk by it/);
    expect(body).toMatch(/Do not count days yourself, and never count days left after pickup/);
  });

  it('analyze-delays compares the ETAs and points at the ETA history and transshipments', async () => {
    const { messages } = await client.getPrompt({ name: 'analyze-delays', arguments: { container_id: containerId } });
    const body = text(messages[0]!);
    expect(body).toContain(containerId);
    for (const word of ['pod_eta_at', 'pod_original_eta_at', 'estimated_events', 'transshipment', 'get_container_transport_events'])
      expect(body).toContain(word);
  });

  it('rejects a container_id that is not a UUID with an MCP error', async () => {
    for (const name of ['check-demurrage', 'analyze-delays']) {
      const err = await mcpError(client.getPrompt({ name, arguments: { container_id: 'not-a-uuid' } }));
      expect(err.code).toBe(-32602);
    }
    // The server is still answering.
    expect((await client.listPrompts()).prompts).toHaveLength(3);
  });
});

describe('carrier completion', () => {
  const complete = (value: string) =>
    client.complete({ ref: { type: 'ref/prompt', name: 'track-shipment' }, argument: { name: 'carrier', value } });

  it('completes SCACs by prefix, any case', async () => {
    expect((await complete('ma')).completion.values).toContain('MAEU');
    expect((await complete('MA')).completion.values).toContain('MAEU');
    const values = (await complete('ma')).completion.values;
    expect(values.every((v) => v === v.toUpperCase())).toBe(true);
  });

  it('completes by name prefix', async () => {
    expect((await complete('maersk')).completion.values).toContain('MAEU');
  });

  it('offers nothing for an unknown prefix', async () => {
    expect((await complete('zzzz')).completion.values).toEqual([]);
  });
});

describe('container resource', () => {
  it('reads a seeded container as JSON with the /v2 attributes', async () => {
    const uri = `tidemark://container/${containerId}`;
    const { contents } = await client.readResource({ uri });
    expect(contents).toHaveLength(1);
    expect(contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
    const doc = JSON.parse((contents[0] as { text: string }).text) as {
      data: { id: string; type: string; attributes: Record<string, unknown>; relationships: Record<string, unknown> };
      links: { self: string };
    };
    expect(doc.data).toMatchObject({ id: containerId, type: 'container' });
    expect(doc.data.attributes.number).toBe(BOX);
    expect(doc.data.attributes.current_status).toBe('on_ship');
    for (const key of ['holds_at_pod_terminal', 'fees_at_pod_terminal', 'import_deadlines', 'pickup_lfd', 'available_for_pickup'])
      expect(doc.data.attributes).toHaveProperty(key);
    expect(doc.data.relationships).toHaveProperty('shipment');
    expect(doc.links.self).toMatch(new RegExp(`/v2/containers/${containerId}$`));
  });

  it("answers resource-not-found for another account's container, an unknown id and a malformed one", async () => {
    for (const id of [foreignId, '00000000-0000-4000-8000-000000000000', 'nope']) {
      const err = await mcpError(client.readResource({ uri: `tidemark://container/${id}` }));
      expect(err.code).toBe(RESOURCE_NOT_FOUND);
      expect(err.message).not.toContain('SECRETPR1');
    }
  });
});

describe('milestone glossary', () => {
  it('lists every transport event name with a meaning, actual vs estimated and time zones', async () => {
    const uri = 'tidemark://docs/milestone-glossary';
    const { contents } = await client.readResource({ uri });
    expect(contents[0]).toMatchObject({ uri, mimeType: 'text/markdown' });
    const md = (contents[0] as { text: string }).text;
    for (const name of [...TRANSPORT_EVENT_NAMES, ...PICKUP_CHANGE_EVENT_NAMES])
      expect(md).toMatch(new RegExp(`^- \`${name.replace(/\./g, '\\.')}\` — \\S`, 'm'));
    expect(md).toMatch(/## Last free days/);
    expect(md).toContain('`pickup_lfd_binding`');
    expect(md).toContain('the first available, not the earliest');
    expect(md).toMatch(/## Actual vs estimated/);
    expect(md).toMatch(/## Times and zones/);
    expect(md).toContain('IANA');
  });
});
