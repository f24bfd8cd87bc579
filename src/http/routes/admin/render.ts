// What the operator API under /admin (admin token) shares: how it renders accounts and keys (plain JSON). Its
// routes are the same operations as the `tidemark accounts|keys` commands, usable while the server holds the
// PGlite data directory.
import { z } from 'zod';
import { type Account, FEATURES, PLANS, RATE_BUCKETS } from '../../../domain/account.js';
import { API_ACCESS_STATES, type ApiAccess, accessState, MAX_TRIAL_DAYS } from '../../../domain/api-trial.js';
import type { MaskedKey } from '../../../services/accounts.js';
import { described, type ErrorStatus, errorResponses } from '../../schemas.js';

export const admin = { auth: 'admin' as const };
export const nameParam = z.object({ name: z.string().min(1) });
/** Days an API trial starts or is extended for. */
export const trialDays = z.number().int().min(1).max(MAX_TRIAL_DAYS).describe(`whole days, 1 to ${MAX_TRIAL_DAYS}`);

/** An instant as the operator API writes it: `toISOString`, with milliseconds. */
const at = z.iso.datetime();

/** An account as the operator API shows it (plain JSON). */
export const adminAccount = z.strictObject({
  id: z.string(),
  name: z.string(),
  company_name: z.string(),
  plan: z.enum(PLANS),
  features: z.array(z.enum(FEATURES)),
  rate_limits: z.partialRecord(z.enum(RATE_BUCKETS), z.number().int()).meta({ description: 'Per bucket, where it differs from the plan' }),
  api_trial: z
    .strictObject({ started_at: at, ends_at: at })
    .nullable()
    .meta({ description: 'The API trial (docs/api.md "Plans and the API trial"); null when the account never had one' }),
  api_access: z.enum(API_ACCESS_STATES).meta({
    description: 'Whether its API keys and MCP may read tracking data now: `trial_required` answers them 403 `api_trial_required`',
  }),
  first_account: z.boolean().meta({ description: "The operator's account made at the first start: never gated" }),
  created_at: at,
});

/** An API key as the operator API shows it (plain JSON, masked). */
export const adminKey = z.strictObject({
  id: z.string(),
  account_id: z.string(),
  name: z.string().nullable(),
  masked: z.string(),
  created_at: at,
  last_used_at: at.nullable(),
  revoked_at: at.nullable(),
});

/** `{data: …}` of the operator API (plain JSON, not a JSON:API document). */
export const adminData = <S extends z.ZodType>(data: S, description: string) => described(z.strictObject({ data }), description);

/**
 * The errors of an operator route: text PostgreSQL cannot store in the query (400, http/text-guard.ts), the admin
 * token missing or wrong (401), a server closing (503), and the route's own (no rate limit: the admin token is not
 * an account's).
 */
export const adminErrors = <const S extends ErrorStatus[]>(...statuses: S) => errorResponses(400, 401, 503, ...statuses);

export const renderAccount = (a: Account, access: ApiAccess): z.infer<typeof adminAccount> => ({
  id: a.id,
  name: a.name,
  company_name: a.companyName,
  plan: a.plan,
  features: a.features,
  rate_limits: a.rateLimits,
  api_trial: a.apiTrial ? { started_at: a.apiTrial.startedAt.toISOString(), ends_at: a.apiTrial.endsAt.toISOString() } : null,
  api_access: accessState(access),
  first_account: a.firstAccount,
  created_at: a.createdAt.toISOString(),
});

export const renderKey = (k: MaskedKey): z.infer<typeof adminKey> => ({
  id: k.id,
  account_id: k.accountId,
  name: k.name,
  masked: k.masked,
  created_at: k.createdAt.toISOString(),
  last_used_at: k.lastUsedAt?.toISOString() ?? null,
  revoked_at: k.revokedAt?.toISOString() ?? null,
});
