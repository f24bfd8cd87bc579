// Webhook fan-out: worker processes (`tidemark start --roles worker`) deliver the outbox to a signed-webhook receiver
// on loopback. (a) Throughput: a backlog committed in one transaction, drained; deliveries/s against the receiver
// alone under autocannon with the same concurrency. (b) Latency: notifications committed one transaction each at a
// paced rate, p99 of commit → arrival at the receiver.
// Run: npx tsx bench/fanout.ts [--smoke] [--workers N] [--backlog N]
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { makeServices } from '../src/compose.js';
import { loadConfig } from '../src/config/index.js';
import { newId } from '../src/lib/ids.js';
import { PgDb } from '../src/storage/pg.js';
import { insertShipment } from '../src/storage/repositories/shipments.js';
import { insertAccountEvent, upsertContainer } from '../src/storage/repositories/tracking.js';
import { emptyContainer } from '../src/tracking/snapshot.js';
import { DELIVERY_DEFAULTS } from '../src/webhooks/delivery.js';
import { wakeDeliveryWorkers } from '../src/storage/repositories/webhooks.js';
import { type Server, startServer } from '../test/kit/cli.js';
import { containerColumns } from '../test/kit/seed.js';
import { backendPids, cpuOf, cpuUsedSince } from './lib/cpu.js';
import { createDatabase, dropDatabase } from './lib/database.js';
import { fmt, type GoalResult } from './lib/report.js';

const EVENT = 'container.transport.vessel_arrived';
const GOAL_RATE = 3000;
const GOAL_P99_MS = 250;
const PACED_RATE = 500;

/** The receiver: verifies both signatures of every request, answers 200, and notes when each id arrived. */
interface Receiver {
  url: string;
  /** Arrival time (performance.now) of each notification id's first delivery. */
  firstArrival: Map<string, number>;
  requests: number;
  rejected: number;
  /** Called each time a new id arrives. */
  onArrival: (() => void) | null;
  close(): Promise<void>;
}

async function startReceiver(secret: string): Promise<Receiver> {
  const verifier = new Webhook(secret);
  const r: Receiver = { url: '', firstArrival: new Map(), requests: 0, rejected: 0, onArrival: null, close: async () => {} };
  const server: HttpServer = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      r.requests++;
      const body = Buffer.concat(chunks).toString('utf8');
      const hex = Buffer.from(createHmac('sha256', secret).update(body, 'utf8').digest('hex'));
      const given = Buffer.from(String(req.headers['x-tidemark-webhook-signature'] ?? ''));
      let ok = hex.length === given.length && timingSafeEqual(hex, given);
      try {
        verifier.verify(body, req.headers as Record<string, string>);
      } catch {
        ok = false;
      }
      if (!ok) {
        r.rejected++;
        res.writeHead(401).end();
        return;
      }
      const id = String(req.headers['webhook-id']);
      if (!r.firstArrival.has(id)) {
        r.firstArrival.set(id, at);
        r.onArrival?.();
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  r.close = () =>
    new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    });
  return r;
}

/** Resolves once `check` holds (checked on every arrival and every 50 ms), or rejects after `timeoutMs`. */
function until(receiver: Receiver, check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  return new Promise((done, fail) => {
    const finish = (err?: Error) => {
      clearInterval(timer);
      clearTimeout(deadline);
      receiver.onArrival = null;
      if (err) fail(err);
      else done();
    };
    const probe = () => {
      if (check()) finish();
    };
    receiver.onArrival = probe;
    const timer = setInterval(probe, 50);
    const deadline = setTimeout(() => finish(new Error(`${what}: not within ${timeoutMs} ms`)), timeoutMs);
    probe();
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

interface Fixture {
  accountId: string;
  webhookId: string;
  secret: string;
  containers: { id: string; shipmentId: string; number: string }[];
}

/** An account with one webhook to the receiver, and shipments with containers the events point at. */
async function seed(db: PgDb, url: string, secretKey: string, receiverUrl: (secret: string) => Promise<string>): Promise<Fixture> {
  const config = loadConfig({
    DATABASE_URL: url,
    TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: 'on',
    TIDEMARK_SANDBOX: 'off',
    TIDEMARK_SECRET_KEY: secretKey,
  });
  const services = makeServices(config, db, undefined, null, pino({ level: 'silent' }));
  const account = await services.accounts.create(db, { name: 'bench-fanout', plan: 'unlimited' });
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const hook = await services.webhooks.create(account, { url: await receiverUrl(secret), events: [EVENT], secret });
  const now = new Date();
  const containers: Fixture['containers'] = [];
  for (let s = 0; s < 20; s++) {
    const shipmentId = newId();
    const bl = `MAEU${String(240000000 + s)}`;
    await insertShipment(db, {
      id: shipmentId,
      account_id: account.id,
      bill_of_lading_number: bl,
      request_number: bl,
      shipping_line_scac: 'MAEU',
      created_at: now,
      updated_at: now,
    });
    await db.query(
      "UPDATE shipments SET port_of_lading_locode = 'CNSHA', port_of_discharge_locode = 'USLAX', pod_timezone = 'America/Los_Angeles' WHERE id = $1",
      [shipmentId],
    );
    for (let c = 0; c < 5; c++) {
      const number = containerNumber(s * 5 + c);
      const { id } = await upsertContainer(
        db,
        { id: newId(), account_id: account.id, shipment_id: shipmentId },
        containerColumns(emptyContainer(number)),
        now,
      );
      containers.push({ id, shipmentId, number });
    }
  }
  return { accountId: account.id, webhookId: hook.id, secret, containers };
}

/** ISO 6346 numbers with a valid check digit (owner MSKU). */
function containerNumber(n: number): string {
  const body = `MSKU${String(1000000 + n).slice(1)}`;
  const value = (ch: string) => {
    if (/\d/.test(ch)) return Number(ch);
    const v = ch.charCodeAt(0) - 55;
    return v + Math.floor((v - 1) / 10);
  };
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += value(body[i]!) * 2 ** i;
  return `${body}${(sum % 11) % 10}`;
}

/** The engine's payload of a vessel arrival at Los Angeles. */
function payload(number: string, at: string) {
  return {
    type: EVENT,
    container_number: number,
    transport_event: {
      key: `vessel_arrived:${number}:USLAX`,
      event: EVENT,
      milestone: 'vessel_arrived',
      classifier: 'actual',
      container_number: number,
      timestamp: at,
      timezone: 'America/Los_Angeles',
      location_locode: 'USLAX',
      location_type: 'port',
      terminal: null,
      vessel_name: 'MAERSK ESSEN',
      vessel_imo: '9456783',
      voyage_number: '412E',
      rail_carrier_scac: null,
      data_source: 'shipping_line',
      value: null,
      source_id: 'carrier:MAEU',
      source_event_id: null,
      source_code: 'ARRI',
      reported_at: at,
      observed_at: at,
    },
  };
}

/**
 * `count` vessel arrivals committed in one transaction, bulk: what insertAccountEvent writes for each (the account
 * event and a notification per subscribed active webhook, due now), in two statements.
 */
async function commitBacklog(db: PgDb, f: Fixture, count: number): Promise<void> {
  const eventIds = Array.from({ length: count }, () => newId());
  const notificationIds = Array.from({ length: count }, () => newId());
  const now = new Date();
  const template = payload('X', now.toISOString().replace(/\.\d+Z$/, 'Z'));
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO account_events (id, account_id, event, shipment_id, container_id, payload, occurred_at, created_at)
       SELECT x.id, $2, $3, c.shipment_id, c.id,
         jsonb_set(jsonb_set(jsonb_set($4::jsonb, '{container_number}', to_jsonb(c.number)), '{transport_event,container_number}', to_jsonb(c.number)),
           '{transport_event,key}', to_jsonb('vessel_arrived:' || c.number || ':USLAX')),
         $5, $5
       FROM unnest($1::uuid[]) WITH ORDINALITY AS x(id, n)
       JOIN (SELECT id, shipment_id, number, (row_number() OVER (ORDER BY number) - 1) AS k FROM containers WHERE account_id = $2) c
         ON c.k = (x.n - 1) % $6
       ORDER BY x.n`,
      [eventIds, f.accountId, EVENT, JSON.stringify(template), now, f.containers.length],
    );
    await tx.query(
      `INSERT INTO webhook_notifications (id, account_id, webhook_id, account_event_id, event, next_attempt_at, created_at, updated_at)
       SELECT x.nid, $3, w.id, x.eid, $4, $5, $5, $5
       FROM unnest($1::uuid[], $2::uuid[]) AS x(nid, eid)
       JOIN webhooks w ON w.account_id = $3 AND w.active AND $4 = ANY(w.events)`,
      [notificationIds, eventIds, f.accountId, EVENT, now],
    );
    // As insertNotificationsForEvents does: the workers are woken on commit.
    wakeDeliveryWorkers(tx);
  });
}

async function startWorkers(n: number, url: string, secretKey: string): Promise<Server[]> {
  const env = {
    DATABASE_URL: url,
    TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: 'on',
    TIDEMARK_SANDBOX: 'off',
    TIDEMARK_SECRET_KEY: secretKey,
  };
  return Promise.all(Array.from({ length: n }, () => startServer(['--roles', 'worker'], env, 120_000)));
}

interface Throughput {
  /** CPU milliseconds per delivery: the worker processes, the PostgreSQL backends of the database, this process. */
  cpuMs: { workers: number; postgres: number; receiver: number };
  delivered: number;
  seconds: number;
  perSecond: number;
  duplicates: number;
  lost: number;
  rejected: number;
  /** Notifications (of every phase so far) not recorded as succeeded; attempt logs beyond one per notification. */
  unrecorded: number;
  extraLogs: number;
}

async function throughput(db: PgDb, f: Fixture, receiver: Receiver, count: number, workers: Server[]): Promise<Throughput> {
  const before = receiver.firstArrival.size;
  const requestsBefore = receiver.requests;
  const pids = workers.map((w) => w.child.pid);
  await commitBacklog(db, f, count);
  const backends = await backendPids(db);
  const cpu0 = { workers: cpuOf(pids), postgres: cpuOf(backends), self: process.cpuUsage() };
  const t0 = performance.now();
  await until(receiver, () => receiver.firstArrival.size - before >= count, 300_000, `${count} deliveries`);
  const seconds = (performance.now() - t0) / 1000;
  const self = process.cpuUsage(cpu0.self);
  const cpuMs = {
    workers: (cpuUsedSince(cpu0.workers) * 1000) / count,
    postgres: (cpuUsedSince(cpu0.postgres) * 1000) / count,
    receiver: (self.user + self.system) / 1000 / count,
  };
  // Every notification ends succeeded with exactly one attempt logged (recorded a moment after the receiver answered).
  let settled = { total: 0, succeeded: 0, logs: 0 };
  for (let i = 0; i < 300; i++) {
    const [row] = await db.query<typeof settled>(
      `SELECT (SELECT count(*)::int FROM webhook_notifications) AS total,
              (SELECT count(*)::int FROM webhook_notifications WHERE delivery_status = 'succeeded') AS succeeded,
              (SELECT count(*)::int FROM webhook_notification_logs) AS logs`,
    );
    settled = row!;
    if (settled.succeeded === settled.total && settled.logs >= settled.total) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const ids = await db.query<{ id: string }>('SELECT id FROM webhook_notifications');
  return {
    cpuMs,
    delivered: count,
    seconds,
    perSecond: count / seconds,
    duplicates: receiver.requests - requestsBefore - count,
    lost: ids.filter((r) => !receiver.firstArrival.has(r.id)).length,
    rejected: receiver.rejected,
    unrecorded: settled.total - settled.succeeded,
    extraLogs: settled.logs - settled.total,
  };
}

interface Baseline {
  rps: number;
  p99: number;
  rejected: number;
  bytes: number;
  connections: number;
}

/** The receiver alone: autocannon POSTing a signed delivery body with the delivery lanes' concurrency. */
async function baseline(db: PgDb, f: Fixture, receiver: Receiver, seconds: number, connections: number): Promise<Baseline> {
  const [row] = await db.query<{ id: string; body: string }>('SELECT id, body FROM webhook_notifications WHERE body IS NOT NULL LIMIT 1');
  const id = row!.id;
  const body = row!.body;
  const timestamp = new Date();
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Tidemark-Webhooks/1.0',
    'x-tidemark-webhook-signature': createHmac('sha256', f.secret).update(body, 'utf8').digest('hex'),
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': new Webhook(f.secret).sign(id, timestamp, body),
  };
  const rejectedBefore = receiver.rejected;
  const result = await autocannon({ url: receiver.url, method: 'POST', headers, body, connections, duration: seconds });
  return {
    rps: result['2xx'] / seconds,
    p99: result.latency.p99,
    rejected: receiver.rejected - rejectedBefore,
    bytes: Buffer.byteLength(body),
    connections,
  };
}

interface Latency {
  count: number;
  p50: number;
  p99: number;
  max: number;
  achievedRate: number;
}

/** `rate` notifications a second for `seconds`, each committed in its own transaction through insertAccountEvent. */
async function latency(db: PgDb, f: Fixture, receiver: Receiver, rate: number, seconds: number): Promise<Latency> {
  const total = rate * seconds;
  const committedAt = new Map<string, number>();
  const commits: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const c = f.containers[i % f.containers.length]!;
    const id = newId();
    const now = new Date();
    commits.push(
      db
        .transaction((tx) =>
          insertAccountEvent(
            tx,
            {
              id,
              account_id: f.accountId,
              event: EVENT,
              tracking_request_id: null,
              shipment_id: c.shipmentId,
              container_id: c.id,
              transport_event_id: null,
              estimated_event_id: null,
              payload: payload(c.number, now.toISOString().replace(/\.\d+Z$/, 'Z')),
              occurred_at: now,
            },
            now,
          ),
        )
        .then(() => {
          committedAt.set(id, performance.now());
        }),
    );
  }
  await Promise.all(commits);
  const achievedRate = total / ((performance.now() - start) / 1000);
  const rows = await db.query<{ id: string; account_event_id: string }>(
    'SELECT id, account_event_id FROM webhook_notifications WHERE account_event_id = ANY($1::uuid[])',
    [[...committedAt.keys()]],
  );
  await until(receiver, () => rows.every((r) => receiver.firstArrival.has(r.id)), 120_000, `${total} paced deliveries`);
  const delays = rows.map((r) => receiver.firstArrival.get(r.id)! - committedAt.get(r.account_event_id)!).sort((a, b) => a - b);
  return { count: rows.length, p50: percentile(delays, 0.5), p99: percentile(delays, 0.99), max: delays.at(-1)!, achievedRate };
}

/** What a throughput phase says, as a goal row. */
function fanoutResult(
  id: string,
  tp: Throughput,
  base: Baseline,
  workers: number,
  judged: boolean,
  extra: Record<string, number> = {},
): GoalResult {
  const w = `${workers} worker${workers === 1 ? '' : 's'}`;
  return {
    id,
    goal: `≥ ${fmt(GOAL_RATE)} deliveries/s to a local receiver, signed`,
    measured:
      `${fmt(tp.perSecond)} deliveries/s (${fmt(tp.delivered)} in ${fmt(tp.seconds, 2)} s, ${w}, ${tp.duplicates} duplicates, ${tp.lost} lost; ` +
      `CPU per delivery: workers ${fmt(tp.cpuMs.workers, 3)} ms, PostgreSQL ${fmt(tp.cpuMs.postgres, 3)} ms, receiver ${fmt(tp.cpuMs.receiver, 3)} ms)`,
    baseline: `receiver alone: ${fmt(base.rps)} req/s (autocannon, ${base.connections} connections = the delivery lanes, ${fmt(base.bytes)}-byte signed body)`,
    ratio: tp.perSecond / base.rps,
    pass: judged ? tp.perSecond >= GOAL_RATE && tp.lost === 0 && tp.rejected === 0 && tp.unrecorded === 0 && tp.extraLogs >= 0 : null,
    figures: {
      workers,
      delivered: tp.delivered,
      seconds: tp.seconds,
      deliveries_per_s: tp.perSecond,
      duplicates: tp.duplicates,
      lost: tp.lost,
      rejected_signatures: tp.rejected,
      unrecorded: tp.unrecorded,
      worker_cpu_ms_per_delivery: tp.cpuMs.workers,
      postgres_cpu_ms_per_delivery: tp.cpuMs.postgres,
      receiver_cpu_ms_per_delivery: tp.cpuMs.receiver,
      baseline_rps: base.rps,
      baseline_p99_ms: base.p99,
      baseline_connections: base.connections,
      ...extra,
    },
  };
}

/**
 * The fan-out goals. With `workers` > 1 the backlog is drained first by one worker, then by all of them (same
 * database, same receiver), and the second row reports the scale-out ratio; latency is measured with all of them.
 */
export async function run(opts: { smoke: boolean; workers?: number; backlog?: number }): Promise<GoalResult[]> {
  const workers = Math.max(1, opts.workers ?? 1);
  const backlog = opts.backlog ?? (opts.smoke ? 2_000 : 30_000);
  const warmUp = opts.smoke ? 200 : 2_000;
  const pacedSeconds = opts.smoke ? 2 : 10;
  const pacedRate = opts.smoke ? 100 : PACED_RATE;
  const baselineSeconds = opts.smoke ? 2 : 10;
  const lanes = DELIVERY_DEFAULTS.perEndpoint;
  const judged = !opts.smoke;
  const name = `bench_fanout_${process.pid}`;
  const url = await createDatabase(name);
  const secretKey = randomBytes(32).toString('base64');
  const db = new PgDb(url, { max: 10, applicationName: 'tidemark bench fanout' });
  let receiver: Receiver | null = null;
  const servers: Server[] = [];
  try {
    const f = await seed(db, url, secretKey, async (secret) => {
      receiver = await startReceiver(secret);
      return receiver.url;
    });
    const rcv = receiver as unknown as Receiver;
    servers.push(...(await startWorkers(1, url, secretKey)));
    // Warm-up: the first deliveries pay for JIT, connections and pools.
    await throughput(db, f, rcv, warmUp, servers);
    const one = await throughput(db, f, rcv, backlog, servers);
    const baseOne = await baseline(db, f, rcv, baselineSeconds, lanes);
    const results = [fanoutResult('webhook-fanout', one, baseOne, 1, judged)];
    if (workers > 1) {
      servers.push(...(await startWorkers(workers - 1, url, secretKey)));
      await throughput(db, f, rcv, warmUp, servers);
      const many = await throughput(db, f, rcv, backlog, servers);
      const baseMany = await baseline(db, f, rcv, baselineSeconds, lanes * workers);
      results.push(
        fanoutResult(`webhook-fanout-${workers}w`, many, baseMany, workers, judged, { scale_ratio: many.perSecond / one.perSecond }),
      );
      results.at(-1)!.notes = `${fmt(many.perSecond / one.perSecond, 2)}× the deliveries/s of one worker in the same run`;
    }
    const lat = await latency(db, f, rcv, pacedRate, pacedSeconds);
    const w = `${workers} worker${workers === 1 ? '' : 's'}`;
    results.push({
      id: workers === 1 ? 'webhook-latency' : `webhook-latency-${workers}w`,
      goal: `p99 commit → receiver < ${GOAL_P99_MS} ms at ${fmt(PACED_RATE)}/s`,
      measured: `p99 ${fmt(lat.p99, 1)} ms, p50 ${fmt(lat.p50, 1)} ms, max ${fmt(lat.max, 1)} ms at ${fmt(lat.achievedRate)}/s (${fmt(lat.count)} notifications, ${w})`,
      baseline: null,
      ratio: null,
      pass: judged ? lat.p99 < GOAL_P99_MS && lat.achievedRate >= PACED_RATE * 0.95 : null,
      figures: {
        workers,
        rate: pacedRate,
        achieved_rate: lat.achievedRate,
        count: lat.count,
        p50_ms: lat.p50,
        p99_ms: lat.p99,
        max_ms: lat.max,
      },
    });
    return results;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await (receiver as Receiver | null)?.close();
    await db.close();
    await dropDatabase(name);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const args = process.argv.slice(2);
  const value = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? Number(args[at + 1]) : undefined;
  };
  const results = await run({ smoke: args.includes('--smoke'), workers: value('--workers') ?? 1, backlog: value('--backlog') });
  for (const r of results) {
    console.log(`${r.id}: ${r.measured}`);
    if (r.baseline) console.log(`  baseline: ${r.baseline}${r.ratio === null ? '' : ` — ratio ${(r.ratio * 100).toFixed(0)}%`}`);
    console.log(`  goal: ${r.goal} — ${r.pass === null ? 'n/a (smoke)' : r.pass ? 'PASS' : 'FAIL'}`);
  }
  process.exit(0);
}
