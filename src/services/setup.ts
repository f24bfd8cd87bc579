// First start: on an empty database, create the operator's account (unlimited, every feature), its
// first API key and the admin token. Runs under a transaction-scoped advisory lock so that several
// processes starting together against one server create exactly one account. The secrets are shown before the
// commit, so no crash can commit them unseen; and the operator can always issue a new admin token and owner link
// (`tidemark admin-token new`, `tidemark owner-link new`): access to the database is the proof of being the operator.
import type { Clock } from '../domain/clock.js';
import { TidemarkError } from '../domain/errors.js';
import { matchesDigest, randomToken, sha256 } from '../lib/secrets.js';
import type { Db, Queryable } from '../storage/db.js';
import { countAccounts, findAccountByName, listAccounts } from '../storage/repositories/accounts.js';
import { getSetting, putSetting } from '../storage/repositories/settings.js';
import { expireOwnerSetupLinks } from '../storage/repositories/setup.js';
import { countOwners } from '../storage/repositories/users.js';
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

export interface FirstStartHooks {
  /**
   * Shows the secrets, inside the transaction before it commits: a crash before the commit leaves nothing (the next
   * start creates and shows new ones), a crash after it has shown them. Throwing rolls the first start back.
   */
  announce?: (result: FirstStartResult) => void;
  /** Test seam: runs right after the commit (the crash-window test kills the process here). */
  afterCommit?: () => void;
}

export async function firstStartSetup(
  db: Db,
  accountsService: AccountService,
  clock: Clock,
  configuredAdminToken: string | undefined,
  users: Pick<UserService, 'issueToken'>,
  hooks: FirstStartHooks = {},
): Promise<FirstStartResult | null> {
  const result = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SETUP_LOCK]);
    if ((await countAccounts(tx)) > 0) return null;
    const account = await accountsService.create(tx, {
      name: 'operator',
      companyName: 'Operator',
      plan: 'unlimited',
      features: ALL_FEATURES,
      // Never gated by the API trial, whatever its plan becomes (domain/api-trial.ts).
      firstAccount: true,
    });
    const { token } = await accountsService.issueKey(tx, account.id, 'first start');
    const adminToken = configuredAdminToken ? null : await resetAdminToken(tx, clock);
    // The operator signs in to the web app as this account's owner once they have chosen a password.
    const ownerSetupToken = await users.issueToken(tx, 'owner_setup', { accountId: account.id, role: 'owner' });
    const created: FirstStartResult = { accountId: account.id, apiKey: token, adminToken, ownerSetupToken };
    hooks.announce?.(created);
    return created;
  });
  if (result) hooks.afterCommit?.();
  return result;
}

/**
 * A new admin token for an operator who lost theirs (the first start's print, say): replaces the stored one, which
 * stops working. Refused when TIDEMARK_ADMIN_TOKEN is set, since that one is then the admin token.
 */
export async function issueAdminToken(db: Db, clock: Clock, configuredAdminToken: string | undefined): Promise<string> {
  if (configuredAdminToken) {
    throw new TidemarkError(
      'conflict',
      'TIDEMARK_ADMIN_TOKEN is set, so it is the admin token and a stored one would not be used; change that setting instead',
    );
  }
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SETUP_LOCK]);
    // Before the first start there is nothing to recover, and the first start would replace it anyway.
    if ((await countAccounts(tx)) === 0) {
      throw new TidemarkError('conflict', 'The first start has not run yet: `tidemark start` creates the admin token and prints it');
    }
    return resetAdminToken(tx, clock);
  });
}

/**
 * A new one-time link (its token) that makes its user an owner of the account: the operator's first account unless
 * `accountName` names another. Earlier unused owner-setup links of the account stop working. Refused while the
 * account has an owner unless `addOwner` (an owner who lost their password gets a reset link instead).
 */
export async function issueOwnerSetupLink(
  db: Db,
  clock: Clock,
  users: Pick<UserService, 'issueToken'>,
  options: { accountName?: string; addOwner?: boolean } = {},
): Promise<{ accountName: string; token: string; expiredLinks: number }> {
  return db.transaction(async (tx) => {
    const account = options.accountName ? await findAccountByName(tx, options.accountName) : (await listAccounts(tx))[0];
    if (!account) {
      throw new TidemarkError(
        'not_found',
        options.accountName ? `No account named ${options.accountName}` : 'No account yet: the first start creates it (tidemark start)',
      );
    }
    const owners = await countOwners(tx, account.id);
    if (owners > 0 && !options.addOwner) {
      throw new TidemarkError(
        'conflict',
        `Account ${account.name} has ${owners === 1 ? 'an owner' : `${owners} owners`} already; an owner who lost their password gets a reset link (POST /admin/password_resets). Pass --add-owner to make another owner anyway`,
      );
    }
    const expiredLinks = await expireOwnerSetupLinks(tx, account.id, clock.now());
    const token = await users.issueToken(tx, 'owner_setup', { accountId: account.id, role: 'owner' });
    return { accountName: account.name, token, expiredLinks };
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
