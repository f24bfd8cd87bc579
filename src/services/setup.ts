// First start: on an empty database, create the operator's account (unlimited, every feature), its
// first API key and the admin token. Runs under a transaction-scoped advisory lock so that several
// processes starting together against one server create exactly one account.
import type { Clock } from '../domain/clock.js';
import { matchesDigest, randomToken, sha256 } from '../lib/secrets.js';
import type { Db, Queryable } from '../storage/db.js';
import { countAccounts } from '../storage/repositories/accounts.js';
import { getSetting, putSetting } from '../storage/repositories/settings.js';
import { ALL_FEATURES, digestToken, type AccountService } from './accounts.js';
import type { UserService } from './users.js';

const SETUP_LOCK = 7_310_552_002;
const ADMIN_TOKEN_SETTING = 'admin_token_sha256';

export interface FirstStartResult {
  accountId: string;
  apiKey: string;
  /** The token of the owner's one-time setup link (`<public url>/setup/<token>`). */
  ownerSetupToken: string;
  /** Null when the admin token comes from TIDEMARK_ADMIN_TOKEN (nothing to print). */
  adminToken: string | null;
}

export async function firstStartSetup(
  db: Db,
  accountsService: AccountService,
  clock: Clock,
  configuredAdminToken: string | undefined,
  users: Pick<UserService, 'issueToken'>,
): Promise<FirstStartResult | null> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SETUP_LOCK]);
    if ((await countAccounts(tx)) > 0) return null;
    const account = await accountsService.create(tx, {
      name: 'operator',
      companyName: 'Operator',
      plan: 'unlimited',
      features: ALL_FEATURES,
    });
    const { token } = await accountsService.issueKey(tx, account.id, 'first start');
    const adminToken = configuredAdminToken ? null : await resetAdminToken(tx, clock);
    // The operator signs in to the web app as this account's owner once they have chosen a password.
    const ownerSetupToken = await users.issueToken(tx, 'owner_setup', { accountId: account.id, role: 'owner' });
    return { accountId: account.id, apiKey: token, adminToken, ownerSetupToken };
  });
}

/** Generates and stores (hashed) a new admin token; returns it once. */
export async function resetAdminToken(q: Queryable, clock: Clock): Promise<string> {
  const token = randomToken('tma_');
  await putSetting(q, ADMIN_TOKEN_SETTING, digestToken(token), clock.now());
  return token;
}

/** Checks a presented admin token: the configured one if set, else the stored digest. Constant time. */
export async function verifyAdminToken(q: Queryable, presented: string, configured?: string): Promise<boolean> {
  if (configured) return matchesDigest(presented, sha256(configured));
  const stored = await getSetting<string>(q, ADMIN_TOKEN_SETTING);
  if (!stored) return false;
  return matchesDigest(presented, Buffer.from(stored, 'hex'));
}
