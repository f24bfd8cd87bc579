import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineFramer } from './client.js';
import { NmeaDecoder } from './decoder.js';
import { isValidImo } from '../../../domain/imo.js';
import { AisLineReader, aisNmeaConfigSchema, parseAisMessage } from './index.js';

const fixture = (file: string) => readFileSync(path.resolve(import.meta.dirname, 'fixtures', file), 'utf8');
const START = Date.parse('2026-03-01T12:00:00Z');

/** Reads the recorded stream as the fixture says it was received: line i at START + i seconds. */
function readRecording() {
  const reader = new AisLineReader();
  const out = { positions: [] as unknown[], statics: [] as unknown[], rejected: [] as { line: number; reason: string }[] };
  fixture('stream.vessels.recorded.nmea')
    .split('\n')
    .filter(Boolean)
    .forEach((line, i) => {
      const r = reader.read(line, new Date(START + i * 1000));
      if (r.kind === 'facts') {
        out.positions.push(...r.facts.positions);
        out.statics.push(...r.facts.statics);
      } else if (r.kind === 'rejected') out.rejected.push({ line: i, reason: r.reason });
    });
  return out;
}

describe('the recorded NMEA stream', () => {
  it('decodes to the expected positions and identities (multi-part, interleaved, tag blocks, VDO, bad lines)', () => {
    const { note: _note, ...expected } = JSON.parse(fixture('stream.vessels.recorded.expected.json'));
    expect(readRecording()).toEqual(expected);
  });

  it('learns an IMO only from a two-part type 5 whose parts both arrive', () => {
    const { statics } = readRecording();
    expect(statics.filter((s) => (s as { imo: string | null }).imo !== null)).toEqual([
      { mmsi: '563012340', imo: '9451238', name: 'PACIFIC TIDEMARK' },
      { mmsi: '636019825', imo: '9703291', name: 'OCEAN LANTERN' },
    ]);
  });
});

describe('NmeaDecoder', () => {
  const lines = fixture('stream.vessels.recorded.nmea').split('\n');
  const [part1, part2] = [lines[0]!, lines[1]!];
  const at = new Date(START);

  it('drops a first part when its message is abandoned, so a late second part is an orphan', () => {
    const d = new NmeaDecoder();
    expect(d.push(part1, at)).toEqual({ kind: 'pending' });
    expect(d.push(part2, new Date(START + 60_000))).toMatchObject({ kind: 'rejected', reason: 'orphan_part' });
  });

  it('restarts a message when its first part comes again', () => {
    const d = new NmeaDecoder();
    d.push(part1, at);
    d.push(part1, at);
    expect(d.push(part2, at)).toMatchObject({ kind: 'message', message: { aistype: 5, imo: 9451238 } });
    expect(d.push(part2, at)).toMatchObject({ kind: 'rejected', reason: 'orphan_part' });
  });

  it('accepts CRLF, surrounding spaces and a lower-case checksum', () => {
    const d = new NmeaDecoder();
    const single = lines[2]!;
    expect(d.push(`  ${single.slice(0, -2)}${single.slice(-2).toLowerCase()}\r\n`, at)).toMatchObject({ kind: 'message' });
  });

  it.each([
    ['an empty line', '', 'not_ais'],
    ['a sentence cut in its header', '!AIVDM,1,1', 'not_ais'],
    ['a sentence cut in its payload', '!AIVDM,1,1,,A,18HsRu0P1soR', 'checksum'],
    ['a part beyond the count', '!AIVDM,1,2,,A,18HsRu0P1soRMk0C@C<0U0N4018l,0*3C', 'undecodable'],
    ['a sentence without checksum', '!AIVDM,1,1,,A,18HsRu0P1soRMk0C@C<0U0N4018l,0', 'checksum'],
  ])('rejects %s', (_what, line, reason) => {
    expect(new NmeaDecoder().push(line, at)).toMatchObject({ kind: 'rejected', reason });
  });
});

describe('parseAisMessage', () => {
  const at = new Date('2026-03-01T12:00:07.900Z');
  const report = { aistype: 1, mmsi: '563012340', lat: 33.65, lon: -118.3, sog: 12.3, hdg: 15 };

  it('stamps the receive time, to the second', () => {
    expect(parseAisMessage(report, at).positions).toEqual([
      { mmsi: '563012340', at: '2026-03-01T12:00:07Z', latitude: 33.65, longitude: -118.3, speedKnots: 12.3, headingDegrees: 15 },
    ]);
  });

  it.each([
    ['speed 102.3 (not available)', { sog: 102.3 }, { speedKnots: null }],
    ['speed 102.2 (102.2 or more)', { sog: 102.2 }, { speedKnots: 102.2 }],
    ['heading 511 (not available)', { hdg: 511 }, { headingDegrees: null }],
    ['heading 360', { hdg: 360 }, { headingDegrees: null }],
  ])('maps %s', (_what, patch, expected) => {
    expect(parseAisMessage({ ...report, ...patch }, at).positions[0]).toMatchObject(expected);
  });

  it.each([
    ['latitude 91', { lat: 91 }],
    ['longitude 181', { lon: 181 }],
    ['no position fields', { lat: undefined, lon: undefined }],
    ['0,0 (no fix)', { lat: 0, lon: 0 }],
  ])('gives no position for %s', (_what, patch) => {
    expect(parseAisMessage({ ...report, ...patch }, at)).toEqual({ positions: [], statics: [] });
  });

  it('ignores message types it does not read, and rejects a read type with the wrong shape', () => {
    expect(parseAisMessage({ aistype: 4, mmsi: '003669999', lat: 33.7, lon: -118.2 }, at)).toEqual({ positions: [], statics: [] });
    expect(() => parseAisMessage({ aistype: 1, mmsi: 563012340 }, at)).toThrow(expect.objectContaining({ kind: 'bad_response' }));
  });

  it('takes an IMO number only with a valid check digit', () => {
    expect([9451238, 9703291, 9811000].map(isValidImo)).toEqual([true, true, true]);
    expect([1234560, 0, 999999, 10000000, 9451239].map(isValidImo)).toEqual([false, false, false, false, false]);
  });
});

describe('LineFramer', () => {
  it('joins lines split across chunks and drops overlong ones', () => {
    const f = new LineFramer();
    const got: string[] = [];
    const emit = (l: string) => got.push(l);
    f.push('!AIVDM,1,1,,A,abc', emit);
    f.push(',0*00\r', emit);
    f.push('\n!B\n\n', emit);
    f.push('x'.repeat(2000), emit);
    f.push('y\nok\n', emit);
    expect(got).toEqual(['!AIVDM,1,1,,A,abc,0*00', '!B', 'ok']);
  });
});

describe('aisNmeaConfigSchema', () => {
  it('reads tcp and udp addresses, and names a bad one', () => {
    expect(aisNmeaConfigSchema.parse({ url: 'tcp://[::1]:10110' }).url).toEqual({ transport: 'tcp', host: '::1', port: 10110 });
    expect(aisNmeaConfigSchema.parse({ url: 'udp://0.0.0.0:10110' })).toMatchObject({ url: { transport: 'udp' }, reconnectMaxMs: 60_000 });
    expect(() => aisNmeaConfigSchema.parse({ url: 'http://ais.example:80' })).toThrow('tcp://HOST:PORT');
  });
});
