// The OAuth authorization server's records (migration 0009), keyed by model name and the SHA-256 digest of the
// record's id. The service layer decides what the payload holds; this module only stores and finds it.
import { one, type Queryable } from '../db.js';
import type { OauthRecords } from '../schema.generated.js';

export interface OAuthRecord extends Pick<OauthRecords, 'consumed_at'> {
  payload: Record<string, unknown>;
}

export interface OAuthRecordInput {
  model: string;
  idSha256: Buffer;
  payload: Record<string, unknown>;
  grantId: string | null;
  uid: string | null;
  userCode: string | null;
  expiresAt: Date | null;
}

export async function upsertOAuthRecord(q: Queryable, r: OAuthRecordInput): Promise<void> {
  await q.query(
    `INSERT INTO oauth_records (model, id_sha256, payload, grant_id, uid, user_code, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (model, id_sha256) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
       uid = EXCLUDED.uid, user_code = EXCLUDED.user_code, expires_at = EXCLUDED.expires_at`,
    [r.model, r.idSha256, JSON.stringify(r.payload), r.grantId, r.uid, r.userCode, r.expiresAt],
  );
}

const LIVE = '(expires_at IS NULL OR expires_at > $3)';

export function findOAuthRecord(q: Queryable, model: string, idSha256: Buffer, now: Date): Promise<OAuthRecord | undefined> {
  return one<OAuthRecord>(q, `SELECT payload, consumed_at FROM oauth_records WHERE model = $1 AND id_sha256 = $2 AND ${LIVE}`, [
    model,
    idSha256,
    now,
  ]);
}

export function findOAuthRecordBy(
  q: Queryable,
  model: string,
  column: 'uid' | 'user_code',
  value: string,
  now: Date,
): Promise<OAuthRecord | undefined> {
  return one<OAuthRecord>(q, `SELECT payload, consumed_at FROM oauth_records WHERE model = $1 AND ${column} = $2 AND ${LIVE} LIMIT 1`, [
    model,
    value,
    now,
  ]);
}

export async function consumeOAuthRecord(q: Queryable, model: string, idSha256: Buffer, now: Date): Promise<void> {
  await q.query('UPDATE oauth_records SET consumed_at = $3 WHERE model = $1 AND id_sha256 = $2 AND consumed_at IS NULL', [
    model,
    idSha256,
    now,
  ]);
}

export async function deleteOAuthRecord(q: Queryable, model: string, idSha256: Buffer): Promise<void> {
  await q.query('DELETE FROM oauth_records WHERE model = $1 AND id_sha256 = $2', [model, idSha256]);
}

/** Every record of a grant (codes, access and refresh tokens): what revoking one of its tokens revokes. */
export async function deleteOAuthGrant(q: Queryable, grantId: string): Promise<void> {
  await q.query('DELETE FROM oauth_records WHERE grant_id = $1', [grantId]);
}

/** Deletes records that expired before `before`; returns how many. */
export async function pruneOAuthRecords(q: Queryable, before: Date): Promise<number> {
  const rows = await q.query('DELETE FROM oauth_records WHERE expires_at < $1 RETURNING 1 AS gone', [before]);
  return rows.length;
}
