import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeFetch } from '../../contract-suite.js';
import { aisSandboxSource } from './index.js';
import { parseAisVessel } from './parse.js';

const read = (file: string): unknown => JSON.parse(readFileSync(path.resolve(import.meta.dirname, 'fixtures', file), 'utf8'));
const underway = read('vessel.track.underway.json') as { positions: unknown[] };
const ctx = () => ({ signal: new AbortController().signal, now: () => new Date('2026-03-01T12:00:00Z') });

describe('sandbox AIS parser', () => {
  it('parses the track to positions, oldest first, whatever the order sent', () => {
    const expected = read('vessel.track.underway.expected.json');
    expect(parseAisVessel(underway)).toEqual(expected);
    expect(parseAisVessel({ ...underway, positions: [...underway.positions].reverse() })).toEqual(expected);
  });

  it.each([
    ['a latitude out of range', { lat: 91 }],
    ['a heading of 360', { heading: 360 }],
    ['a time without offset', { timestamp: '2026-01-20T00:00:00' }],
  ])('rejects %s as bad_response', (_what, patch) => {
    const payload = { ...underway, positions: [{ ...(underway.positions[0] as object), ...patch }] };
    expect(() => parseAisVessel(payload)).toThrow(expect.objectContaining({ kind: 'bad_response' }));
  });
});

describe('aisSandboxSource', () => {
  it('tracks vessels by IMO number at {baseUrl}/vessels/{imo}', async () => {
    const { fetch, calls } = fakeFetch(() => ({ body: underway }));
    const source = aisSandboxSource({ fetch });
    expect(source).toMatchObject({ id: 'ais:sandbox', kind: 'ais', tracks: { numberTypes: ['vessel_imo'] } });
    const adapter = source.create(source.configSchema.parse({ baseUrl: 'http://sandbox.test/sandbox/ais' }));
    await adapter.fetch({ numberType: 'vessel_imo', number: 'IMO 9811000' }, ctx());
    expect(calls[0]!.href).toBe('http://sandbox.test/sandbox/ais/vessels/9811000');
    await expect(adapter.fetch({ numberType: 'vessel_imo', number: '98110' }, ctx())).rejects.toMatchObject({ kind: 'invalid_number' });
    await expect(adapter.fetch({ numberType: 'container', number: 'MSKU1234565' }, ctx())).rejects.toMatchObject({
      kind: 'invalid_number',
    });
    expect(calls).toHaveLength(1);
  });
});
