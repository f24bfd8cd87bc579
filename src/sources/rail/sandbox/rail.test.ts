import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeFetch } from '../../contract-suite.js';
import { railSandboxSource, SANDBOX_RAILROAD_SCACS } from './index.js';
import { parseRailContainer } from './parse.js';

const FIXTURES = path.resolve(import.meta.dirname, 'fixtures');
const read = (file: string): unknown => JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8'));
const names = readdirSync(FIXTURES).filter((f) => f.endsWith('.json') && !f.endsWith('.expected.json'));
const ctx = () => ({ signal: new AbortController().signal, now: () => new Date('2026-03-01T12:00:00Z') });

describe('sandbox rail parser', () => {
  it.each(names)('%s parses to its expected facts, whatever the event order', (name) => {
    const payload = read(name) as { events: unknown[] };
    const expected = read(name.replace(/\.json$/, '.expected.json'));
    expect(parseRailContainer(payload)).toEqual(expected);
    expect(parseRailContainer({ ...payload, events: [...payload.events].reverse() })).toEqual(expected);
  });

  it('reads ETA and ATA as estimated and actual arrivals, each event naming its railroad', () => {
    const facts = parseRailContainer(read('container.inland.interchange.json'));
    expect(facts.milestones.map((m) => [m.milestone, m.classifier, m.railCarrierScac])).toEqual([
      ['rail_loaded', 'actual', 'BNSF'],
      ['rail_departed', 'actual', 'BNSF'],
      ['rail_arrived', 'estimated', 'BNSF'],
      ['rail_departed', 'planned', 'NSRR'],
    ]);
    expect(facts.yard[0]!.lastFreeDay).toEqual({ at: null, localDateTime: null, localDate: '2026-02-13' });
  });
});

describe('railSandboxSource', () => {
  it('tracks containers on the six Class I railroads', () => {
    expect(railSandboxSource()).toMatchObject({ id: 'rail:sandbox', kind: 'rail', tracks: { numberTypes: ['container'] } });
    expect([...SANDBOX_RAILROAD_SCACS].sort()).toEqual(['BNSF', 'CNRU', 'CPRS', 'CSXT', 'NSRR', 'UPRR']);
  });

  it('refuses a target without a railroad or that is not a container, without asking', async () => {
    const { fetch, calls } = fakeFetch(() => ({ body: {} }));
    const source = railSandboxSource({ fetch });
    const adapter = source.create(source.configSchema.parse({ baseUrl: 'http://sandbox.test/sandbox/rail' }));
    await expect(adapter.fetch({ numberType: 'container', number: 'MSKU1234565' }, ctx())).rejects.toThrow(TypeError);
    await expect(adapter.fetch({ numberType: 'booking_number', number: 'B1', scac: 'BNSF' }, ctx())).rejects.toMatchObject({
      kind: 'invalid_number',
    });
    expect(calls).toHaveLength(0);
  });
});
