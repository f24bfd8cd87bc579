import { one, type Queryable } from '../db.js';
import { changed, changeTag } from './changes.js';
import type { Parties } from '../schema.generated.js';

export interface Party {
  id: string;
  accountId: string;
  companyName: string;
  createdAt: Date;
  updatedAt: Date;
}

interface PartyRow extends Parties {}

const toParty = (r: PartyRow): Party => ({
  id: r.id,
  accountId: r.account_id,
  companyName: r.company_name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const PARTY_NAME_CONSTRAINT = 'parties_account_company_key';

export async function insertParty(q: Queryable, p: Party): Promise<Party> {
  const row = await one<PartyRow>(
    q,
    `INSERT INTO parties (id, account_id, company_name, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5) RETURNING *`,
    [p.id, p.accountId, p.companyName, p.createdAt, p.updatedAt],
  );
  changed(q, [changeTag.account(p.accountId)]);
  return toParty(row!);
}

export async function findParty(q: Queryable, accountId: string, id: string): Promise<Party | undefined> {
  const row = await one<PartyRow>(q, 'SELECT * FROM parties WHERE account_id = $1 AND id = $2', [accountId, id]);
  return row && toParty(row);
}

export async function findPartyByName(q: Queryable, accountId: string, companyName: string): Promise<Party | undefined> {
  const row = await one<PartyRow>(q, 'SELECT * FROM parties WHERE account_id = $1 AND lower(company_name) = lower($2)', [
    accountId,
    companyName,
  ]);
  return row && toParty(row);
}

export async function listParties(
  q: Queryable,
  accountId: string,
  page: { limit: number; offset: number },
): Promise<{ items: Party[]; total: number }> {
  const rows = await q.query<PartyRow>('SELECT * FROM parties WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3', [
    accountId,
    page.limit,
    page.offset,
  ]);
  const count = await one<{ n: number }>(q, 'SELECT count(*)::int AS n FROM parties WHERE account_id = $1', [accountId]);
  return { items: rows.map(toParty), total: count?.n ?? 0 };
}

export async function updatePartyName(
  q: Queryable,
  accountId: string,
  id: string,
  companyName: string,
  now: Date,
): Promise<Party | undefined> {
  const row = await one<PartyRow>(
    q,
    'UPDATE parties SET company_name = $3, updated_at = $4 WHERE account_id = $1 AND id = $2 RETURNING *',
    [accountId, id, companyName, now],
  );
  changed(q, [changeTag.account(accountId)]);
  return row && toParty(row);
}

export async function findPartiesByIds(q: Queryable, accountId: string, ids: string[]): Promise<Party[]> {
  const rows = await q.query<PartyRow>('SELECT * FROM parties WHERE account_id = $1 AND id = ANY($2::uuid[])', [accountId, ids]);
  return rows.map(toParty);
}
