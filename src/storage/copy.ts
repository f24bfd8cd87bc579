// Copying Tidemark's own tables from one database to another at the application level (`tidemark db copy`,
// docs/operations.md "Moving from PGlite to PostgreSQL"): the tables, their foreign keys, triggers and sequences are
// read from the catalog, so a table a new migration adds is copied without a change here. Rows travel as JSON text
// (`to_json` on one side, `json_populate_recordset` on the other): no driver parses them, and a value comes back as
// the same value whatever the two servers' majors. Reads go through cursors, a batch at a time.
import { createHash } from 'node:crypto';
import type { Queryable } from './db.js';

/** Written by each database's own migration run, never copied. */
export const MIGRATIONS_TABLE = 'schema_migrations';

/** Rows fetched and inserted per batch: a few MB of JSON at most for our widest rows (stored documents). */
export const COPY_BATCH_ROWS = 500;
/** Row digests fetched per batch while checksumming. */
const DIGEST_BATCH_ROWS = 5000;

/**
 * Settings that make a row's text the same on both sides (the checksum compares it): times in UTC and ISO, the
 * shortest exact floats, hex bytea. `SET LOCAL`: they end with the transaction.
 */
export const STABLE_TEXT_SETTINGS = [
  "SET LOCAL TimeZone = 'UTC'",
  "SET LOCAL DateStyle = 'ISO, YMD'",
  "SET LOCAL IntervalStyle = 'postgres'",
  'SET LOCAL extra_float_digits = 1',
  "SET LOCAL bytea_output = 'hex'",
];

export interface TableShape {
  name: string;
  /** Every column, in order: what the checksum reads. */
  columns: string[];
  /** The columns a copy writes: all but the generated ones (computed again on insert). */
  writable: string[];
  /** A GENERATED ALWAYS identity column: inserting its values needs OVERRIDING SYSTEM VALUE. */
  identityAlways: boolean;
  /** Has triggers of its own (the row counters of migration 0012): switched off while the rows are copied. */
  triggers: boolean;
}

export interface ForeignKey {
  from: string;
  to: string;
}

export interface SchemaShape {
  /** Our tables (the migrations table aside), in an order where every table comes after those it references. */
  tables: TableShape[];
  sequences: string[];
}

/**
 * The tables our migrations write rows into (`INSERT INTO` in their SQL: a backfill, or a row a table starts with):
 * on a target the migrations ran on, rows there may be theirs rather than anyone's data.
 */
export function seededTables(migrations: readonly { sql: string }[]): Set<string> {
  const out = new Set<string>();
  for (const m of migrations)
    for (const hit of m.sql.matchAll(/\bINSERT\s+INTO\s+"?([a-z_][a-z0-9_]*)"?/gi)) out.add(hit[1]!.toLowerCase());
  return out;
}

/** A name quoted for SQL. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * The tables in an order where each comes after every table it references (ties by name, so the order is the
 * same on every run). A cycle, a table referencing itself included, has no such order: its rows would need an
 * order within the table or deferred constraints, which the copy does not do; it says which tables.
 */
export function dependencyOrder(tables: readonly string[], foreignKeys: readonly ForeignKey[]): string[] {
  const known = new Set(tables);
  const needs = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const fk of foreignKeys) {
    if (known.has(fk.from) && known.has(fk.to)) needs.get(fk.from)!.add(fk.to);
  }
  const order: string[] = [];
  const placed = new Set<string>();
  while (order.length < tables.length) {
    const ready = [...needs]
      .filter(([t, deps]) => !placed.has(t) && [...deps].every((d) => placed.has(d)))
      .map(([t]) => t)
      .sort();
    if (ready.length === 0) {
      const left = tables.filter((t) => !placed.has(t)).sort();
      throw new Error(`The foreign keys of ${left.join(', ')} form a cycle: no order copies them table by table`);
    }
    for (const t of ready) {
      order.push(t);
      placed.add(t);
    }
  }
  return order;
}

/** Our schema as the catalog of `q` has it: the schema of the session (`current_schema()`), job queue's aside. */
export async function readSchema(q: Queryable): Promise<SchemaShape> {
  const columns = await q.query<{ table: string; column: string; generated: boolean; identity_always: boolean }>(
    `SELECT c.relname AS table, a.attname AS column, a.attgenerated <> '' AS generated, a.attidentity = 'a' AS identity_always
       FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND NOT c.relispartition
        AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY c.oid, a.attnum`,
  );
  const foreignKeys = await q.query<ForeignKey>(
    `SELECT f.relname AS from, t.relname AS to
       FROM pg_constraint k JOIN pg_class f ON f.oid = k.conrelid JOIN pg_class t ON t.oid = k.confrelid
      WHERE k.contype = 'f' AND f.relnamespace = current_schema()::regnamespace`,
  );
  const triggers = await q.query<{ table: string }>(
    `SELECT DISTINCT c.relname AS table FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
      WHERE NOT g.tgisinternal AND c.relnamespace = current_schema()::regnamespace`,
  );
  const sequences = await q.query<{ name: string }>(
    `SELECT relname AS name FROM pg_class WHERE relkind = 'S' AND relnamespace = current_schema()::regnamespace`,
  );
  const shapes = new Map<string, TableShape>();
  for (const c of columns) {
    if (c.table === MIGRATIONS_TABLE) continue;
    let shape = shapes.get(c.table);
    if (!shape) {
      shape = { name: c.table, columns: [], writable: [], identityAlways: false, triggers: false };
      shapes.set(c.table, shape);
    }
    shape.columns.push(c.column);
    if (!c.generated) shape.writable.push(c.column);
    if (c.identity_always) shape.identityAlways = true;
  }
  for (const t of triggers) {
    const shape = shapes.get(t.table);
    if (shape) shape.triggers = true;
  }
  const order = dependencyOrder([...shapes.keys()], foreignKeys);
  return { tables: order.map((t) => shapes.get(t)!), sequences: sequences.map((s) => s.name).sort() };
}

/**
 * What differs between two schemas' shapes (same tables, same columns in the same order): empty when a copy can
 * go row for row. Both sides ran the same migrations, so a difference means they did not.
 */
export function shapeDifferences(source: SchemaShape, target: SchemaShape): string[] {
  const out: string[] = [];
  const targetTables = new Map(target.tables.map((t) => [t.name, t]));
  for (const s of source.tables) {
    const t = targetTables.get(s.name);
    if (!t) out.push(`table ${s.name} is missing on the target`);
    else if (s.columns.join(',') !== t.columns.join(',')) out.push(`table ${s.name} has other columns on the target`);
  }
  const sourceTables = new Set(source.tables.map((t) => t.name));
  for (const t of target.tables) if (!sourceTables.has(t.name)) out.push(`table ${t.name} is on the target only`);
  const missing = source.sequences.filter((s) => !target.sequences.includes(s));
  for (const s of missing) out.push(`sequence ${s} is missing on the target`);
  return out;
}

/** The migrations a database has applied. */
export async function appliedMigrations(q: Queryable): Promise<number[]> {
  const rows = await q.query<{ version: number }>(`SELECT version FROM ${MIGRATIONS_TABLE} ORDER BY version`);
  return rows.map((r) => r.version);
}

/** Whether the table holds a row. */
export async function hasRows(q: Queryable, table: string): Promise<boolean> {
  const rows = await q.query(`SELECT 1 FROM ${ident(table)} LIMIT 1`);
  return rows.length > 0;
}

export async function countRows(q: Queryable, table: string): Promise<number> {
  const [row] = await q.query<{ n: number }>(`SELECT count(*) AS n FROM ${ident(table)}`);
  return row!.n;
}

/** The tables of `names` that exist in `q`'s schema (before a first migration run, none). */
export async function existingTables(q: Queryable, names: readonly string[]): Promise<string[]> {
  const rows = await q.query<{ name: string }>(
    `SELECT relname AS name FROM pg_class WHERE relkind = 'r' AND relnamespace = current_schema()::regnamespace AND relname = ANY($1::text[])`,
    [names],
  );
  return rows.map((r) => r.name).sort();
}

export interface TableDigest {
  rows: number;
  /** md5 over the md5 of every row's text, those in order: the same rows give the same digest on any server. */
  md5: string;
}

/**
 * A table's row count and content digest, read through a cursor (call inside a transaction, with
 * STABLE_TEXT_SETTINGS). The rows are ordered by their own digest (in the C collation), not by a key: the order then
 * does not depend on either server's collation, and equal digests mean the same rows.
 */
export async function tableDigest(tx: Queryable, table: TableShape): Promise<TableDigest> {
  const row = `ROW(${table.columns.map(ident).join(', ')})::text`;
  const cursor = ident(`tidemark_digest_${table.name}`);
  await tx.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR SELECT md5(${row}) COLLATE "C" AS h FROM ${ident(table.name)} ORDER BY 1`);
  const hash = createHash('md5');
  let rows = 0;
  for (;;) {
    const batch = await tx.query<{ h: string }>(`FETCH ${DIGEST_BATCH_ROWS} FROM ${cursor}`);
    for (const r of batch) hash.update(`${r.h}\n`);
    rows += batch.length;
    if (batch.length < DIGEST_BATCH_ROWS) break;
  }
  await tx.query(`CLOSE ${cursor}`);
  return { rows, md5: hash.digest('hex') };
}

/**
 * Copies every row of `table` from `from` to `to` (each inside its transaction), a batch at a time: the source's
 * rows as JSON through a cursor, inserted as JSON on the target. Generated columns are computed again there; identity
 * values are kept. Returns the rows copied.
 */
export async function copyRows(from: Queryable, to: Queryable, table: TableShape, batchRows = COPY_BATCH_ROWS): Promise<number> {
  const cols = table.writable.map(ident).join(', ');
  const cursor = ident(`tidemark_copy_${table.name}`);
  await from.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR SELECT to_json(r)::text AS j FROM (SELECT ${cols} FROM ${ident(table.name)}) r`);
  const insert = `INSERT INTO ${ident(table.name)} (${cols})${table.identityAlways ? ' OVERRIDING SYSTEM VALUE' : ''}
    SELECT ${cols} FROM json_populate_recordset(NULL::${ident(table.name)}, $1::json)`;
  let copied = 0;
  for (;;) {
    const batch = await from.query<{ j: string }>(`FETCH ${batchRows} FROM ${cursor}`);
    if (batch.length > 0) {
      await to.query(insert, [`[${batch.map((r) => r.j).join(',')}]`]);
      copied += batch.length;
    }
    if (batch.length < batchRows) break;
  }
  await from.query(`CLOSE ${cursor}`);
  return copied;
}

export interface SequenceState {
  name: string;
  lastValue: number;
  isCalled: boolean;
}

/** Where each sequence of `names` stands (serial and identity columns' included). */
export async function readSequences(q: Queryable, names: readonly string[]): Promise<SequenceState[]> {
  const out: SequenceState[] = [];
  for (const name of names) {
    const [row] = await q.query<{ last_value: number; is_called: boolean }>(`SELECT last_value, is_called FROM ${ident(name)}`);
    if (row) out.push({ name, lastValue: row.last_value, isCalled: row.is_called });
  }
  return out;
}

/** Sets each sequence where the source's stands, so the target's next values follow the copied rows. */
export async function writeSequences(q: Queryable, states: readonly SequenceState[]): Promise<void> {
  for (const s of states) await q.query('SELECT setval($1::regclass, $2, $3)', [ident(s.name), s.lastValue, s.isCalled]);
}

/**
 * Switches a table's own triggers off or on again (inside the transaction: a rollback undoes it). The row counters
 * (migration 0012) would otherwise count the copied rows a second time on top of the copied counts.
 */
export async function setTriggers(q: Queryable, table: TableShape, on: boolean): Promise<void> {
  if (table.triggers) await q.query(`ALTER TABLE ${ident(table.name)} ${on ? 'ENABLE' : 'DISABLE'} TRIGGER USER`);
}

/** Takes every table for this transaction alone: no process writes to the target while it is copied to. */
export async function lockTables(q: Queryable, tables: readonly TableShape[]): Promise<void> {
  if (tables.length) await q.query(`LOCK TABLE ${tables.map((t) => ident(t.name)).join(', ')} IN ACCESS EXCLUSIVE MODE`);
}

/** Deletes a table's rows (what the target's own migration run put there, replaced by the source's). */
export async function clearTable(q: Queryable, table: TableShape): Promise<void> {
  await q.query(`DELETE FROM ${ident(table.name)}`);
}

export interface ServerIdentity {
  /** `version()`: the product, its version and build. */
  version: string;
  versionNum: number;
  /** The cluster's system identifier; null where the server does not tell it (a role without the right). */
  systemId: string | null;
  database: string;
}

/** What the database says it is: product and version, its cluster's system identifier, the database's name. */
export async function serverIdentity(q: Queryable): Promise<ServerIdentity> {
  const [row] = await q.query<{ version: string; num: string; database: string }>(
    `SELECT version() AS version, current_setting('server_version_num') AS num, current_database() AS database`,
  );
  const system = await q
    .query<{ id: string }>('SELECT system_identifier::text AS id FROM pg_control_system()')
    .catch(() => [] as { id: string }[]);
  return { version: row!.version, versionNum: Number(row!.num), systemId: system[0]?.id ?? null, database: row!.database };
}

/** Work waiting in the copied tables that must go on where the copy lands (see services/database-copy.ts). */
export interface PendingWork {
  /** Tracking requests whose next attempt is due or scheduled. */
  trackingRequests: number;
  /** Webhook notifications not delivered yet. */
  notifications: number;
  /** On-demand container refreshes waiting for their job. */
  refreshes: number;
}

export async function pendingWork(q: Queryable): Promise<PendingWork> {
  const [row] = await q.query<{ tracking_requests: number; notifications: number; refreshes: number }>(
    `SELECT (SELECT count(*) FROM tracking_requests
              WHERE status IN ('pending', 'awaiting_manifest') AND next_attempt_at IS NOT NULL)::int AS tracking_requests,
            (SELECT count(*) FROM webhook_notifications WHERE delivery_status = 'pending')::int AS notifications,
            (SELECT count(*) FROM container_refreshes)::int AS refreshes`,
  );
  return { trackingRequests: row!.tracking_requests, notifications: row!.notifications, refreshes: row!.refreshes };
}
