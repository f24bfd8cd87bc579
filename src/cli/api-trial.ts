// `tidemark accounts trial start|extend|end <account>`: the operator's API trial commands (docs/api.md "Plans and the
// API trial"), the same operations as /admin/accounts/{name}/api_trial. Like the other account commands they open the
// database: on PGlite they refuse while a server holds the data directory (use the admin API then); with DATABASE_URL
// they work beside running servers, which drop the account's cached credentials when told (services/api-trial.ts).
import { type Command, InvalidArgumentError, type Option } from 'commander';
import type { Config } from '../config/index.js';
import type { Account } from '../domain/account.js';
import { DEFAULT_TRIAL_DAYS, MAX_TRIAL_DAYS, type TrialChange } from '../domain/api-trial.js';
import { systemClock } from '../domain/clock.js';
import { AccountService } from '../services/accounts.js';
import { ApiTrialService } from '../services/api-trial.js';
import type { Db } from '../storage/db.js';

export interface TrialCommandDeps {
  withDb<T>(purpose: string, fn: (db: Db, cfg: Config) => Promise<T>, overrides?: { dataDir?: string }): Promise<T>;
  dataDirOption(): Option;
}

function days(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > MAX_TRIAL_DAYS) throw new InvalidArgumentError(`whole days, 1 to ${MAX_TRIAL_DAYS}`);
  return n;
}

/** One line about the account's trial, as the commands print it. */
export function describeTrial(account: Account, trials: ApiTrialService): string {
  const access = trials.access(account);
  const trial = account.apiTrial;
  const when = trial ? `API trial ${trial.startedAt.toISOString()} → ${trial.endsAt.toISOString()}` : 'no API trial';
  const state = access.allowed
    ? access.reason === 'trial'
      ? 'API reads allowed until the trial ends'
      : 'API reads allowed'
    : 'API reads refused';
  return `${account.name}: plan ${account.plan}, ${when} (${state})`;
}

export function registerTrialCommands(accounts: Command, deps: TrialCommandDeps): void {
  const trial = accounts
    .command('trial')
    .description("A free account's API trial: reading tracking data through the API (keys, MCP) needs one");

  const run = async (name: string, change: TrialChange, dataDir: string | undefined) => {
    const line = await deps.withDb(
      `tidemark accounts trial ${change.action}`,
      async (db, cfg) => {
        const trials = new ApiTrialService(systemClock, cfg.apiTrial);
        const account = await trials.change(db, new AccountService(systemClock), name, change);
        return describeTrial(account, trials);
      },
      { dataDir },
    );
    process.stdout.write(`${line}\n`);
  };

  trial
    .command('start')
    .description(`Start the account's API trial now (${DEFAULT_TRIAL_DAYS} days unless --days)`)
    .argument('<account>', 'account name')
    .option('--days <n>', `length in whole days (default ${DEFAULT_TRIAL_DAYS})`, days)
    .addOption(deps.dataDirOption())
    .action((name: string, opts: { days?: number; dataDir?: string }) =>
      run(name, { action: 'start', days: opts.days ?? DEFAULT_TRIAL_DAYS }, opts.dataDir),
    );
  trial
    .command('extend')
    .description('Extend the trial: a running one from its end, an ended one from now')
    .argument('<account>', 'account name')
    .requiredOption('--days <n>', 'whole days to add', days)
    .addOption(deps.dataDirOption())
    .action((name: string, opts: { days: number; dataDir?: string }) => run(name, { action: 'extend', days: opts.days }, opts.dataDir));
  trial
    .command('end')
    .description("End the account's API trial now")
    .argument('<account>', 'account name')
    .addOption(deps.dataDirOption())
    .action((name: string, opts: { dataDir?: string }) => run(name, { action: 'end' }, opts.dataDir));
}
