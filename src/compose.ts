// The composition root: the one module that knows every concrete thing and wires them by role.
import { mkdirSync } from 'node:fs';
import { pino, type Logger } from 'pino';
import { z } from 'zod';
import { ConfigError, type Config } from './config/index.js';
import { systemClock, type Clocks } from './domain/clock.js';
import { buildApp } from './http/app.js';
import type { App, HttpDeps } from './http/context.js';
import { Metrics } from './http/metrics.js';
import { AccountService } from './services/accounts.js';
import { PartyService } from './services/parties.js';
import { RateLimitService } from './services/rate-limits.js';
import { ShipmentService } from './services/shipments.js';
import { ShippingLineService } from './services/shipping-lines.js';
import { firstStartSetup, type FirstStartResult } from './services/setup.js';
import { carrierSettingProblems } from './sources/carrier-config.js';
import type { Db } from './storage/db.js';
import { migrate } from './storage/migrate.js';
import { PgDb } from './storage/pg.js';
import { PgliteDb } from './storage/pglite.js';
import { JobQueue, type JobDefinition } from './workers/queue.js';

/** Settings that need the source registry to check (config/ cannot import it); throws ConfigError. */
export function checkSourceSettings(config: Config): void {
  const problems = carrierSettingProblems(config.carriers);
  if (problems.length) throw new ConfigError(problems);
}

/** Opens the configured database: a PostgreSQL server when DATABASE_URL is set, else PGlite in the data dir. */
export async function openDatabase(config: Config, purpose: string): Promise<Db> {
  if (config.databaseUrl) return new PgDb(config.databaseUrl, { applicationName: `tidemark ${purpose}` });
  mkdirSync(config.dataDir, { recursive: true });
  return PgliteDb.open(config.dataDir, purpose);
}

/** Everything the front ends are given; HTTP declares what it needs, so that is the shape. */
export type Services = HttpDeps;

export function makeServices(config: Config, db: Db, clocks: Clocks = { wall: systemClock, world: systemClock }): Services {
  return {
    config,
    db,
    clocks,
    accounts: new AccountService(clocks.wall),
    parties: new PartyService(db, clocks.wall),
    shipments: new ShipmentService(db),
    shippingLines: new ShippingLineService(),
    rateLimits: new RateLimitService(db, clocks.wall),
    metrics: new Metrics(db, { defaultMetrics: true }),
  };
}

/** Jobs every worker runs. Later issues add theirs here. */
export function jobDefinitions(services: Services): JobDefinition<never>[] {
  const prune: JobDefinition<Record<string, never>> = {
    name: 'maintenance.prune_rate_limits',
    schema: z.object({}).strict() as z.ZodType<Record<string, never>>,
    retryLimit: 3,
    async handler() {
      await services.rateLimits.prune();
    },
  };
  return [prune as JobDefinition<never>];
}

export interface Running {
  app: App | null;
  queue: JobQueue;
  firstStart: FirstStartResult | null;
  address: string | null;
  stop(): Promise<void>;
}

/** Starts the roles of this process on an opened, migrated database. */
export async function startRoles(config: Config, db: Db, logger: Logger): Promise<Running> {
  const services = makeServices(config, db);
  const firstStart = await firstStartSetup(db, services.accounts, services.clocks.wall, config.adminToken);
  const isWorker = config.roles.includes('worker');
  const queue = await JobQueue.start(db, jobDefinitions(services), {
    logger: logger.child({ role: 'worker' }),
    metrics: services.metrics,
    supervise: isWorker,
  });
  const timers: NodeJS.Timeout[] = [];
  if (isWorker) {
    await queue.work();
    // Singleton per minute: with several workers, one prune job a minute in all.
    const tick = () =>
      queue.boss
        .send('maintenance.prune_rate_limits', {}, { singletonKey: 'prune', singletonSeconds: 60 })
        .catch((err: unknown) => logger.error({ err }, 'could not schedule maintenance'));
    timers.push(setInterval(tick, 60_000));
    void tick();
  }
  if (config.roles.includes('sandbox')) {
    logger.info('sandbox role: the simulated world is not part of this build yet');
  }
  let app: App | null = null;
  let address: string | null = null;
  if (config.roles.includes('api')) {
    const deps: HttpDeps = services;
    app = await buildApp(deps, { logger: logger.child({ role: 'api' }) });
    address = await app.listen({ port: config.port, host: config.host });
    // Listening on port 0 picks a free port: derived links must name the real one.
    if (!config.publicUrlConfigured) config.publicUrl = address;
  }
  return {
    app,
    queue,
    firstStart,
    address,
    async stop() {
      for (const t of timers) clearInterval(t);
      if (app) await app.close();
      await queue.stop();
      await db.close();
    },
  };
}

export function makeLogger(config: Config): Logger {
  return pino({ level: config.logLevel, base: { service: 'tidemark' } });
}

export { migrate };
