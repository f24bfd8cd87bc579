import type { Queryable } from '../db.js';

/** Ends every unused owner-setup link of the account (a new one replaces them). Returns how many. */
export async function expireOwnerSetupLinks(q: Queryable, accountId: string, now: Date): Promise<number> {
  const rows = await q.query(
    `UPDATE one_time_tokens SET expires_at = $2
     WHERE account_id = $1 AND kind = 'owner_setup' AND used_at IS NULL AND expires_at > $2 RETURNING id`,
    [accountId, now],
  );
  return rows.length;
}
