// Every pg-boss job a worker runs (one file each in this folder) and the periodic schedule that sends the
// recurring ones. docs/architecture.md "How work is scheduled" says which work runs as a job and which does not.
import type { Logger } from 'pino';
import { maintenanceJob, MAINTENANCE_PRUNE_JOB, type Prunable } from './maintenance.js';
import type { JobDefinition, JobQueue } from './queue.js';
import { refreshJob } from './refresh.js';
import { trackJob } from './track.js';
import { TRACKING_SWEEP_JOB, trackingSweepJob } from './tracking-sweep.js';

export { MAINTENANCE_PRUNE_JOB, TRACKING_SWEEP_JOB };

/** What the jobs run: the services they call, and nothing else. */
export interface JobServices {
  trackingEngine: Parameters<typeof trackJob>[0] & Parameters<typeof refreshJob>[0] & Parameters<typeof trackingSweepJob>[0];
  vessels: Parameters<typeof trackingSweepJob>[1];
  rateLimits: Prunable;
  oauth: Prunable;
  users: Prunable;
}

/** Jobs every worker runs (and every process registers, so that it can enqueue them). */
export function jobDefinitions(services: JobServices): JobDefinition<never>[] {
  return [
    maintenanceJob(services),
    trackJob(services.trackingEngine),
    trackingSweepJob(services.trackingEngine, services.vessels),
    refreshJob(services.trackingEngine),
  ] as JobDefinition<never>[];
}

/** How often (wall seconds) workers look for attempts and refreshes that fell due. */
export const SWEEP_SECONDS = 5;
/** How often (wall seconds) workers ask for the maintenance job. */
export const MAINTENANCE_SECONDS = 60;

/**
 * The recurring jobs, sent by every worker on wall-clock timers: pg-boss keeps one job per key and slot
 * (`singletonSeconds`), so however many workers send, one prune job a minute and one sweep per 5-second slot are
 * created in all. Sends at once, then on every tick; returns the timers for the caller to clear when it stops.
 */
export function schedulePeriodicJobs(queue: JobQueue, logger: Logger): NodeJS.Timeout[] {
  const prune = () =>
    queue.boss
      .send(MAINTENANCE_PRUNE_JOB, {}, { singletonKey: 'prune', singletonSeconds: MAINTENANCE_SECONDS })
      .catch((err: unknown) => logger.error({ err }, 'could not schedule maintenance'));
  const sweep = () =>
    queue.boss
      .send(TRACKING_SWEEP_JOB, {}, { singletonKey: 'sweep', singletonSeconds: SWEEP_SECONDS })
      .catch((err: unknown) => logger.error({ err }, 'could not schedule the tracking sweep'));
  const timers = [setInterval(prune, MAINTENANCE_SECONDS * 1000), setInterval(sweep, SWEEP_SECONDS * 1000)];
  void prune();
  void sweep();
  return timers;
}
