import type { Account, Feature, Plan, RateBucket } from '../../domain/account.js';
import type { ApiTrial } from '../../domain/api-trial.js';
import { one, type Queryable } from '../db.js';
import type { Accounts } from '../schema.generated.js';

interface AccountRow extends Accounts {
  plan: Plan;
  features: Feature[];
  rate_limits: Partial<Record<RateBucket, number>>;
}

const toAccount = (r: AccountRow): Account => ({
  id: r.id,
  name: r.name,
  companyName: r.company_name,
  plan: r.plan,
  features: r.features,
  rateLimits: r.rate_limits ?? {},
  apiTrial: r.api_trial_started_at && r.api_trial_ends_at ? { startedAt: r.api_trial_started_at, endsAt: r.api_trial_ends_at } : null,
  firstAccount: r.first_account,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function insertAccount(q: Queryable, a: Account): Promise<Account> {
  const row = await one<AccountRow>(
    q,
    `INSERT INTO accounts (id, name, company_name, plan, features, rate_limits, created_at, updated_at,
                           api_trial_started_at, api_trial_ends_at, first_account)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
    [
      a.id,
      a.name,
      a.companyName,
      a.plan,
      a.features,
      JSON.stringify(a.rateLimits),
      a.createdAt,
      a.updatedAt,
      a.apiTrial?.startedAt ?? null,
      a.apiTrial?.endsAt ?? null,
      a.firstAccount,
    ],
  );
  return toAccount(row!);
}

export async function findAccountById(q: Queryable, id: string): Promise<Account | undefined> {
  const row = await one<AccountRow>(q, 'SELECT * FROM accounts WHERE id = $1', [id]);
  return row && toAccount(row);
}

export async function findAccountByName(q: Queryable, name: string): Promise<Account | undefined> {
  const row = await one<AccountRow>(q, 'SELECT * FROM accounts WHERE lower(name) = lower($1)', [name]);
  return row && toAccount(row);
}

export async function listAccounts(q: Queryable): Promise<Account[]> {
  const rows = await q.query<AccountRow>('SELECT * FROM accounts ORDER BY created_at, id');
  return rows.map(toAccount);
}

export async function countAccounts(q: Queryable): Promise<number> {
  const row = await one<{ n: number }>(q, 'SELECT count(*)::int AS n FROM accounts');
  return row?.n ?? 0;
}

export async function updateAccount(
  q: Queryable,
  id: string,
  patch: { plan?: Plan; features?: Feature[]; rateLimits?: Partial<Record<RateBucket, number>> },
  now: Date,
): Promise<Account | undefined> {
  const row = await one<AccountRow>(
    q,
    `UPDATE accounts SET
       plan = COALESCE($2, plan),
       features = COALESCE($3, features),
       rate_limits = COALESCE($4, rate_limits),
       updated_at = $5
     WHERE id = $1 RETURNING *`,
    [id, patch.plan ?? null, patch.features ?? null, patch.rateLimits ? JSON.stringify(patch.rateLimits) : null, now],
  );
  return row && toAccount(row);
}

/** Sets an account's API trial (both ends, wall time). */
export async function setApiTrial(q: Queryable, id: string, trial: ApiTrial, now: Date): Promise<Account | undefined> {
  const row = await one<AccountRow>(
    q,
    `UPDATE accounts SET api_trial_started_at = $2, api_trial_ends_at = $3, updated_at = $4
     WHERE id = $1 RETURNING *`,
    [id, trial.startedAt, trial.endsAt, now],
  );
  return row && toAccount(row);
}

/** The account marked as the operator's first account (never gated by the API trial), if any. */
export async function findFirstAccount(q: Queryable): Promise<Account | undefined> {
  const row = await one<AccountRow>(q, 'SELECT * FROM accounts WHERE first_account');
  return row && toAccount(row);
}

/**
 * Moves the first-account mark to the account with this id (at most one account holds it: the previous holder's is
 * cleared first). Answers the account marked and the previous holder's id (null when none, or when it was this one).
 */
export async function moveFirstAccount(q: Queryable, id: string, now: Date): Promise<{ account: Account; previous: string | null }> {
  const cleared = await q.query<{ id: string }>(
    'UPDATE accounts SET first_account = false, updated_at = $2 WHERE first_account AND id <> $1 RETURNING id',
    [id, now],
  );
  const row = await one<AccountRow>(
    q,
    `UPDATE accounts SET first_account = true,
       updated_at = CASE WHEN first_account THEN updated_at ELSE $2 END
     WHERE id = $1 RETURNING *`,
    [id, now],
  );
  return { account: toAccount(row!), previous: cleared[0]?.id ?? null };
}

/** The account, its row locked until the transaction ends (a change that reads before it writes). */
export async function lockAccount(q: Queryable, id: string): Promise<Account | undefined> {
  const row = await one<AccountRow>(q, 'SELECT * FROM accounts WHERE id = $1 FOR UPDATE', [id]);
  return row && toAccount(row);
}
