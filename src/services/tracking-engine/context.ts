// What every step of the tracking engine works with: its dependencies (the context the TrackingEngine facade
// hands each step) and the engine's timing constants.
import type { Logger } from 'pino';
import type { Clocks } from '../../domain/clock.js';
import type { SourceRegistry } from '../../sources/registry.js';
import type { Db } from '../../storage/db.js';
import type { JobSender } from '../jobs.js';
import type { RateLimitService } from '../rate-limits.js';
import type { ShippingLineService } from '../shipping-lines.js';

/**
 * The job that serves on-demand refreshes (`PATCH /v2/containers/{id}/refresh`): one is queued per container refresh
 * waiting in `container_refreshes`, and each serves the fairest one waiting (see `serveContainerRefresh`).
 */
export const TRACKING_REFRESH_JOB = 'tracking.refresh';
/** An on-demand refresh whose refresh fails this many times (an error of ours) is given up. */
export const REFRESH_REQUEST_ATTEMPTS = 3;
/** How soon a refresh job comes back for requests whose shipment another worker was refreshing (wall time). */
export const HELD_RETRY_MS = 5_000;

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
export const ALL_FEATURES = ['rail_lfd'];

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

/** The engine's dependencies as its steps use them (taken once, when the engine is made). */
export interface EngineContext {
  readonly db: Db;
  readonly clocks: Clocks;
  readonly registry: () => SourceRegistry;
  readonly shippingLines: ShippingLineService;
  readonly jobs: JobSender;
  readonly rateLimits: Pick<RateLimitService, 'takeKeyed'>;
  readonly log: Logger | undefined;
}

export function engineContext(deps: EngineDeps): EngineContext {
  return {
    db: deps.db,
    clocks: deps.clocks,
    registry: deps.registry,
    shippingLines: deps.shippingLines,
    jobs: deps.jobs,
    rateLimits: deps.rateLimits,
    log: deps.logger,
  };
}

/** When a lease taken at wall time `wall` runs out. */
export function leaseUntil(wall: Date): Date {
  return new Date(wall.getTime() + LEASE_MS);
}
