// Moving an installation off the embedded database (`tidemark db copy`, docs/operations.md "Moving from PGlite to
// PostgreSQL"): our tables copied to a PostgreSQL server at the application level, in one transaction there, checked
// table by table before it commits. A dump would not do: PGlite's PostgreSQL major is newer than most servers'.
// The job queue's schema is never copied: the work it held is rebuilt from our own tables (see `copyDatabase`).
import { TidemarkError } from '../domain/errors.js';
import type { Clock } from '../domain/clock.js';
import { unseal } from '../lib/sealed.js';
import {
  appliedMigrations,
  clearTable,
  copyRows,
  countRows,
  existingTables,
  hasRows,
  lockTables,
  type PendingWork,
  pendingWork,
  readSchema,
  readSequences,
  seededTables,
  type SchemaShape,
  type ServerIdentity,
  serverIdentity,
  setTriggers,
  shapeDifferences,
  STABLE_TEXT_SETTINGS,
  type TableDigest,
  tableDigest,
  writeSequences,
} from '../storage/copy.js';
import type { Db, Queryable } from '../storage/db.js';
import { loadMigrations, migrate } from '../storage/migrate.js';
import { PgliteDb } from '../storage/pglite.js';
import { sealedValuesForUpdate } from '../storage/repositories/sealed.js';
import type { JobSender } from './jobs.js';
import { SecretKeyring } from './keyring.js';
import { TRACKING_REFRESH_JOB } from './tracking-engine/context.js';

/** The oldest PostgreSQL server Tidemark supports (docs/operations.md "Storage"). */
export const MIN_SERVER_VERSION_NUM = 150000;

/** Why a database cannot be the target of a copy from `source`; empty when it can. */
export function targetProblems(source: ServerIdentity, target: ServerIdentity): string[] {
  const problems: string[] = [];
  if (!/^PostgreSQL \d/.test(target.version)) {
    problems.push(`the target is not a PostgreSQL server (it says: ${target.version.slice(0, 80)})`);
  } else if (target.versionNum < MIN_SERVER_VERSION_NUM) {
    problems.push(`the target runs PostgreSQL ${Math.floor(target.versionNum / 10000)}; Tidemark needs 15 or newer`);
  }
  if (source.systemId !== null && source.systemId === target.systemId && source.database === target.database) {
    problems.push('the target is the source database itself');
  }
  return problems;
}

/**
 * Tables of the target whose rows forbid a copy there (named, with their count): rows in a table no migration writes
 * into; in one a migration does (`seeded`), rows other than those a fresh migration run leaves (`migrationMade`;
 * null when the target had none of our tables before this run's migrations, which then made them all).
 */
export function occupiedTables(
  found: ReadonlyMap<string, TableDigest>,
  seeded: ReadonlySet<string>,
  migrationMade: ReadonlyMap<string, TableDigest> | null,
): { table: string; rows: number }[] {
  const out: { table: string; rows: number }[] = [];
  for (const [table, digest] of found) {
    if (digest.rows === 0) continue;
    const made = migrationMade?.get(table);
    const fromMigrations = seeded.has(table) && (migrationMade === null || (made?.md5 === digest.md5 && made.rows === digest.rows));
    if (!fromMigrations) out.push({ table, rows: digest.rows });
  }
  return out.sort((a, b) => a.table.localeCompare(b.table));
}

export interface CopyOptions {
  /** The PGlite database of the data directory, opened (and so locked) by the caller. */
  source: Db;
  /** The PostgreSQL server. */
  target: Db;
  /** Where the source's sealed secrets are opened from: TIDEMARK_SECRET_KEY, else the data directory's key file. */
  secretKey: { configured: Buffer | null; keyFile: string };
  /** Starts the job queue on the target (creating its schema) to send the jobs the copied rows wait for. */
  startJobs(target: Db): Promise<{ sender: JobSender; stop(): Promise<void> }>;
  /** Wall time, for how long it took. */
  clock: Clock;
  /** Progress, a line at a time. */
  progress?: (line: string) => void;
}

export interface CopyReport {
  tables: { name: string; rows: number }[];
  rows: number;
  ms: number;
  pending: PendingWork;
  /** Where the key that opens the copied secrets is: TIDEMARK_SECRET_KEY as set, or the data directory's file. */
  secretKey: 'configured' | 'key-file';
  /** Values sealed with that key (webhook secrets, OAuth secrets and signing key). */
  sealed: number;
  sourceVersion: string;
  targetVersion: string;
}

/**
 * Copies every table of ours from `source` to `target`, or nothing:
 * 1. refuses a target that is not PostgreSQL 15 or newer, is the source itself, or whose tables (if it has them
 *    already) hold rows other than those a fresh migration run leaves there (checked again once they are locked);
 * 2. checks that the key the target's processes will need opens every sealed secret of the source;
 * 3. runs the migrations on both (the source may be behind the binary), then compares the two schemas;
 * 4. in one transaction on the target, every table locked: the tables in foreign-key order (their own triggers,
 *    the row counters, off meanwhile), the sequences, one `tracking.refresh` job per waiting on-demand refresh;
 *    then every table's row count and digest on both sides; a difference rolls everything back, naming the table.
 * Pending tracking requests and webhook notifications need no job: the workers' sweep and delivery loop take them
 * from their due times in our tables; the periodic jobs are sent by every worker that starts.
 */
export async function copyDatabase(o: CopyOptions): Promise<CopyReport> {
  const started = o.clock.now().getTime();
  const say = o.progress ?? (() => {});
  const sourceId = await serverIdentity(o.source);
  const targetId = await serverIdentity(o.target);
  const problems = targetProblems(sourceId, targetId);
  if (problems.length) throw new TidemarkError('validation_failed', `Cannot copy there: ${problems.join('; ')}`);

  await migrate(o.source);
  const shape = await readSchema(o.source);
  const key = await new SecretKeyring({ db: o.source, configured: o.secretKey.configured, keyFile: o.secretKey.keyFile }).key();
  const sealed = await checkSealed(o.source, key);

  // Rows in a table no migration writes into refuse the target at once; the rows a migration writes are told from
  // the target's own data by a fresh migration run, made only when the target had our tables before.
  const seeded = seededTables(loadMigrations());
  const before = await o.target.transaction(async (tx) => {
    for (const s of STABLE_TEXT_SETTINGS) await tx.query(s);
    const existing = await existingTables(
      tx,
      shape.tables.map((t) => t.name),
    );
    refuseIfAny(occupiedTables(await tablesWithRows(tx, existing, shape, () => false), seeded, null));
    return existing.length;
  });
  const migrationMade = before > 0 ? await migrationMadeRows() : null;
  say(`Running the migrations on the target (${targetId.version.split(' ').slice(0, 2).join(' ')})`);
  await migrate(o.target);
  await compareSchemas(o.source, o.target, shape);

  const jobs = await o.startJobs(o.target);
  try {
    const result = await o.target.transaction((to) =>
      o.source.transaction(async (from) => {
        for (const s of STABLE_TEXT_SETTINGS) {
          await to.query(s);
          await from.query(s);
        }
        await lockTables(to, shape.tables);
        const found = await tablesWithRows(
          to,
          shape.tables.map((t) => t.name),
          shape,
          (t) => seeded.has(t) && migrationMade !== null,
        );
        refuseIfAny(occupiedTables(found, seeded, migrationMade));
        const tables: { name: string; rows: number }[] = [];
        say(`Copying ${shape.tables.length} tables`);
        for (const t of shape.tables) await setTriggers(to, t, false);
        // What the target's migrations wrote (occupiedTables let nothing else through) gives way to the source's.
        for (const t of [...shape.tables].reverse()) if (found.has(t.name)) await clearTable(to, t);
        for (const t of shape.tables) {
          const rows = await copyRows(from, to, t);
          tables.push({ name: t.name, rows });
          if (rows > 0) say(`  ${t.name}: ${rows} rows`);
        }
        await writeSequences(to, await readSequences(from, shape.sequences));
        for (const t of shape.tables) await setTriggers(to, t, true);
        const pending = await pendingWork(to);
        for (let i = 0; i < pending.refreshes; i++) await jobs.sender.enqueue(to, TRACKING_REFRESH_JOB, {});
        say('Checking every table on both sides');
        for (const t of shape.tables) {
          const [a, b] = [await tableDigest(from, t), await tableDigest(to, t)];
          if (a.rows !== b.rows || a.md5 !== b.md5) {
            throw new TidemarkError(
              'conflict',
              `The copy of table ${t.name} differs from the source (source: ${a.rows} rows, digest ${a.md5}; target: ${b.rows} rows, digest ${b.md5}); nothing was copied`,
            );
          }
        }
        return { tables, pending };
      }),
    );
    return {
      ...result,
      rows: result.tables.reduce((n, t) => n + t.rows, 0),
      ms: o.clock.now().getTime() - started,
      secretKey: o.secretKey.configured ? 'configured' : 'key-file',
      sealed,
      sourceVersion: sourceId.version,
      targetVersion: targetId.version,
    };
  } finally {
    await jobs.stop();
  }
}

/** How many values are sealed in `db`; refuses when one of them does not open with `key`. */
async function checkSealed(db: Db, key: Buffer): Promise<number> {
  return db.transaction(async (tx) => {
    const values = await sealedValuesForUpdate(tx);
    for (const v of values) {
      try {
        unseal(key, v.sealed);
      } catch (err) {
        throw new TidemarkError('conflict', `The ${v.where} does not open with the secret key; nothing was copied`, { cause: err });
      }
    }
    return values.length;
  });
}

/**
 * The rows a fresh migration run leaves in our tables (today the derivation's version row), by table: a target our
 * migrations ran on before (`tidemark migrate`, a copy rolled back) holds them and nothing else, and is empty.
 */
async function migrationMadeRows(): Promise<Map<string, TableDigest>> {
  const fresh = await PgliteDb.memory();
  try {
    await migrate(fresh);
    const shape = await readSchema(fresh);
    return await fresh.transaction(async (tx) => {
      for (const s of STABLE_TEXT_SETTINGS) await tx.query(s);
      return tablesWithRows(
        tx,
        shape.tables.map((t) => t.name),
        shape,
        () => true,
      );
    });
  } finally {
    await fresh.close();
  }
}

/** The tables of `names` that hold rows: digested where a fresh migration run leaves rows too, else counted. */
async function tablesWithRows(
  q: Queryable,
  names: readonly string[],
  shape: SchemaShape,
  digestOf: (table: string) => boolean,
): Promise<Map<string, TableDigest>> {
  const out = new Map<string, TableDigest>();
  for (const t of shape.tables) {
    if (!names.includes(t.name) || !(await hasRows(q, t.name))) continue;
    out.set(t.name, digestOf(t.name) ? await tableDigest(q, t) : { rows: await countRows(q, t.name), md5: '' });
  }
  return out;
}

function refuseIfAny(occupied: { table: string; rows: number }[]): void {
  if (occupied.length) {
    throw new TidemarkError(
      'conflict',
      `The target database is not empty: ${occupied.map((o) => `${o.table} (${o.rows} rows)`).join(', ')}. Copy into a new, empty database (createdb), or empty these tables first`,
    );
  }
}

async function compareSchemas(source: Db, target: Db, shape: SchemaShape): Promise<void> {
  const [from, to] = [await appliedMigrations(source), await appliedMigrations(target)];
  if (from.join(',') !== to.join(',')) {
    throw new TidemarkError(
      'conflict',
      `The target's migrations (${to.at(-1) ?? 'none'}) are not the source's (${from.at(-1) ?? 'none'}): it was migrated by another version of Tidemark`,
    );
  }
  const differences = shapeDifferences(shape, await readSchema(target));
  if (differences.length) throw new TidemarkError('conflict', `The target's schema differs from the source's: ${differences.join('; ')}`);
}
