// The tracking engine: attempts at tracking requests and refreshes of tracked shipments.
//
// A tracked shipment is shared: one per (carrier, number type, number), fetched once however many accounts
// follow it, and projected onto each account's shipment, containers and events. Each refresh fetches
// outside any transaction (sources are slow; on PGlite a transaction holds the only connection), runs the
// pure core (normalize, detectChanges, schedule) and commits everything it produced in one transaction:
// raw observations, the new state, every account's snapshots and events, and the request outcomes. The sweep
// does this for batches of due tracked shipments at once (one claim, one commit, a few multi-row statements),
// several batches in flight, so its cost per refresh is mostly the pure core's.
// Due times are domain time (the world clock); leases are wall time. A worker that dies mid-refresh leaves a
// lease that expires, and the item is simply refreshed again.
//
// This class is the facade; each step is a module of ./tracking-engine/ (listed in docs/architecture.md).
import * as repo from '../storage/repositories/tracking.js';
import { attempt } from './tracking-engine/attempt.js';
import { type EngineContext, type EngineDeps, engineContext } from './tracking-engine/context.js';
import { requestContainerRefresh, serveContainerRefresh } from './tracking-engine/on-demand-refresh.js';
import { refreshNow } from './tracking-engine/refresh.js';
import { resumeTracking, stopTracking } from './tracking-engine/stop-resume.js';
import { runDue } from './tracking-engine/sweep.js';
import { applyVesselPositions } from './tracking-engine/vessel-positions.js';

export { inOrder } from './tracking-engine/account-events.js';
export {
  type AccountContainerWrite,
  type ContainerChecks,
  trackedChecks,
  writeAccountContainers,
} from './tracking-engine/account-shipments.js';
export {
  type EngineDeps,
  FRESH_ENOUGH_MS,
  LEASE_MS,
  REFRESH_BATCH,
  REFRESH_LANES,
  REFRESH_REQUEST_ATTEMPTS,
  TRACKING_REFRESH_JOB,
} from './tracking-engine/context.js';
export { terminalKeysToAsk } from './tracking-engine/fetch-sources.js';
export type { ContainerSnapshot } from '../tracking/snapshot.js';

export class TrackingEngine {
  readonly #ctx: EngineContext;

  constructor(deps: EngineDeps) {
    this.#ctx = engineContext(deps);
  }

  /**
   * Stops tracking an account's shipment at the user's request (`cancelled_by_user`); its requests become
   * `tracking_stopped`. Undefined when the account has no such shipment; a stopped one stays as it is.
   */
  async stopTracking(accountId: string, shipmentId: string): Promise<{ id: string } | undefined> {
    return stopTracking(this.#ctx, accountId, shipmentId);
  }

  /** Resumes a stopped shipment: its requests are `created` again and its sources are asked at once. */
  async resumeTracking(accountId: string, shipmentId: string): Promise<{ id: string } | undefined> {
    return resumeTracking(this.#ctx, accountId, shipmentId);
  }

  /**
   * Queues an immediate pull from line, terminal and rail for the shipment of an account's container (one
   * waiting refresh per container). Undefined when the account has no such container.
   */
  async requestContainerRefresh(accountId: string, containerId: string): Promise<{ trackedShipmentId: string | null } | undefined> {
    return requestContainerRefresh(this.#ctx, accountId, containerId);
  }

  /** One refresh job's work: serves the on-demand refresh whose turn it is (see on-demand-refresh.ts). */
  async serveContainerRefresh(jobId: string): Promise<'refreshed' | 'stopped' | 'held' | 'failed' | 'none'> {
    return serveContainerRefresh(this.#ctx, jobId);
  }

  /**
   * Runs everything due at `worldNow` (default: the world clock's now): tracking-request attempts and
   * tracked-shipment refreshes, the most overdue first. Returns how many it handled.
   */
  async runDue(worldNow: Date = this.#ctx.clocks.world.now(), limit = 500): Promise<number> {
    return runDue(this.#ctx, worldNow, limit);
  }

  /**
   * At the start of the only process that can use the database (embedded PGlite, held by a directory
   * lock), every lease left in it belongs to a process that died: release them so its work resumes now
   * instead of when the leases expire. Never call this on a shared PostgreSQL server.
   */
  async releaseLeasesOfDeadProcess(): Promise<void> {
    await repo.clearAllLeases(this.#ctx.db);
  }

  /** How each source has been answering (for /metrics and operators). */
  sourceHealth(): Promise<repo.SourceHealthRow[]> {
    return repo.listSourceHealth(this.#ctx.db);
  }

  /** The earliest attempt or refresh due after `worldNow` (null when nothing is scheduled). */
  nextDueAfter(worldNow: Date): Promise<Date | null> {
    return repo.nextDueAfter(this.#ctx.db, worldNow);
  }

  /** One attempt at a tracking request, when one is due and nobody else holds it; false otherwise. */
  async attempt(trackingRequestId: string, worldNow: Date = this.#ctx.clocks.world.now()): Promise<boolean> {
    return attempt(this.#ctx, trackingRequestId, worldNow);
  }

  /**
   * Refreshes a tracked shipment now: asks the sources that are due (all of them with `force`), commits the
   * changes for every account following it. False when another worker holds it or it is not active.
   */
  async refresh(trackedId: string, opts: { worldNow?: Date; force?: boolean } = {}): Promise<boolean> {
    return (await refreshNow(this.#ctx, trackedId, opts)) === 'refreshed';
  }

  /**
   * Applies new AIS positions of these vessels (IMO numbers) to the actively tracked shipments they carry to
   * their POD, without asking any source. Returns how many changed.
   */
  async applyVesselPositions(imos: readonly string[], worldNow: Date = this.#ctx.clocks.world.now()): Promise<number> {
    return applyVesselPositions(this.#ctx, imos, worldNow);
  }
}
