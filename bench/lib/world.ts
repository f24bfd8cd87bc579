// The service composed in this process on a bench database, with the sandbox world on: the generator tracks
// the documented sandbox numbers through it (the real tracking requests, engine and sources) to get
// realistic template rows, and benchmarks use its services to make accounts and keys.
import pino from 'pino';
import { loadConfig } from '../../src/config/index.js';
import { jobDefinitions, makeServices, openSandbox, type Services } from '../../src/compose.js';
import { RATE_BUCKETS } from '../../src/domain/account.js';
import { systemClock } from '../../src/domain/clock.js';
import { buildApp } from '../../src/http/app.js';
import { listen } from '../../src/http/listener.js';
import type { App } from '../../src/http/context.js';
import type { Db } from '../../src/storage/db.js';
import { JobQueue } from '../../src/workers/queue.js';

export interface World {
  services: Services;
  app: App;
  queue: JobQueue;
  close(): Promise<void>;
}

export async function openWorld(db: Db): Promise<World> {
  // The simulated carriers, terminals and railroads answer the real adapters over loopback, at the bound address.
  const listener = await listen('127.0.0.1', 0);
  const config = loadConfig({ TIDEMARK_PUBLIC_URL: listener.address, TIDEMARK_SANDBOX: 'on', TIDEMARK_LOG_LEVEL: 'silent' });
  const { clocks, sandbox } = await openSandbox(config, db, systemClock);
  const services = makeServices(config, db, clocks, sandbox);
  const queue = await JobQueue.start(db, jobDefinitions(services), { logger: pino({ level: 'silent' }), supervise: false });
  services.jobs.attach(queue);
  const app = await buildApp(services, { listener });
  await app.ready();
  return {
    services,
    app,
    queue,
    async close() {
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
      await queue.stop(1000);
    },
  };
}

/** Every rate limit of the account raised out of the way (the bench measures the check, not the 429). */
export const RAISED_LIMITS = Object.fromEntries(RATE_BUCKETS.map((b) => [b, 100_000_000]));
