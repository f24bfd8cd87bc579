import { one, type Queryable } from '../db.js';
import type { ApiKeys } from '../schema.generated.js';

export interface ApiKey {
  id: string;
  accountId: string;
  name: string | null;
  prefix: string;
  last4: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

interface ApiKeyRow
  extends Pick<ApiKeys, 'id' | 'account_id' | 'name' | 'prefix' | 'last4' | 'created_at' | 'last_used_at' | 'revoked_at'> {}

const toKey = (r: ApiKeyRow): ApiKey => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  prefix: r.prefix,
  last4: r.last4,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

export async function insertApiKey(q: Queryable, key: ApiKey, tokenSha256: string): Promise<ApiKey> {
  const row = await one<ApiKeyRow>(
    q,
    `INSERT INTO api_keys (id, account_id, name, prefix, last4, token_sha256, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
    [key.id, key.accountId, key.name, key.prefix, key.last4, tokenSha256, key.createdAt],
  );
  return toKey(row!);
}

/** The active key with this digest (the lookup is by digest, so no secret is ever compared). */
export async function findActiveKeyByDigest(q: Queryable, tokenSha256: string): Promise<(ApiKey & { tokenSha256: string }) | undefined> {
  const row = await one<ApiKeyRow & { token_sha256: string }>(q, 'SELECT * FROM api_keys WHERE token_sha256 = $1 AND revoked_at IS NULL', [
    tokenSha256,
  ]);
  return row && { ...toKey(row), tokenSha256: row.token_sha256 };
}

export async function listApiKeys(q: Queryable, accountId: string): Promise<ApiKey[]> {
  const rows = await q.query<ApiKeyRow>('SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at, id', [accountId]);
  return rows.map(toKey);
}

export async function findApiKey(q: Queryable, id: string): Promise<ApiKey | undefined> {
  const row = await one<ApiKeyRow>(q, 'SELECT * FROM api_keys WHERE id = $1', [id]);
  return row && toKey(row);
}

/** Revokes a key; scoped to an account when one is given. Returns the key, or undefined if not found. */
export async function revokeApiKey(q: Queryable, id: string, now: Date, accountId?: string): Promise<ApiKey | undefined> {
  const row = await one<ApiKeyRow>(
    q,
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2)
     WHERE id = $1 AND ($3::uuid IS NULL OR account_id = $3) RETURNING *`,
    [id, now, accountId ?? null],
  );
  return row && toKey(row);
}

/** Records use at most once a minute per key, so authentication does not write on every request. */
export async function touchApiKey(q: Queryable, id: string, now: Date): Promise<void> {
  await q.query(
    `UPDATE api_keys SET last_used_at = $2
     WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '60 seconds')`,
    [id, now],
  );
}
