// The generated data a benchmark reads: the database of a size, made by bench/generate.ts when it is missing
// (or was made by an older generator), migrated to the current schema, and the bench's way in (API keys).
import { AccountService } from '../../src/services/accounts.js';
import { migrate } from '../../src/storage/migrate.js';
import { PgDb } from '../../src/storage/pg.js';
import { GENERATOR_VERSION, SIZES, benchDatabaseName, generate } from '../generate.js';
import { createDatabase, databaseExists, databaseUrl } from './database.js';
import { fmt } from './report.js';

export interface BenchData {
  size: string;
  url: string;
  containers: number;
  /** The accounts, most containers first. */
  accounts: { id: string; containers: number }[];
}

export async function ensureData(size: string, log: (line: string) => void = console.log): Promise<BenchData> {
  const containers = SIZES[size];
  if (!containers) throw new Error(`unknown size ${size}`);
  const name = benchDatabaseName(size);
  let url = databaseUrl(name);
  let ready = false;
  if (await databaseExists(name)) {
    const db = new PgDb(url, { max: 2 });
    try {
      await migrate(db);
      const [row] = await db.query<{ value: { containers?: number; version?: number } }>(
        "SELECT value FROM settings WHERE key = 'bench.generated'",
      );
      ready = row?.value.containers === containers && row.value.version === GENERATOR_VERSION;
    } finally {
      await db.close();
    }
  }
  if (!ready) {
    log(`generating ${size} (${fmt(containers)} containers) into ${name} …`);
    url = await createDatabase(name);
    const db = new PgDb(url, { max: 4, applicationName: 'tidemark bench generate' });
    try {
      const g = await generate(db, containers, log);
      log(`generated ${fmt(g.containers)} containers, ${fmt(g.transportEvents)} transport events in ${g.seconds.toFixed(0)} s`);
    } finally {
      await db.close();
    }
  }
  const db = new PgDb(url, { max: 2 });
  try {
    const accounts = await db.query<{ id: string; containers: number }>(
      `SELECT a.id, (SELECT count(*)::int FROM containers c WHERE c.account_id = a.id) AS containers
       FROM accounts a WHERE a.name LIKE 'bench-%' AND a.name <> 'bench-template' ORDER BY 2 DESC, a.name`,
    );
    return { size, url, containers, accounts };
  } finally {
    await db.close();
  }
}

/** A new API key of the account (the generator's keys are not kept anywhere). */
export async function issueBenchKey(url: string, accountId: string): Promise<string> {
  const db = new PgDb(url, { max: 1 });
  try {
    return (await new AccountService({ now: () => new Date() }).issueKey(db, accountId, 'bench')).token;
  } finally {
    await db.close();
  }
}

/** Up to `n` ids from `table` of the account, spread over its rows. */
export async function sampleIds(url: string, table: 'containers' | 'shipments', accountId: string, n: number): Promise<string[]> {
  const db = new PgDb(url, { max: 1 });
  try {
    const rows = await db.query<{ id: string }>(`SELECT id FROM ${table} WHERE account_id = $1 ORDER BY md5(id::text) LIMIT $2`, [
      accountId,
      n,
    ]);
    return rows.map((r) => r.id);
  } finally {
    await db.close();
  }
}
