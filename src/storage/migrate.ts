// Forward-only numbered migrations (migrations/NNNN_name.sql), each applied in its own transaction
// under a transaction-scoped advisory lock, so several processes starting at once apply each exactly once.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Db } from './db.js';

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** An arbitrary constant shared by every Tidemark process: the lock id for migrations. */
const MIGRATION_LOCK = 7_310_552_001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  const files = readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort();
  return files.map((file) => ({
    version: Number(file.slice(0, 4)),
    name: file.slice(5, -4),
    sql: readFileSync(`${dir}/${file}`, 'utf8'),
  }));
}

/**
 * The database was migrated by a newer Tidemark: it holds migrations this version does not have. Running on it would
 * write rows without what the newer schema expects every write to keep, so a start (or `tidemark migrate`) refuses.
 */
export class DatabaseNewerThanCodeError extends Error {
  constructor(readonly unknown: { version: number; name: string }[]) {
    const names = unknown.map((m) => `${String(m.version).padStart(4, '0')}_${m.name}`).join(', ');
    super(
      `the database was migrated by a newer version of Tidemark (${names} unknown to this one): run that version, or restore ` +
        'the backup taken before the upgrade to go back (docs/operations.md, "Rolling back")',
    );
    this.name = 'DatabaseNewerThanCodeError';
  }
}

/**
 * Applies every pending migration; returns the versions applied by this call. Refuses a database that holds
 * migrations this version does not know (DatabaseNewerThanCodeError) before applying anything.
 */
export async function migrate(db: Db, migrations = loadMigrations()): Promise<number[]> {
  const unknown = await db.transaction(async (tx) => {
    // CREATE TABLE IF NOT EXISTS races with itself on a server; serialize it behind the same lock.
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const known = new Set(migrations.map((m) => m.version));
    const rows = await tx.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version');
    return rows.filter((r) => !known.has(r.version));
  });
  if (unknown.length) throw new DatabaseNewerThanCodeError(unknown);
  const applied: number[] = [];
  for (const m of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const rows = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
      if (rows.length) return false;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      return true;
    });
    if (done) applied.push(m.version);
  }
  return applied;
}

/** Versions not yet applied (for /readyz). */
export async function pendingMigrations(db: Db, migrations = loadMigrations()): Promise<number[]> {
  const rows = await db.query<{ version: number }>('SELECT version FROM schema_migrations').catch(() => [] as { version: number }[]);
  const have = new Set(rows.map((r) => r.version));
  return migrations.map((m) => m.version).filter((v) => !have.has(v));
}
