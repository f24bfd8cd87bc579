// One worker process of the ingest bench (bench/ingest.ts): the engine with the prepared registry on the shared
// database, running the sweep (runDue) at t1 until nothing is due, as a `tidemark start --roles worker` would;
// leases decide which process refreshes which tracked shipment. Driven over IPC: prepare → ready, go → done.
import { FixedClock, systemClock } from '../src/domain/clock.js';
import { PgDb } from '../src/storage/pg.js';
import { buildEngine, drain, pickStories, PreparedRegistry, prepareAnswers, type WorldSpec } from './ingest-world.js';

interface Prepare {
  type: 'prepare';
  url: string;
  spec: { seed: string; shipments: number; t0: string; t1: string };
}

let db: PgDb | null = null;
let go: (() => Promise<void>) | null = null;

process.on('message', (m: Prepare | { type: 'go' } | { type: 'exit' }) => {
  if (m.type === 'prepare') {
    void (async () => {
      const spec: WorldSpec = { ...m.spec, t0: new Date(m.spec.t0), t1: new Date(m.spec.t1) };
      const registry = new PreparedRegistry();
      registry.answers = await prepareAnswers(pickStories(spec), spec.t1);
      db = new PgDb(m.url, { max: 10, applicationName: `bench ingest worker ${process.pid}` });
      const engine = buildEngine(db, { wall: systemClock, world: new FixedClock(spec.t1) }, registry);
      go = async () => {
        const started = performance.now();
        const handled = await drain(engine, spec.t1);
        process.send!({ type: 'done', handled, ms: performance.now() - started, fetches: Object.fromEntries(registry.carrierFetches) });
      };
      process.send!({ type: 'ready' });
    })().catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
  } else if (m.type === 'go') {
    go!().catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
  } else {
    void (db?.close() ?? Promise.resolve()).then(() => process.exit(0));
  }
});
