// The `account` resource: the caller's own account (GET /v2/account), with its plan and API trial (extensions).
import type { Account } from '../domain/account.js';
import { type ApiAccess, accessState, refusalSentence } from '../domain/api-trial.js';
import { isoSeconds } from '../lib/dates.js';
import type { Resource } from './schemas.js';

export function renderAccount(account: Account, access: ApiAccess): Resource<'account'> {
  return {
    id: account.id,
    type: 'account',
    attributes: {
      company_name: account.companyName,
      name: account.name,
      plan: account.plan,
      trial_ends_at: isoSeconds(account.apiTrial?.endsAt),
      api_access: accessState(access),
      api_access_detail: access.allowed ? null : refusalSentence(access),
    },
    relationships: {},
    links: { self: '/v2/account' },
  };
}
