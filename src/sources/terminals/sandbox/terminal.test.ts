import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MILESTONES } from '../../../domain/milestones.js';
import { SourceError } from '../../contract.js';
import { fakeFetch } from '../../contract-suite.js';
import { EVENT_TYPE, milestoneOf } from './codes.js';
import { SANDBOX_TERMINAL_CODES, terminalSandboxSource } from './index.js';
import { parseTerminalContainer } from './parse.js';

const FIXTURES = path.resolve(import.meta.dirname, 'fixtures');
const read = (file: string): unknown => JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8'));
const names = readdirSync(FIXTURES).filter((f) => f.endsWith('.json') && !f.endsWith('.expected.json'));
const ctx = () => ({ signal: new AbortController().signal, now: () => new Date('2026-03-01T12:00:00Z') });
const holdsFees = read('container.import.holds-fees.json') as Record<string, unknown> & {
  holds: unknown[];
  events: Record<string, unknown>[];
};

describe('sandbox terminal parser', () => {
  it.each(names)('%s parses to its expected facts, whatever the event order', (name) => {
    const payload = read(name) as { events: unknown[] };
    const expected = read(name.replace(/\.json$/, '.expected.json'));
    expect(parseTerminalContainer(payload)).toEqual(expected);
    expect(parseTerminalContainer({ ...payload, events: [...payload.events].reverse() })).toEqual(expected);
  });

  it('has one event type per milestone, both ways', () => {
    expect(new Set(Object.values(EVENT_TYPE)).size).toBe(MILESTONES.length);
    for (const m of MILESTONES) expect(milestoneOf(EVENT_TYPE[m].toLowerCase())).toBe(m);
  });

  it('skips an unknown event type, drops released holds, and keeps an unknown hold or fee type as other', () => {
    const facts = parseTerminalContainer({
      ...holdsFees,
      holds: [
        ...holdsFees.holds,
        { type: 'port_authority', status: 'hold', description: 'PA hold' },
        { type: 'customs', status: 'released', description: null },
      ],
      fees: [{ type: 'storage', amount: 40, currency: 'USD' }],
      events: [...holdsFees.events, { ...holdsFees.events[0], type: 'REEFER_PLUGGED', id: 'x' }],
    });
    expect(facts.milestones).toHaveLength(1);
    expect(facts.yard[0]!.holds!.map((h) => h.name)).toEqual(['customs', 'freight', 'USDA', 'other']);
    expect(facts.yard[0]!.fees).toEqual([{ type: 'other', amount: 40, currencyCode: 'USD' }]);
  });

  it('reads a box the terminal moved to its off-dock yard as off dock, and only then', () => {
    const moved = parseTerminalContainer({
      ...holdsFees,
      facility: { locode: 'USLGB', name: 'Shippers Transport Express - Carson', code: 'Z773', code_list: 'firms' },
      off_dock: true,
    });
    expect(moved.yard[0]).toMatchObject({ offDock: true, facility: { facilityCode: 'Z773', facilityCodeList: 'firms' } });
    expect(parseTerminalContainer(holdsFees).yard[0]!.offDock).toBeUndefined();
    expect(parseTerminalContainer({ ...holdsFees, off_dock: false }).yard[0]!.offDock).toBeUndefined();
  });

  it.each([
    ['a missing facility', { facility: undefined }],
    ['an impossible last free day', { last_free_day: '2026-02-30' }],
    ['a bad UN/LOCODE', { facility: { locode: 'los angeles', name: null, code: null, code_list: null } }],
    ['a hold without status', { holds: [{ type: 'customs', description: null }] }],
  ])('rejects %s as bad_response', (_what, patch) => {
    expect(() => parseTerminalContainer(JSON.parse(JSON.stringify({ ...holdsFees, ...patch })))).toThrow(SourceError);
  });
});

describe('terminalSandboxSource', () => {
  it('tracks containers at every reference terminal by FIRMS code, else port and SMDG code', () => {
    const source = terminalSandboxSource();
    expect(source).toMatchObject({ id: 'terminal:sandbox', kind: 'terminal', tracks: { numberTypes: ['container'] } });
    expect(SANDBOX_TERMINAL_CODES).toEqual(
      expect.arrayContaining(['W185', 'E416', 'USJAX:TMT', 'USOAK:MATS', 'USHNL:MATS', 'USLGB:REF:STA']),
    );
    expect(new Set(SANDBOX_TERMINAL_CODES).size).toBe(SANDBOX_TERMINAL_CODES.length);
  });

  it('addresses a port-qualified key by its SMDG code', async () => {
    const { fetch, calls } = fakeFetch(() => ({ body: holdsFees }));
    const source = terminalSandboxSource({ fetch });
    const adapter = source.create(source.configSchema.parse({ baseUrl: 'http://sandbox.test/sandbox/terminals' }));
    await adapter.fetch({ numberType: 'container', number: 'MSKU1234565', facilityCode: 'USJAX:TMT' }, ctx());
    expect(calls[0]!.pathname).toBe('/sandbox/terminals/TMT/containers/MSKU1234565');
  });

  it('asks {baseUrl}/{facility}/containers/{number}, normalizing both', async () => {
    const { fetch, calls } = fakeFetch(() => ({ body: holdsFees }));
    const source = terminalSandboxSource({ fetch });
    const adapter = source.create(source.configSchema.parse({ baseUrl: 'http://sandbox.test/sandbox/terminals/' }));
    await adapter.fetch({ numberType: 'container', number: 'msku 123456-5', facilityCode: ' w185 ' }, ctx());
    expect(calls[0]!.href).toBe('http://sandbox.test/sandbox/terminals/W185/containers/MSKU1234565');
  });

  it('refuses what a terminal cannot answer without asking', async () => {
    const { fetch, calls } = fakeFetch(() => ({ body: holdsFees }));
    const source = terminalSandboxSource({ fetch });
    const adapter = source.create(source.configSchema.parse({ baseUrl: 'http://sandbox.test/sandbox/terminals' }));
    await expect(adapter.fetch({ numberType: 'bill_of_lading', number: 'X', facilityCode: 'W185' }, ctx())).rejects.toMatchObject({
      kind: 'invalid_number',
    });
    await expect(adapter.fetch({ numberType: 'container', number: 'MSKU1234566', facilityCode: 'W185' }, ctx())).rejects.toMatchObject({
      kind: 'invalid_number',
    });
    await expect(adapter.fetch({ numberType: 'container', number: 'MSKU1234565' }, ctx())).rejects.toThrow(TypeError);
    expect(calls).toHaveLength(0);
  });
});
