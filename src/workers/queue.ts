// Durable jobs on pg-boss, on PGlite and on a PostgreSQL server alike. A job is enqueued inside the
// caller's transaction (commit → it runs; rollback → it never existed), retried with exponential
// backoff, and copied to a dead-letter queue (`<name>__dead`) when its retries run out.
// pg-boss claims jobs with FOR UPDATE SKIP LOCKED, so two workers never hold the same job at once.
import { type Clock as BossClock, PgBoss, fromPglite, type Db as IDatabase, systemClock as bossSystemClock } from 'pg-boss';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { asUnavailable, type Db, type Queryable } from '../storage/db.js';
import type { PgDb } from '../storage/pg.js';
import type { PgliteDb } from '../storage/pglite.js';

export interface JobContext {
  jobId: string;
  /** 0 on the first attempt. */
  retryCount: number;
  log: Logger;
}

export interface JobDefinition<T = unknown> {
  name: string;
  /** Validates the payload before the handler sees it. */
  schema: z.ZodType<T>;
  handler(data: T, ctx: JobContext): Promise<void>;
  retryLimit?: number;
  /** Seconds before the first retry; doubled each time (capped by retryDelayMax) unless retryBackoff is false. */
  retryDelay?: number;
  retryBackoff?: boolean;
  retryDelayMax?: number;
  /** The longest a job may run, however alive its worker (default 900). A dead worker's job is reclaimed sooner: see RECLAIM. */
  expireInSeconds?: number;
  /** Jobs a worker takes per fetch; each is still handled (and fails) on its own. */
  batchSize?: number;
}

export interface QueueMetrics {
  jobFinished(queue: string, outcome: 'completed' | 'failed', seconds: number): void;
}

export const deadLetterName = (name: string) => `${name}__dead`;

/**
 * How a job whose worker died (SIGKILL, a crash, a lost host) is taken back, with pg-boss's own machinery: a worker
 * refreshes each job it holds every `heartbeatSeconds / 2` (pg-boss does it in `work()`, `runOnce` does it here);
 * the supervisors of the worker processes look every `superviseSeconds` for active jobs whose heartbeat is older
 * than `heartbeatSeconds` and fail them, so they are retried (their retry delay, then the next poll) by another
 * worker. A dead worker's job is back within `heartbeatSeconds + 2 × superviseSeconds` (a supervisor pass may just
 * miss it); a live worker's job is never taken from it however long it runs, up to its `expireInSeconds`.
 */
export const RECLAIM = { heartbeatSeconds: 30, superviseSeconds: 15 } as const;
/** The bound above, in seconds: an orphaned job is `retry` again (or dead-lettered) by then. */
export const ORPHAN_RECLAIM_SECONDS = RECLAIM.heartbeatSeconds + 2 * RECLAIM.superviseSeconds;

function txAdapter(tx: Queryable): IDatabase {
  return { executeSql: async (text, values) => ({ rows: await tx.query(text, values) }) };
}

export interface QueueOptions {
  logger: Logger;
  metrics?: QueueMetrics;
  /** True in worker processes: maintenance (expiry, orphaned jobs, retention) and scheduling run there. */
  supervise: boolean;
  /** pg-boss's source of time and timers (tests pass pg-boss's TestClock); the system clock by default. */
  clock?: BossClock;
}

export class JobQueue {
  readonly #defs = new Map<string, JobDefinition<never>>();
  #working = false;

  private constructor(
    readonly boss: PgBoss,
    private readonly opts: QueueOptions,
  ) {}

  static async start(db: Db, definitions: JobDefinition<never>[], opts: QueueOptions): Promise<JobQueue> {
    const common = {
      schema: 'pgboss',
      supervise: opts.supervise,
      superviseIntervalSeconds: RECLAIM.superviseSeconds,
      monitorIntervalSeconds: RECLAIM.superviseSeconds,
      schedule: false,
      migrate: true,
      ...(opts.clock ? { clock: opts.clock } : {}),
    };
    const boss =
      db.kind === 'pglite'
        ? new PgBoss({ ...common, db: fromPglite((db as PgliteDb).pglite), backend: 'pglite' })
        : new PgBoss({ ...common, connectionString: (db as PgDb).connectionString, max: 4, application_name: 'tidemark-jobs' });
    boss.on('error', (err: unknown) => opts.logger.error({ err }, 'job queue error'));
    await boss.start();
    const queue = new JobQueue(boss, opts);
    for (const def of definitions) await queue.register(def);
    return queue;
  }

  private async register(def: JobDefinition<never>): Promise<void> {
    const dead = deadLetterName(def.name);
    if (!(await this.boss.getQueue(dead))) await this.boss.createQueue(dead, { retentionSeconds: 14 * 86_400 });
    const backoff = def.retryBackoff ?? true;
    const options = {
      retryLimit: def.retryLimit ?? 10,
      retryDelay: def.retryDelay ?? 5,
      retryBackoff: backoff,
      ...(backoff ? { retryDelayMax: def.retryDelayMax ?? 3600 } : {}),
      expireInSeconds: def.expireInSeconds ?? 900,
      heartbeatSeconds: RECLAIM.heartbeatSeconds,
      deadLetter: dead,
    };
    if (await this.boss.getQueue(def.name)) await this.boss.updateQueue(def.name, options);
    else await this.boss.createQueue(def.name, options);
    // Load the queue into pg-boss's cache now, outside any transaction: on PGlite a cold cache
    // lookup inside the caller's transaction would wait on that very transaction.
    await this.boss.previewRedrive(def.name);
    await this.boss.previewRedrive(dead);
    this.#defs.set(def.name, def);
  }

  /** Enqueues a job inside the caller's transaction. */
  async enqueue(
    tx: Queryable,
    name: string,
    data: object,
    options: { singletonKey?: string; startAfter?: Date } = {},
  ): Promise<string | null> {
    const def = this.#defs.get(name);
    if (!def) throw new Error(`Unknown job queue: ${name}`);
    def.schema.parse(data);
    try {
      return await this.boss.send(name, data, { ...options, db: txAdapter(tx) });
    } catch (err) {
      throw asUnavailable(err);
    }
  }

  private async handle(def: JobDefinition<never>, job: { id: string; data: unknown; retryCount?: number }): Promise<void> {
    const log = this.opts.logger.child({ job_id: job.id, queue: def.name });
    const started = performance.now();
    try {
      const data = def.schema.parse(job.data) as never;
      await def.handler(data, { jobId: job.id, retryCount: job.retryCount ?? 0, log });
      this.opts.metrics?.jobFinished(def.name, 'completed', (performance.now() - started) / 1000);
    } catch (err) {
      log.warn({ err, retry_count: job.retryCount ?? 0 }, 'job failed');
      this.opts.metrics?.jobFinished(def.name, 'failed', (performance.now() - started) / 1000);
      throw err;
    }
  }

  /** Starts polling workers for every registered queue (worker role). */
  async work(): Promise<void> {
    if (this.#working) return;
    this.#working = true;
    for (const def of this.#defs.values()) {
      await this.boss.work(def.name, { batchSize: def.batchSize ?? 1, includeMetadata: true, pollingIntervalSeconds: 2 }, async (jobs) => {
        for (const job of jobs) await this.handle(def, job);
      });
    }
  }

  /**
   * Runs the jobs that are due now on one queue (or all), one by one, until none is left; returns how
   * many ran. Failures are recorded as pg-boss does in `work()` (retry or dead letter). For tests and
   * one-shot commands.
   */
  async runOnce(name?: string, maxJobs = 1000): Promise<{ completed: number; failed: number }> {
    const names = name ? [name] : [...this.#defs.keys()];
    let completed = 0;
    let failed = 0;
    for (let ran = 0; ran < maxJobs; ) {
      let any = false;
      for (const n of names) {
        const def = this.#defs.get(n);
        if (!def) throw new Error(`Unknown job queue: ${n}`);
        const [job] = await this.boss.fetch(n, { batchSize: 1, includeMetadata: true });
        if (!job) continue;
        any = true;
        ran++;
        // The heartbeat pg-boss's work() would send, so that a long job run here is not taken for an orphan.
        const clock = this.opts.clock ?? bossSystemClock;
        // A missed beat is not fatal (the next one, or the job's end, follows); it is logged, not swallowed.
        const beat = () =>
          void this.boss
            .touch(n, job.id)
            .catch((err: unknown) => this.opts.logger.debug({ err, job_id: job.id, queue: n }, 'job heartbeat failed'));
        const heartbeat = clock.setInterval(beat, (RECLAIM.heartbeatSeconds / 2) * 1000);
        try {
          await this.handle(def, job);
          await this.boss.complete(n, job.id);
          completed++;
        } catch (err) {
          await this.boss.fail(n, job.id, { message: err instanceof Error ? err.message : String(err) });
          failed++;
        } finally {
          clock.clearInterval(heartbeat);
        }
      }
      if (!any) break;
    }
    return { completed, failed };
  }

  /** Stops taking work; waits up to `timeoutMs` for jobs in flight, then releases them for another worker. */
  async stop(timeoutMs = 20_000): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: timeoutMs, close: true });
  }
}
