// Plans and the API trial (domain/api-trial.ts): whether an account may read tracking data through the API now, and
// the operator's start, extension and end of a trial, shared by the /admin routes, the CLI, the /v2 gate and MCP.
import type { Account } from '../domain/account.js';
import { type ApiAccess, apiReadAccess, changeTrial, type TrialChange } from '../domain/api-trial.js';
import type { Clock } from '../domain/clock.js';
import { TidemarkError } from '../domain/errors.js';
import type { Db, Queryable } from '../storage/db.js';
import { lockAccount, moveFirstAccount, setApiTrial } from '../storage/repositories/accounts.js';
import type { AccountService } from './accounts.js';
import { announceCredentialChange } from './credential-cache.js';

export class ApiTrialService {
  constructor(
    /** Wall time: a trial is about the service's terms, never the sandbox world clock. */
    private readonly clock: Clock,
    /** TIDEMARK_API_TRIAL: false lets every account read. */
    private readonly gateOn: boolean,
  ) {}

  /** Whether the account may read tracking data through the API (keys, MCP) now. Sessions are never asked. */
  access(account: Pick<Account, 'plan' | 'apiTrial' | 'firstAccount'>): ApiAccess {
    return apiReadAccess({
      plan: account.plan,
      trial: account.apiTrial,
      firstAccount: account.firstAccount,
      gateOn: this.gateOn,
      now: this.clock.now(),
    });
  }

  /**
   * Starts, extends or ends the trial of the account named (or with this id): one transaction, the row locked, every
   * process told (their cached credentials hold the account). 409 when the change makes no sense (see changeTrial).
   */
  async change(db: Db, accounts: Pick<AccountService, 'get'>, nameOrId: string, change: TrialChange): Promise<Account> {
    return db.transaction(async (tx) => {
      const found = await accounts.get(tx, nameOrId);
      const account = (await lockAccount(tx, found.id)) ?? found;
      const now = this.clock.now();
      const result = changeTrial({ plan: account.plan, firstAccount: account.firstAccount, trial: account.apiTrial }, change, now);
      if (!result.ok) {
        const detail = `Cannot ${change.action} the API trial of ${account.name}: ${result.problem}`;
        throw new TidemarkError('conflict', detail, { items: [{ detail, code: 'api_trial_conflict' }] });
      }
      const updated = await setApiTrial(tx, account.id, result.trial, now);
      await announceCredentialChange(tx, account.id);
      return updated!;
    });
  }

  /**
   * Makes the account named (or with this id) the operator's first account, never gated: the mark moves from the
   * account that held it (migration 0031 gave it to the oldest account of an existing installation, which may not be
   * the operator's), which is gated from then on when it is free. Run it inside the caller's transaction; every
   * process is told about both accounts.
   */
  async markFirstAccount(tx: Queryable, accounts: Pick<AccountService, 'get'>, nameOrId: string): Promise<Account> {
    const found = await accounts.get(tx, nameOrId);
    const { account, previous } = await moveFirstAccount(tx, found.id, this.clock.now());
    await announceCredentialChange(tx, account.id);
    if (previous) await announceCredentialChange(tx, previous);
    return account;
  }
}
