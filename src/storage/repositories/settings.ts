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
