// The composition root: the one module that knows every concrete thing and wires them by role.
import { mkdirSync } from 'node:fs';
import { pino, type Logger } from 'pino';
import { ConfigError, freezeConfig, listeningAt, type Config } from './config/index.js';
import { systemClock, type Clock, type Clocks } from './domain/clock.js';
import { buildApp } from './http/app.js';
import { listen, type Listener } from './http/listener.js';
import type { App, HttpDeps } from './http/context.js';
import { Metrics } from './http/metrics.js';
import { CredentialCache } from './services/credential-cache.js';
import { DocumentCache } from './services/document-cache.js';
import { AccountService } from './services/accounts.js';
import { ApiTrialService } from './services/api-trial.js';
import { NotificationService } from './services/notifications.js';
import { SecretKeyring } from './services/keyring.js';
import { WebhookService } from './services/webhooks.js';
import { UserService } from './services/users.js';
import { OAuthService } from './services/oauth.js';
import { smtpMailer } from './services/mailer.js';
import { WebhookDelivery } from './webhooks/delivery.js';
import { DeliveryRunner } from './webhooks/delivery-runner.js';
import { createMcpServer } from './mcp/server.js';
import { createTransport } from './webhooks/transport.js';
import { NumberInferenceService } from './services/number-inference.js';
import { PartyRoleService } from './services/party-roles.js';
import { PartyService } from './services/parties.js';
import { CustomFieldService } from './services/custom-fields.js';
import { RateLimitService } from './services/rate-limits.js';
import { SandboxService } from './services/sandbox.js';
import { SearchService } from './services/search.js';
import { ContainerService } from './services/containers.js';
import { LateJobSender } from './services/jobs.js';
import { ShipmentService } from './services/shipments.js';
import { Rederivation } from './services/rederive.js';
import { TrackingEngine } from './services/tracking-engine.js';
import { TrackingRequestService } from './services/tracking-requests.js';
import { ShippingLineService } from './services/shipping-lines.js';
import { PlaceService } from './services/places.js';
import { VesselService } from './services/vessels.js';
import { AisStreamIngest } from './services/ais-stream.js';
import { aisNmeaSource } from './sources/ais/nmea/index.js';
import { firstStartSetup, type FirstStartResult } from './services/setup.js';
import { SandboxWorldClock } from './services/world-clock.js';
import { carrierSettingProblems } from './sources/carrier-config.js';
import { SourceRegistry } from './sources/registry.js';
import type { Db } from './storage/db.js';
import { migrate } from './storage/migrate.js';
import { PgDb } from './storage/pg.js';
import { PgliteDb } from './storage/pglite.js';
import { jobDefinitions, schedulePeriodicJobs, TRACKING_SWEEP_JOB } from './workers/jobs.js';
import { JobQueue } from './workers/queue.js';

/** Settings that need the source registry to check (config/ cannot import it); throws ConfigError. */
export function checkSourceSettings(config: Config): void {
  const problems = carrierSettingProblems(config.carriers);
  if (problems.length) throw new ConfigError(problems);
}

/**
 * The data sources of this process: real carrier endpoints where configured; the sandbox faces (served
 * by this process, or at TIDEMARK_SANDBOX_URL) for everything else while the sandbox is on.
 */
export function sourceRegistry(config: Config): SourceRegistry {
  const sandboxUrl = config.sandbox.enabled ? (config.sandbox.url ?? config.publicUrl) : null;
  return new SourceRegistry({ sandboxUrl, carriers: config.carriers });
}

/** Opens the configured database: a PostgreSQL server when DATABASE_URL is set, else PGlite in the data dir. */
export async function openDatabase(config: Config, purpose: string): Promise<Db> {
  if (config.databaseUrl) return new PgDb(config.databaseUrl, { applicationName: `tidemark ${purpose}` });
  mkdirSync(config.dataDir, { recursive: true });
  return PgliteDb.open(config.dataDir, purpose);
}

/** Everything the front ends and workers are given; HTTP declares most of what it needs. */
export type Services = HttpDeps & {
  /** The job queue, attached once it has started. */
  jobs: LateJobSender;
  /** Sends the webhook outbox (worker role). */
  webhookDelivery: WebhookDelivery;
  /** API keys resolved in this process (started with the API role). */
  credentials: CredentialCache;
  /** The key sealing secrets at rest; a start checks it before anything else (services/keyring.ts). */
  keyring: SecretKeyring;
};

/** Who delivers: receivers see it in every webhook request. */
const WEBHOOK_USER_AGENT = 'Tidemark-Webhooks/1.0';

/**
 * Makes the services of a process from its final configuration, frozen here: a process that listens is composed
 * once its listener is bound (`listeningAt`), so the public URL the services take as a plain value is final.
 */
export function makeServices(
  config: Config,
  db: Db,
  clocks: Clocks = { wall: systemClock, world: systemClock },
  sandbox: SandboxService | null = null,
  /** Where the engine and the vessel sweep log source failures; tests that pass none hear nothing. */
  logger: Logger = pino({ level: 'silent' }),
): Services {
  freezeConfig(config);
  const shippingLines = new ShippingLineService({
    sandbox: config.sandbox.enabled,
    realScacs: Object.entries(config.carriers)
      .filter(([, c]) => c.url)
      .map(([scac]) => scac),
  });
  const jobs = new LateJobSender();
  const rateLimits = new RateLimitService(db, clocks.wall);
  const credentials = new CredentialCache(clocks.wall);
  const documents = new DocumentCache(clocks.wall, { maxBytes: config.documentCacheMb * 1024 * 1024 });
  const accounts = new AccountService(clocks.wall, credentials);
  const sources = sourceRegistry(config);
  const registry = () => sources;
  const trackingEngine = new TrackingEngine({
    db,
    clocks,
    registry,
    shippingLines,
    jobs,
    rateLimits,
    logger: logger.child({ component: 'tracking' }),
  });
  const vessels = new VesselService({
    db,
    clocks,
    registry,
    logger: logger.child({ component: 'vessels' }),
    // AIS port calls of the vessels whose track grew become transport events of the shipments they carry.
    onNewPositions: (imos, worldNow) => trackingEngine.applyVesselPositions(imos, worldNow),
  });
  // Each step of an advance of the world clock refreshes what is due at that step's world time, and moves
  // the vessels on (AIS is asked at most hourly per vessel).
  sandbox?.onStep(
    async (worldNow) => {
      const refreshed = await trackingEngine.runDue(worldNow);
      await vessels.gatherPositions(worldNow);
      await vessels.predictArrivals(worldNow);
      return refreshed;
    },
    (worldNow) => trackingEngine.nextDueAfter(worldNow),
  );
  const notifications = new NotificationService(db);
  const transport = createTransport({
    allowPrivate: config.webhooks.allowPrivate,
    userAgent: WEBHOOK_USER_AGENT,
    now: () => clocks.wall.now(),
  });
  const delivery = {
    timeoutMs: config.webhooks.timeoutMs,
    retryScheduleMs: config.webhooks.retryScheduleMs,
    referenceHeader: config.webhooks.referenceHeader,
    disableAfterMs: config.webhooks.disableAfterMs,
    userAgent: WEBHOOK_USER_AGENT,
  };
  const keyring = new SecretKeyring({
    db,
    configured: config.secretKey,
    keyFile: config.secretKeyFile,
    log: (message) => logger.info(message),
  });
  const webhooks = new WebhookService({
    db,
    wall: clocks.wall,
    keyring,
    allowPrivate: config.webhooks.allowPrivate,
    transport,
    publicUrl: config.publicUrl,
    delivery,
    egressIps: config.webhooks.egressIps,
  });
  // What notification documents load their includes from (render/loaders.ts): the services the API renders with.
  const containers = new ContainerService(db, clocks);
  const customFields = new CustomFieldService(db, clocks.wall);
  const trackingRequests = new TrackingRequestService(db, clocks, jobs, shippingLines, customFields);
  const places = new PlaceService({ sandbox: config.sandbox.enabled });
  const parties = new PartyService(db, clocks.wall);
  const partyRoles = new PartyRoleService(db, clocks.wall);
  const webhookDelivery = new WebhookDelivery({
    db,
    wall: clocks.wall,
    transport,
    // The same documents the API serves, rendered by the same resource kinds from the same services.
    documents: { containers, places, vessels, parties, partyRoles, trackingRequests, customFields, notifications, webhooks },
    publicUrl: config.publicUrl,
    secrets: (webhook, now) => webhooks.signingSecrets(webhook, now),
    settings: delivery,
    logger: logger.child({ component: 'webhooks' }),
  });
  const users = new UserService({
    db,
    wall: clocks.wall,
    accounts,
    rateLimits,
    signupEnabled: config.signup,
    limits: config.authLimits,
    defaultPlan: config.defaultPlan,
    publicUrl: config.publicUrl,
    mailer: config.smtp ? smtpMailer(config.smtp) : null,
    logger: logger.child({ component: 'users' }),
  });
  const services: Services = {
    config,
    db,
    clocks,
    jobs,
    trackingEngine,
    trackingRequests,
    accounts,
    apiTrial: new ApiTrialService(clocks.wall, config.apiTrial),
    users,
    oauth: new OAuthService({
      db,
      wall: clocks.wall,
      keyring,
      users,
      publicUrl: config.publicUrl,
      logger: logger.child({ component: 'oauth' }),
    }),
    parties,
    partyRoles,
    customFields,
    shipments: new ShipmentService(db, trackingEngine, clocks.wall),
    containers,
    shippingLines,
    places,
    vessels,
    numberInference: new NumberInferenceService(shippingLines),
    search: new SearchService(db),
    notifications,
    webhooks,
    webhookDelivery,
    credentials,
    keyring,
    rateLimits,
    documents,
    metrics: new Metrics(db, {
      defaultMetrics: true,
      sourceHealth: () => trackingEngine.sourceHealth(),
      documents: () => documents.stats(),
    }),
    sandbox,
    mcpServer: (account, request) => createMcpServer({ deps: services, account, ...(request ? { request } : {}) }),
  };
  return services;
}

/**
 * The sandbox world when it is on: its shared clock becomes domain time. Off, domain time is the wall
 * clock and there is no sandbox.
 */
export async function openSandbox(config: Config, db: Db, wall: Clock): Promise<{ clocks: Clocks; sandbox: SandboxService | null }> {
  if (!config.sandbox.enabled) return { clocks: { wall, world: wall }, sandbox: null };
  const world = await SandboxWorldClock.open(db, wall, config.sandbox.speed);
  const hooks = config.testCrashAt === 'sandbox-advance-step' ? { afterAdvanceStep: () => crashForTest(config.testCrashAt!) } : {};
  return { clocks: { wall, world }, sandbox: new SandboxService(db, config.sandbox.seed, world, wall, undefined, hooks) };
}

/** TIDEMARK_TEST_CRASH_AT (tests only): dies here at once, as a power cut or `kill -9` would, with no clean-up. */
function crashForTest(point: string): never {
  process.stderr.write(`TIDEMARK_TEST_CRASH_AT=${point}: killing this process\n`);
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable: SIGKILL is not delivered synchronously');
}

// The jobs live in src/workers/, one file each; importers of the composition root find them here too.
export { jobDefinitions, TRACKING_SWEEP_JOB };

export interface Running {
  /** The configuration the process runs with: frozen, its public URL final. */
  config: Config;
  app: App | null;
  queue: JobQueue;
  firstStart: FirstStartResult | null;
  address: string | null;
  /**
   * Stops every role within `timeoutMs` (default `config.stopTimeoutMs`) whatever is in flight: the HTTP listener
   * closes at once; requests, webhook attempts and jobs in flight may end until shortly before the deadline; then
   * what is still running is left to other processes (jobs failed for a retry, webhook leases given back, the
   * engine's leases left to expire) and the database is closed without waiting for it.
   */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * Waits for `work` until `deadline` (epoch ms); past it, stops waiting (the work goes on until the process exits)
 * and says so in the log. A failure is logged, never thrown: the stop goes on.
 */
async function untilDeadline(what: string, work: Promise<unknown> | undefined, deadline: number, logger: Logger): Promise<void> {
  if (!work) return;
  let timer: NodeJS.Timeout | undefined;
  const late = Symbol('late');
  const outcome = await Promise.race([
    work.then(
      () => undefined,
      (err: unknown) => logger.error({ err }, `stopping: ${what} failed`),
    ),
    new Promise<typeof late>((resolve) => {
      timer = setTimeout(() => resolve(late), Math.max(0, deadline - Date.now()));
    }),
  ]);
  clearTimeout(timer);
  if (outcome === late) logger.warn(`stopping: ${what} did not finish in time; left behind`);
}

/** Starts the roles of this process on an opened, migrated database. */
export async function startRoles(
  loaded: Config,
  db: Db,
  logger: Logger,
  options: {
    /**
     * Shows the first start's secrets, with the public URL its links name; called inside its transaction, before
     * the commit (services/setup.ts).
     */
    announceFirstStart?: (result: FirstStartResult, publicUrl: string) => void;
  } = {},
): Promise<Running> {
  const serves = loaded.roles.includes('api') || loaded.roles.includes('sandbox');
  // The listener is bound first, so that the services are made with the address it got (PORT=0 picks a free port);
  // until the app is ready it answers 503 (http/listener.ts).
  const listener = serves ? await listen(loaded.host, loaded.port) : null;
  try {
    return await startOn(listeningAt(loaded, listener?.address ?? loaded.publicUrl), db, logger, listener, options);
  } catch (err) {
    await listener?.close();
    throw err;
  }
}

async function startOn(
  config: Config,
  db: Db,
  logger: Logger,
  listener: Listener | null,
  options: { announceFirstStart?: (result: FirstStartResult, publicUrl: string) => void },
): Promise<Running> {
  const { clocks, sandbox } = await openSandbox(config, db, systemClock);
  const services = makeServices(config, db, clocks, sandbox, logger);
  // Refuses to start when the key that seals secrets cannot be had outside the database (services/keyring.ts).
  await services.keyring.key();
  const firstStart = await firstStartSetup(db, services.accounts, services.clocks.wall, config.adminToken, services.users, {
    announce: options.announceFirstStart && ((result) => options.announceFirstStart!(result, config.publicUrl)),
    afterCommit: config.testCrashAt === 'first-start-commit' ? () => crashForTest('first-start-commit') : undefined,
  });
  const isWorker = config.roles.includes('worker');
  // PGlite is this process's alone (the data-directory lock): leases in it are a killed process's.
  if (db.kind === 'pglite') {
    await services.trackingEngine.releaseLeasesOfDeadProcess();
    await services.webhookDelivery.releaseLeasesOfDeadProcess();
  }
  const queue = await JobQueue.start(db, jobDefinitions(services), {
    logger: logger.child({ role: 'worker' }),
    metrics: services.metrics,
    supervise: isWorker,
  });
  services.jobs.attach(queue);
  const timers: NodeJS.Timeout[] = [];
  if (sandbox) {
    // Other processes may move the shared world clock; a second is as stale as domain time gets here.
    const refresh = () => sandbox.clock.refresh().catch((err: unknown) => logger.warn({ err }, 'could not read the sandbox clock'));
    timers.push(setInterval(refresh, 1000).unref());
  }
  let app: App | null = null;
  let address: string | null = null;
  let runner: DeliveryRunner | null = null;
  let aisStream: AisStreamIngest | null = null;
  if (listener) {
    const deps: HttpDeps = services;
    // Requests authenticate from memory; key and account changes made by any process are heard (NOTIFY).
    await services.credentials.start(db);
    // Container and shipment documents are served from memory until a write of any process changes them (NOTIFY).
    await services.documents.start(db);
    const apiLogger = logger.child({ role: 'api' });
    app = await buildApp(deps, { logger: apiLogger, listener });
    await app.ready();
    address = listener.address;
    apiLogger.info(`Server listening at ${address}`);
  }
  // Workers start once this process's sandbox faces answer (the worker's sources may be this process's faces).
  let stopping = false;
  let working: Promise<void> | null = null;
  const work = async () => {
    await queue.work();
    timers.push(...schedulePeriodicJobs(queue, logger));
    if (config.ais.nmeaUrl) {
      aisStream = await startAisStream(config.ais.nmeaUrl, db, services.clocks, logger, (imos) =>
        services.trackingEngine.applyVesselPositions(imos),
      );
    }
  };
  if (isWorker) {
    // Webhooks already in the outbox go out whatever else waits.
    runner = new DeliveryRunner(services.webhookDelivery, logger.child({ role: 'worker', component: 'webhooks' }));
    runner.start();
    // Stored data derived under older rules is re-derived before this worker refreshes anything, so that no refresh
    // compares new rules with old ones and announces the difference as news (services/rederive.ts). The API serves
    // meanwhile; every worker starting now helps, taking batches in turn, and works once all are done.
    const rederivation = new Rederivation({
      db,
      wall: services.clocks.wall,
      logger: logger.child({ role: 'worker', component: 'rederive' }),
    });
    if (await rederivation.behind()) {
      working = rederivation
        .run({ shouldStop: () => stopping })
        .then(
          () => undefined,
          (err: unknown) => logger.error({ err }, 're-derivation failed; the worker starts anyway and the next start resumes it'),
        )
        .then(() => (stopping ? undefined : work()))
        .catch((err: unknown) => {
          logger.fatal({ err }, 'the worker could not start');
          throw err;
        });
    } else await work();
  } else if (config.ais.nmeaUrl) {
    logger.info('TIDEMARK_AIS_NMEA_URL is set, but only worker processes listen to the AIS stream');
  }
  return {
    config,
    app,
    queue,
    firstStart,
    address,
    async stop(timeoutMs = config.stopTimeoutMs) {
      stopping = true;
      for (const t of timers) clearInterval(t);
      const started = Date.now();
      // The last second (at most a tenth) is kept for closing the database and leaving.
      const deadline = started + timeoutMs - Math.min(1000, timeoutMs / 10);
      // Work may go on until shortly before it, so that recording what ended still fits.
      const workUntil = started + (deadline - started) * 0.75;
      const closing: Promise<unknown>[] = [];
      // No new connection from here on; requests in flight (a clock advance) may end until the deadline.
      // (Fastify ends idle keep-alive connections at once.)
      if (app) closing.push(app.close());
      // A re-derivation stops after its batch in flight; a worker starting up finishes starting.
      await untilDeadline('the worker start', working ?? undefined, workUntil, logger);
      // Attempts in flight may end and are recorded; those still waiting on their receivers are given back.
      closing.push(runner?.stop(Math.max(0, workUntil - Date.now())) ?? Promise.resolve());
      // Jobs in flight may end; pg-boss fails the others (retried by another worker) and closes its pool.
      closing.push(queue.stop(Math.max(0, workUntil - Date.now())));
      closing.push(services.credentials.stop(), services.documents.stop());
      // What the AIS stream delivered before it closed is still written.
      if (aisStream) closing.push(aisStream.stop());
      await untilDeadline(
        'requests, webhook attempts and jobs in flight',
        Promise.allSettled(closing).then((outcomes) => {
          for (const o of outcomes) if (o.status === 'rejected') logger.error({ err: o.reason }, 'stopping: a role did not stop cleanly');
        }),
        deadline,
        logger,
      );
      // Whatever still holds a database connection is cut off: the engine's leases it held expire for others.
      await untilDeadline('closing the database', db.close(), started + timeoutMs - 100, logger);
    },
  };
}

/**
 * The worker's listener on a real AIS feed (TIDEMARK_AIS_NMEA_URL). Each worker process with the setting keeps its
 * own connection; writes are idempotent enough (latest position by time, history spaced by time) for several.
 */
async function startAisStream(
  url: string,
  db: Db,
  clocks: Clocks,
  logger: Logger,
  onNewPositions: (imos: string[]) => Promise<unknown>,
): Promise<AisStreamIngest> {
  const source = aisNmeaSource();
  const config = source.configSchema.parse({ url });
  const ingest = new AisStreamIngest({
    db,
    clocks,
    open: (handlers) => source.open(config, handlers),
    onNewPositions,
    logger: logger.child({ role: 'worker', component: 'ais-stream', source: source.id }),
  });
  await ingest.start();
  return ingest;
}

export function makeLogger(config: Config): Logger {
  return pino({ level: config.logLevel, base: { service: 'tidemark' } });
}

export { migrate };
