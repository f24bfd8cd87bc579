// What the operator API under /admin (admin token) shares: how it renders accounts and keys (plain JSON). Its
// routes are the same operations as the `tidemark accounts|keys` commands, usable while the server holds the
// PGlite data directory.
import { z } from 'zod';
import type { Account } from '../../../domain/account.js';
import type { MaskedKey } from '../../../services/accounts.js';

export const admin = { auth: 'admin' as const };
export const nameParam = z.object({ name: z.string().min(1) });

export const renderAccount = (a: Account) => ({
  id: a.id,
  name: a.name,
  company_name: a.companyName,
  plan: a.plan,
  features: a.features,
  rate_limits: a.rateLimits,
  created_at: a.createdAt.toISOString(),
});

export const renderKey = (k: MaskedKey) => ({
  id: k.id,
  account_id: k.accountId,
  name: k.name,
  masked: k.masked,
  created_at: k.createdAt.toISOString(),
  last_used_at: k.lastUsedAt?.toISOString() ?? null,
  revoked_at: k.revokedAt?.toISOString() ?? null,
});
