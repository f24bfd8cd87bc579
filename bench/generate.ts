// Fills a database with realistic tracking data in bulk: the documented sandbox shipments are tracked once
// through the real service (tracking requests, engine, sources, a month of the simulated world), then cloned
// in SQL (INSERT … SELECT over generate_series, in chunks) into shipments, containers and transport events of
// 100 accounts, three of them large (15% of the data each), the rest sharing the remainder.
//
// Run: npx tsx bench/generate.ts --size 10k|100k|1m|10m [--pglite <dir>] [--again]
//   PostgreSQL (default): database tidemark_bench_<size> on TIDEMARK_BENCH_DATABASE_URL's server (default the
//   local one), made anew; --again keeps the database's template and accounts and clones again.
//   --pglite <dir>: an embedded data directory instead.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { Db } from '../src/storage/db.js';
import { migrate } from '../src/storage/migrate.js';
import { PgDb } from '../src/storage/pg.js';
import { PgliteDb } from '../src/storage/pglite.js';
import { createDatabase, databaseUrl } from './lib/database.js';
import { fmt } from './lib/report.js';
import { FEATURES, type Feature } from '../src/domain/account.js';
import { AccountService } from '../src/services/accounts.js';
import { openWorld, RAISED_LIMITS } from './lib/world.js';

export const SIZES: Record<string, number> = { '10k': 10_000, '100k': 100_000, '1m': 1_000_000, '10m': 10_000_000 };
export const ACCOUNTS = 100;
const LARGE = 3;
const LARGE_SHARE = 0.15;
const DAY = 86_400_000;

export interface Generated {
  containers: number;
  shipments: number;
  transportEvents: number;
  /** The accounts, largest first (rate limits raised; bench/lib/data.ts issues their keys). */
  accounts: { id: string; containers: number }[];
  seconds: number;
}

/** How many template copies each account gets: three large accounts, the rest alike. */
export function copiesPerAccount(totalCopies: number, accounts = ACCOUNTS): number[] {
  const large = Math.round(totalCopies * LARGE_SHARE);
  const rest = totalCopies - large * LARGE;
  const small = accounts - LARGE;
  return Array.from({ length: accounts }, (_, i) => (i < LARGE ? large : Math.floor(rest / small) + (i - LARGE < rest % small ? 1 : 0)));
}

/** Written into a PGlite data directory once its data is complete (bench/pglite.ts regenerates a directory without it). */
export function markGenerated(dir: string, containers: number): void {
  writeFileSync(resolve(dir, '.generated'), `${containers}\n`);
}

/** tidemark_bench_<size>, or TIDEMARK_BENCH_DB_PREFIX_<size> (CI keeps its own, dropped after the run). */
export const benchDatabaseName = (size: string) => `${process.env.TIDEMARK_BENCH_DB_PREFIX ?? 'tidemark_bench'}_${size}`;

export async function generate(db: Db, containers: number, log: (line: string) => void = () => {}): Promise<Generated> {
  const started = performance.now();
  const template = await templateAccount(db, log);
  const accounts: Generated['accounts'] = [];
  for (let i = 0; i < ACCOUNTS; i++)
    accounts.push({ ...(await benchAccountNamed(db, `bench-${String(i).padStart(3, '0')}`)), containers: 0 });
  await dropClones(db, template);
  const [shape] = await db.query<{ shipments: number; containers: number; events: number }>(
    `SELECT (SELECT count(*)::int FROM shipments WHERE account_id = $1) AS shipments,
            (SELECT count(*)::int FROM containers WHERE account_id = $1) AS containers,
            (SELECT count(*)::int FROM transport_events WHERE account_id = $1) AS events`,
    [template],
  );
  if (!shape || shape.containers === 0) throw new Error('the sandbox template made no containers');
  log(`template: ${shape.shipments} shipments, ${shape.containers} containers, ${shape.events} transport events (sandbox, 30 days)`);

  const copies = copiesPerAccount(Math.max(1, Math.round(containers / shape.containers)));
  // Secondary indexes are built once after the load (several times faster than maintaining them row by row).
  const indexes = await db.query<{ name: string; def: string }>(
    `SELECT indexname AS name, indexdef AS def FROM pg_indexes
     WHERE schemaname = current_schema() AND tablename IN ('shipments', 'containers', 'transport_events')
       AND indexname NOT LIKE '%\\_pkey'`,
  );
  for (const ix of indexes) await db.exec(`DROP INDEX "${ix.name}"`);
  const CHUNK = Math.max(1, Math.floor(50_000 / shape.containers));
  let first = 1;
  let done = 0;
  for (const [i, n] of copies.entries()) {
    const account = accounts[i]!;
    account.containers = n * shape.containers;
    for (let from = first; from < first + n; from += CHUNK) {
      const to = Math.min(first + n - 1, from + CHUNK - 1);
      await cloneCopies(db, template, account.id, from, to);
      done += to - from + 1;
    }
    first += n;
    if (i < 3 || i % 20 === 19) log(`  account ${i + 1}/${ACCOUNTS}: ${fmt(done * shape.containers)} containers so far`);
  }
  log(`building ${indexes.length} indexes`);
  for (const ix of indexes) await db.exec(ix.def);
  // The copies share the template's tracked shipments (so their containers have raw events to render, as real
  // ones do); those are stopped, so that no worker of a bench run refreshes a million shipments at once.
  await db.query('UPDATE tracked_shipments SET active = false, next_check_at = NULL');
  // VACUUM, not only ANALYZE: index-only scans (list pages) need the visibility map of the fresh rows.
  await db.exec('VACUUM (ANALYZE)');
  await db.query(
    `INSERT INTO settings (key, value, updated_at) VALUES ('bench.generated', $1, now())
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    [JSON.stringify({ containers, accounts: ACCOUNTS })],
  );
  const seconds = (performance.now() - started) / 1000;
  const total = first - 1;
  return {
    containers: total * shape.containers,
    shipments: total * shape.shipments,
    transportEvents: total * shape.events,
    accounts,
    seconds,
  };
}

/**
 * The account whose shipments are cloned: made on first use by tracking every documented sandbox number that
 * ends `created` through the real service and walking the world a month; kept in the database afterwards.
 */
async function templateAccount(db: Db, log: (line: string) => void): Promise<string> {
  const [found] = await db.query<{ id: string }>(
    "SELECT a.id FROM accounts a WHERE a.name = 'bench-template' AND EXISTS (SELECT 1 FROM containers c WHERE c.account_id = a.id)",
  );
  if (found) return found.id;
  const world = await openWorld(db);
  try {
    const t = await benchAccountNamed(db, 'bench-template');
    const examples = world.services.sandbox!.examples().filter((e) => e.expected_outcome.endsWith('created'));
    const account = await world.services.accounts.get(db, t.id);
    for (const e of examples) {
      await world.services.trackingRequests.create(account, {
        requestType: e.request_type,
        requestNumber: e.request_number,
        scac: e.scac,
        autoDetect: e.scac === null,
        refNumbers: [`PO-${e.scenario}`],
        shipmentTags: [],
        customerId: null,
      });
    }
    await world.queue.runOnce('tracking.attempt');
    // A month of the simulated world: vessels sail, boxes discharge, some are picked up and returned.
    for (let day = 0; day < 30; day += 5) await world.services.sandbox!.advance(5 * DAY);
    log('template tracked through the sandbox world');
    return t.id;
  } finally {
    await world.close();
  }
}

async function benchAccountNamed(db: Db, name: string): Promise<{ id: string }> {
  const [found] = await db.query<{ id: string }>('SELECT id FROM accounts WHERE name = $1', [name]);
  if (found) return found;
  const accounts = new AccountService({ now: () => new Date() });
  const account = await accounts.create(db, { name, plan: 'unlimited', features: [...FEATURES] as Feature[] });
  await accounts.update(db, account.id, { rateLimits: RAISED_LIMITS });
  return { id: account.id };
}

/** Removes the copies of an earlier run (keeping the template's own rows), so a size can be made again. */
async function dropClones(db: Db, template: string): Promise<void> {
  const [other] = await db.query('SELECT 1 FROM shipments WHERE account_id <> $1 LIMIT 1', [template]);
  if (!other) return;
  await db.transaction(async (tx) => {
    for (const table of ['shipments', 'containers', 'transport_events']) {
      await tx.query(`CREATE TEMP TABLE keep_${table} ON COMMIT DROP AS SELECT * FROM ${table} WHERE account_id = $1`, [template]);
    }
    await tx.query('TRUNCATE shipments, containers, transport_events CASCADE');
    for (const table of ['shipments', 'containers', 'transport_events']) await tx.query(`INSERT INTO ${table} SELECT * FROM keep_${table}`);
  });
}

/**
 * Copies from..to of the template account's shipments, containers and transport events into `account`, in one
 * transaction. Ids are derived (md5 of template id and copy number) so the three tables agree; numbers get the
 * copy number so every copy is its own shipment; creation times go back a minute per copy (newest first lists).
 */
async function cloneCopies(db: Db, template: string, account: string, from: number, to: number): Promise<void> {
  // A random-looking (version 4 shaped) UUID made from the template row's id and the copy number.
  const id = (col: string) => `overlay(overlay(md5(${col}::text || ':' || g.n) placing '4' from 13) placing '8' from 17)::uuid`;
  const back = `(g.n * interval '1 minute')`;
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO shipments (id, account_id, bill_of_lading_number, normalized_number, request_number, ref_numbers, tags,
         shipping_line_scac, shipping_line_name, shipping_line_short_name, port_of_lading_locode, port_of_lading_name,
         pol_etd_at, pol_atd_at, pol_original_etd_at, pol_timezone, port_of_discharge_locode, port_of_discharge_name,
         pod_terminal_firms_code, pod_vessel_name, pod_vessel_imo, pod_voyage_number, pod_eta_at, pod_original_eta_at,
         pod_ata_at, pod_timezone, destination_locode, destination_name, destination_eta_at, destination_ata_at,
         destination_original_eta_at, destination_timezone, line_tracking_last_attempted_at, line_tracking_last_succeeded_at,
         line_tracking_stopped_at, line_tracking_stopped_reason, booking_number, snapshot, line_tracking_next_attempt_at,
         tracked_shipment_id, created_at, updated_at)
       SELECT ${id('s.id')}, $2, s.bill_of_lading_number || g.n, s.normalized_number || g.n, s.request_number || g.n,
         array[('PO' || g.n)], s.tags, s.shipping_line_scac, s.shipping_line_name, s.shipping_line_short_name,
         s.port_of_lading_locode, s.port_of_lading_name, s.pol_etd_at, s.pol_atd_at, s.pol_original_etd_at, s.pol_timezone,
         s.port_of_discharge_locode, s.port_of_discharge_name, s.pod_terminal_firms_code, s.pod_vessel_name, s.pod_vessel_imo,
         s.pod_voyage_number, s.pod_eta_at, s.pod_original_eta_at, s.pod_ata_at, s.pod_timezone, s.destination_locode,
         s.destination_name, s.destination_eta_at, s.destination_ata_at, s.destination_original_eta_at, s.destination_timezone,
         s.line_tracking_last_attempted_at, s.line_tracking_last_succeeded_at, s.line_tracking_stopped_at,
         s.line_tracking_stopped_reason, s.booking_number || g.n, s.snapshot, s.line_tracking_next_attempt_at,
         s.tracked_shipment_id, s.created_at - ${back}, s.updated_at - ${back}
       FROM generate_series($3::int, $4::int) AS g(n) CROSS JOIN shipments s WHERE s.account_id = $1`,
      [template, account, from, to],
    );
    // Container numbers: the template's owner code and a serial made of the copy number (unique per copy).
    await tx.query(
      `INSERT INTO containers (id, account_id, shipment_id, number, ref_numbers, current_status, snapshot,
         terminal_checked_at, terminal_next_check_at, rail_checked_at, rail_next_check_at, created_at, updated_at)
       SELECT ${id('c.id')}, $2, ${id('c.shipment_id')},
         left(c.number, 4) || lpad(((g.n * 37 + right(c.number, 7)::bigint) % 10000000)::text, 7, '0'),
         c.ref_numbers, c.current_status, c.snapshot || jsonb_build_object('number',
           left(c.number, 4) || lpad(((g.n * 37 + right(c.number, 7)::bigint) % 10000000)::text, 7, '0')),
         c.terminal_checked_at, c.terminal_next_check_at, c.rail_checked_at, c.rail_next_check_at,
         c.created_at - ${back}, c.updated_at - ${back}
       FROM generate_series($3::int, $4::int) AS g(n) CROSS JOIN containers c WHERE c.account_id = $1`,
      [template, account, from, to],
    );
    await tx.query(
      `INSERT INTO transport_events (id, account_id, shipment_id, container_id, event, key, "timestamp", record, created_at, updated_at)
       SELECT ${id('e.id')}, $2, ${id('e.shipment_id')}, ${id('e.container_id')}, e.event, e.key, e."timestamp", e.record,
         e.created_at - ${back}, e.updated_at - ${back}
       FROM generate_series($3::int, $4::int) AS g(n) CROSS JOIN transport_events e WHERE e.account_id = $1`,
      [template, account, from, to],
    );
  });
}

async function main() {
  const { values } = parseArgs({
    options: { size: { type: 'string', default: '10k' }, pglite: { type: 'string' }, again: { type: 'boolean', default: false } },
  });
  const containers = SIZES[values.size!];
  if (!containers) throw new Error(`--size must be one of ${Object.keys(SIZES).join(', ')}`);
  let db: Db;
  if (values.pglite) {
    db = await PgliteDb.open(values.pglite, 'bench generate');
    await migrate(db);
  } else if (values.again) {
    db = new PgDb(databaseUrl(benchDatabaseName(values.size!)), { max: 4, applicationName: 'tidemark bench generate' });
    await migrate(db);
  } else {
    db = new PgDb(await createDatabase(benchDatabaseName(values.size!)), { max: 4, applicationName: 'tidemark bench generate' });
  }
  try {
    const g = await generate(db, containers, console.log);
    console.log(
      `${fmt(g.shipments)} shipments, ${fmt(g.containers)} containers, ${fmt(g.transportEvents)} transport events over ${g.accounts.length} accounts in ${g.seconds.toFixed(1)} s`,
    );
    if (values.pglite) markGenerated(values.pglite, g.containers);
  } finally {
    await db.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) await main();
