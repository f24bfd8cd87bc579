// The worker's listener on a real AIS stream (TIDEMARK_AIS_NMEA_URL). A feed names vessels only by MMSI: reports
// are matched to our vessels by it, and static reports (type 5: MMSI + IMO) teach it for vessels we know by IMO.
// Each vessel keeps its latest position and about one history point a minute. Writes are batched; nothing that
// goes wrong stops the stream (it is logged, and the stream goes on).
import type { Logger } from 'pino';
import type { Clocks } from '../domain/clock.js';
import type { AisFacts, AisStream, AisStreamHandlers } from '../sources/ais/nmea/index.js';
import type { Db } from '../storage/db.js';
import * as repo from '../storage/repositories/vessels.js';

export interface AisStreamIngestDeps {
  db: Db;
  clocks: Clocks;
  /** Opens the stream with these handlers: the composition root binds the source to its configuration. */
  open(handlers: AisStreamHandlers): AisStream;
  logger: Logger;
  /** How often what was received is written (wall time). */
  flushEveryMs?: number;
  /** How often the vessels we have are read again, so that vessels named by carriers since are matched. */
  refreshVesselsEveryMs?: number;
  /** Told after each write; tests wait on it. */
  onFlush?(result: AisFlushResult): void;
  /**
   * Called after a write that added history, with the IMO numbers of the vessels it had points for: the
   * composition root hands them to the tracking engine (AIS port calls → transport events). Failures are logged.
   */
  onNewPositions?(imos: string[]): Promise<unknown>;
}

export interface AisFlushResult {
  /** Our vessels with a position in the batch. */
  vessels: number;
  /** Vessels that learnt their MMSI (or a name) from a static report. */
  learnt: number;
  /** Vessels whose latest position moved on. */
  updated: number;
  /** History points added. */
  appended: number;
  /** The write failed and the batch was dropped (the stream's next reports replace it). */
  failed: boolean;
}

const HISTORY_SPACING_MS = repo.HISTORY_SPACING_SECONDS * 1000;

interface Pending {
  latest: repo.StreamedPosition;
  history: repo.StreamedPosition[];
}

export class AisStreamIngest {
  readonly #d: AisStreamIngestDeps;
  readonly #log: Logger;
  /** Our vessels: IMO → MMSI (null until learnt), and back. */
  #imoToMmsi = new Map<string, string | null>();
  #mmsiToImo = new Map<string, string>();
  #pending = new Map<string, Pending>();
  #learn = new Map<string, { imo: string; mmsi: string; name: string | null }>();
  #names = new Map<string, string>();
  /** When each vessel's last history point was taken, so the buffer holds at most one a minute. */
  #lastHistoryAt = new Map<string, number>();
  /** Writes and refreshes run one at a time, in order. */
  #chain: Promise<unknown> = Promise.resolve();
  #stream: AisStream | null = null;
  #timers: NodeJS.Timeout[] = [];

  constructor(deps: AisStreamIngestDeps) {
    this.#d = deps;
    this.#log = deps.logger;
  }

  /** Reads our vessels, then opens the stream. Throws only when the vessels cannot be read at all. */
  async start(): Promise<AisStream> {
    this.#useIdentities(await repo.vesselIdentities(this.#d.db));
    const stream = this.#d.open({
      now: () => this.#d.clocks.world.now(),
      onFacts: (facts) => this.accept(facts),
      log: this.#log,
    });
    this.#stream = stream;
    this.#timers.push(
      setInterval(() => void this.flush(), this.#d.flushEveryMs ?? 1000),
      setInterval(() => void this.refreshVessels(), this.#d.refreshVesselsEveryMs ?? 60_000),
    );
    this.#log.info({ url: stream.url }, 'AIS stream ingest started');
    return stream;
  }

  /** Closes the stream, then writes what is left. */
  async stop(): Promise<void> {
    for (const t of this.#timers) clearInterval(t);
    this.#timers = [];
    const stream = this.#stream;
    this.#stream = null;
    if (stream) {
      await stream.stop();
      this.#log.info({ url: stream.url, ...stream.stats() }, 'AIS stream ingest stopped');
    }
    await this.flush();
  }

  /** Buffers the facts of one message; only our vessels' are kept. */
  accept(facts: AisFacts): void {
    for (const s of facts.statics) {
      if (s.imo && this.#imoToMmsi.has(s.imo) && this.#imoToMmsi.get(s.imo) !== s.mmsi) {
        this.#learn.set(s.imo, { imo: s.imo, mmsi: s.mmsi, name: s.name });
        this.#bind(s.imo, s.mmsi);
      } else if (s.name && this.#mmsiToImo.has(s.mmsi)) {
        this.#names.set(s.mmsi, s.name);
      }
    }
    for (const p of facts.positions) {
      if (!this.#mmsiToImo.has(p.mmsi)) continue;
      const position: repo.StreamedPosition = { ...p, at: new Date(p.at) };
      const at = position.at.getTime();
      if (Number.isNaN(at)) continue;
      const entry = this.#pending.get(p.mmsi);
      if (!entry) this.#pending.set(p.mmsi, { latest: position, history: [] });
      else if (at >= entry.latest.at.getTime()) entry.latest = position;
      const last = this.#lastHistoryAt.get(p.mmsi);
      if (last === undefined || Math.abs(at - last) >= HISTORY_SPACING_MS) {
        this.#pending.get(p.mmsi)!.history.push(position);
        this.#lastHistoryAt.set(p.mmsi, at);
      }
    }
  }

  /** Writes what was buffered, in one transaction. Never throws: a failed batch is logged and dropped. */
  flush(): Promise<AisFlushResult | null> {
    const run = this.#chain.then(() => this.#write());
    this.#chain = run;
    return run;
  }

  /** Reads our vessels again (new ones named by carriers, MMSIs learnt by other workers). Never throws. */
  refreshVessels(): Promise<void> {
    const run = this.#chain.then(async () => {
      try {
        this.#useIdentities(await repo.vesselIdentities(this.#d.db));
      } catch (err) {
        this.#log.warn({ err }, 'AIS stream: could not read the vessels; matching with the ones known');
      }
    });
    this.#chain = run;
    return run;
  }

  async #write(): Promise<AisFlushResult | null> {
    if (this.#pending.size === 0 && this.#learn.size === 0 && this.#names.size === 0) return null;
    const pending = [...this.#pending.values()];
    const learn = [...this.#learn.values()];
    const names = [...this.#names].map(([mmsi, name]) => ({ mmsi, name }));
    this.#pending = new Map();
    this.#learn = new Map();
    this.#names = new Map();
    const result: AisFlushResult = { vessels: pending.length, learnt: 0, updated: 0, appended: 0, failed: false };
    try {
      await this.#d.db.transaction(async (tx) => {
        const wall = this.#d.clocks.wall.now();
        // Learning first: positions in this batch may be the first of a vessel whose MMSI it teaches.
        result.learnt = await repo.learnVesselMmsis(tx, learn, wall);
        await repo.nameVesselsByMmsi(tx, names, wall);
        const written = await repo.recordStreamedPositions(
          tx,
          pending.map((p) => p.latest),
          pending.flatMap((p) => p.history),
          wall,
        );
        result.updated = written.updated;
        result.appended = written.appended;
      });
    } catch (err) {
      result.failed = true;
      this.#log.error({ err, vessels: pending.length, learnt: learn.length }, 'AIS stream: could not store a batch; it is dropped');
    }
    if (!result.failed && result.appended > 0 && this.#d.onNewPositions) {
      const imos = [
        ...new Set(
          pending.flatMap((p) => (p.history.length > 0 ? [this.#mmsiToImo.get(p.latest.mmsi)] : [])).filter((x) => x !== undefined),
        ),
      ];
      try {
        if (imos.length > 0) await this.#d.onNewPositions(imos);
      } catch (err) {
        this.#log.warn({ err }, 'AIS stream: applying new positions to tracked shipments failed');
      }
    }
    try {
      this.#d.onFlush?.(result);
    } catch (err) {
      this.#log.warn({ err }, 'AIS stream: onFlush failed');
    }
    return result;
  }

  #useIdentities(rows: readonly { imo: string; mmsi: string | null }[]): void {
    this.#imoToMmsi = new Map(rows.map((r) => [r.imo, r.mmsi]));
    this.#mmsiToImo = new Map(rows.flatMap((r) => (r.mmsi ? [[r.mmsi, r.imo] as const] : [])));
    // Learnt but not yet written: still true.
    for (const l of this.#learn.values()) this.#bind(l.imo, l.mmsi);
  }

  #bind(imo: string, mmsi: string): void {
    const old = this.#imoToMmsi.get(imo);
    if (old) this.#mmsiToImo.delete(old);
    const former = this.#mmsiToImo.get(mmsi);
    if (former && former !== imo) this.#imoToMmsi.set(former, null);
    this.#imoToMmsi.set(imo, mmsi);
    this.#mmsiToImo.set(mmsi, imo);
  }
}
