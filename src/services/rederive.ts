// The re-derivation of stored data when the derivation rules change (tracking/derivation.ts DERIVATION_VERSION):
// every tracked shipment's stored containers, and every account container, re-derived under the current rules and
// written as the engine's projection writes them, without announcing anything (no account events, no webhook
// notifications, no transport events). It runs once per version, at the first start of a worker (compose.ts) or by
// `tidemark rederive`, in batches that each commit with their progress: a crash resumes where it stopped, and
// processes starting together take the batches in turn (the `derivation` row's lock).
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.js';
import type { Db, Queryable } from '../storage/db.js';
import * as derivation from '../storage/repositories/derivation.js';
import { activeLinkedShipmentsOf } from '../storage/repositories/tracking.js';
import { DERIVATION_VERSION, rederiveContainer } from '../tracking/derivation.js';
import type { ContainerSnapshot } from '../tracking/snapshot.js';
import { readContainerSnapshot, readContainerSnapshots, readShipmentSnapshot } from '../tracking/stored.js';
import { type AccountContainerWrite, trackedChecks, writeAccountContainers } from './tracking-engine.js';

/** Tracked shipments (or, in the second step, account shipments) re-derived in one transaction. */
export const REDERIVE_BATCH = 200;

export interface RederiveResult {
  /** Whether this call re-derived anything (false: the data was current, or another process finished it). */
  ran: boolean;
  /** The version the stored data is derived under when the call returns. */
  version: number;
  trackedShipments: number;
  /** Account containers written by this call. */
  containers: number;
  /** Tracked shipments or account shipments left as they were because their stored data could not be re-derived. */
  skipped: string[];
  /** Whether it stopped before the end (`shouldStop`); a later run resumes. */
  stopped: boolean;
  ms: number;
}

interface BatchResult {
  done: boolean;
  trackedShipments: number;
  containers: number;
  skipped: string[];
}

export class Rederivation {
  readonly #db: Db;
  readonly #wall: Clock;
  readonly #log: Logger | undefined;
  readonly #batch: number;
  readonly #version: number;

  constructor(deps: { db: Db; wall: Clock; logger?: Logger; batch?: number; version?: number }) {
    this.#db = deps.db;
    this.#wall = deps.wall;
    this.#log = deps.logger;
    this.#batch = deps.batch ?? REDERIVE_BATCH;
    this.#version = deps.version ?? DERIVATION_VERSION;
  }

  /** Whether the stored data was derived under older rules, or a re-derivation is under way. */
  async behind(): Promise<boolean> {
    const row = await derivation.readDerivation(this.#db);
    return row.target !== null || row.version < this.#version;
  }

  /**
   * Re-derives everything when the stored data is behind the current rules (or, with `force`, in any case), then
   * records the current version. Resumes a re-derivation a crash interrupted. `shouldStop` is asked between batches.
   */
  async run(opts: { force?: boolean; shouldStop?: () => boolean } = {}): Promise<RederiveResult> {
    const started = performance.now();
    const result: RederiveResult = { ran: false, version: 0, trackedShipments: 0, containers: 0, skipped: [], stopped: false, ms: 0 };
    const begun = await this.#db.transaction((tx) => this.#begin(tx, opts.force ?? false));
    if (begun) {
      result.ran = true;
      let lastLog = started;
      for (;;) {
        if (opts.shouldStop?.()) {
          result.stopped = true;
          break;
        }
        const batch = await this.#db.transaction((tx) => this.#step(tx));
        result.trackedShipments += batch.trackedShipments;
        result.containers += batch.containers;
        result.skipped.push(...batch.skipped);
        if (batch.done) break;
        if (performance.now() - lastLog > 10_000) {
          lastLog = performance.now();
          this.#log?.info(
            { tracked_shipments: result.trackedShipments, containers: result.containers },
            're-deriving stored containers under the current rules',
          );
        }
        // Let the requests waiting for the database (one connection on PGlite) have it between batches.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    result.version = (await derivation.readDerivation(this.#db)).version;
    result.ms = Math.round(performance.now() - started);
    if (result.ran) {
      this.#log?.info(
        {
          version: result.version,
          tracked_shipments: result.trackedShipments,
          containers: result.containers,
          skipped: result.skipped.length,
          stopped: result.stopped,
          ms: result.ms,
        },
        result.stopped ? 're-derivation stopped; the next start resumes it' : 're-derivation done',
      );
    }
    return result;
  }

  /** Starts a re-derivation when one is due; true when one is under way (begun here or before). */
  async #begin(tx: Queryable, force: boolean): Promise<boolean> {
    const row = await derivation.lockDerivation(tx);
    if (row.target === this.#version) return true;
    if (row.target === null && row.version > this.#version && !force) {
      this.#log?.warn(
        { stored: row.version, rules: this.#version },
        'the stored data was derived under newer rules than this version of Tidemark knows; left as it is',
      );
      return false;
    }
    if (row.target === null && row.version >= this.#version && !force) return false;
    // Not under way, or under way for other rules (a crash, then another version): start from the beginning.
    await derivation.saveDerivation(tx, {
      version: row.version,
      target: this.#version,
      step: 'tracked',
      after_id: null,
      containers: 0,
      started_at: this.#wall.now(),
      finished_at: null,
    });
    this.#log?.info({ from: row.version, to: this.#version }, 're-deriving stored containers under the current rules');
    return true;
  }

  /** One batch of the re-derivation under way, committed with its progress. */
  async #step(tx: Queryable): Promise<BatchResult> {
    const row = await derivation.lockDerivation(tx);
    const none: BatchResult = { done: true, trackedShipments: 0, containers: 0, skipped: [] };
    // Finished by another process meanwhile.
    if (row.target === null) return none;
    if (row.target !== this.#version) {
      throw new Error(
        `a re-derivation to derivation version ${row.target} is under way; this process derives version ${this.#version}: stop the processes of the other version`,
      );
    }
    const batch = row.step === 'shipments' ? await this.#shipments(tx, row.after_id) : await this.#tracked(tx, row.after_id);
    if (batch.lastId === null) {
      if (row.step === 'tracked') {
        await derivation.saveDerivation(tx, { ...row, step: 'shipments', after_id: null });
        return { ...none, done: false };
      }
      await derivation.saveDerivation(tx, {
        ...row,
        version: row.target,
        target: null,
        step: null,
        after_id: null,
        finished_at: this.#wall.now(),
      });
      return none;
    }
    await derivation.saveDerivation(tx, { ...row, after_id: batch.lastId, containers: row.containers + batch.containers });
    return { done: false, trackedShipments: batch.trackedShipments, containers: batch.containers, skipped: batch.skipped };
  }

  /**
   * The next tracked shipments: their states' containers re-derived and written back, then projected onto the
   * account shipments following them, as a refresh projects them (writeAccountContainers).
   */
  async #tracked(tx: Queryable, afterId: string | null) {
    const tracked = await derivation.lockTrackedSnapshotsAfter(tx, afterId, this.#batch);
    const skipped: string[] = [];
    const states = new Map<string, ContainerSnapshot[]>();
    const rows = [];
    for (const t of tracked) {
      if (!Array.isArray(t.containers)) continue;
      try {
        const shipment = readShipmentSnapshot(t.shipment, "tracked_shipments.state->'shipment'");
        const containers = readContainerSnapshots(t.containers).map((c) => rederiveContainer(c, shipment));
        rows.push({ id: t.row.id, containers });
        // A state without a shipment is projected onto nobody (the engine's rule).
        if (shipment) states.set(t.row.id, containers);
      } catch (err) {
        this.#log?.error({ err, tracked_shipment_id: t.row.id }, 'could not re-derive a tracked shipment; left as it is');
        skipped.push(t.row.id);
      }
    }
    await derivation.saveTrackedContainers(tx, rows);
    const byId = new Map(tracked.map((t) => [t.row.id, t.row]));
    const writes: AccountContainerWrite[] = [];
    for (const shipment of await activeLinkedShipmentsOf(tx, [...states.keys()])) {
      const row = byId.get(shipment.tracked_shipment_id)!;
      for (const container of states.get(shipment.tracked_shipment_id)!) {
        writes.push({ shipment, container, checks: trackedChecks(row, container) });
      }
    }
    await writeAccountContainers(tx, writes, this.#wall.now());
    return { lastId: tracked.at(-1)?.row.id ?? null, trackedShipments: rows.length, containers: writes.length, skipped };
  }

  /**
   * The next account shipments no refresh writes (stopped, or following nothing): each container re-derived from
   * what the account has, with its shipment's snapshot, and written as a projection writes it.
   */
  async #shipments(tx: Queryable, afterId: string | null) {
    const shipments = await derivation.unprojectedShipmentsAfter(tx, afterId, this.#batch);
    const byId = new Map(shipments.map((s) => [s.id, s]));
    const skipped: string[] = [];
    const writes: AccountContainerWrite[] = [];
    const failed = new Set<string>();
    for (const c of await derivation.lockContainersOf(
      tx,
      shipments.map((s) => s.id),
    )) {
      const shipment = byId.get(c.shipment_id)!;
      if (failed.has(shipment.id) || !c.snapshot) continue;
      try {
        const container = rederiveContainer(readContainerSnapshot(c.snapshot), readShipmentSnapshot(shipment.snapshot));
        const { terminal_checked_at, terminal_next_check_at, rail_checked_at, rail_next_check_at } = c;
        writes.push({ shipment, container, checks: { terminal_checked_at, terminal_next_check_at, rail_checked_at, rail_next_check_at } });
      } catch (err) {
        this.#log?.error({ err, shipment_id: shipment.id }, "could not re-derive an account shipment's containers; left as they are");
        failed.add(shipment.id);
        skipped.push(shipment.id);
      }
    }
    const kept = writes.filter((w) => !failed.has(w.shipment.id));
    await writeAccountContainers(tx, kept, this.#wall.now());
    return { lastId: shipments.at(-1)?.id ?? null, trackedShipments: 0, containers: kept.length, skipped };
  }
}
