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
import type { Logger } from 'pino';
import type { Account } from '../domain/account.js';
import type { Clocks } from '../domain/clock.js';
import { newId } from '../lib/ids.js';
import { SourceError, type SourceObservation, type TrackTarget } from '../sources/contract.js';
import { RAILROADS, terminalById, terminalNaturalKey } from '../sources/reference/index.js';
import type { RegisteredSource, SourceRegistry } from '../sources/registry.js';
import type { Db, Queryable } from '../storage/db.js';
import { findAccountById } from '../storage/repositories/accounts.js';
import * as refreshes from '../storage/repositories/refreshes.js';
import * as requests from '../storage/repositories/tracking-requests.js';
import * as repo from '../storage/repositories/tracking.js';
import { findVesselsByImos, rememberVessels } from '../storage/repositories/vessels.js';
import { portByLocode } from '../sources/reference/index.js';
import { pickupFacts } from '../tracking/attention.js';
import { aisMilestones, aisWindow } from '../tracking/port-calls.js';
import type { NormalizeInput } from '../tracking/normalize.js';
import { type DomainEvent, detectChanges, type StoredState } from '../tracking/changes.js';
import { inferNumber } from '../tracking/infer-number.js';
import { normalize } from '../tracking/normalize.js';
import { isoInstant } from '../tracking/time.js';
import { type AttemptDecision, autoStopReason, decideAfterSourceError, nextChecks, type StopReason } from '../tracking/schedule.js';
import type { ContainerSnapshot, FacilityRef, ShipmentSnapshot } from '../tracking/snapshot.js';
import type { JobSender } from './jobs.js';
import type { RateLimitService } from './rate-limits.js';
import type { ShippingLineService } from './shipping-lines.js';
import { vesselsNamedIn } from './vessels.js';
import { FREE_PLAN_CONTAINER_CAP } from './tracking-requests.js';

/**
 * The job that serves on-demand refreshes (`PATCH /v2/containers/{id}/refresh`): one is queued per container refresh
 * waiting in `container_refreshes`, and each serves the fairest one waiting (see `serveContainerRefresh`).
 */
export const TRACKING_REFRESH_JOB = 'tracking.refresh';
/** An on-demand refresh whose refresh fails this many times (an error of ours) is given up. */
export const REFRESH_REQUEST_ATTEMPTS = 3;
/** How soon a refresh job comes back for requests whose shipment another worker was refreshing (wall time). */
const HELD_RETRY_MS = 5_000;

/** How long a worker holds a request or a tracked shipment before another may take it over (wall time). */
export const LEASE_MS = 2 * 60_000;
/** A tracked shipment fetched this recently (domain time) is not fetched again for a new account's request. */
export const FRESH_ENOUGH_MS = 15 * 60_000;
/**
 * The sweep refreshes due tracked shipments in batches: each claims up to this many in one statement, fetches them
 * side by side and commits them in one transaction (a few multi-row statements whatever the batch size).
 */
export const REFRESH_BATCH = 25;
/** Batches in flight at once per process: one commits while the next is fetched and normalized. */
export const REFRESH_LANES = 3;
/** Every engine event gets the features that unlock gated events; each account then sees what it may. */
const ALL_FEATURES = ['rail_lfd'];

export interface EngineDeps {
  db: Db;
  clocks: Clocks;
  /** The data sources; a function because the sandbox's URL is known only once the API listens. */
  registry: () => SourceRegistry;
  shippingLines: ShippingLineService;
  jobs: JobSender;
  /** Our own per-source limits (`TIDEMARK_CARRIER_<SCAC>_RATE_LIMIT`), counted across processes. */
  rateLimits: Pick<RateLimitService, 'takeKeyed'>;
  logger?: Logger;
}

/** What one refresh learned, before anything is written. */
interface Gathered {
  observations: SourceObservation[];
  /** Each source asked, and its error when it failed (a "not found" is an answer). */
  asked: { sourceId: string; error: string | null }[];
  carrier: SourceObservation | null;
  carrierError: SourceError | null;
  terminalAsked: boolean;
  railAsked: boolean;
  railScac: string | null;
  state: StoredState | null;
  events: DomainEvent[];
}

/** What an account event points at, and its payload. */
interface AccountEventRefs {
  tracking_request_id?: string | null;
  shipment_id?: string | null;
  container_id?: string | null;
  transport_event_id?: string | null;
  estimated_event_id?: string | null;
  payload: unknown;
}

/** One tracked shipment's refresh, ready to commit. */
interface Unit {
  tracked: repo.TrackedShipmentRow;
  g: Gathered;
  /** `adopting`: a first attempt's fetch (no follower yet); `keepSchedule`: an AIS-only update. */
  opts?: { adopting?: boolean; keepSchedule?: boolean };
}

/** What one account shipment is given: the state to show and the events to announce. */
interface Projection {
  shipment: { id: string; account_id: string; features: readonly string[] };
  state: StoredState;
  events: readonly DomainEvent[];
  tracked: repo.TrackedShipmentRow;
  /** The state the account had (its records need no write); null: write them all. */
  previous: StoredState | null;
}

export class TrackingEngine {
  readonly #db: Db;
  readonly #clocks: Clocks;
  readonly #registry: () => SourceRegistry;
  readonly #shippingLines: ShippingLineService;
  readonly #log: Logger | undefined;
  readonly #jobs: JobSender;
  readonly #rateLimits: Pick<RateLimitService, 'takeKeyed'>;

  constructor(deps: EngineDeps) {
    this.#db = deps.db;
    this.#clocks = deps.clocks;
    this.#registry = deps.registry;
    this.#shippingLines = deps.shippingLines;
    this.#log = deps.logger;
    this.#jobs = deps.jobs;
    this.#rateLimits = deps.rateLimits;
  }

  /**
   * Stops tracking an account's shipment at the user's request (`cancelled_by_user`); its requests become
   * `tracking_stopped`. Undefined when the account has no such shipment; a stopped one stays as it is.
   */
  async stopTracking(accountId: string, shipmentId: string): Promise<{ id: string } | undefined> {
    const worldNow = this.#clocks.world.now();
    return this.#db.transaction(async (tx) => {
      const shipment = await repo.findAccountShipment(tx, accountId, shipmentId);
      if (!shipment) return undefined;
      if (!shipment.line_tracking_stopped_at) await this.#stop(tx, shipment, 'cancelled_by_user', worldNow, true);
      return { id: shipment.id };
    });
  }

  /** Resumes a stopped shipment: its requests are `created` again and its sources are asked at once. */
  async resumeTracking(accountId: string, shipmentId: string): Promise<{ id: string } | undefined> {
    const worldNow = this.#clocks.world.now();
    const wall = this.#clocks.wall.now();
    return this.#db.transaction(async (tx) => {
      const shipment = await repo.findAccountShipment(tx, accountId, shipmentId);
      if (!shipment) return undefined;
      if (shipment.line_tracking_stopped_at) {
        await repo.resumeShipment(tx, shipment.id, worldNow, wall);
        await requests.setStatusForShipment(tx, shipment.id, 'tracking_stopped', 'created', wall);
        if (shipment.tracked_shipment_id) {
          await repo.reactivateTrackedShipment(tx, shipment.tracked_shipment_id, worldNow, wall);
          // Catch up silently on what changed while it was stopped; the next refresh announces what is new. Read
          // after the update above, which holds the row's lock: a refresh has committed, or projects onto this
          // shipment too once this commits.
          const tracked = await repo.findTrackedShipment(tx, shipment.tracked_shipment_id);
          const state = (tracked?.state as StoredState | null) ?? null;
          if (tracked && state?.shipment) {
            const account = await findAccountById(tx, accountId);
            await this.#project(
              tx,
              [{ shipment: { ...shipment, features: account?.features ?? [] }, state, events: [], tracked, previous: null }],
              worldNow,
            );
          }
        }
      }
      return { id: shipment.id };
    });
  }

  /**
   * Queues an immediate pull from line, terminal and rail for the shipment of an account's container: a row in
   * `container_refreshes` and, in the same transaction, one refresh job. A container whose refresh waits already
   * (or is being served) gets nothing more: the answer is the same, no second job. Undefined when the account has
   * no such container; a container whose tracking stopped is not refreshed (the answer is the same too).
   */
  async requestContainerRefresh(accountId: string, containerId: string): Promise<{ trackedShipmentId: string | null } | undefined> {
    const wall = this.#clocks.wall.now();
    return this.#db.transaction(async (tx) => {
      const found = await repo.findAccountContainerTracking(tx, accountId, containerId);
      if (!found) return undefined;
      if (found.tracked_shipment_id && !found.line_tracking_stopped_at) {
        const added = await refreshes.requestContainerRefresh(tx, {
          containerId,
          accountId,
          trackedShipmentId: found.tracked_shipment_id,
          requestedAt: wall,
        });
        // Jobs are not tied to rows (each serves the fairest waiting one), so one job per row waiting is enough.
        if (added) await this.#jobs.enqueue(tx, TRACKING_REFRESH_JOB, {});
      }
      return { trackedShipmentId: found.tracked_shipment_id };
    });
  }

  /**
   * One refresh job's work (`jobId`: the job's id, the same on pg-boss's retries). Serves the on-demand refresh
   * whose turn it is: the oldest waiting request of the account served longest ago, so that accounts take turns
   * however many requests one of them queued, with every other request for the same tracked shipment (one forced
   * refresh serves them all). The requests are deleted once that refresh has committed; until then the job holds
   * them, and a retry of a job that died holding them takes them back, so a crash loses none. When the shipment is
   * being refreshed by another worker, the requests are given back and a job comes back for them shortly; when
   * the refresh fails, they are given back with a failure counted (given up after REFRESH_REQUEST_ATTEMPTS) and a
   * job comes back for them. What it did: `none` when no request was free.
   */
  async serveContainerRefresh(jobId: string): Promise<'refreshed' | 'stopped' | 'held' | 'failed' | 'none'> {
    const wall = this.#clocks.wall.now();
    const taken = await this.#db.transaction((tx) =>
      refreshes.takeContainerRefreshes(tx, jobId, wall, new Date(wall.getTime() + LEASE_MS)),
    );
    if (taken.length === 0) return 'none';
    const trackedId = taken[0]!.tracked_shipment_id;
    let outcome: 'refreshed' | 'inactive' | 'held';
    try {
      outcome = await this.#refreshNow(trackedId, { force: true });
    } catch {
      // #refreshNow logged it. Given back, the job that comes back tries again.
      const givenUp = await this.#db.transaction(async (tx) => {
        const { released, givenUp } = await refreshes.releaseContainerRefreshes(tx, jobId, {
          failed: true,
          giveUpAfter: REFRESH_REQUEST_ATTEMPTS,
        });
        if (released > 0) await this.#jobs.enqueue(tx, TRACKING_REFRESH_JOB, {}, { startAfter: new Date(wall.getTime() + HELD_RETRY_MS) });
        return givenUp;
      });
      for (const r of givenUp) {
        this.#log?.error(
          { container_id: r.container_id, account_id: r.account_id, tracked_shipment_id: r.tracked_shipment_id, failures: r.failures },
          'on-demand refresh given up after repeated failures',
        );
      }
      return 'failed';
    }
    if (outcome === 'held') {
      const until = new Date(wall.getTime() + HELD_RETRY_MS);
      await this.#db.transaction(async (tx) => {
        await refreshes.releaseContainerRefreshes(tx, jobId, { failed: false, giveUpAfter: REFRESH_REQUEST_ATTEMPTS });
        await this.#jobs.enqueue(tx, TRACKING_REFRESH_JOB, {}, { startAfter: until });
      });
      return 'held';
    }
    // Refreshed, or its tracking stopped meanwhile (nothing left to refresh): either way the requests are done.
    await refreshes.finishContainerRefreshes(this.#db, jobId);
    return outcome === 'refreshed' ? 'refreshed' : 'stopped';
  }

  /**
   * Runs everything due at `worldNow` (default: the world clock's now): tracking-request attempts and
   * tracked-shipment refreshes, the most overdue first. Returns how many it handled.
   */
  async runDue(worldNow: Date = this.#clocks.world.now(), limit = 500): Promise<number> {
    let handled = 0;
    const wall = this.#clocks.wall.now();
    for (const id of await requests.dueTrackingRequests(this.#db, worldNow, wall, limit)) {
      if (await this.attempt(id, worldNow)) handled++;
    }
    return handled + (await this.#refreshDue(worldNow, limit));
  }

  /**
   * Refreshes up to `limit` due tracked shipments in batches, REFRESH_LANES at once. Each batch is claimed in one
   * statement (leases, skipping what other workers hold), fetched side by side and committed in one
   * transaction; when that commit fails, each refresh of the batch is committed alone, so one bad item holds
   * back no other. Items that fail are released (due again) and the first failure is thrown at the end.
   */
  async #refreshDue(worldNow: Date, limit: number): Promise<number> {
    let left = limit;
    let handled = 0;
    const failures: unknown[] = [];
    const lane = async () => {
      for (;;) {
        const take = Math.min(REFRESH_BATCH, left);
        if (take <= 0) return;
        left -= take;
        const wall = this.#clocks.wall.now();
        const claimed = await repo.claimDueTrackedShipments(this.#db, worldNow, wall, new Date(wall.getTime() + LEASE_MS), take);
        left += take - claimed.length;
        if (claimed.length === 0) return;
        const committed = await this.#refreshClaimed(claimed, worldNow, failures);
        handled += committed;
      }
    };
    await Promise.all(Array.from({ length: REFRESH_LANES }, lane));
    if (failures.length > 0) throw failures[0];
    return handled;
  }

  /** Gathers and commits claimed tracked shipments (see #refreshDue); returns how many were committed. */
  async #refreshClaimed(claimed: repo.TrackedShipmentRow[], worldNow: Date, failures: unknown[]): Promise<number> {
    const failed = async (tracked: repo.TrackedShipmentRow, err: unknown) => {
      this.#log?.error({ err, tracked_shipment_id: tracked.id }, 'refresh failed');
      failures.push(err);
      await repo.releaseTrackedShipment(this.#db, tracked.id, tracked.lease_until);
    };
    let gathered: (Gathered | { failed: unknown })[];
    try {
      gathered = await this.#gatherAll(claimed, worldNow, {});
    } catch (err) {
      for (const tracked of claimed) await failed(tracked, err);
      return 0;
    }
    const units: Unit[] = [];
    for (const [i, g] of gathered.entries()) {
      if ('failed' in g) await failed(claimed[i]!, g.failed);
      else units.push({ tracked: claimed[i]!, g });
    }
    if (units.length === 0) return 0;
    let committed = 0;
    try {
      await this.#db.transaction((tx) => this.#commitRefresh(tx, units, worldNow));
      committed = units.length;
    } catch (err) {
      if (units.length === 1) await failed(units[0]!.tracked, err);
      else {
        for (const unit of units) {
          try {
            await this.#db.transaction((tx) => this.#commitRefresh(tx, [unit], worldNow));
            committed++;
          } catch (err) {
            await failed(unit.tracked, err);
          }
        }
      }
    }
    // The sources answered, whatever became of the commit.
    await this.#recordHealth(units.flatMap((u) => u.g.asked)).catch((err: unknown) => {
      this.#log?.error({ err }, 'recording source health failed');
      failures.push(err);
    });
    return committed;
  }

  /**
   * Records how each source answered, in a transaction of its own after the refreshes': health rows are shared
   * by every refresh of every worker, and a row written in a refresh's transaction would stay locked until that
   * commits, making concurrent refreshes wait for each other. Health is an operator's signal, not a promise, so
   * it is committed without waiting for the disk: a server crash may lose its last moment, which the next
   * answers record again.
   */
  async #recordHealth(asked: readonly { sourceId: string; error: string | null }[]): Promise<void> {
    if (asked.length === 0) return;
    const wall = this.#clocks.wall.now();
    await this.#db.transaction(async (tx) => {
      await tx.query('SET LOCAL synchronous_commit = off');
      await repo.recordSourceHealthMany(tx, asked, wall);
    });
  }

  /**
   * At the start of the only process that can use the database (embedded PGlite, held by a directory
   * lock), every lease left in it belongs to a process that died: release them so its work resumes now
   * instead of when the leases expire. Never call this on a shared PostgreSQL server.
   */
  async releaseLeasesOfDeadProcess(): Promise<void> {
    await repo.clearAllLeases(this.#db);
  }

  /** How each source has been answering (for /metrics and operators). */
  sourceHealth(): Promise<repo.SourceHealthRow[]> {
    return repo.listSourceHealth(this.#db);
  }

  /** The earliest attempt or refresh due after `worldNow` (null when nothing is scheduled). */
  nextDueAfter(worldNow: Date): Promise<Date | null> {
    return repo.nextDueAfter(this.#db, worldNow);
  }

  /** One attempt at a tracking request, when one is due and nobody else holds it; false otherwise. */
  async attempt(trackingRequestId: string, worldNow: Date = this.#clocks.world.now()): Promise<boolean> {
    const wall = this.#clocks.wall.now();
    const req = await requests.claimTrackingRequest(this.#db, trackingRequestId, wall, new Date(wall.getTime() + LEASE_MS));
    if (!req) return false;
    try {
      await this.#attempt(req, worldNow);
    } catch (err) {
      this.#log?.error({ err, tracking_request_id: req.id }, 'tracking request attempt failed');
      // An error of ours, not the source's: count it as a temporary failure so the request is not stuck.
      await this.#db.transaction((tx) =>
        this.#finish(tx, req, decideAfterSourceError('unavailable', this.#attemptState(req), worldNow), worldNow, req.scac),
      );
    }
    return true;
  }

  async #attempt(req: requests.TrackingRequestRecord, worldNow: Date): Promise<void> {
    const account = await findAccountById(this.#db, req.account_id);
    if (!account) return;
    const scac = req.scac || this.#detectScac(account, req.request_number);
    if (!scac) {
      await this.#db.transaction((tx) =>
        this.#finish(tx, req, { status: 'failed', failedReason: 'scac_auto_detect_failed' }, worldNow, ''),
      );
      return;
    }
    const source = this.#registry().carrier(scac);
    if (!source) {
      const decision = decideAfterSourceError('unavailable', this.#attemptState(req), worldNow);
      await this.#db.transaction((tx) => this.#finish(tx, req, decision, worldNow, scac));
      return;
    }
    const tracked = await repo.ensureTrackedShipment(
      this.#db,
      { id: newId(), scac, numberType: req.request_type, number: req.request_number },
      this.#clocks.wall.now(),
    );
    const duplicate = await repo.findAccountShipmentFor(this.#db, req.account_id, tracked.id, req.request_type, req.request_number, scac);
    if (duplicate) {
      await this.#db.transaction((tx) =>
        this.#finish(tx, req, { status: 'failed', failedReason: 'duplicate' }, worldNow, scac, duplicate.id),
      );
      return;
    }

    // Reuse what another account's tracking fetched a moment ago; else fetch now (and refresh for everyone).
    const fresh = freshEnough(tracked, worldNow);
    let gathered: Gathered | null = null;
    let claimed: repo.TrackedShipmentRow | undefined;
    if (!fresh) {
      const wall = this.#clocks.wall.now();
      claimed = await repo.claimTrackedShipment(this.#db, tracked.id, wall, new Date(wall.getTime() + LEASE_MS), { activeOnly: false });
      if (!claimed) {
        // Another worker is refreshing it right now.
        await this.#attemptAgainSoon(this.#db, req, worldNow);
        return;
      }
      gathered = await this.#gather(claimed, worldNow, { forceLine: true });
    }

    await this.#db.transaction(async (tx) => {
      if (claimed && gathered) {
        await this.#commitRefresh(tx, [{ tracked: claimed, g: gathered, opts: { adopting: true } }], worldNow);
        if (gathered.carrierError) {
          const err = gathered.carrierError;
          await this.#finish(
            tx,
            req,
            decideAfterSourceError(err.kind, this.#attemptState(req), worldNow, err.details.retryAfterSeconds),
            worldNow,
            scac,
          );
          return;
        }
      }
      // Reusing: `tracked` was read before this transaction, and a refresh committing since projects onto every
      // follower but this new one. Under a share lock, either that refresh has committed (its state is read here)
      // or it waits to write the row until this shipment is committed; this relies on #commitRefresh writing the
      // row before it reads the followers. Claimed: this transaction has just written the row itself.
      const current = (await repo.lockTrackedShipment(tx, tracked.id)) ?? tracked;
      if (!claimed && !freshEnough(current, worldNow)) {
        // A refresh stopped it meanwhile (nobody followed it, or it ended), so none would reach this shipment:
        // the next attempt fetches.
        await this.#attemptAgainSoon(tx, req, worldNow);
        return;
      }
      const state = gathered ? gathered.state : ((current.state as StoredState | null) ?? null);
      if (!state?.shipment) {
        await this.#finish(tx, req, { status: 'failed', failedReason: 'data_unavailable' }, worldNow, scac);
        return;
      }
      if (account.plan === 'free') {
        const active = await requests.countActiveContainers(tx, account.id);
        if (active + state.containers.length > FREE_PLAN_CONTAINER_CAP) {
          await this.#finish(tx, req, { status: 'failed', failedReason: 'plan_limit_reached' }, worldNow, scac);
          return;
        }
      }
      const shipmentId = newId();
      await repo.insertTrackedAccountShipment(
        tx,
        {
          id: shipmentId,
          account_id: account.id,
          tracked_shipment_id: tracked.id,
          customer_id: req.customer_id,
          request_number: req.request_number,
          ref_numbers: req.ref_numbers,
          tags: req.shipment_tags,
          created_at: this.#clocks.wall.now(),
        },
        shipmentColumns(state.shipment, current, req.request_number),
      );
      // The first snapshot is the account's baseline: its containers are created, history is stored, and
      // nothing else is announced.
      const baseline: DomainEvent[] = state.containers.map((c) => ({
        type: 'container.created',
        container_number: c.number,
        timestamp: isoInstant(worldNow.getTime()),
        timezone: null,
      }));
      await this.#project(
        tx,
        [
          {
            shipment: { id: shipmentId, account_id: account.id, features: account.features },
            state,
            events: baseline,
            tracked: current,
            previous: null,
          },
        ],
        worldNow,
      );
      const done = await this.#finish(tx, req, null, worldNow, scac, shipmentId);
      await this.#accountEvent(tx, account.id, 'tracking_request.succeeded', worldNow, {
        tracking_request_id: done.id,
        shipment_id: shipmentId,
        payload: { tracking_request_id: done.id, shipment_id: shipmentId },
      });
      // A journey already over (this attempt's fetch found it so): stopped like every other follower, else it
      // would wait for refreshes of a tracked shipment that no longer gets any.
      if (!current.active && current.stopped_reason) {
        await this.#stop(tx, { id: shipmentId, account_id: account.id }, current.stopped_reason, worldNow, false);
      }
    });
    if (gathered) await this.#recordHealth(gathered.asked);
  }

  /**
   * Refreshes a tracked shipment now: asks the sources that are due (all of them with `force`), commits the
   * changes for every account following it. False when another worker holds it or it is not active.
   */
  async refresh(trackedId: string, opts: { worldNow?: Date; force?: boolean } = {}): Promise<boolean> {
    return (await this.#refreshNow(trackedId, opts)) === 'refreshed';
  }

  /** `refresh`, saying why it did not: `held` by another worker, or `inactive` (stopped, or gone). */
  async #refreshNow(trackedId: string, opts: { worldNow?: Date; force?: boolean }): Promise<'refreshed' | 'held' | 'inactive'> {
    const worldNow = opts.worldNow ?? this.#clocks.world.now();
    const wall = this.#clocks.wall.now();
    const tracked = await repo.claimTrackedShipment(this.#db, trackedId, wall, new Date(wall.getTime() + LEASE_MS), { activeOnly: true });
    if (!tracked) return (await repo.findTrackedShipment(this.#db, trackedId))?.active ? 'held' : 'inactive';
    try {
      const gathered = await this.#gather(tracked, worldNow, { forceLine: opts.force ?? false, forceYard: opts.force ?? false });
      await this.#db.transaction((tx) => this.#commitRefresh(tx, [{ tracked, g: gathered }], worldNow));
      await this.#recordHealth(gathered.asked);
    } catch (err) {
      this.#log?.error({ err, tracked_shipment_id: trackedId }, 'refresh failed');
      await repo.releaseTrackedShipment(this.#db, trackedId, tracked.lease_until);
      throw err;
    }
    return 'refreshed';
  }

  /** Fetches what is due from the carrier, the POD terminals and the railroad, and runs the pure core. */
  async #gather(tracked: repo.TrackedShipmentRow, worldNow: Date, opts: { forceLine?: boolean; forceYard?: boolean }): Promise<Gathered> {
    const [one] = await this.#gatherAll([tracked], worldNow, opts);
    if ('failed' in one!) throw one.failed;
    return one!;
  }

  /**
   * `#gather` for several tracked shipments: their sources are asked side by side, the stored AIS tracks of
   * their vessels read in one query. Per item, what it gathered or why its fetch failed.
   */
  async #gatherAll(
    trackeds: readonly repo.TrackedShipmentRow[],
    worldNow: Date,
    opts: { forceLine?: boolean; forceYard?: boolean },
  ): Promise<(Gathered | { failed: unknown })[]> {
    const fetched = await Promise.all(trackeds.map((t) => this.#fetchSources(t, worldNow, opts).catch((failed: unknown) => ({ failed }))));
    const ais = await this.#aisInputs(
      this.#db,
      fetched.map((f) => ('failed' in f || !f.carrierOnly ? null : f.carrierOnly.state)),
      worldNow,
    );
    return fetched.map((f, i) => {
      if ('failed' in f) return f;
      const { carrierOnly, previous, terminals, rail, carrier, ...rest } = f;
      if (!carrierOnly) return { ...rest, carrier, state: previous, events: [] };
      // Nothing but the carrier's word: the result is the one already computed (the core is pure).
      const { events, state } =
        terminals.length === 0 && rail.length === 0 && ais[i] === null
          ? carrierOnly
          : detectChanges(previous, normalize({ carrier, terminals, rail, ais: ais[i] }, { worldNow }), {
              worldNow,
              accountFeatures: ALL_FEATURES,
            });
      return { ...rest, carrier, state, events };
    });
  }

  /** Asks the sources that are due; `carrierOnly` is the pure core's result on the carrier's word (null when it failed). */
  async #fetchSources(tracked: repo.TrackedShipmentRow, worldNow: Date, opts: { forceLine?: boolean; forceYard?: boolean }) {
    const registry = this.#registry();
    const previous = (tracked.state as StoredState | null) ?? null;
    const now = worldNow.getTime();
    const due = (at: Date | null) => at === null || at.getTime() <= now;
    const observations: SourceObservation[] = [];
    const asked: Gathered['asked'] = [];
    let carrier: SourceObservation | null = null;
    let carrierError: SourceError | null = null;
    const terminals: SourceObservation[] = [];
    const rail: SourceObservation[] = [];
    const fetched = {
      previous,
      observations,
      asked,
      terminals,
      rail,
      terminalAsked: false,
      railAsked: false,
      railScac: tracked.rail_scac,
    };

    if (opts.forceLine || previous === null || due(tracked.line_next_check_at)) {
      const source = registry.carrier(tracked.scac);
      if (!source) carrierError = new SourceError('unavailable', `no source is configured for carrier ${tracked.scac}`);
      else {
        const target: TrackTarget = { numberType: tracked.number_type, number: tracked.number, scac: tracked.scac };
        try {
          carrier = await this.#fetch(source, target);
          observations.push(carrier);
          asked.push({ sourceId: source.id, error: null });
        } catch (err) {
          if (!(err instanceof SourceError)) throw err;
          carrierError = err;
          asked.push({ sourceId: source.id, error: sourceFailure(err) });
        }
      }
    }
    if (carrierError) return { ...fetched, carrier, carrierError, carrierOnly: null };

    // What we know with the carrier's word, to find the terminals and railroad to ask.
    const carrierOnly = detectChanges(previous, normalize({ carrier, terminals: [], rail: [] }, { worldNow }), {
      worldNow,
      accountFeatures: ALL_FEATURES,
    });
    const withCarrier = carrierOnly.state;
    const checks = nextChecks(withCarrier.shipment, withCarrier.containers, worldNow);
    fetched.terminalAsked = checks.terminal !== null && (opts.forceYard === true || due(tracked.terminal_next_check_at));
    fetched.railAsked = checks.rail !== null && (opts.forceYard === true || due(tracked.rail_next_check_at));

    if (fetched.terminalAsked) {
      for (const c of withCarrier.containers) {
        if (c.empty_terminated_at || c.pod_full_out_at) continue;
        for (const key of terminalKeysToAsk(c, withCarrier.shipment)) {
          const source = registry.terminal(key);
          if (!source) continue;
          const obs = await this.#fetchQuietly(source, { numberType: 'container', number: c.number, facilityCode: key }, asked);
          if (obs) {
            terminals.push(obs);
            break;
          }
        }
      }
    }
    if (fetched.railAsked) {
      for (const c of withCarrier.containers) {
        if (!c.rail_move || c.empty_terminated_at || c.final_destination_full_out_at) continue;
        // DCSA names no railroad: ask the one that answered before, else each Class I railroad in turn.
        const known = fetched.railScac ?? c.pod_rail_carrier_scac ?? c.ind_rail_carrier_scac;
        for (const scac of known ? [known] : RAILROADS.map((r) => r.scac)) {
          const source = registry.railroad(scac);
          if (!source) continue;
          const obs = await this.#fetchQuietly(source, { numberType: 'container', number: c.number, scac }, asked);
          if (obs) {
            rail.push(obs);
            fetched.railScac = scac;
            break;
          }
        }
      }
    }
    observations.push(...terminals, ...rail);
    return { ...fetched, carrier, carrierError: null, carrierOnly };
  }

  /**
   * What each POD vessel's stored AIS track says about its shipment (src/tracking/port-calls.ts), for its
   * containers; null when there is nothing to look for. One query for all the states.
   */
  async #aisInputs(q: Queryable, states: readonly (StoredState | null)[], worldNow: Date): Promise<NormalizeInput['ais'][]> {
    const windows = states.map((state) => (state && state.containers.length > 0 ? aisWindow(state) : null));
    const asked = windows.flatMap((w, i) => (w ? [{ index: i, imo: w.imo, from: w.from }] : []));
    const fixes = new Map<number, { at: Date; latitude: number; longitude: number; speedKnots: number | null }[]>();
    for (const p of await repo.vesselFixes(q, asked, worldNow)) {
      const list = fixes.get(p.index) ?? [];
      list.push({ at: p.at, latitude: p.latitude, longitude: p.longitude, speedKnots: p.speed_knots });
      fixes.set(p.index, list);
    }
    return states.map((state, i) => {
      // No positions, no port calls.
      const track = fixes.get(i);
      if (!state || !track) return null;
      const milestones = aisMilestones(state, track, (locode) => portByLocode(locode));
      return milestones.length === 0 ? null : { containers: state.containers.map((c) => c.number), milestones };
    });
  }

  /**
   * Applies new AIS positions of these vessels (IMO numbers) to the actively tracked shipments they carry to
   * their POD, without asking any source: AIS port calls become transport events (`data_source: ais`) and
   * their webhooks, merged with the line's by the engine's precedence rules. Schedules are left as they are.
   * Shipments another worker holds are skipped (its refresh reads the same positions). Returns how many changed.
   */
  async applyVesselPositions(imos: readonly string[], worldNow: Date = this.#clocks.world.now()): Promise<number> {
    if (imos.length === 0) return 0;
    let changed = 0;
    for (const id of await repo.trackedShipmentsOnVessels(this.#db, imos)) {
      const wall = this.#clocks.wall.now();
      const tracked = await repo.claimTrackedShipment(this.#db, id, wall, new Date(wall.getTime() + LEASE_MS), { activeOnly: true });
      if (!tracked) continue;
      try {
        const previous = (tracked.state as StoredState | null) ?? null;
        const [ais] = await this.#aisInputs(this.#db, [previous?.shipment ? previous : null], worldNow);
        if (!previous || !ais) {
          await repo.releaseTrackedShipment(this.#db, id, tracked.lease_until);
          continue;
        }
        const { events, state } = detectChanges(previous, normalize({ carrier: null, terminals: [], rail: [], ais }, { worldNow }), {
          worldNow,
          accountFeatures: ALL_FEATURES,
        });
        if (JSON.stringify(state) === JSON.stringify(previous)) {
          await repo.releaseTrackedShipment(this.#db, id, tracked.lease_until);
          continue;
        }
        const gathered: Gathered = {
          observations: [],
          asked: [],
          carrier: null,
          carrierError: null,
          terminalAsked: false,
          railAsked: false,
          railScac: tracked.rail_scac,
          state,
          events,
        };
        await this.#db.transaction((tx) => this.#commitRefresh(tx, [{ tracked, g: gathered, opts: { keepSchedule: true } }], worldNow));
        changed++;
      } catch (err) {
        this.#log?.error({ err, tracked_shipment_id: id }, 'applying AIS positions failed');
        await repo.releaseTrackedShipment(this.#db, id, tracked.lease_until);
      }
    }
    return changed;
  }

  async #fetch(source: RegisteredSource, target: TrackTarget): Promise<SourceObservation> {
    if (source.rateLimitPerMinute !== null) {
      const decision = await this.#rateLimits.takeKeyed(`source:${source.id}`, source.rateLimitPerMinute);
      if (!decision.allowed) {
        throw new SourceError('rate_limited', `${source.id}: our limit of ${decision.limit} requests a minute is reached`, {
          retryAfterSeconds: decision.retryAfterSeconds,
        });
      }
    }
    return source.adapter.fetch(target, { signal: AbortSignal.timeout(30_000), now: () => this.#clocks.wall.now() });
  }

  /** A terminal or rail answer, or null when the source does not know the container or fails (logged). */
  async #fetchQuietly(source: RegisteredSource, target: TrackTarget, asked: Gathered['asked']): Promise<SourceObservation | null> {
    try {
      const obs = await this.#fetch(source, target);
      asked.push({ sourceId: source.id, error: null });
      return obs;
    } catch (err) {
      if (!(err instanceof SourceError)) throw err;
      asked.push({ sourceId: source.id, error: sourceFailure(err) });
      if (err.kind !== 'not_found') this.#log?.warn({ err, source: source.id, number: target.number }, 'source failed');
      return null;
    }
  }

  /**
   * Writes refreshes (one, or a batch committed together): observations, state, schedule, every account's
   * projection and events, auto-stop. A few multi-row statements whatever the number of refreshes. The
   * sources' health is the caller's to record once this has committed (#recordHealth).
   */
  async #commitRefresh(tx: Queryable, units: readonly Unit[], worldNow: Date): Promise<void> {
    const wall = this.#clocks.wall.now();
    await repo.keepRawObservations(
      tx,
      units.flatMap(({ tracked, g }) =>
        g.observations.map((o) => ({
          id: newId(),
          tracked_shipment_id: tracked.id,
          source_id: o.sourceId,
          target: o.target,
          payload: o.payload,
          payload_sha256: o.payloadSha256,
          facts: o.facts,
          fetched_at: o.fetchedAt,
        })),
      ),
    );
    const planned = units.map((unit) => ({ ...unit, ...this.#schedule(unit, worldNow) }));
    const saved = new Set(
      await repo.saveTrackedShipments(
        tx,
        planned.map((p) => ({ id: p.tracked.id, lease_until: p.tracked.lease_until, ...p.update })),
        wall,
      ),
    );
    const lost = planned.filter((p) => !saved.has(p.tracked.id)).map((p) => p.tracked.id);
    if (lost.length > 0) throw new Error(`the lease on tracked shipment ${lost.join(', ')} ran out and another worker took it over`);
    await this.#rememberVessels(tx, planned, wall);

    // The rows are written before the followers are read, and must be: an attempt reusing a tracked shipment's
    // state (#attempt) holds a share lock on its row until its new shipment is committed, so that shipment is either
    // among the followers read here or reads the state written here.
    const followed = planned.filter((p) => (p.update.state as StoredState | null)?.shipment);
    const linked = await repo.activeLinkedShipmentsOf(
      tx,
      followed.map((p) => p.tracked.id),
    );
    const projections: Projection[] = [];
    for (const p of followed) {
      const after = { ...p.tracked, ...p.update };
      for (const shipment of linked) {
        if (shipment.tracked_shipment_id !== p.tracked.id) continue;
        projections.push({
          shipment,
          state: p.update.state as StoredState,
          events: p.g.events,
          tracked: after,
          previous: (p.tracked.state as StoredState | null) ?? null,
        });
      }
    }
    await this.#project(tx, projections, worldNow);
    for (const p of followed) {
      const mine = linked.filter((s) => s.tracked_shipment_id === p.tracked.id);
      if (p.stop) for (const shipment of mine) await this.#stop(tx, shipment, p.stop, worldNow, false);
      // Nobody follows it any more (every account stopped): stop asking; a new request or a resume restarts it.
      if (mine.length === 0 && p.update.active && !p.opts?.adopting) await repo.deactivateTrackedShipment(tx, p.tracked.id, wall);
    }
  }

  /** A refresh's new schedule and state for its tracked shipment, and the auto-stop reason if it stops. */
  #schedule({ tracked, g, opts = {} }: Unit, worldNow: Date): { update: repo.TrackedShipmentUpdate; stop: StopReason | null } {
    const failures = g.carrierError ? tracked.line_consecutive_failures + 1 : g.carrier ? 0 : tracked.line_consecutive_failures;
    const state = g.state;
    const checks = nextChecks(state?.shipment ?? null, state?.containers ?? [], worldNow, failures);
    const lineAsked = g.carrier !== null || g.carrierError !== null;
    const lineChanged = g.carrier !== null && g.carrier.payloadSha256 !== tracked.line_last_payload_sha256;
    const retryAfterMs = (g.carrierError?.details.retryAfterSeconds ?? 0) * 1000;
    const lineNext =
      lineAsked || tracked.line_next_check_at === null
        ? new Date(Math.max(checks.line.getTime(), worldNow.getTime() + retryAfterMs))
        : tracked.line_next_check_at;
    // Nothing was asked (an AIS-only update): a due check stays due.
    const keepOrNew = (asked: boolean, old: Date | null, fresh: Date | null) =>
      opts.keepSchedule ? old : fresh === null ? null : asked || old === null || old.getTime() <= worldNow.getTime() ? fresh : old;
    const terminalNext = keepOrNew(g.terminalAsked, tracked.terminal_next_check_at, checks.terminal);
    const railNext = keepOrNew(g.railAsked, tracked.rail_next_check_at, checks.rail);
    const lineLastChangedAt = lineChanged ? worldNow : (tracked.line_last_changed_at ?? (g.carrier ? worldNow : null));

    let stop: StopReason | null = null;
    if (g.carrierError?.kind === 'cancelled' && state?.shipment) stop = 'booking_cancelled';
    else if (state?.shipment) stop = autoStopReason(state.shipment, state.containers, lineLastChangedAt, worldNow);

    const update: repo.TrackedShipmentUpdate = {
      state,
      rail_scac: g.railScac,
      active: stop === null,
      stopped_reason: stop,
      next_check_at: stop
        ? null
        : new Date(Math.min(lineNext.getTime(), terminalNext?.getTime() ?? Infinity, railNext?.getTime() ?? Infinity)),
      line_next_check_at: lineNext,
      terminal_next_check_at: terminalNext,
      rail_next_check_at: railNext,
      line_last_payload_sha256: g.carrier?.payloadSha256 ?? tracked.line_last_payload_sha256,
      line_last_attempted_at: lineAsked ? worldNow : tracked.line_last_attempted_at,
      line_last_succeeded_at: g.carrier ? worldNow : tracked.line_last_succeeded_at,
      line_last_changed_at: lineLastChangedAt,
      line_consecutive_failures: failures,
      line_last_error: g.carrierError ? `${g.carrierError.kind}: ${g.carrierError.message}` : g.carrier ? null : tracked.line_last_error,
      terminal_checked_at: g.terminalAsked ? worldNow : tracked.terminal_checked_at,
      rail_checked_at: g.railAsked ? worldNow : tracked.rail_checked_at,
    };
    return { update, stop };
  }

  /**
   * Vessels are reference data: every vessel the carriers name gets its row (the AIS sweep locates them), and a
   * name they give replaces the stored one. Only rows that change are written: vessel rows are shared by every
   * refresh, and a written row stays locked until the commit.
   */
  async #rememberVessels(tx: Queryable, planned: readonly { update: repo.TrackedShipmentUpdate }[], wall: Date): Promise<void> {
    const named = new Map<string, { id: string; imo: string; name: string | null }>();
    for (const { update } of planned) {
      if (!update.state) continue;
      for (const v of vesselsNamedIn(update.state as StoredState)) {
        const seen = named.get(v.imo);
        named.set(v.imo, seen && v.name === null ? seen : v);
      }
    }
    if (named.size === 0) return;
    const stored = new Map((await findVesselsByImos(tx, [...named.keys()])).map((v) => [v.imo, v.name]));
    const changed = [...named.values()]
      .filter((v) => !stored.has(v.imo) || (v.name !== null && stored.get(v.imo) !== v.name))
      .sort((a, b) => (a.imo < b.imo ? -1 : 1));
    await rememberVessels(tx, changed, wall);
  }

  /** Stops one account's shipment: its requests become `tracking_stopped`, with the event. */
  async #stop(tx: Queryable, shipment: { id: string; account_id: string }, reason: string, worldNow: Date, byUser: boolean): Promise<void> {
    const wall = this.#clocks.wall.now();
    await repo.stopShipment(tx, shipment.id, reason, worldNow, byUser, wall);
    for (const r of await requests.setStatusForShipment(tx, shipment.id, 'created', 'tracking_stopped', wall)) {
      await this.#accountEvent(tx, shipment.account_id, 'tracking_request.tracking_stopped', worldNow, {
        tracking_request_id: r.id,
        shipment_id: shipment.id,
        payload: { tracking_request_id: r.id, shipment_id: shipment.id, reason },
      });
    }
  }

  /** Writes each state onto its account's shipment and records the events the account may see. */
  async #project(tx: Queryable, projections: readonly Projection[], worldNow: Date): Promise<void> {
    if (projections.length === 0) return;
    const wall = this.#clocks.wall.now();
    await repo.updateShipmentColumnsMany(
      tx,
      projections.flatMap((p) =>
        p.state.shipment ? [{ id: p.shipment.id, cols: shipmentColumns(p.state.shipment, p.tracked, null) }] : [],
      ),
      wall,
    );
    const saved = await writeAccountContainers(
      tx,
      projections.flatMap(({ shipment, state, tracked }) =>
        state.containers.map((container) => ({ shipment, container, checks: trackedChecks(tracked, container) })),
      ),
      wall,
    );
    const containerIds = new Map(saved.map((c) => [`${c.shipment_id} ${c.number}`, c.id]));
    const containerId = (shipmentId: string, number: string | null) =>
      number ? (containerIds.get(`${shipmentId} ${number}`) ?? null) : null;

    // Records the account already has as they are need no write (previous null: write them all).
    const unchangedOf = new Map<StoredState, Set<string>>();
    const unchanged = (previous: StoredState) => {
      const known = unchangedOf.get(previous);
      if (known) return known;
      const set = new Set(previous.transportEvents.map((r) => JSON.stringify(r)));
      unchangedOf.set(previous, set);
      return set;
    };
    const events = [];
    for (const { shipment, state, previous } of projections) {
      const same = previous ? unchanged(previous) : null;
      for (const record of state.transportEvents) {
        const id = containerId(shipment.id, record.container_number);
        if (!id || same?.has(JSON.stringify(record))) continue;
        events.push({
          id: newId(),
          account_id: shipment.account_id,
          shipment_id: shipment.id,
          container_id: id,
          event: record.event,
          key: record.key,
          timestamp: record.timestamp,
          record,
        });
      }
    }
    const eventIds = new Map((await repo.upsertTransportEvents(tx, events, wall)).map((e) => [`${e.container_id} ${e.key}`, e.id]));

    // The events each account may see, in order; an announced transport event the account already had is looked up.
    const announced = projections.flatMap(({ shipment, events }) =>
      inOrder(visibleTo(events, shipment.features)).map((event) => {
        const number = 'container_number' in event ? event.container_number : null;
        const container = containerId(shipment.id, number);
        return { shipment, event, container, key: 'transport_event' in event && number ? event.transport_event.key : null };
      }),
    );
    const missing = announced.filter((a) => a.container && a.key && !eventIds.has(`${a.container} ${a.key}`));
    for (const e of await repo.findTransportEventIds(
      tx,
      missing.map((a) => ({ container_id: a.container!, key: a.key! })),
    )) {
      eventIds.set(`${e.container_id} ${e.key}`, e.id);
    }
    const estimated = [];
    const rows = [];
    for (const { shipment, event, container, key } of announced) {
      let estimatedEventId: string | null = null;
      if (event.type === 'shipment.estimated.arrival') {
        estimatedEventId = newId();
        estimated.push({
          id: estimatedEventId,
          account_id: shipment.account_id,
          shipment_id: shipment.id,
          event: event.type,
          estimated_timestamp: event.estimated_event.estimated_timestamp,
          record: event.estimated_event,
        });
      }
      rows.push(
        this.#accountEventRow(shipment.account_id, event.type, worldNow, {
          shipment_id: shipment.id,
          container_id: container,
          transport_event_id: key && container ? (eventIds.get(`${container} ${key}`) ?? null) : null,
          estimated_event_id: estimatedEventId,
          payload: event,
        }),
      );
    }
    await repo.insertEstimatedEvents(tx, estimated, wall);
    await repo.insertAccountEvents(tx, rows, wall);
  }

  async #accountEvent(tx: Queryable, accountId: string, event: string, worldNow: Date, refs: AccountEventRefs): Promise<void> {
    await repo.insertAccountEvents(tx, [this.#accountEventRow(accountId, event, worldNow, refs)], this.#clocks.wall.now());
  }

  #accountEventRow(accountId: string, event: string, worldNow: Date, refs: AccountEventRefs): repo.NewAccountEvent {
    return {
      id: newId(),
      account_id: accountId,
      event,
      tracking_request_id: refs.tracking_request_id ?? null,
      shipment_id: refs.shipment_id ?? null,
      container_id: refs.container_id ?? null,
      transport_event_id: refs.transport_event_id ?? null,
      estimated_event_id: refs.estimated_event_id ?? null,
      payload: refs.payload,
      occurred_at: worldNow,
    };
  }

  /** Records an attempt's outcome (null decision: created) and the request event it calls for. */
  async #finish(
    tx: Queryable,
    req: requests.TrackingRequestRecord,
    decision: AttemptDecision | null,
    worldNow: Date,
    scac: string,
    shipmentId: string | null = null,
  ): Promise<requests.TrackingRequestRecord> {
    const outcome: requests.RequestOutcome =
      decision === null
        ? {
            status: 'created',
            failed_reason: null,
            is_retrying: false,
            retry_count: req.retry_count,
            next_attempt_at: null,
            awaiting_since: req.awaiting_since,
            shipment_id: shipmentId,
            scac,
          }
        : decision.status === 'failed'
          ? {
              status: 'failed',
              failed_reason: decision.failedReason,
              is_retrying: false,
              retry_count: req.retry_count,
              next_attempt_at: null,
              awaiting_since: req.awaiting_since,
              shipment_id: shipmentId,
              scac,
            }
          : decision.status === 'awaiting_manifest'
            ? {
                status: 'awaiting_manifest',
                failed_reason: decision.failedReason,
                // Asked again daily until it is manifested or expires (docs/tracking.md): it is being retried.
                is_retrying: true,
                retry_count: req.retry_count,
                next_attempt_at: decision.nextAttemptAt,
                awaiting_since: decision.awaitingSince,
                shipment_id: null,
                scac,
              }
            : {
                status: 'pending',
                failed_reason: decision.failedReason,
                is_retrying: true,
                retry_count: decision.retryCount,
                next_attempt_at: decision.nextAttemptAt,
                awaiting_since: req.awaiting_since,
                shipment_id: null,
                scac,
              };
    const done = await requests.finishAttempt(tx, req.id, outcome, this.#clocks.wall.now());
    const event =
      outcome.status === 'failed'
        ? 'tracking_request.failed'
        : outcome.status === 'awaiting_manifest' && req.status !== 'awaiting_manifest'
          ? 'tracking_request.awaiting_manifest'
          : null;
    if (event) {
      await this.#accountEvent(tx, req.account_id, event, worldNow, {
        tracking_request_id: req.id,
        shipment_id: shipmentId,
        payload: { tracking_request_id: req.id, status: outcome.status, failed_reason: outcome.failed_reason },
      });
    }
    return done;
  }

  #attemptState(req: requests.TrackingRequestRecord) {
    return { retryCount: req.retry_count ?? 0, awaitingSince: req.awaiting_since };
  }

  /** Leaves the request as it is, to be attempted again in a minute (domain time). */
  async #attemptAgainSoon(q: Queryable, req: requests.TrackingRequestRecord, worldNow: Date): Promise<void> {
    const next: requests.RequestOutcome = {
      status: req.status,
      failed_reason: req.failed_reason,
      is_retrying: req.is_retrying,
      retry_count: req.retry_count,
      next_attempt_at: new Date(worldNow.getTime() + 60_000),
      awaiting_since: req.awaiting_since,
      shipment_id: req.shipment_id,
      scac: req.scac,
    };
    await requests.finishAttempt(q, req.id, next, this.#clocks.wall.now());
  }

  /** The carrier auto-detection picks for a number (bill of lading prefix, container owner prefix), if any. */
  #detectScac(account: Account, number: string): string | null {
    const visible = new Set(this.#shippingLines.list(account).map((c) => c.scac));
    const inference = inferNumber(number, { isVisible: (scac) => visible.has(scac) });
    if (!inference || inference.shippingLine.decision === 'no_prediction') return null;
    return inference.shippingLine.selected?.scac ?? null;
  }
}

/** When the sources were last and will next be asked about an account container. */
export interface ContainerChecks {
  terminal_checked_at: Date | null;
  terminal_next_check_at: Date | null;
  rail_checked_at: Date | null;
  rail_next_check_at: Date | null;
}

/** One account container to write: its shipment, its snapshot, its checks. */
export interface AccountContainerWrite {
  shipment: { id: string; account_id: string };
  container: ContainerSnapshot;
  checks: ContainerChecks;
}

/** A projected container's checks: its tracked shipment's (the railroad's only for a rail move). */
export function trackedChecks(
  tracked: Pick<repo.TrackedShipmentRow, 'terminal_checked_at' | 'terminal_next_check_at' | 'rail_checked_at' | 'rail_next_check_at'>,
  c: ContainerSnapshot,
): ContainerChecks {
  return {
    terminal_checked_at: tracked.terminal_checked_at,
    terminal_next_check_at: tracked.terminal_next_check_at,
    rail_checked_at: c.rail_move ? tracked.rail_checked_at : null,
    rail_next_check_at: c.rail_move ? tracked.rail_next_check_at : null,
  };
}

/**
 * Writes account containers as every projection does: the status and snapshot as derived, the board's pickup facts
 * of the snapshot, a delivery marked by hand kept (repo.upsertContainers). The re-derivation after a change of the
 * rules (services/rederive.ts) writes through here too, so that the two cannot drift apart.
 */
export function writeAccountContainers(
  tx: Queryable,
  rows: readonly AccountContainerWrite[],
  wall: Date,
): Promise<{ id: string; shipment_id: string; number: string }[]> {
  return repo.upsertContainers(
    tx,
    rows.map(({ shipment, container: c, checks }) => ({
      id: newId(),
      account_id: shipment.account_id,
      shipment_id: shipment.id,
      number: c.number,
      current_status: c.current_status,
      snapshot: c,
      ...checks,
      pickup: pickupFacts(c),
    })),
    wall,
  );
}

/** Whether a new account's attempt may reuse what the tracked shipment holds instead of fetching. */
function freshEnough(tracked: repo.TrackedShipmentRow, worldNow: Date): boolean {
  return (
    tracked.state !== null &&
    tracked.active &&
    tracked.line_last_succeeded_at !== null &&
    worldNow.getTime() - tracked.line_last_succeeded_at.getTime() < FRESH_ENOUGH_MS
  );
}

/** A source failure worth recording against its health; answers about the number (not found…) are not. */
function sourceFailure(err: SourceError): string | null {
  if (err.kind === 'not_found' || err.kind === 'awaiting_manifest' || err.kind === 'invalid_number' || err.kind === 'cancelled')
    return null;
  return `${err.kind}: ${err.message}`;
}

/**
 * The terminals to ask about a box, in order: the one that has it, else the one the line names; when the first no
 * longer knows the box (the line moved it to another terminal of the port), the line's is asked next.
 */
export function terminalKeysToAsk(c: ContainerSnapshot, shipment: ShipmentSnapshot | null): string[] {
  const own = terminalKey(c.pod_terminal ?? null);
  const line = terminalKey(shipment?.pod_terminal ?? null);
  return [...new Set([own, line])].filter((k): k is string => k !== null);
}

/** The key the terminal sources use for a POD terminal the sources named. */
function terminalKey(ref: FacilityRef | null): string | null {
  if (!ref) return null;
  const terminal = ref.id ? terminalById(ref.id) : undefined;
  if (terminal) return terminalNaturalKey(terminal);
  return ref.firmsCode ?? null;
}

/**
 * A refresh's events in the order things happened: a terminal's late word on a pickup and the line's
 * discharge learned in one refresh are announced discharge first. Stable for events at the same time.
 */
export function inOrder(events: readonly DomainEvent[]): DomainEvent[] {
  const at = (e: DomainEvent): number => {
    const t = 'transport_event' in e ? e.transport_event.timestamp : 'timestamp' in e ? e.timestamp : null;
    const ms = t ? Date.parse(t) : Number.NaN;
    return Number.isNaN(ms) ? Number.POSITIVE_INFINITY : ms;
  };
  return events
    .map((e, i) => ({ e, i, at: at(e) }))
    .sort((a, b) => a.at - b.at || a.i - b.i)
    .map((x) => x.e);
}

/** The events an account may see: the rail LFD ones only with `rail_lfd`. */
function visibleTo(events: readonly DomainEvent[], features: readonly string[]): DomainEvent[] {
  if (features.includes('rail_lfd')) return [...events];
  const out: DomainEvent[] = [];
  for (const e of events) {
    if (e.type === 'container.pickup_lfd_rail.changed') continue;
    if (e.type === 'container.updated' && 'pickup_lfd_rail' in e.changeset) {
      const { pickup_lfd_rail: _hidden, ...changeset } = e.changeset;
      if (Object.keys(changeset).length > 0) out.push({ ...e, changeset });
      continue;
    }
    out.push(e);
  }
  return out;
}

function shipmentColumns(s: ShipmentSnapshot, tracked: repo.TrackedShipmentRow, requestNumber: string | null): repo.ShipmentColumns {
  return {
    bill_of_lading_number: s.bill_of_lading_number ?? s.booking_number ?? requestNumber ?? tracked.number,
    booking_number: s.booking_number,
    shipping_line_scac: s.shipping_line_scac ?? tracked.scac,
    shipping_line_name: s.shipping_line_name,
    shipping_line_short_name: s.shipping_line_short_name,
    port_of_lading_locode: s.port_of_lading_locode,
    port_of_lading_name: s.port_of_lading_name,
    pol_etd_at: s.pol_etd_at,
    pol_atd_at: s.pol_atd_at,
    pol_original_etd_at: s.pol_original_etd_at,
    pol_timezone: s.pol_timezone,
    port_of_discharge_locode: s.port_of_discharge_locode,
    port_of_discharge_name: s.port_of_discharge_name,
    pod_terminal_firms_code: s.pod_terminal?.firmsCode ?? null,
    pod_vessel_name: s.pod_vessel_name,
    pod_vessel_imo: s.pod_vessel_imo,
    pod_voyage_number: s.pod_voyage_number,
    pod_eta_at: s.pod_eta_at,
    pod_original_eta_at: s.pod_original_eta_at,
    pod_ata_at: s.pod_ata_at,
    pod_timezone: s.pod_timezone,
    destination_locode: s.destination_locode,
    destination_name: s.destination_name,
    destination_eta_at: s.destination_eta_at,
    destination_ata_at: s.destination_ata_at,
    destination_original_eta_at: s.destination_original_eta_at,
    destination_timezone: s.destination_timezone,
    line_tracking_last_attempted_at: tracked.line_last_attempted_at,
    line_tracking_last_succeeded_at: tracked.line_last_succeeded_at,
    line_tracking_next_attempt_at: tracked.line_next_check_at,
    snapshot: s,
  };
}

export type { ContainerSnapshot };
