// Whether this process can serve: the database answers and every migration this version knows has run.
import type { Db } from '../storage/db.js';
import { pendingMigrations } from '../storage/migrate.js';

export type Readiness =
  | { status: 'ready'; database: Db['kind'] }
  | { status: 'migrating'; pending_migrations: number[] }
  | { status: 'unavailable'; database: Db['kind'] };

export async function readiness(db: Db): Promise<Readiness> {
  try {
    await db.query('SELECT 1');
    const pending = await pendingMigrations(db);
    if (pending.length) return { status: 'migrating', pending_migrations: pending };
    return { status: 'ready', database: db.kind };
  } catch {
    return { status: 'unavailable', database: db.kind };
  }
}
