// Accounts and API keys: creation, listing (masked), revocation, plan and feature changes.
// Used by the CLI, the /admin API, first-start setup and (later) sign-up.
import { FEATURES, applyFeatureChanges, type Account, type Feature, type Plan, type RateBucket } from '../domain/account.js';
import type { Clock } from '../domain/clock.js';
import { TidemarkError, notFound } from '../domain/errors.js';
import { isUuid, newId } from '../lib/ids.js';
import { maskToken, randomToken, sha256Hex } from '../lib/secrets.js';
import type { Queryable } from '../storage/db.js';
import * as accounts from '../storage/repositories/accounts.js';
import * as keys from '../storage/repositories/api-keys.js';
import { announceCredentialChange, type CredentialCache } from './credential-cache.js';

export const API_KEY_PREFIX = 'tm_';

export interface IssuedKey {
  key: keys.ApiKey;
  /** The full secret: shown once, never stored. */
  token: string;
}

export interface MaskedKey {
  id: string;
  accountId: string;
  name: string | null;
  masked: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export const maskKey = (k: keys.ApiKey): MaskedKey => ({
  id: k.id,
  accountId: k.accountId,
  name: k.name,
  masked: maskToken(k.prefix, k.last4),
  createdAt: k.createdAt,
  lastUsedAt: k.lastUsedAt,
  revokedAt: k.revokedAt,
});

export function digestToken(token: string): string {
  return sha256Hex(token);
}

/** How often a key's `last_used_at` is written while it is in use (the same as touchApiKey's own threshold). */
const KEY_TOUCH_INTERVAL_MS = 60_000;

export class AccountService {
  constructor(
    private readonly clock: Clock,
    /** Set in long-running processes (started by the API role); a CLI command reads the database each time. */
    private readonly cache: CredentialCache | null = null,
  ) {}

  async create(
    q: Queryable,
    input: { name: string; companyName?: string; plan: Plan; features?: Feature[]; firstAccount?: boolean },
  ): Promise<Account> {
    const name = input.name.trim();
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/.test(name)) {
      throw new TidemarkError('validation_failed', 'Account name must be 1-63 letters, digits, dots, dashes or underscores', {
        items: [{ detail: 'Account name must be 1-63 letters, digits, dots, dashes or underscores', pointer: '/name' }],
      });
    }
    if (await accounts.findAccountByName(q, name)) {
      throw new TidemarkError('conflict', `Account '${name}' already exists`, {
        items: [{ detail: `Account '${name}' already exists`, pointer: '/name', code: 'taken' }],
      });
    }
    const now = this.clock.now();
    return accounts.insertAccount(q, {
      id: newId(),
      name,
      companyName: input.companyName?.trim() || name,
      plan: input.plan,
      features: applyFeatureChanges([], input.features ?? [], []),
      rateLimits: {},
      apiTrial: null,
      firstAccount: input.firstAccount ?? false,
      createdAt: now,
      updatedAt: now,
    });
  }

  async get(q: Queryable, nameOrId: string): Promise<Account> {
    const byName = await accounts.findAccountByName(q, nameOrId);
    const found = byName ?? (isUuid(nameOrId) ? await accounts.findAccountById(q, nameOrId) : undefined);
    if (!found) throw notFound(`Account '${nameOrId}'`);
    return found;
  }

  list(q: Queryable): Promise<Account[]> {
    return accounts.listAccounts(q);
  }

  async update(
    q: Queryable,
    nameOrId: string,
    change: { plan?: Plan; enable?: Feature[]; disable?: Feature[]; rateLimits?: Partial<Record<RateBucket, number>> },
  ): Promise<Account> {
    const account = await this.get(q, nameOrId);
    const features =
      change.enable || change.disable ? applyFeatureChanges(account.features, change.enable ?? [], change.disable ?? []) : undefined;
    const rateLimits = change.rateLimits ? { ...account.rateLimits, ...change.rateLimits } : undefined;
    const updated = await accounts.updateAccount(q, account.id, { plan: change.plan, features, rateLimits }, this.clock.now());
    await announceCredentialChange(q, account.id);
    return updated!;
  }

  /**
   * The account and key behind a presented API key, or null. The key is looked up by its SHA-256
   * digest, so the database compares digests and no secret is ever compared byte by byte.
   */
  async authenticate(q: Queryable, token: string): Promise<{ account: Account; keyId: string } | null> {
    const digest = digestToken(token);
    const now = this.clock.now();
    const cached = this.cache?.get(digest);
    if (cached) {
      // last_used_at is kept to the minute: the write is skipped while this process touched the key recently.
      if (now.getTime() - cached.touchedAt >= KEY_TOUCH_INTERVAL_MS) {
        cached.touchedAt = now.getTime();
        await keys.touchApiKey(q, cached.keyId, now);
      }
      return { account: cached.account, keyId: cached.keyId };
    }
    const epoch = this.cache?.epoch() ?? 0;
    const key = await keys.findActiveKeyByDigest(q, digest);
    if (!key) return null;
    const account = await accounts.findAccountById(q, key.accountId);
    if (!account) return null;
    await keys.touchApiKey(q, key.id, now);
    this.cache?.set(digest, { account, keyId: key.id, touchedAt: now.getTime() }, epoch);
    return { account, keyId: key.id };
  }

  async issueKey(q: Queryable, accountId: string, name: string | null = null): Promise<IssuedKey> {
    const token = randomToken(API_KEY_PREFIX);
    const key = await keys.insertApiKey(
      q,
      {
        id: newId(),
        accountId,
        name,
        prefix: token.slice(0, API_KEY_PREFIX.length + 4),
        last4: token.slice(-4),
        createdAt: this.clock.now(),
        lastUsedAt: null,
        revokedAt: null,
      },
      digestToken(token),
    );
    return { key, token };
  }

  async listKeys(q: Queryable, accountId: string): Promise<MaskedKey[]> {
    return (await keys.listApiKeys(q, accountId)).map(maskKey);
  }

  async revokeKey(q: Queryable, id: string, accountId?: string): Promise<MaskedKey> {
    if (!isUuid(id)) throw notFound('API key');
    const key = await keys.revokeApiKey(q, id, this.clock.now(), accountId);
    if (!key) throw notFound('API key');
    await announceCredentialChange(q, key.accountId);
    return maskKey(key);
  }
}

/** All features: the operator's first account and `--features all`. */
export const ALL_FEATURES: Feature[] = [...FEATURES];
