// Writes the recorded NMEA stream fixture of the AIS NMEA source and, beside it, the facts it must decode to.
// The expected file is written from the values encoded here, not from Tidemark's decoder, so the fixture test
// checks the decoder against intent. Run: node scripts/make-nmea-fixture.mjs
import { writeFileSync } from 'node:fs';

const DIR = new URL('../src/sources/ais/nmea/fixtures/', import.meta.url);
const NAME = 'stream.vessels.recorded';
/** The fixture test receives line i at START + i seconds. */
const START = Date.parse('2026-03-01T12:00:00Z');

// --- bit packing (ITU-R M.1371-5 field layouts) ---------------------------------------------------------------

class Bits {
  bits = [];
  uint(value, width) {
    for (let i = width - 1; i >= 0; i--) this.bits.push(Math.floor(value / 2 ** i) % 2);
    return this;
  }
  int(value, width) {
    return this.uint(value < 0 ? 2 ** width + value : value, width);
  }
  /** Six-bit ASCII, padded with '@' (0). */
  text(s, chars) {
    const padded = s.toUpperCase().padEnd(chars, '@').slice(0, chars);
    for (const ch of padded) {
      const c = ch.charCodeAt(0);
      this.uint(c >= 64 ? c - 64 : c, 6);
    }
    return this;
  }
  /** The armoured payload and its fill bits. */
  armour() {
    const fill = (6 - (this.bits.length % 6)) % 6;
    const bits = [...this.bits, ...Array(fill).fill(0)];
    let out = '';
    for (let i = 0; i < bits.length; i += 6) {
      const v = bits.slice(i, i + 6).reduce((a, b) => a * 2 + b, 0);
      out += String.fromCharCode(v < 40 ? v + 48 : v + 56);
    }
    return { payload: out, fill };
  }
}

const deg = (d) => Math.round(d * 600_000);
const header = (type, mmsi) => new Bits().uint(type, 6).uint(0, 2).uint(mmsi, 30);

function classA(p) {
  return header(p.type ?? 1, p.mmsi)
    .uint(p.status ?? 0, 4)
    .int(p.rot ?? -128, 8)
    .uint(p.sog === null ? 1023 : Math.round(p.sog * 10), 10)
    .uint(1, 1)
    .int(p.lon === null ? deg(181) : deg(p.lon), 28)
    .int(p.lat === null ? deg(91) : deg(p.lat), 27)
    .uint(Math.round((p.cog ?? 360) * 10), 12)
    .uint(p.heading ?? 511, 9)
    .uint(p.second, 6)
    .uint(0, 2)
    .uint(0, 3)
    .uint(0, 1)
    .uint(0x1234, 19);
}

function classB(p) {
  return header(18, p.mmsi)
    .uint(0, 8)
    .uint(p.sog === null ? 1023 : Math.round(p.sog * 10), 10)
    .uint(0, 1)
    .int(deg(p.lon), 28)
    .int(deg(p.lat), 27)
    .uint(Math.round((p.cog ?? 360) * 10), 12)
    .uint(p.heading ?? 511, 9)
    .uint(p.second, 6)
    .uint(0, 2)
    .uint(1, 1)
    .uint(0, 1)
    .uint(1, 1)
    .uint(1, 1)
    .uint(1, 1)
    .uint(0, 1)
    .uint(0, 1)
    .uint(0b11000000000000110, 20);
}

function extendedClassB(p) {
  return header(19, p.mmsi)
    .uint(0, 8)
    .uint(Math.round(p.sog * 10), 10)
    .uint(1, 1)
    .int(deg(p.lon), 28)
    .int(deg(p.lat), 27)
    .uint(Math.round(p.cog * 10), 12)
    .uint(p.heading ?? 511, 9)
    .uint(p.second, 6)
    .uint(0, 4)
    .text(p.name, 20)
    .uint(52, 8)
    .uint(12, 9)
    .uint(18, 9)
    .uint(5, 6)
    .uint(5, 6)
    .uint(1, 4)
    .uint(0, 1)
    .uint(1, 1)
    .uint(0, 1)
    .uint(0, 4);
}

function staticVoyage(v) {
  return header(5, v.mmsi)
    .uint(0, 2)
    .uint(v.imo, 30)
    .text(v.callsign, 7)
    .text(v.name, 20)
    .uint(v.shipType, 8)
    .uint(v.dims[0], 9)
    .uint(v.dims[1], 9)
    .uint(v.dims[2], 6)
    .uint(v.dims[3], 6)
    .uint(1, 4)
    .uint(v.eta[0], 4)
    .uint(v.eta[1], 5)
    .uint(v.eta[2], 5)
    .uint(v.eta[3], 6)
    .uint(Math.round(v.draught * 10), 8)
    .text(v.destination, 20)
    .uint(0, 1)
    .uint(0, 1);
}

const staticPartA = (v) => header(24, v.mmsi).uint(0, 2).text(v.name, 20);
const staticPartB = (v) =>
  header(24, v.mmsi)
    .uint(1, 2)
    .uint(37, 8)
    .text('SRT', 3)
    .uint(1, 4)
    .uint(4242, 20)
    .text(v.callsign, 7)
    .uint(8, 9)
    .uint(4, 9)
    .uint(2, 6)
    .uint(2, 6)
    .uint(0, 6);

function baseStation(b) {
  return header(4, b.mmsi)
    .uint(2026, 14)
    .uint(3, 4)
    .uint(1, 5)
    .uint(12, 5)
    .uint(0, 6)
    .uint(13, 6)
    .uint(1, 1)
    .int(deg(b.lon), 28)
    .int(deg(b.lat), 27)
    .uint(7, 4)
    .uint(0, 10)
    .uint(0, 1)
    .uint(0x2345, 19);
}

// --- sentences ---------------------------------------------------------------------------------------------------

const checksum = (body) => {
  let x = 0;
  for (const ch of body) x ^= ch.charCodeAt(0);
  return x.toString(16).toUpperCase().padStart(2, '0');
};

/** One message as one or more sentences: at most 60 payload characters each, as receivers split them. */
function sentences(bits, { format = 'AIVDM', channel = 'A', seq = '' } = {}) {
  const { payload, fill } = bits.armour();
  const parts = [];
  for (let i = 0; i < payload.length; i += 60) parts.push(payload.slice(i, i + 60));
  return parts.map((part, i) => {
    const last = i === parts.length - 1;
    const body = `${format},${parts.length},${i + 1},${parts.length > 1 ? seq : ''},${channel},${part},${last ? fill : 0}`;
    return `!${body}*${checksum(body)}`;
  });
}

const tagBlock = (fields) => `\\${fields}*${checksum(fields)}\\`;

/** IMO numbers carry a check digit: the first six digits weighted 7…2, the sum's last digit. */
function imo(six) {
  const d = String(six).split('').map(Number);
  const sum = d.reduce((a, x, i) => a + x * (7 - i), 0);
  return Number(`${six}${sum % 10}`);
}

// --- the recording ---------------------------------------------------------------------------------------------

const spirit = {
  mmsi: 563012340,
  imo: imo(945123),
  name: 'PACIFIC TIDEMARK',
  callsign: '9V1234',
  shipType: 71,
  dims: [300, 66, 24, 24],
  eta: [3, 1, 18, 30],
  draught: 13.2,
  destination: 'US LAX',
};
const lantern = {
  mmsi: 636019825,
  imo: imo(970329),
  name: 'OCEAN LANTERN',
  callsign: 'D5QR7',
  shipType: 70,
  dims: [250, 50, 20, 20],
  eta: [3, 2, 6, 0],
  draught: 11.5,
  destination: 'USLGB',
};
const noImo = { ...lantern, mmsi: 244690000, imo: 0, name: 'NOORD', callsign: 'PBNO', destination: 'NLRTM' };
const badImo = { ...lantern, mmsi: 257012300, imo: 1234560, name: 'FJORD RUNNER', callsign: 'LAFR4', destination: 'NOOSL' };
const otter = { mmsi: 338123456, name: 'SEA OTTER', callsign: 'WDK4321' };

/** Each entry: the line as sent, and what it must give. */
const lines = [];
const add = (line, expect = {}) => lines.push({ line, ...expect });
const at = () => new Date(START + lines.length * 1000).toISOString().replace('.000Z', 'Z');
const position = (p) => ({
  mmsi: String(p.mmsi).padStart(9, '0'),
  at: at(),
  latitude: p.lat,
  longitude: p.lon,
  speedKnots: p.sog,
  headingDegrees: p.heading ?? null,
});
const known = (v, withImo) => ({ mmsi: String(v.mmsi), imo: withImo ? String(v.imo) : null, name: v.name });

{
  // A type 5 in two parts from an aggregator that prefixes NMEA 4 tag blocks (source, receive time).
  const [p1, p2] = sentences(staticVoyage(spirit), { seq: '1', channel: 'A' });
  add(`${tagBlock('s:rx-sanpedro,c:1772366400')}${p1}`);
  add(`${tagBlock('s:rx-sanpedro,c:1772366401')}${p2}`, { static: known(spirit, true) });
}
{
  const p = { mmsi: spirit.mmsi, lat: 33.65, lon: -118.3, sog: 12.3, cog: 14.8, heading: 15, second: 2 };
  add(sentences(classA(p))[0], { position: position(p) });
}
{
  const p = { type: 3, mmsi: lantern.mmsi, status: 5, lat: 33.7541, lon: -118.2138, sog: 0.1, cog: 213.4, heading: null, second: 3 };
  add(sentences(classA(p), { channel: 'B' })[0], { position: position(p) });
}
{
  // A second type 5, interleaved with a single-sentence report between its parts.
  const [p1, p2] = sentences(staticVoyage(lantern), { seq: '2', channel: 'B' });
  add(p1);
  const p = { mmsi: spirit.mmsi, lat: 33.6583, lon: -118.2972, sog: 12.1, cog: 15.2, heading: 16, second: 6 };
  add(sentences(classA(p))[0], { position: position(p) });
  add(p2, { static: known(lantern, true) });
}
{
  // Class B: speed over ground not available (1023), heading not available (511).
  const p = { mmsi: otter.mmsi, lat: 33.7233, lon: -118.2702, sog: null, cog: null, heading: null, second: 8 };
  add(sentences(classB(p), { channel: 'B' })[0], { position: position(p) });
  add(sentences(staticPartA(otter), { channel: 'B' })[0], { static: known(otter, false) });
  add(sentences(staticPartB(otter), { channel: 'B' })[0]);
}
{
  const p = { mmsi: 367555010, name: 'HARBOR TUG 7', lat: 33.7368, lon: -118.2569, sog: 6.4, cog: 181.9, heading: 182, second: 11 };
  add(sentences(extendedClassB(p))[0], { position: position(p), static: { mmsi: '367555010', imo: null, name: 'HARBOR TUG 7' } });
}
{
  // The receiver's own vessel (VDO): a position like any other.
  const p = { mmsi: 366999001, lat: 33.7091, lon: -118.2735, sog: 8.9, cog: 302.5, heading: 301, second: 12 };
  add(sentences(classA(p), { format: 'AIVDO' })[0], { position: position(p) });
}
{
  // A corrupted sentence: one payload character changed in transit, checksum as sent.
  const p = { mmsi: spirit.mmsi, lat: 33.6667, lon: -118.2944, sog: 12.0, cog: 15.0, heading: 16, second: 13 };
  const good = sentences(classA(p))[0];
  const i = good.indexOf(',', 15) - 3;
  add(`${good.slice(0, i)}${good[i] === 'w' ? 'v' : 'w'}${good.slice(i + 1)}`, { rejected: 'checksum' });
}
add(sentences(baseStation({ mmsi: 3669999, lat: 33.7204, lon: -118.2712 }))[0]);
{
  // The second part of a message whose first part was lost.
  const [, p2] = sentences(staticVoyage({ ...lantern, mmsi: 311000222 }), { seq: '7', channel: 'A' });
  add(p2, { rejected: 'orphan_part' });
}
{
  // A class A report without a position (lat 91, lon 181): nothing to store.
  const p = { mmsi: lantern.mmsi, status: 5, lat: null, lon: null, sog: 0, cog: null, heading: null, second: 16 };
  add(sentences(classA(p), { channel: 'B' })[0]);
}
{
  // A GPS sentence from the same receiver: not AIS.
  const rmc = 'GPRMC,120017,A,3342.456,N,11816.231,W,000.0,000.0,010326,013.2,E';
  add(`$${rmc}*${checksum(rmc)}`, { rejected: 'not_ais' });
}
for (const v of [noImo, badImo]) {
  const [p1, p2] = sentences(staticVoyage(v), { seq: v === noImo ? '3' : '4', channel: 'A' });
  add(p1);
  add(p2, { static: known(v, false) });
}
{
  const p = { type: 2, mmsi: spirit.mmsi, lat: 33.675, lon: -118.2917, sog: 11.8, cog: 16.1, heading: 16, second: 22 };
  add(sentences(classA(p))[0], { position: position(p) });
}
{
  const p = { mmsi: otter.mmsi, lat: 33.7215, lon: -118.2655, sog: 5.2, cog: 88.3, heading: 90, second: 23 };
  add(sentences(classB(p), { channel: 'A' })[0], { position: position(p) });
}

writeFileSync(new URL(`${NAME}.nmea`, DIR), `${lines.map((l) => l.line).join('\n')}\n`);
const expected = {
  note: `line i (0-based) is received at ${new Date(START).toISOString()} + i seconds`,
  positions: lines.flatMap((l) => (l.position ? [l.position] : [])),
  statics: lines.flatMap((l) => (l.static ? [l.static] : [])),
  rejected: lines.flatMap((l, i) => (l.rejected ? [{ line: i, reason: l.rejected }] : [])),
};
writeFileSync(new URL(`${NAME}.expected.json`, DIR), `${JSON.stringify(expected, null, 2)}\n`);
console.log(`${lines.length} lines, ${expected.positions.length} positions, ${expected.statics.length} static reports`);
