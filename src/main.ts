// The `tidemark` command: start the service, migrate, and manage accounts and keys.
import { linkUrl } from './services/users.js';
import { pathToFileURL } from 'node:url';
import { Command, Option } from 'commander';
import { pino } from 'pino';
import { ConfigError, loadConfig, processEnv, type Config, type Overrides } from './config/index.js';
import { checkSourceSettings, jobDefinitions, makeLogger, makeServices, migrate, openDatabase, startRoles } from './compose.js';
import { registerOperatorCommands } from './cli/operator.js';
import { registerTrialCommands } from './cli/api-trial.js';
import { registerCopyDatabaseCommand } from './cli/copy-database.js';
import { JobQueue } from './workers/queue.js';
import type { FirstStartResult } from './services/setup.js';
import { FEATURES, PLANS, type Feature, type Plan } from './domain/account.js';
import { systemClock } from './domain/clock.js';
import { TidemarkError } from './domain/errors.js';
import { AccountService } from './services/accounts.js';
import { ApiTrialService } from './services/api-trial.js';
import { Rederivation } from './services/rederive.js';
import type { Db } from './storage/db.js';
import { findFirstAccount } from './storage/repositories/accounts.js';

function parseFeatures(value: string | undefined): Feature[] | undefined {
  if (value === undefined) return undefined;
  const list = value
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (list.length === 1 && list[0] === 'all') return [...FEATURES];
  const bad = list.filter((f) => !(FEATURES as readonly string[]).includes(f));
  if (bad.length) throw new TidemarkError('validation_failed', `Unknown feature(s): ${bad.join(', ')}. Known: ${FEATURES.join(', ')}`);
  return list as Feature[];
}

/** The first start's secrets, shown once: how to reach the admin API, the API and the web app. */
function printFirstStart(first: FirstStartResult, publicUrl: string): void {
  const { apiKey, adminToken, ownerSetupToken } = first;
  process.stdout.write('First start: keep these, they are shown only once (lost? see "Lost the first start\'s output" in the README)\n');
  process.stdout.write(`API key: ${apiKey}\n`);
  if (adminToken) process.stdout.write(`Admin token: ${adminToken}\n`);
  process.stdout.write(`Owner setup: ${linkUrl(publicUrl, ownerSetupToken)}\n`);
}

function config(overrides: Overrides = {}): Config {
  return loadConfig(processEnv(), overrides);
}

/** Opens the database for a one-shot command (refusing a data dir held by a running server), migrates, runs. */
async function withDb<T>(
  purpose: string,
  fn: (db: Db, cfg: Config, applied: number[]) => Promise<T>,
  overrides: Overrides = {},
): Promise<T> {
  const cfg = config(overrides);
  const db = await openDatabase(cfg, purpose);
  try {
    const applied = await migrate(db);
    return await fn(db, cfg, applied);
  } finally {
    await db.close();
  }
}

export function buildCli(): Command {
  const program = new Command('tidemark')
    .description('Tidemark: self-hosted container tracking with a Terminal49-compatible API')
    .showHelpAfterError();
  const dataDirOption = () => new Option('--data-dir <dir>', 'PGlite data directory (default ./data, or TIDEMARK_DATA_DIR)');

  program
    .command('start')
    .description('Run the service (all roles by default) until SIGINT/SIGTERM')
    .option('--port <n>', 'listen port (default 8080, or PORT)')
    .option('--host <h>', 'listen address (default 127.0.0.1, or TIDEMARK_HOST)')
    .addOption(dataDirOption())
    .option('--roles <roles>', 'comma list of api, worker, sandbox (default all)')
    .action(async (opts: { port?: string; host?: string; dataDir?: string; roles?: string }) => {
      const cfg = config({
        port: opts.port === undefined ? undefined : Number(opts.port),
        host: opts.host,
        dataDir: opts.dataDir,
        roles: opts.roles,
      });
      checkSourceSettings(cfg);
      // Whoever reads our output may go away (a closed pipe): the writes fail with EPIPE, which must neither end
      // the process (an unhandled 'error' event) nor keep it from stopping. Output is lost from then on.
      for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
      const logger = makeLogger(cfg);
      const db = await openDatabase(cfg, `tidemark start (${cfg.roles.join(',')})`);
      let running: Awaited<ReturnType<typeof startRoles>>;
      try {
        await migrate(db);
        // The first start's secrets are printed before its commit (stdout is synchronous on Linux), so a crash
        // cannot commit them unseen; the listener is bound by then, so the link names the address it got.
        running = await startRoles(cfg, db, logger, { announceFirstStart: (first, publicUrl) => printFirstStart(first, publicUrl) });
      } catch (err) {
        await db.close().catch(() => {});
        throw err;
      }
      if (running.firstStart) {
        const { apiKey } = running.firstStart;
        process.stdout.write(`Try: curl -H "Authorization: Token ${apiKey}" ${running.config.publicUrl}/v2/shipments\n`);
      }
      // Which account is the operator's, never gated by the API trial (on an upgrade, migration 0031 marked the
      // oldest): `tidemark accounts update NAME --first-account` moves the mark.
      const first = await findFirstAccount(db);
      logger.info(
        { address: running.address, roles: cfg.roles, database: db.kind, first_account: first?.name ?? null },
        'tidemark started',
      );
      let stopping = false;
      const shutdown = (signal: string) => {
        if (stopping) return;
        stopping = true;
        logger.info({ signal, timeout_ms: cfg.stopTimeoutMs }, 'shutting down');
        // However the stop goes (a database that does not answer, a receiver that hangs), the process is gone by
        // TIDEMARK_STOP_TIMEOUT: what it still held is left to other processes (see Running.stop).
        setTimeout(() => {
          logger.error({ timeout_ms: cfg.stopTimeoutMs }, 'the stop did not finish in time; exiting anyway');
          process.exit(1);
        }, cfg.stopTimeoutMs);
        running
          .stop(cfg.stopTimeoutMs)
          .then(() => process.exit(0))
          .catch((err: unknown) => {
            logger.error({ err }, 'shutdown failed');
            process.exit(1);
          });
      };
      process.on('SIGINT', () => shutdown('SIGINT'));
      process.on('SIGTERM', () => shutdown('SIGTERM'));
    });

  program
    .command('migrate')
    .description('Apply pending database migrations and exit')
    .addOption(dataDirOption())
    .action(async (opts: { dataDir?: string }) => {
      // withDb has applied them: its list is what this run applied.
      const applied = await withDb('tidemark migrate', async (_db, _cfg, applied) => applied, { dataDir: opts.dataDir });
      process.stdout.write(applied.length ? `Applied migrations: ${applied.join(', ')}\n` : 'Database is up to date\n');
    });

  program
    .command('rederive')
    .description(
      'Re-derive every stored container under the current derivation rules (status, availability, last free days, board facts) without notifying anyone; a worker does it by itself at its first start after an upgrade',
    )
    .option('--force', 'also when the stored data is already derived under the current rules')
    .addOption(dataDirOption())
    .action(async (opts: { force?: boolean; dataDir?: string }) => {
      const result = await withDb(
        'tidemark rederive',
        // Progress goes to stderr as log lines; stdout has the summary alone.
        (db, cfg) =>
          new Rederivation({
            db,
            wall: systemClock,
            logger: pino({ level: cfg.logLevel, base: { service: 'tidemark' } }, pino.destination(2)),
          }).run({
            force: opts.force ?? false,
          }),
        { dataDir: opts.dataDir },
      );
      process.stdout.write(
        result.ran
          ? `Re-derived ${result.containers} containers of ${result.trackedShipments} tracked shipments in ${(result.ms / 1000).toFixed(1)} s; derivation version ${result.version}${result.skipped.length ? ` (${result.skipped.length} left as they were, see the log: ${result.skipped.join(', ')})` : ''}\n`
          : `Stored data is derived under the current rules (derivation version ${result.version}); nothing to do\n`,
      );
      if (result.skipped.length) process.exitCode = 1;
    });

  const keys = program.command('keys').description('Manage API keys');
  keys
    .command('create')
    .description('Create an API key (and the account if needed); prints the key as the last line')
    .requiredOption('--account <name>', 'account name')
    .addOption(new Option('--plan <plan>', 'plan for a new account').choices(PLANS))
    .option('--features <list>', `features for a new account: comma list of ${FEATURES.join(', ')}, or all`)
    .option('--name <label>', 'a label for the key')
    .addOption(dataDirOption())
    .action(async (opts: { account: string; plan?: Plan; features?: string; name?: string; dataDir?: string }) => {
      const token = await withDb(
        'tidemark keys create',
        async (db, cfg) => {
          const accounts = new AccountService(systemClock);
          return db.transaction(async (tx) => {
            let account = await accounts.get(tx, opts.account).catch((err: unknown) => {
              if (err instanceof TidemarkError && err.code === 'not_found') return null;
              throw err;
            });
            if (!account) {
              account = await accounts.create(tx, {
                name: opts.account,
                plan: opts.plan ?? cfg.defaultPlan,
                features: parseFeatures(opts.features),
              });
              process.stdout.write(`Created account ${account.name} (plan ${account.plan})\n`);
            } else if (opts.plan || opts.features) {
              process.stdout.write(`Account ${account.name} exists; use 'tidemark accounts update' to change its plan or features\n`);
            }
            return (await accounts.issueKey(tx, account.id, opts.name ?? null)).token;
          });
        },
        { dataDir: opts.dataDir },
      );
      process.stdout.write(`${token}\n`);
    });
  keys
    .command('list')
    .description('List an account’s API keys, masked')
    .requiredOption('--account <name>', 'account name')
    .addOption(dataDirOption())
    .action(async (opts: { account: string; dataDir?: string }) => {
      await withDb(
        'tidemark keys list',
        async (db) => {
          const accounts = new AccountService(systemClock);
          const account = await accounts.get(db, opts.account);
          for (const k of await accounts.listKeys(db, account.id)) {
            const state = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active';
            const used = k.lastUsedAt ? `last used ${k.lastUsedAt.toISOString()}` : 'never used';
            process.stdout.write(
              `${k.id}  ${k.masked}  ${state}  created ${k.createdAt.toISOString()}  ${used}${k.name ? `  ${k.name}` : ''}\n`,
            );
          }
        },
        { dataDir: opts.dataDir },
      );
    });
  keys
    .command('revoke')
    .description('Revoke an API key by id')
    .argument('<id>', 'key id (from keys list)')
    .addOption(dataDirOption())
    .action(async (id: string, opts: { dataDir?: string }) => {
      const key = await withDb('tidemark keys revoke', (db) => new AccountService(systemClock).revokeKey(db, id), {
        dataDir: opts.dataDir,
      });
      process.stdout.write(`Revoked ${key.id} (${key.masked})\n`);
    });

  const accountsCmd = program.command('accounts').description('Manage accounts');
  accountsCmd
    .command('update')
    .description('Change an account’s plan or features')
    .argument('<name>', 'account name')
    .addOption(new Option('--plan <plan>', 'new plan').choices(PLANS))
    .option('--features <list>', 'features to enable (comma list, or all)')
    .option('--disable-features <list>', 'features to disable (comma list, or all)')
    .option(
      '--first-account',
      "make it the operator's first account, never gated by the API trial (the mark moves from the account that held it)",
    )
    .addOption(dataDirOption())
    .action(
      async (
        name: string,
        opts: { plan?: Plan; features?: string; disableFeatures?: string; firstAccount?: boolean; dataDir?: string },
      ) => {
        const account = await withDb(
          'tidemark accounts update',
          (db, cfg) =>
            db.transaction(async (tx) => {
              const accounts = new AccountService(systemClock);
              const updated = await accounts.update(tx, name, {
                plan: opts.plan,
                enable: parseFeatures(opts.features),
                disable: parseFeatures(opts.disableFeatures),
              });
              return opts.firstAccount
                ? new ApiTrialService(systemClock, cfg.apiTrial).markFirstAccount(tx, accounts, updated.id)
                : updated;
            }),
          { dataDir: opts.dataDir },
        );
        process.stdout.write(
          `${account.name}: plan ${account.plan}, features ${account.features.join(',') || '(none)'}${account.firstAccount ? ', first account' : ''}\n`,
        );
      },
    );
  accountsCmd
    .command('list')
    .description('List accounts')
    .addOption(dataDirOption())
    .action(async (opts: { dataDir?: string }) => {
      await withDb(
        'tidemark accounts list',
        async (db) => {
          for (const a of await new AccountService(systemClock).list(db)) {
            process.stdout.write(
              `${a.name}  plan ${a.plan}  features ${a.features.join(',') || '(none)'}  created ${a.createdAt.toISOString()}${a.apiTrial ? `  api trial ends ${a.apiTrial.endsAt.toISOString()}` : ''}${a.firstAccount ? '  first account' : ''}\n`,
            );
          }
        },
        { dataDir: opts.dataDir },
      );
    });

  registerTrialCommands(accountsCmd, { withDb, dataDirOption });
  registerOperatorCommands(program, { withDb, dataDirOption, services: (db, cfg) => makeServices(cfg, db) });
  registerCopyDatabaseCommand(program, {
    dataDirOption,
    // The queue only sends here (no worker runs on it): the services behind the job handlers are never called.
    async startJobs(db) {
      const queue = await JobQueue.start(db, jobDefinitions(makeServices(config(), db)), {
        logger: pino({ level: 'silent' }),
        supervise: false,
      });
      return { sender: queue, stop: () => queue.stop(1000) };
    },
  });

  return program;
}

export async function runCli(argv: string[]): Promise<void> {
  try {
    await buildCli().parseAsync(argv);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof TidemarkError) {
      process.stderr.write(`tidemark: ${err.message}\n`);
      process.exit(err instanceof TidemarkError && err.code === 'locked' ? 3 : 2);
    }
    throw err;
  }
}

// Run directly (`node --import tsx src/main.ts …` in development and tests); bin/tidemark.js calls runCli itself.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runCli(process.argv);
