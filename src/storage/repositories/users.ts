// Users, their sessions and one-time links. Tokens are looked up by the SHA-256 digest of the presented value.
import { one, type Queryable } from '../db.js';
import type { EmailVerifications, OneTimeTokens, Sessions, Users } from '../schema.generated.js';

export type Role = 'owner' | 'member';
export type OneTimeKind = 'owner_setup' | 'invite' | 'password_reset';

export interface UserRow extends Users {
  role: Role;
  /** Null while a self-serve sign-up waits for its e-mail address to be confirmed. */
  email_verified_at: Users['email_verified_at'];
}

export interface SessionRow extends Omit<Sessions, 'token_sha256'> {}

export interface OneTimeTokenRow extends Omit<OneTimeTokens, 'token_sha256'> {
  kind: OneTimeKind;
  role: Role | null;
}

export const USER_EMAIL_CONSTRAINT = 'users_email_key';

/**
 * A new user; verified at creation unless `email_verified_at` is null (a self-serve sign-up waiting for its
 * e-mail): owner setup and invitation links are issued by the operator or an owner.
 */
export async function insertUser(
  q: Queryable,
  u: Omit<UserRow, 'last_sign_in_at' | 'email_verified_at'> & { email_verified_at?: Date | null },
): Promise<UserRow> {
  const row = await one<UserRow>(
    q,
    `INSERT INTO users (id, account_id, email, password_hash, role, created_at, updated_at, email_verified_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
    [
      u.id,
      u.account_id,
      u.email,
      u.password_hash,
      u.role,
      u.created_at,
      u.updated_at,
      u.email_verified_at === undefined ? u.created_at : u.email_verified_at,
    ],
  );
  return row!;
}

export async function findUserByEmail(q: Queryable, email: string): Promise<UserRow | undefined> {
  return one<UserRow>(q, 'SELECT * FROM users WHERE lower(email) = lower($1)', [email]);
}

export async function findUser(q: Queryable, accountId: string, id: string): Promise<UserRow | undefined> {
  return one<UserRow>(q, 'SELECT * FROM users WHERE account_id = $1 AND id = $2', [accountId, id]);
}

/** A user by id alone: for credentials that name their user (OAuth grants), never for a request's own account. */
export async function findUserById(q: Queryable, id: string): Promise<UserRow | undefined> {
  return one<UserRow>(q, 'SELECT * FROM users WHERE id = $1', [id]);
}

export async function listUsers(q: Queryable, accountId: string): Promise<UserRow[]> {
  return q.query<UserRow>('SELECT * FROM users WHERE account_id = $1 ORDER BY created_at, id', [accountId]);
}

export async function countOwners(q: Queryable, accountId: string): Promise<number> {
  return (
    (await one<{ n: number }>(q, "SELECT count(*)::int AS n FROM users WHERE account_id = $1 AND role = 'owner'", [accountId]))?.n ?? 0
  );
}

export async function deleteUser(q: Queryable, accountId: string, id: string): Promise<boolean> {
  return (await one(q, 'DELETE FROM users WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id])) !== undefined;
}

export async function setPassword(q: Queryable, id: string, passwordHash: string, now: Date): Promise<void> {
  await q.query('UPDATE users SET password_hash = $2, updated_at = $3 WHERE id = $1', [id, passwordHash, now]);
}

export async function noteSignIn(q: Queryable, id: string, now: Date): Promise<void> {
  await q.query('UPDATE users SET last_sign_in_at = $2 WHERE id = $1', [id, now]);
}

// ---------- sessions ----------

export async function insertSession(q: Queryable, s: SessionRow & { token_sha256: Buffer }): Promise<void> {
  await q.query('INSERT INTO sessions (id, token_sha256, user_id, csrf_token, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)', [
    s.id,
    s.token_sha256,
    s.user_id,
    s.csrf_token,
    s.created_at,
    s.expires_at,
  ]);
}

/** The live session with this token digest, with its user. */
export async function findSession(q: Queryable, digest: Buffer, now: Date): Promise<{ session: SessionRow; user: UserRow } | undefined> {
  const row = await one<SessionRow & { user: AsJson<UserRow> }>(
    q,
    `SELECT s.id, s.user_id, s.csrf_token, s.created_at, s.expires_at, to_jsonb(u) AS user
     FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_sha256 = $1 AND s.expires_at > $2`,
    [digest, now],
  );
  if (!row) return undefined;
  const { user, ...session } = row;
  return { session, user: reviveUser(user) };
}

/** A row as `to_jsonb` gives it: timestamps become ISO strings. */
type AsJson<R> = { [K in keyof R]: R[K] extends Date ? string : R[K] extends Date | null ? string | null : R[K] };

/** to_jsonb turns timestamps into strings: give the user row back its Dates. */
function reviveUser(u: AsJson<UserRow>): UserRow {
  const date = (v: string | null) => (v === null ? null : new Date(v));
  return {
    ...u,
    last_sign_in_at: date(u.last_sign_in_at),
    email_verified_at: date(u.email_verified_at),
    created_at: date(u.created_at)!,
    updated_at: date(u.updated_at)!,
  };
}

export async function deleteSession(q: Queryable, digest: Buffer): Promise<void> {
  await q.query('DELETE FROM sessions WHERE token_sha256 = $1', [digest]);
}

export async function deleteSessionsOf(q: Queryable, userId: string): Promise<void> {
  await q.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
}

// ---------- one-time links ----------

export async function insertOneTimeToken(q: Queryable, t: Omit<OneTimeTokenRow, 'used_at'> & { token_sha256: Buffer }): Promise<void> {
  await q.query(
    `INSERT INTO one_time_tokens (id, token_sha256, kind, account_id, user_id, email, role, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [t.id, t.token_sha256, t.kind, t.account_id, t.user_id, t.email, t.role, t.created_at, t.expires_at],
  );
}

/** An unused, unexpired link; `forUpdate` locks it so that it is used once even by two requests at once. */
export async function findOneTimeToken(q: Queryable, digest: Buffer, now: Date, forUpdate = false): Promise<OneTimeTokenRow | undefined> {
  return one<OneTimeTokenRow>(
    q,
    `SELECT * FROM one_time_tokens WHERE token_sha256 = $1 AND used_at IS NULL AND expires_at > $2${forUpdate ? ' FOR UPDATE' : ''}`,
    [digest, now],
  );
}

export async function useOneTimeToken(q: Queryable, id: string, now: Date): Promise<void> {
  await q.query('UPDATE one_time_tokens SET used_at = $2 WHERE id = $1', [id, now]);
}

// ---------- e-mail verification ----------

export interface EmailVerificationRow extends EmailVerifications {}

export async function insertEmailVerification(q: Queryable, v: Omit<EmailVerificationRow, 'used_at'>): Promise<void> {
  await q.query('INSERT INTO email_verifications (id, user_id, secret_sha256, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    v.id,
    v.user_id,
    v.secret_sha256,
    v.created_at,
    v.expires_at,
  ]);
}

/** A verification link by its id, locked so that it is used once even by two requests at once. */
export async function findEmailVerificationForUpdate(q: Queryable, id: string): Promise<EmailVerificationRow | undefined> {
  return one<EmailVerificationRow>(q, 'SELECT * FROM email_verifications WHERE id = $1 FOR UPDATE', [id]);
}

/** Ends every unused link of a user (a link was used, or a new one replaces them). */
export async function endEmailVerifications(q: Queryable, userId: string, now: Date): Promise<void> {
  await q.query('UPDATE email_verifications SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL', [userId, now]);
}

export async function markEmailVerified(q: Queryable, userId: string, now: Date): Promise<void> {
  await q.query('UPDATE users SET email_verified_at = COALESCE(email_verified_at, $2), updated_at = $2 WHERE id = $1', [userId, now]);
}

/**
 * Removes a sign-up that was never confirmed, with its account when no one else is in it (a new sign-up of the
 * same address takes its place).
 */
export async function deleteUnverifiedSignUp(q: Queryable, userId: string): Promise<void> {
  await q.query(
    `WITH gone AS (DELETE FROM users WHERE id = $1 AND email_verified_at IS NULL RETURNING account_id)
     DELETE FROM accounts a USING gone
     WHERE a.id = gone.account_id AND NOT EXISTS (SELECT 1 FROM users x WHERE x.account_id = a.id AND x.id <> $1)`,
    [userId],
  );
}

/**
 * Drops what no longer counts: verification links past their expiry, sign-ups never confirmed and made before
 * `unconfirmedBefore` (with their accounts when no one else is in them), addresses last signed in from before
 * `addressesBefore`. Returns how many rows went.
 */
export async function pruneUserRecords(q: Queryable, now: Date, unconfirmedBefore: Date, addressesBefore: Date): Promise<number> {
  const links = await q.query('DELETE FROM email_verifications WHERE expires_at < $1 RETURNING 1', [now]);
  const signUps = await q.query(
    `WITH gone AS (DELETE FROM users WHERE email_verified_at IS NULL AND created_at < $1 RETURNING id, account_id)
     DELETE FROM accounts a USING gone
     WHERE a.id = gone.account_id AND NOT EXISTS (SELECT 1 FROM users x WHERE x.account_id = a.id AND x.id NOT IN (SELECT id FROM gone))
     RETURNING 1`,
    [unconfirmedBefore],
  );
  const addresses = await q.query('DELETE FROM user_sign_in_addresses WHERE last_at < $1 RETURNING 1', [addressesBefore]);
  return links.length + signUps.length + addresses.length;
}

// ---------- addresses signed in from ----------

export async function noteSignInAddress(q: Queryable, userId: string, address: string, now: Date): Promise<void> {
  await q.query(
    `INSERT INTO user_sign_in_addresses (user_id, address, last_at) VALUES ($1, $2, $3)
     ON CONFLICT (user_id, address) DO UPDATE SET last_at = GREATEST(user_sign_in_addresses.last_at, EXCLUDED.last_at)`,
    [userId, address, now],
  );
}

/** Whether the user signed in successfully from `address` since `since`. */
export async function signedInFrom(q: Queryable, userId: string, address: string, since: Date): Promise<boolean> {
  return (
    (await one(q, 'SELECT 1 FROM user_sign_in_addresses WHERE user_id = $1 AND address = $2 AND last_at >= $3', [
      userId,
      address,
      since,
    ])) !== undefined
  );
}
