import { one, type Queryable } from '../db.js';

export async function getSetting<T>(q: Queryable, key: string): Promise<T | undefined> {
  const row = await one<{ value: T }>(q, 'SELECT value FROM settings WHERE key = $1', [key]);
  return row?.value;
}

export async function putSetting(q: Queryable, key: string, value: unknown, now: Date): Promise<void> {
  await q.query(
    `INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
    [key, JSON.stringify(value), now],
  );
}

/**
 * The setting's value, first storing `candidate` when there is none: several processes may start together,
 * the first insert wins and everyone reads the winner back.
 */
export async function settingOrInsert<T>(q: Queryable, key: string, candidate: T, now: Date): Promise<T> {
  await q.query('INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING', [
    key,
    JSON.stringify(candidate),
    now,
  ]);
  const stored = await getSetting<T>(q, key);
  if (stored === undefined) throw new Error(`the ${key} setting could not be read back`);
  return stored;
}
