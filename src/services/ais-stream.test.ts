// The AIS stream listener end to end: the recorded NMEA fixture fed live over loopback TCP (and UDP) into the real
// NMEA source, and what it stores in a fresh database; batching and history spacing through accept/flush.
import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../test/kit/databases.js';
import { type Clock, FixedClock } from '../domain/clock.js';
import { type AisFacts, type AisStreamHandlers, aisNmeaSource } from '../sources/ais/nmea/index.js';
import type { Db } from '../storage/db.js';
import { rememberVessels } from '../storage/repositories/vessels.js';
import { type AisFlushResult, AisStreamIngest } from './ais-stream.js';
import { vesselId } from './vessels.js';

const FIXTURE = path.resolve(import.meta.dirname, '../sources/ais/nmea/fixtures/stream.vessels.recorded.nmea');
const LINES = readFileSync(FIXTURE, 'utf8').split('\n').filter(Boolean);
const START = Date.parse('2026-03-01T12:00:00Z');
const silent = pino({ level: 'silent' });

let database: TestDatabase;
let wall: FixedClock;
const closers: (() => Promise<unknown>)[] = [];

beforeEach(async () => {
  database = await freshDatabase();
  wall = new FixedClock('2026-03-01T12:30:00Z');
});
afterEach(async () => {
  while (closers.length) await closers.pop()!();
  await database.drop();
});

/**
 * Receive times as in the fixture's expected output: the source reads the clock once per line, so line i is
 * received at START + i seconds.
 */
function perLineClock(): Clock {
  let line = 0;
  return { now: () => new Date(START + line++ * 1000) };
}

async function vessel(imo: string, name: string | null, mmsi: string | null = null) {
  await rememberVessels(database.db, [{ id: vesselId(imo), imo, name }], wall.now());
  if (mmsi) await database.db.query('UPDATE vessels SET mmsi = $2 WHERE imo = $1', [imo, mmsi]);
}

const row = async (imo: string) =>
  (
    await database.db.query(
      'SELECT name, mmsi, latitude, longitude, speed_knots, heading_degrees, position_at FROM vessels WHERE imo = $1',
      [imo],
    )
  )[0];
const history = (imo: string) =>
  database.db.query('SELECT "at", latitude, longitude FROM vessel_positions WHERE vessel_id = $1 ORDER BY "at"', [vesselId(imo)]);

/** Our fleet: one known only by IMO (its MMSI is in the recording's type 5), one known by MMSI without a name, one
 * holding that first MMSI from before (reissued), one the recording never mentions. */
async function fleet() {
  await vessel('9451238', 'PACIFIC TIDEMARK');
  await vessel('9703291', null, '636019825');
  await vessel('9811000', 'OLD HOLDER', '563012340');
  await vessel('9839179', 'SILENT STAR');
}

async function expectFleetStored() {
  // Learnt from the two-part type 5, then placed by three class A reports within a minute: the latest wins,
  // history keeps the first of the minute.
  expect(await row('9451238')).toEqual({
    name: 'PACIFIC TIDEMARK',
    mmsi: '563012340',
    latitude: 33.675,
    longitude: -118.2917,
    speed_knots: 11.8,
    heading_degrees: 16,
    position_at: new Date('2026-03-01T12:00:21Z'),
  });
  expect(await history('9451238')).toEqual([{ at: new Date('2026-03-01T12:00:02Z'), latitude: 33.65, longitude: -118.3 }]);
  // Known by MMSI: the type 3 report (heading not available) and the name from its type 5.
  expect(await row('9703291')).toEqual({
    name: 'OCEAN LANTERN',
    mmsi: '636019825',
    latitude: 33.7541,
    longitude: -118.2138,
    speed_knots: 0.1,
    heading_degrees: null,
    position_at: new Date('2026-03-01T12:00:03Z'),
  });
  expect(await history('9703291')).toHaveLength(1);
  // The MMSI moved to the vessel whose IMO the type 5 names: its old holder gets no positions.
  expect(await row('9811000')).toMatchObject({ mmsi: null, latitude: null, position_at: null });
  expect(await row('9839179')).toMatchObject({ mmsi: null, latitude: null });
  expect(await history('9811000')).toEqual([]);
}

/** An ingest on the real NMEA source at `url`; resolves `sawLast` when the recording's last line has been read. */
function ingestOn(url: string, options: { onFlush?: (r: AisFlushResult) => void } = {}) {
  const source = aisNmeaSource();
  const config = source.configSchema.parse({ url, reconnectInitialMs: 10, reconnectMaxMs: 50, idleTimeoutMs: 10_000 });
  let sawLast!: () => void;
  const lastLine = new Promise<void>((r) => {
    sawLast = r;
  });
  const isLast = (f: AisFacts) =>
    f.positions.some((p) => p.at === new Date(START + (LINES.length - 1) * 1000).toISOString().replace('.000Z', 'Z'));
  const ingest = new AisStreamIngest({
    db: database.db,
    clocks: { wall, world: perLineClock() },
    open: (handlers: AisStreamHandlers) =>
      source.open(config, {
        ...handlers,
        onFacts: (f) => {
          handlers.onFacts(f);
          if (isLast(f)) sawLast();
        },
      }),
    logger: silent,
    flushEveryMs: 20,
    onFlush: options.onFlush,
  });
  return { ingest, lastLine };
}

/** Chunks of `size` characters: most cut a sentence in two. */
const chunks = (text: string, size: number) =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

describe('AIS stream over loopback TCP', () => {
  it('stores the recording fed live, across a reconnect, with lines cut anywhere', async () => {
    await fleet();
    // The first connection delivers the first half and hangs up; the listener connects again for the rest.
    const halves = [LINES.slice(0, 11), LINES.slice(11)];
    let connections = 0;
    const server = net.createServer(async (socket) => {
      const lines = halves[connections++];
      if (!lines) return void socket.destroy();
      for (const chunk of chunks(lines.map((l) => `${l}\r\n`).join(''), 37)) {
        await new Promise<void>((r) => socket.write(chunk, () => r()));
        await new Promise((r) => setImmediate(r));
      }
      socket.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    closers.push(() => new Promise((r) => server.close(r)));
    const { port } = server.address() as net.AddressInfo;

    const flushes: AisFlushResult[] = [];
    const { ingest, lastLine } = ingestOn(`tcp://127.0.0.1:${port}`, { onFlush: (r) => flushes.push(r) });
    const stream = await ingest.start();
    closers.push(() => ingest.stop());
    await lastLine;
    await ingest.flush();

    // Both halves came over their own connection; after the second hang-up the listener reconnects again (10 ms
    // backoff) and may already have done so under load (that connection is refused: nothing more to send).
    expect(connections).toBeGreaterThanOrEqual(2);
    expect(stream.stats()).toMatchObject({
      lines: LINES.length,
      positions: 8,
      statics: 6,
      rejected: { checksum: 1, orphan_part: 1, not_ais: 1 },
    });
    expect(flushes.every((f) => !f.failed)).toBe(true);
    await expectFleetStored();

    await ingest.stop();
    expect(await ingest.flush()).toBeNull();
  });

  it('keeps trying, with backoff, until something listens', async () => {
    await fleet();
    // A port that was free a moment ago: the first connections are refused.
    const server = net.createServer((socket) => socket.end(LINES.map((l) => `${l}\n`).join('')));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((r) => server.close(r));
    const { ingest, lastLine } = ingestOn(`tcp://127.0.0.1:${port}`);
    await ingest.start();
    closers.push(() => ingest.stop());
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
    closers.push(() => new Promise((r) => server.close(r)));
    await lastLine;
    await ingest.flush();
    await expectFleetStored();
  });

  it('stops cleanly while it waits to reconnect', async () => {
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise((r) => probe.close(r));
    const { ingest } = ingestOn(`tcp://127.0.0.1:${port}`);
    const stream = await ingest.start();
    await ingest.stop();
    expect(stream.stats().lines).toBe(0);
  });
});

describe('AIS stream over loopback UDP', () => {
  it('stores the recording sent as datagrams', async () => {
    await fleet();
    const { ingest, lastLine } = ingestOn('udp://127.0.0.1:0');
    const stream = await ingest.start();
    closers.push(() => ingest.stop());
    await stream.ready;
    const sender = dgram.createSocket('udp4');
    closers.push(() => new Promise<void>((r) => sender.close(() => r())));
    // One sentence a datagram, as most receivers send them; the last two share one.
    const datagrams = [...LINES.slice(0, -2).map((l) => `${l}\r\n`), `${LINES.at(-2)}\r\n${LINES.at(-1)}\r\n`];
    for (const d of datagrams)
      await new Promise<void>((r, j) => sender.send(d, stream.localPort!, '127.0.0.1', (err) => (err ? j(err) : r())));
    await lastLine;
    await ingest.flush();
    await expectFleetStored();
  });
});

describe('AisStreamIngest batches', () => {
  const at = (s: number) => new Date(START + s * 1000).toISOString().replace('.000Z', 'Z');
  const report = (mmsi: string, s: number, lat = 33.7) => ({
    positions: [{ mmsi, at: at(s), latitude: lat, longitude: -118.2, speedKnots: 10, headingDegrees: 90 }],
    statics: [],
  });
  const idle = (db: Db = database.db) =>
    new AisStreamIngest({ db, clocks: { wall, world: wall }, open: () => expect.unreachable(), logger: silent });

  it('keeps one history point a minute per vessel, across batches and restarts, and the newest as latest', async () => {
    await vessel('9451238', 'PACIFIC TIDEMARK', '563012340');
    const first = idle();
    await first.refreshVessels();
    for (const s of [0, 20, 61, 130]) first.accept(report('563012340', s, 33 + s / 1000));
    expect(await first.flush()).toEqual({ vessels: 1, learnt: 0, updated: 1, appended: 3, failed: false });
    // A restarted listener knows nothing of the last point in memory: the database spacing holds.
    const second = idle();
    await second.refreshVessels();
    second.accept(report('563012340', 140, 33.14));
    second.accept(report('563012340', 100, 33.1));
    expect(await second.flush()).toMatchObject({ updated: 1, appended: 0 });
    expect((await history('9451238')).map((h) => h.at)).toEqual([new Date(at(0)), new Date(at(61)), new Date(at(130))]);
    expect(await row('9451238')).toMatchObject({ latitude: 33.14, position_at: new Date(at(140)) });
    // An older report never replaces the stored latest.
    second.accept(report('563012340', 135, 1));
    await second.flush();
    expect(await row('9451238')).toMatchObject({ latitude: 33.14 });
  });

  it('ignores vessels it does not have, and learns only for IMOs it has', async () => {
    await vessel('9451238', 'PACIFIC TIDEMARK');
    const ingest = idle();
    await ingest.refreshVessels();
    ingest.accept({ positions: report('111111111', 0).positions, statics: [{ mmsi: '222222222', imo: '9703291', name: 'STRANGER' }] });
    // Nothing of ours was buffered: nothing to write.
    expect(await ingest.flush()).toBeNull();
    expect(await database.db.query('SELECT imo, mmsi FROM vessels')).toEqual([{ imo: '9451238', mmsi: null }]);
  });

  it('matches a vessel named by a carrier after the start once it reads the vessels again', async () => {
    const ingest = idle();
    await ingest.refreshVessels();
    await vessel('9451238', 'PACIFIC TIDEMARK', '563012340');
    ingest.accept(report('563012340', 0));
    expect(await ingest.flush()).toBeNull();
    await ingest.refreshVessels();
    ingest.accept(report('563012340', 1));
    expect(await ingest.flush()).toMatchObject({ vessels: 1, updated: 1 });
  });

  it('drops a batch the database refuses and goes on', async () => {
    await vessel('9451238', 'PACIFIC TIDEMARK', '563012340');
    let refuse = true;
    const db = database.db;
    const flaky: Db = {
      kind: db.kind,
      query: (text, values) => db.query(text, values),
      exec: (sql) => db.exec(sql),
      transaction: (fn) => (refuse ? Promise.reject(new Error('connection lost')) : db.transaction(fn)),
      listen: (channel, onMessage) => db.listen(channel, onMessage),
      poolStats: () => db.poolStats(),
      close: () => db.close(),
    };
    const ingest = idle(flaky);
    await ingest.refreshVessels();
    ingest.accept(report('563012340', 0));
    expect(await ingest.flush()).toMatchObject({ failed: true });
    refuse = false;
    ingest.accept(report('563012340', 90));
    expect(await ingest.flush()).toMatchObject({ failed: false, updated: 1, appended: 1 });
  });
});
