// meta.total of the account's lists: the counts kept by the triggers of migrations 0012 and 0015 when the list is not
// narrowed, else COUNT(*) (skipped when the page itself shows where the list ends).
import { one, type Queryable } from '../db.js';

export type CountedTable = 'shipments' | 'containers' | 'tracking_requests' | 'webhook_notifications';

/** How many rows of `table` the account has (the sum of its counter slots). */
export async function accountRowCount(q: Queryable, accountId: string, table: CountedTable): Promise<number> {
  const row = await one<{ n: number }>(q, `SELECT coalesce(sum(${table}), 0)::int AS n FROM account_row_counts WHERE account_id = $1`, [
    accountId,
  ]);
  return row?.n ?? 0;
}

/**
 * The total of a list page: the account's kept count when the list is not filtered; otherwise the page's own
 * end when it shows one (a short page that is the first or has rows), else `count()`.
 */
export async function listTotal(
  q: Queryable,
  accountId: string,
  table: CountedTable,
  list: { filtered: boolean; page: { limit: number; offset: number }; rows: number },
  count: () => Promise<number>,
): Promise<number> {
  if (!list.filtered) return accountRowCount(q, accountId, table);
  const { limit, offset } = list.page;
  if (list.rows < limit && (list.rows > 0 || offset === 0)) return offset + list.rows;
  return count();
}
