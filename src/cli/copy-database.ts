// `tidemark db copy`: moves an installation from its PGlite data directory to a PostgreSQL server
// (services/database-copy.ts does the copy; docs/operations.md "Moving from PGlite to PostgreSQL").
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command, Option } from 'commander';
import { loadConfig, processEnv } from '../config/index.js';
import { systemClock } from '../domain/clock.js';
import { TidemarkError } from '../domain/errors.js';
import { type CopyReport, copyDatabase } from '../services/database-copy.js';
import type { JobSender } from '../services/jobs.js';
import type { Db } from '../storage/db.js';
import { PgDb } from '../storage/pg.js';
import { PgliteDb } from '../storage/pglite.js';

export interface CopyCommandDeps {
  dataDirOption(): Option;
  /** Starts the job queue on a database (its schema created), to send the jobs the copied rows wait for. */
  startJobs(db: Db): Promise<{ sender: JobSender; stop(): Promise<void> }>;
}

/** A database URL with its password hidden, for output. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(not a URL)';
  }
}

/** The target URL given by `--to` or DATABASE_URL; refuses anything but a postgres:// URL. */
export function targetUrl(to: string | undefined, databaseUrl: string | undefined): string {
  const url = to ?? databaseUrl;
  if (!url) {
    throw new TidemarkError(
      'validation_failed',
      'Name the PostgreSQL server to copy to: --to postgres://user@host:5432/database (or set DATABASE_URL)',
    );
  }
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new TidemarkError('validation_failed', `The target is not a URL: ${displayUrl(url)}; give postgres://user@host:5432/database`);
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new TidemarkError('validation_failed', `The target must be a PostgreSQL server URL (postgres://…), not ${protocol}//…`);
  }
  return url;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What the command prints once the copy has committed: the summary, then how to switch. */
export function copySummary(report: CopyReport, where: { dataDir: string; targetUrl: string; keyFile: string }): string {
  const lines = [
    `Copied ${plural(report.tables.length, 'table')} (${plural(report.rows, 'row')}) from ${where.dataDir} to ${displayUrl(where.targetUrl)} in ${(report.ms / 1000).toFixed(1)} s.`,
    "Checked: every table's row count and checksum are the same on both sides.",
  ];
  const width = Math.max(...report.tables.map((t) => t.name.length));
  for (const t of [...report.tables].sort((a, b) => a.name.localeCompare(b.name))) lines.push(`  ${t.name.padEnd(width)}  ${t.rows}`);
  const { trackingRequests, notifications, refreshes } = report.pending;
  lines.push(
    `Pending work carried over: ${plural(trackingRequests, 'tracking request')} (attempted by the workers' sweep), ${plural(notifications, 'webhook notification')} (sent by the workers' delivery), ${plural(refreshes, 'on-demand refresh', 'on-demand refreshes')} (a job queued for each).`,
    '',
    'To switch to the server:',
    `  1. Leave ${where.dataDir} as it is: it is your way back. Do not start Tidemark on it again, or the two drift apart.`,
    `  2. Set DATABASE_URL=${displayUrl(where.targetUrl)} in every process.`,
  );
  if (report.secretKey === 'configured') {
    lines.push('  3. Set TIDEMARK_SECRET_KEY in every process to the key this copy ran with: the copied secrets open with it.');
  } else {
    lines.push(
      `  3. Set TIDEMARK_SECRET_KEY in every process to the key in ${where.keyFile}: the copied secrets (${plural(report.sealed, 'sealed value')}) open with it only.`,
      `     It prints with: tidemark secret-key export --data-dir ${where.dataDir}`,
    );
  }
  lines.push('  4. Start: tidemark start (as many processes as you need: docs/operations.md "Running several processes").');
  return `${lines.join('\n')}\n`;
}

export function registerCopyDatabaseCommand(program: Command, deps: CopyCommandDeps): void {
  program
    .command('db')
    .description('Move the database')
    .command('copy')
    .description(
      'Copy everything from the PGlite data directory to an empty PostgreSQL database, in one transaction, checked table by table; the data directory stays as it is, your way back (stop the server first)',
    )
    .option('--to <url>', 'the PostgreSQL database to copy to (default DATABASE_URL)')
    .addOption(deps.dataDirOption())
    .action(async (opts: { to?: string; dataDir?: string }) => {
      const env = processEnv();
      const target = targetUrl(opts.to, env.DATABASE_URL);
      // The source is the data directory whatever DATABASE_URL says: read the settings as a PGlite process would.
      const cfg = loadConfig({ ...env, DATABASE_URL: undefined }, { dataDir: opts.dataDir });
      const keyFile = cfg.secretKeyFile ?? join(cfg.dataDir, 'secret-key');
      if (!existsSync(join(cfg.dataDir, 'pg', 'PG_VERSION'))) {
        throw new TidemarkError('not_found', `There is no Tidemark database in ${cfg.dataDir} (--data-dir, or TIDEMARK_DATA_DIR)`);
      }
      // Takes the data directory's lock: refuses while a server (or another command) has it open.
      const source = await PgliteDb.open(cfg.dataDir, 'tidemark db copy');
      const targetDb = new PgDb(target, { max: 2, applicationName: 'tidemark db copy' });
      try {
        const report = await copyDatabase({
          source,
          target: targetDb,
          secretKey: { configured: cfg.secretKey, keyFile },
          startJobs: deps.startJobs,
          clock: systemClock,
          progress: (line) => process.stderr.write(`${line}\n`),
        });
        process.stdout.write(copySummary(report, { dataDir: cfg.dataDir, targetUrl: target, keyFile }));
      } finally {
        await targetDb.close().catch(() => {});
        await source.close();
      }
    });
}
